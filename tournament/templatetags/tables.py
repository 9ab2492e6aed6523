"""Small helpers for the scorekeeper's form: a seat's two fields, its player, the dealer."""

from typing import Any

from django import template

register = template.Library()


@register.simple_tag
def seat_fields(form: Any, seat: str) -> dict[str, Any]:
    """The bid and tricks fields of ``seat`` ("north"…) as ``{"bid": …, "tricks": …}``."""
    return {"bid": form[f"{seat}_bid"], "tricks": form[f"{seat}_tricks"]}


@register.simple_tag
def seat_name(sheet: dict[str, Any], title: str) -> str:
    return sheet["seats"].get(title, "")


@register.simple_tag
def dealer_for(sheet: dict[str, Any], number: Any) -> str:
    """Who deals hand ``number``: as recorded for a stored hand, else the next dealer."""
    for row in sheet["rows"]:
        if str(row.hand.number) == str(number):
            return row.dealer
    return sheet["next_dealer"]
