"""Small helpers for the scorekeeper's form: a seat's two fields, its player."""

from typing import Any

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from tournament.templatetags.wording import score

register = template.Library()


@register.simple_tag
def seat_fields(form: Any, seat: str) -> dict[str, Any]:
    """The bid and tricks fields of ``seat`` ("north"…) as ``{"bid": …, "tricks": …}``."""
    return {"bid": form[f"{seat}_bid"], "tricks": form[f"{seat}_tricks"]}


@register.simple_tag
def seat_name(sheet: dict[str, Any], title: str) -> str:
    return sheet["seats"].get(title, "")


@register.simple_tag
@register.filter
def points(value: int) -> str:
    """Points a hand scored: "+61", "0", "−60" (a true minus sign, as scores have)."""
    return f"+{value}" if value > 0 else score(value)


@register.simple_tag
def quick_field(field: Any) -> str:
    """A select or number input for ``field``, built in Python.

    The hand form renders eight of these on every post; Django's template-based widgets cost
    most of the page's time under load (see bench/table_load.py).
    """
    value = "" if field.value() is None else str(field.value())
    common = format_html(
        'name="{}" id="{}"{}', field.html_name, field.auto_id, mark_safe(' aria-invalid="true"') if field.errors else ""
    )
    choices = getattr(field.field, "choices", None)
    if choices is None:
        return format_html('<input type="number" {} value="{}" min="0" max="13" inputmode="numeric">', common, value)
    options = format_html_join(
        "", '<option value="{}"{}>{}</option>', ((v, mark_safe(" selected") if str(v) == value else "", label)
                                                 for v, label in choices)
    )  # fmt: skip
    return format_html("<select {}>{}</select>", common, options)
