"""Small helpers for the scorekeeper's form: a seat's two fields, its player."""

from typing import Any

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

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
def signed(value: int, kind: str = "points") -> str:
    """A score with a true minus sign ("−60", never "-60" after a dash); points won also get a "+"."""
    if value < 0:
        return f"\u2212{-value}"
    return f"+{value}" if kind == "points" and value > 0 else str(value)


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
