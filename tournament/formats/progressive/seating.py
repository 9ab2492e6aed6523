"""A progressive round's seating read back: who sits where and where each came from, and who
sits out. Read-only."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from scoring import Seat
from tournament.models import Round, playing_name


def sitting_out_names(round_: Round) -> list[str]:
    return list(round_.sit_outs.annotate(name=playing_name()).values_list("name", flat=True))


@dataclass(frozen=True)
class MovementSeat:
    seat: str
    name: str
    # "from table 2 North", "sat out last round", "joins, playing for Ada"; "" in round 1 (the first seating)
    came_from: str


@dataclass(frozen=True)
class MovementRow:
    table: int
    seats: list[MovementSeat]


def movement_rows(round_: Round) -> list[MovementRow]:
    """Who sits where this round and where each came from (table and seat, or sat out; round 1's
    players come from nowhere: its seating is the first). A substitute playing their first round
    sat nowhere before it: they join, in the seat of the player they play for."""
    before: dict[int, str] = {}
    previous = Round.objects.filter(tournament_id=round_.tournament_id, number=round_.number - 1).first()
    if previous is not None:
        for player, table, seat in previous.seatings.values_list("player_id", "table__number", "seat"):
            before[player] = f"from table {table} {Seat(seat).label}"
        for player in previous.sit_outs.values_list("player_id", flat=True):
            before[player] = "sat out last round"
    tables: dict[int, list[MovementSeat]] = defaultdict(list)
    for table, seat, player, name, entrant, substitute_from in (
        round_.seatings.order_by("table__number")
        .annotate(name=playing_name())
        .values_list("table__number", "seat", "player_id", "name", "player__name", "player__substitute_from")
    ):
        joins = previous is not None and substitute_from == round_.number
        came_from = f"joins, playing for {entrant}" if joins else before.get(player, "")
        tables[table].append(MovementSeat(Seat(seat).label, name, came_from))
    order = {seat.label: i for i, seat in enumerate(Seat)}
    return [MovementRow(t, sorted(seats, key=lambda s: order[s.seat])) for t, seats in sorted(tables.items())]
