"""Small helpers for the scorekeeper's form: a seat's two fields, its player."""

from html import escape
from typing import Any

from django import template
from django.utils.safestring import mark_safe

from scoring.words import signed

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
    return signed(value)


@register.simple_tag
def quick_field(field: Any) -> str:
    """A select or number input for ``field``, built in Python.

    The hand form renders eight of these on every post; Django's template-based widgets (and
    even ``format_html`` for each of a select's options) cost most of the answer's time under
    load (see bench/table_load.py).
    """
    value = "" if field.value() is None else str(field.value())
    invalid = ' aria-invalid="true"' if field.errors else ""
    common = f'name="{escape(field.html_name)}" id="{escape(field.auto_id)}"{invalid}'
    choices = getattr(field.field, "choices", None)
    if choices is None:
        return mark_safe(f'<input type="number" {common} value="{escape(value)}" min="0" max="13" inputmode="numeric">')
    options = "".join(
        f'<option value="{escape(str(v))}"{" selected" if str(v) == value else ""}>{escape(str(label))}</option>'
        for v, label in choices
    )
    return mark_safe(f"<select {common}>{options}</select>")  # every value in it is escaped


@register.simple_tag
def hidden_field(field: Any) -> str:
    """A hidden input for ``field``, built in Python like :func:`quick_field`."""
    value = "" if field.value() is None else str(field.value())
    return mark_safe(
        f'<input type="hidden" name="{escape(field.html_name)}" value="{escape(value)}" id="{escape(field.auto_id)}">'
    )
