"""Small helpers for the scorekeeper's page: a seat's two fields, its player, a hand's row."""

from html import escape
from typing import Any

from django import template
from django.template.backends.utils import csrf_input
from django.urls import reverse
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


@register.simple_tag(takes_context=True)
def hand_row(context: template.Context, row: Any, oob: bool = False) -> str:
    """The scorekeeper's list item for one hand (``row``, a :class:`~tournament.play.board.SheetRow`
    of the context's ``game``), built in Python like :func:`quick_field`: every hand on the page
    has one, and a save sends its new one back, where the template's row took a sixteenth of
    the save's time. The last hand (``last_hand``, its id) can be corrected while its round runs;
    ``oob`` has htmx swap the row in by its id. A misdeal shares its hand's number with the deal after it."""
    game, hand = context["game"], row.hand
    number, request = hand.number, context["request"]
    line = row.points_line if row.result else f"Misdeal: {hand.get_misdeal_display().lower()}; dealt again"
    actions = []
    if hand.pk == context.get("last_hand") and game.round.is_running:
        actions.append(
            f'<a class="button small" id="correct-{number}" href="?correct={number}" hx-get="?correct={number}"'
            ' hx-target="#panel" hx-swap="outerHTML">Correct</a>'
        )
    redealt = hand.misdeal and hand.pk != context.get("last_hand")  # its number names the deal after it
    if hand.disputed:
        actions.append(f'<span class="bad">Disputed: {escape(hand.dispute_note)}</span>')
    elif not redealt:
        url = escape(reverse("table:dispute", args=[game.table.token, game.round.number, number]))
        token = "" if request.htmx else csrf_input(request)  # htmx sends the token from <body hx-headers>
        actions.append(
            f'<details><summary>Dispute</summary><form method="post" action="{url}" hx-post="{url}"'
            f' hx-target="#panel" hx-swap="outerHTML">{token}<input name="note" maxlength="300"'
            f' placeholder="What is disputed?" aria-label="What is disputed about hand {number}">'
            f'<button type="submit" class="danger">Flag hand {number}</button></form></details>'
        )
    disputed = "disputed" if hand.disputed else ""
    swap = ' hx-swap-oob="true"' if oob else ""
    # The phone's key for the attempt stored: a hand still waiting on the phone with it is stored.
    key = f' data-key="{escape(hand.entry_key)}"' if hand.entry_key else ""
    return mark_safe(  # every value in it is escaped or a number
        f'<li id="{hand.row_id}" class="{disputed}"{key}{swap}><div class="hand-line"><strong>{number}</strong>'
        f'<span>{escape(line)}</span></div><div class="hand-actions">{"".join(actions)}</div></li>'
    )
