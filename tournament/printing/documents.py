"""What prints, whatever the format: each document as a template and its contexts (chunks of
pages). Score sheets are :mod:`.sheets`; a format adds its own documents
(:meth:`tournament.formats.registry.EventFormat.documents`); :mod:`.catalog` lists them all, and
:mod:`.jobs` turns a document into a PDF."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scoring import RuleSet, Seat
from scoring.describe import Event, Section, handout, summary
from scoring.presets import find_preset, readings_of
from tournament.clubs.locale import format_money
from tournament.formats.registry import RulePart, format_of
from tournament.models import Payout, Prize, Round, Tournament, playing_name
from tournament.money.ledger import ledger, payment_entries, teams_with_balance, totals_by_method
from tournament.play.links import table_url
from tournament.printing import pdf
from tournament.standings.ranking import round_notes


@dataclass(frozen=True)
class Document:
    """A printable document: its file name, title, template and page contexts."""

    name: str
    title: str
    template: str
    contexts: list[dict[str, Any]]


def base_context(tournament: Tournament, title: str) -> dict[str, Any]:
    """What every document's pages show: the event, the title, the paper, the rules in a line."""
    return {
        "tournament": tournament,
        "title": title,
        "paper": tournament.paper_size,
        "rules_line": summary(tournament.rules),
        "footer": css_string(f"{tournament.name} · {title}"),
    }


def css_string(text: str) -> str:
    """``text`` as a quoted CSS string for the page footer's ``content``: every character but
    letters, digits and spaces escaped, so quotes and backslashes in a name print as typed."""
    return '"' + "".join(c if c.isalnum() or c == " " else f"\\{ord(c):x} " for c in text) + '"'


def in_parts(base: dict[str, Any], key: str, items: list[Any], most: int) -> list[dict[str, Any]]:
    """A document's contexts, ``items`` cut into chunks of at most ``most`` (each chunk's under
    ``key``), so that the worker renders a long one a chunk at a time and shows its progress. Each
    knows its ``part`` of ``parts``: the heading goes on the first, the closing notes on the last,
    and a document of several parts numbers its pages by part (each part is laid out alone)."""
    chunks = pdf.split(items, most)
    return [{**base, key: chunk, "part": n, "parts": len(chunks)} for n, chunk in enumerate(chunks, start=1)]


def table_tents(tournament: Tournament, base: str | None = None) -> Document:
    """A tent for every table of the event, printed once: a table's link never changes by round.
    A tent is a page; its QR code is made by the worker as it lays the page out."""
    tables = tournament.tables.order_by("number")
    urls = [(t.number, table_url(t, base)) for t in tables]
    tents = [{"table": number, "url": url, "qr": pdf.qr_image(url)} for number, url in urls]
    title = "Table tents"
    context = {**base_context(tournament, title), "round": None}
    return Document("table-tents", title, "print/tents.html",
                    in_parts(context, "tents", tents, pdf.chunk_size(len(tents))))  # fmt: skip


def movement_slips(round_: Round, base: str | None = None) -> Document:
    """A strip for every player: their table and seat this round, partner and opponents."""
    tournament = round_.tournament
    at: dict[int, dict[str, str]] = defaultdict(dict)
    for table, seat, name in round_.seatings.annotate(name=playing_name()).values_list("table__number", "seat", "name"):
        at[table][seat] = name
    slips = [
        {
            "name": seats[s],
            "table": table,
            "seat": s.label,
            "partner": seats[s.partner],
            "opponents": " & ".join(seats[o] for o in s.side.other.seats),
        }
        for table, seats in sorted(at.items())
        for s in Seat
    ]
    slips.sort(key=lambda slip: slip["name"].casefold())
    resting = sorted(round_.sit_outs.annotate(name=playing_name()).values_list("name", flat=True), key=str.casefold)
    slips += [{"name": name, "resting": True} for name in resting]  # after those who play
    played_in = format_of(tournament).round_words(round_)
    title = f"Movement slips, {played_in}"
    context = {**base_context(tournament, title), "played_in": played_in, "last_round": round_.is_last}
    return Document(f"movement-slips-round-{round_.number}", title, "print/slips.html",
                    in_parts(context, "slips", slips, pdf.CHUNK_ITEMS))  # fmt: skip


# --- whole-tournament documents ---------------------------------------------------------------------


def rule_handout(tournament: Tournament) -> Document:
    """The rules of play: the tournament's rule set with the format's own sections, then each part
    of the event played under a rule set of its own (a final), every part written from its rules."""
    event_format = format_of(tournament)
    main = tournament_part(tournament, f"{tournament.name}: rules of play", event_format.handout_sections(tournament))
    parts = [rules_part(part) for part in event_format.rule_parts(tournament)]
    parts = [main, *[part for part in parts if part["rules"] != tournament.rules]]
    return handout_document(tournament, "rules", "Rules of play", parts)


def tournament_part(tournament: Tournament, heading: str, extra: Sequence[Section] = ()) -> dict[str, Any]:
    """A part of the handout for the games played under the tournament's rules, with ``extra`` sections."""
    readings = readings_of(tournament.preset, tournament.rule_overrides)
    sections = handout(tournament.rules, readings=readings, event=handout_event(tournament), extra=extra)
    return {"heading": heading, "lead": "", "rules": tournament.rules,
            "preset_title": tournament.get_preset_display(), "sections": sections}  # fmt: skip


def rules_part(part: RulePart, extra: Sequence[Section] = (), *, alone: bool = False) -> dict[str, Any]:
    """A part of the handout for games played under a preset of their own (``part``), with the
    ``extra`` sections its format writes for it; ``alone``: the handout's only part (no rules
    before it for it to replace)."""
    rules: RuleSet = part.rules
    preset_title = find_preset(part.preset).title
    lead = f"{part.title} is played under its own rule set: for its games, this part replaces the rules before it."
    return {
        "heading": f"{part.title}: rules of play",
        "lead": "" if alone else lead,
        "rules": rules,
        "preset_title": preset_title,
        "sections": handout(rules, readings=readings_of(part.preset, json.loads(part.overrides)), extra=extra),
    }


def handout_document(tournament: Tournament, name: str, title: str, parts: list[dict[str, Any]]) -> Document:
    """A rule handout of ``parts`` (each with its heading, rule set and sections), each part from a new page."""
    for part in parts:
        part["rules_line"] = summary(part["rules"])
    return Document(name, title, "print/handout.html", [{**base_context(tournament, title), "parts": parts}])


def handout_event(tournament: Tournament) -> Event:
    """What the rule handout says about the event: the rounds it plays, when its format plays a set
    number of them, and its prizes, places first."""
    event_format = format_of(tournament)
    rounds = tournament.rounds_planned if "rounds_planned" in event_format.uses else None
    # An event not saved yet (a preview) has no prizes to ask for.
    prizes = (
        tuple(
            _prize_words(p, tournament.club.currency) for p in tournament.prizes.order_by("-kind", "place", "division")
        )
        if tournament.pk
        else ()
    )
    return Event(rounds=rounds, round_name=event_format.round_name.lower(), prizes=prizes)


def _prize_words(prize: Prize, currency: str) -> str:
    """A prize as the handout lists it, in its club's ``currency``: "1st place $100.00", "High
    Women 25% of the fees"."""
    if prize.amount is not None:
        return f"{prize} {format_money(prize.amount, currency)}"
    return f"{prize} {prize.share_percent.normalize():f}% of the fees"


def standings(tournament: Tournament) -> Document:
    rows = format_of(tournament).standings(tournament)
    rounds = sorted({s.round for row in rows for s in row.standing.rounds if s is not None})
    title = "Standings"
    context = {
        **base_context(tournament, title),
        "rounds": rounds,
        "notes": round_notes(row.standing.rounds for row in rows),
        "tiebreak": format_of(tournament).places_words(tournament),
        "entrant_word": "Player" if format_of(tournament).entrants_are_players(tournament) else "Team",
        "prize_divisions": tournament.prize_divisions(),
    }
    return Document("standings", title, "print/standings.html", in_parts(context, "rows", rows, pdf.CHUNK_ITEMS))


def payout_sheet(tournament: Tournament) -> Document:
    payouts = Payout.objects.filter(prize__tournament=tournament).select_related("prize", "player", "team")
    title = "Prize payouts"
    context = {**base_context(tournament, title), "payouts": list(payouts.prefetch_related("team__players")),
               "ledger": ledger(tournament)}  # fmt: skip
    return Document("payouts", title, "print/payouts.html", [context])


def fee_ledger(tournament: Tournament) -> Document:
    title = "Entry fees"
    context = {**base_context(tournament, title), "teams": teams_with_balance(tournament), "ledger": ledger(tournament),
               "fee_basis": format_of(tournament).fee_basis(tournament),
               "entries": payment_entries(tournament), "by_method": totals_by_method(tournament)}  # fmt: skip
    return Document("fee-ledger", title, "print/ledger.html", [context])
