"""Every document the Print tab offers: each round's, the whole event's, and the format's own
(:meth:`tournament.formats.registry.EventFormat.documents`), by the name in its URL."""

from __future__ import annotations

from collections.abc import Callable

from tournament.formats.registry import format_of
from tournament.models import Round, Tournament
from tournament.printing import documents, sheets
from tournament.printing.documents import Document

ROUND_DOCUMENTS: dict[str, Callable[[Round, str | None], Document]] = {
    "score-sheets": sheets.score_sheets,
    "movement-slips": documents.movement_slips,
}
# Each made for the address the director uses (``base``), which the documents with the tables'
# links (QR codes) print.
EVENT_DOCUMENTS: dict[str, Callable[[Tournament, str | None], Document]] = {
    "rules": lambda tournament, base: documents.rule_handout(tournament),
    "standings": lambda tournament, base: documents.standings(tournament),
    "payouts": lambda tournament, base: documents.payout_sheet(tournament),
    "fee-ledger": lambda tournament, base: documents.fee_ledger(tournament),
    "blank-sheet": lambda tournament, base: sheets.blank_sheet(tournament),
    "table-tents": documents.table_tents,
}


def event_document(tournament: Tournament, name: str, base: str | None) -> Document | None:
    """The whole event's document ``name`` (the core's, or the format's), None if there is none
    or the format does not offer it yet (a championship bracket before the championship)."""
    if name in EVENT_DOCUMENTS:
        return EVENT_DOCUMENTS[name](tournament, base)
    documents = format_of(tournament).documents(tournament)
    made = next((d.make for d in documents if d.name == name and d.offered), None)
    return made(tournament, base) if made else None
