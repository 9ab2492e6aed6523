"""Small helpers for the scorekeeper's page: a seat's two fields, its player, a hand's row."""

from html import escape
from typing import Any

from django import template
from django.template.backends.utils import csrf_input
from django.urls import reverse
from django.utils.safestring import mark_safe

from scoring import Seat
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
    the save's time. It shows each seat's bid and tricks under the points, so the table can
    check a hand played long ago. The last hand (``last_hand``, its id) can be corrected or
    disputed while its round runs; an earlier one only reported to the director as a mistake,
    with what is wrong. A misdeal shares its hand's number with the deal after it, and once
    dealt again offers nothing (its number names that deal). ``oob`` has htmx swap the row in by
    its id."""
    game, hand = context["game"], row.hand
    number, request = hand.number, context["request"]
    line = row.points_line if row.result else f"Misdeal: {hand.get_misdeal_display().lower()}; dealt again"
    running = game.round.is_running
    last = hand.pk == context.get("last_hand")
    token = "" if request.htmx else csrf_input(request)  # htmx sends the token from <body hx-headers>
    actions = []
    if last and running:
        actions.append(
            f'<a class="button small" id="correct-{number}" href="?correct={number}" hx-get="?correct={number}"'
            ' hx-target="#panel" hx-swap="outerHTML">Correct</a>'
        )
    if hand.disputed:
        actions.append(f'<span class="bad">Disputed: {escape(hand.dispute_note)}</span>')
    elif last:
        url = escape(reverse("table:dispute", args=[game.table.token, game.round.number, number]))
        actions.append(
            f'<details id="to-director-{number}"><summary>Dispute</summary><form method="post" action="{url}"'
            f' hx-post="{url}" hx-target="#panel" hx-swap="outerHTML">{token}'
            f'<input type="hidden" name="deal" value="{hand.deal}"><input name="note" maxlength="300"'
            f' placeholder="What is disputed?" aria-label="What is disputed about hand {number}">'
            f'<button type="submit" class="danger">Flag hand {number}</button></form></details>'
        )
    elif running and not hand.misdeal:
        actions.append(report_form(context, number))
    disputed = "disputed" if hand.disputed else ""
    swap = ' hx-swap-oob="true"' if oob else ""
    # The phone's key for the attempt stored: a hand still waiting on the phone with it is stored.
    key = f' data-key="{escape(hand.entry_key)}"' if hand.entry_key else ""
    return mark_safe(  # every value in it is escaped or a number
        f'<li id="{hand.row_id}" class="{disputed}"{key}{swap}><div class="hand-line"><strong>{number}</strong>'
        f"<span>{escape(line)}</span></div>{_seats_table(row) if row.result else ''}"
        f'<div class="hand-actions">{"".join(actions)}</div></li>'
    )


@register.simple_tag(takes_context=True)
def report_form(context: template.Context, number: int, oob: bool = False) -> str:
    """Earlier hand ``number``'s "Report a mistake" form, at the context's ``game``: open, with
    the note typed and why it was refused, when the context's ``refused_report`` (``{"number",
    "note", "error"}``) is this hand's. ``oob`` has htmx swap it in for the hand's Dispute form,
    once the hand is no longer the last."""
    game, request, refused = context["game"], context["request"], context.get("refused_report")
    url = escape(reverse("table:mistake", args=[game.table.token, game.round.number, number]))
    token = "" if request.htmx else csrf_input(request)
    field, note, error, opened = f"mistake-{number}", "", "", ""
    if refused and refused["number"] == number:
        note, opened = escape(refused["note"]), " open"
        error = f'<p class="error" id="{field}-error">{escape(refused["error"])}</p>'
    invalid = f' aria-invalid="true" aria-describedby="{field}-error"' if error else ""
    swap = ' hx-swap-oob="true"' if oob else ""
    return mark_safe(  # every value in it is escaped or a number
        f'<details class="report" id="to-director-{number}"{opened}{swap}><summary>Report a mistake</summary>'
        f'<form method="post" action="{url}" hx-post="{url}" hx-target="#panel" hx-swap="outerHTML">{token}'
        f'<label for="{field}">What is wrong with hand {number}?</label>'
        f'<input id="{field}" name="note" value="{note}" maxlength="300" required'
        f' placeholder="e.g. East bid 4, not 3"{invalid}>{error}'
        '<p class="muted">Only the director can change an earlier hand: they check it with your table.</p>'
        f'<button type="submit">Send hand {number} to the director</button></form></details>'
    )


def _seats_table(row: Any) -> str:
    """Each seat's bid and tricks in a hand (``row``, a scored hand's), seat under seat."""
    tricks = (getattr(row.hand, f"{seat.prefix}_tricks") for seat in Seat)
    cells = (
        f'<tr><th scope="row">{title}</th>'
        + "".join(f"<td>{seat.value} {escape(str(value))}</td>" for seat, value in zip(Seat, values, strict=True))
        + "</tr>"
        for title, values in (("Bids", row.bids), ("Tricks", tricks))
    )
    return f'<table class="hand-seats">{"".join(cells)}</table>'
