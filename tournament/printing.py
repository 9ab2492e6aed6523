"""What prints: each document as a template and its contexts (chunks of pages), and the jobs
that turn them into PDFs.

A document's HTML is hashed; a PDF already made from the same HTML is served again without
rendering. A document of one chunk renders during the request; a larger one renders in a
background thread (its chunks in worker processes) while the page shows its progress.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import close_old_connections, connection, transaction
from django.utils import timezone

from scoring.describe import handout, summary
from tournament import pdf
from tournament.formats import format_of
from tournament.knockout_reports import bracket_view
from tournament.links import qr_svg, table_url
from tournament.models import Payout, PrintJob, Round, Seat, Tournament
from tournament.reports import ledger, teams_with_balance

log = logging.getLogger(__name__)
SEAT_TITLES = dict(Seat.choices)


@dataclass(frozen=True)
class Document:
    """A printable document: its file name, title, template and page contexts."""

    name: str
    title: str
    template: str
    contexts: list[dict[str, Any]]


def _base(tournament: Tournament, title: str) -> dict[str, Any]:
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


# --- score sheets, tents, slips (per round) ---------------------------------------------------------


@dataclass(frozen=True)
class SheetRow:
    number: int
    cells: list[str]


def _rows_needed(tournament: Tournament, entered: int) -> int:
    rules = tournament.rules
    if rules.hands_per_round:
        return max(entered + 1, rules.hands_per_round + 2)  # room for a misdeal and a tie-break hand
    return max(entered + 2, 18)


def _sheet(
    tournament: Tournament, game: Any, seats: dict[str, str], hands: list[Any], base: str | None = None
) -> dict[str, Any]:
    rules = tournament.rules
    scored = iter(game.replay(rules, hands).hands) if game else iter(())
    rows = []
    for hand in hands:
        result = None if hand.misdeal else next(scored)
        if result is None:
            cells = ["misdeal"] + [""] * 13
        else:
            cells = [
                *_side_cells(hand, "north", "south", result.teams[0]),
                *_side_cells(hand, "east", "west", result.teams[1]),
            ]
        rows.append(SheetRow(hand.number, [str(c) for c in cells]))
    for number in range(len(hands) + 1, _rows_needed(tournament, len(hands)) + 1):
        rows.append(SheetRow(number, [""] * 14))
    url = table_url(game.table, base) if game else ""
    return {
        "table": game.table.number if game else None,
        "seats": {SEAT_TITLES[s]: seats.get(s, "") for s in Seat.values},
        "rows": rows,
        "url": url,
        "qr": qr_svg(url, scale=3) if url else "",
        "show_table_talk": bool(rules.table_talk_tricks),
    }


def _side_cells(hand: Any, first: str, second: str, side: Any) -> list[object]:
    """A side's cells on the sheet: both bids, both players' tricks, points, bags, total."""
    bids = [getattr(hand, f"get_{seat}_bid_display")() for seat in (first, second)]
    tricks = [getattr(hand, f"{seat}_tricks") for seat in (first, second)]
    return [*bids, *tricks, side.points, side.bags, side.score]


def score_sheets(round_: Round, base: str | None = None) -> Document:
    tournament = round_.tournament
    seats: dict[int, dict[str, str]] = defaultdict(dict)
    for table_id, seat, name in round_.seatings.values_list("table_id", "seat", "player__name"):
        seats[table_id][seat] = name
    hands: dict[int, list[Any]] = defaultdict(list)
    for hand in _hands_of(round_):
        hands[hand.game_id].append(hand)
    games = list(round_.games.select_related("table", "round__tournament").order_by("table__number"))
    sheets = [_sheet(tournament, g, seats[g.table_id], hands[g.pk], base) for g in games]
    title = f"Score sheets, round {round_.number}"
    base = {**_base(tournament, title), "round": round_}
    size = pdf.chunk_size(len(sheets))
    chunks = [sheets[i : i + size] for i in range(0, len(sheets), size)] or [[]]
    return Document(f"score-sheets-round-{round_.number}", title, "print/score_sheets.html",
                    [{**base, "sheets": chunk} for chunk in chunks])  # fmt: skip


def _hands_of(round_: Round) -> list[Any]:
    from tournament.models import Hand

    return list(Hand.objects.filter(game__round=round_).order_by("game_id", "number"))


def blank_sheet(tournament: Tournament) -> Document:
    title = "Score sheet (blank)"
    sheet = _sheet(tournament, None, {}, [])
    return Document("score-sheet-blank", title, "print/score_sheets.html",
                    [{**_base(tournament, title), "round": None, "sheets": [sheet]}])  # fmt: skip


def table_tents(tournament: Tournament, base: str | None = None) -> Document:
    """A tent for every table of the event, printed once: a table's link never changes by round."""
    tables = tournament.tables.order_by("number")
    urls = [(t.number, table_url(t, base)) for t in tables]
    tents = [{"table": number, "url": url, "qr": qr_svg(url, scale=6)} for number, url in urls]
    title = "Table tents"
    return Document("table-tents", title, "print/tents.html",
                    [{**_base(tournament, title), "round": None, "tents": tents}])  # fmt: skip


def movement_slips(round_: Round, base: str | None = None) -> Document:
    """A strip for every player: their table and seat this round, partner and opponents."""
    tournament = round_.tournament
    at: dict[int, dict[str, str]] = defaultdict(dict)
    for table, seat, name in round_.seatings.values_list("table__number", "seat", "player__name"):
        at[table][seat] = name
    partner = {"N": "S", "S": "N", "E": "W", "W": "E"}
    opponents = {"N": "EW", "S": "EW", "E": "NS", "W": "NS"}
    slips = [
        {
            "name": seats[s],
            "table": table,
            "seat": SEAT_TITLES[s],
            "partner": seats[partner[s]],
            "opponents": " & ".join(seats[o] for o in opponents[s]),
        }
        for table, seats in sorted(at.items())
        for s in Seat.values
    ]
    slips.sort(key=lambda slip: slip["name"].casefold())
    resting = sorted(round_.sit_outs.values_list("player__name", flat=True), key=str.casefold)
    title = f"Movement slips, round {round_.number}"
    return Document(f"movement-slips-round-{round_.number}", title, "print/slips.html",
                    [{**_base(tournament, title), "round": round_, "slips": slips, "resting": resting}])  # fmt: skip


# --- whole-tournament documents ---------------------------------------------------------------------


def rule_handout(tournament: Tournament) -> Document:
    movement = {
        Tournament.Format.PROGRESSIVE_SPLIT: (
            "After each round the side with more points at each table moves up one table (table 2's winners "
            "to table 1, and so on); the winners at table 1 stay. The losers at table 1 go to the last table. "
            "Partners split: each newcomer partners one of the two players already there. With an odd number "
            "of couples, table 1's losers sit out a round and come back at the last table. Each player is "
            "credited with their side's score for the round; the highest total wins."
        ),
        Tournament.Format.PROGRESSIVE_FIXED: (
            "Partners stay together all evening. After each game the winning team moves up one table and the "
            "winners at table 1 stay; the losers at table 1 go to the last table. With an odd number of "
            "teams, table 1's losers sit out a round. Teams are ranked on their total points."
        ),
    }[tournament.format]
    title = "Rules of play"
    context = {**_base(tournament, title), "sections": handout(tournament.rules, movement=movement),
               "preset_title": tournament.get_preset_display()}  # fmt: skip
    return Document("rules", title, "print/handout.html", [context])


def standings(tournament: Tournament) -> Document:
    rows = format_of(tournament).standings(tournament)
    rounds = sorted({s.round for row in rows for s in row.standing.rounds if s is not None})
    title = "Standings"
    context = {
        **_base(tournament, title),
        "rows": rows,
        "rounds": rounds,
        "tiebreak": format_of(tournament).places_text,
    }
    return Document("standings", title, "print/standings.html", [context])


def payout_sheet(tournament: Tournament) -> Document:
    payouts = Payout.objects.filter(prize__tournament=tournament).select_related("prize", "player", "team")
    title = "Prize payouts"
    context = {**_base(tournament, title), "payouts": list(payouts.prefetch_related("team__players")),
               "ledger": ledger(tournament)}  # fmt: skip
    return Document("payouts", title, "print/payouts.html", [context])


def fee_ledger(tournament: Tournament) -> Document:
    title = "Entry fees"
    context = {**_base(tournament, title), "teams": teams_with_balance(tournament), "ledger": ledger(tournament)}
    return Document("fee-ledger", title, "print/ledger.html", [context])


# --- knockouts --------------------------------------------------------------------------------------

BRACKET_PARTS = (("", ("winners", "third-place", "final")), ("Losers' bracket", ("losers",)))


def bracket_sheet(tournament: Tournament) -> Document:
    """The bracket on one landscape page (up to 32 teams): winners' side with the finals, then
    the losers' bracket of a double elimination."""
    view = bracket_view(tournament)
    parts = []
    for title, stages in BRACKET_PARTS:
        columns = [c for c in view.columns if c.cards and c.cards[0].match.stage in stages]
        if columns:
            parts.append({"title": title if view.double else "", "columns": columns})
    widest = max((len(p["columns"]) for p in parts), default=1)
    title = "Bracket"
    context = {**_base(tournament, title), "view": view, "parts": parts, "box_mm": min(48, 240 // widest - 3)}
    return Document("bracket", title, "knockout/print_bracket.html", [context])


def match_sheets(tournament: Tournament, base: str | None = None) -> Document:
    """A score sheet for every match whose teams are known and that is not over, with its table's
    QR code and the time-limit rule."""
    view = bracket_view(tournament)
    sheets = []
    for card in [*view.playing, *view.ready]:
        rules = tournament.final_rules if card.match.stage == "final" else tournament.rules
        table = card.match.table
        sheets.append({
            "match": card.match, "home": card.home, "away": card.away, "rules_line": summary(rules),
            "clock_rule": time_rule(rules.time_limit_minutes, card.match.best_of),
            "qr": qr_svg(table_url(table, base)) if table else "",
        })  # fmt: skip
    title = "Match score sheets"
    context = {**_base(tournament, title), "sheets": sheets, "rows": range(1, 19), "cells": range(11)}
    return Document("match-sheets", title, "knockout/print_match_sheets.html", [context])


def time_rule(minutes: int | None, best_of: int) -> str:
    """The clock rule in our words (rule text 004, as settled), or "" without a time limit."""
    if not minutes:
        return ""
    text = (
        f"The match has {minutes} minutes. When the director calls time, the hand being played is finished; "
        "then the game ends and the higher score wins it. If the scores are equal, one more hand is played, "
        "and again until one side is ahead."
    )
    if best_of > 1:
        text += (
            " Games not yet started when time is called are not played: more games won takes the match, "
            "then more points."
        )
    return text


TOURNAMENT_DOCUMENTS: dict[str, Callable[[Tournament], Document]] = {
    "rules": rule_handout,
    "standings": standings,
    "payouts": payout_sheet,
    "fee-ledger": fee_ledger,
    "blank-sheet": blank_sheet,
    "bracket": bracket_sheet,
}
ROUND_DOCUMENTS: dict[str, Callable[[Round, str | None], Document]] = {
    "score-sheets": score_sheets,
    "movement-slips": movement_slips,
}


# --- jobs -------------------------------------------------------------------------------------------


def produce(tournament: Tournament, document: Document, *, background: bool = True) -> PrintJob:
    """The job for ``document``: an existing one for the same HTML, else a new one, rendered now
    (one chunk, or ``background`` off) or in a background thread."""
    chunks = pdf.render_html_chunks(document.template, document.contexts)
    key = hashlib.sha256("\x00".join([str(tournament.pk), document.template, *chunks]).encode()).hexdigest()
    job = PrintJob.objects.filter(key=key).first()
    if job and job.status != PrintJob.Status.FAILED and not _stale(job):
        return job
    with transaction.atomic():
        PrintJob.objects.filter(key=key).delete()
        job, created = PrintJob.objects.get_or_create(
            key=key,
            defaults={"tournament": tournament, "document": document.name, "title": document.title,
                      "chunks_total": len(chunks)},
        )  # fmt: skip
    if not created:
        return job  # a second request for the same document got here first
    if len(chunks) == 1 or not background:
        _render(job.pk, chunks)
        job.refresh_from_db()
    else:
        threading.Thread(target=_render_in_thread, args=(job.pk, chunks), daemon=True).start()
    return job


def _stale(job: PrintJob) -> bool:
    """A job left running by a process that stopped (a restart mid-render)."""
    return job.status == PrintJob.Status.RUNNING and (timezone.now() - job.created_at).total_seconds() > 600


def _render(job_id: int, chunks: list[str]) -> None:
    def progress(done: int) -> None:
        PrintJob.objects.filter(pk=job_id).update(chunks_done=done)

    try:
        data = pdf.pdf_from_chunks(chunks, on_progress=progress)
    except Exception as error:
        log.exception("rendering print job %s failed", job_id)
        PrintJob.objects.filter(pk=job_id).update(status=PrintJob.Status.FAILED, error=str(error)[:2000])
        return
    PrintJob.objects.filter(pk=job_id).update(status=PrintJob.Status.DONE, pdf=data, finished_at=timezone.now())


def _render_in_thread(job_id: int, chunks: list[str]) -> None:
    close_old_connections()
    try:
        _render(job_id, chunks)
    finally:
        connection.close()
