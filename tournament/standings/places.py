"""Where each player sits in a round, for the players: the projector's seating list and the
"Find my seat" box. Read-only; a fixed number of queries however big the room."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from scoring import Seat
from tournament.models import Round, playing_name

FIND_LIMIT = 12

T = TypeVar("T")


@dataclass(frozen=True)
class Place:
    """One player's place in a round; ``table`` is None when they sit the round out."""

    name: str
    table: int | None
    seat: str = ""
    partner: str = ""
    opponents: tuple[str, str] = ("", "")

    @property
    def sits_out(self) -> bool:
        return self.table is None


def round_places(round_: Round) -> list[Place]:
    """Every player of ``round_`` (seated or sitting out), in alphabetical order."""
    tables: dict[int, dict[str, str]] = defaultdict(dict)
    for table, seat, name in round_.seatings.annotate(name=playing_name()).values_list("table__number", "seat", "name"):
        tables[table][seat] = name
    places = [
        Place(
            name=names[seat],
            table=table,
            seat=seat.label,
            partner=names.get(seat.partner, ""),
            opponents=tuple(names.get(o, "") for o in seat.side.other.seats),
        )
        for table, names in tables.items()
        for seat in map(Seat, names)
    ]
    resting = round_.sit_outs.annotate(name=playing_name()).values_list("name", flat=True)
    places += [Place(name=name, table=None) for name in resting]
    return sorted(places, key=lambda p: (p.name.casefold(), p.table or 0))


def find_places(round_: Round, text: str) -> list[Place]:
    """The places of the players whose name contains ``text`` (any case, any part of the name)."""
    wanted = " ".join(text.split()).casefold()
    if not wanted:
        return []
    return [p for p in round_places(round_) if wanted in p.name.casefold()][:FIND_LIMIT]


@dataclass(frozen=True)
class Page(Generic[T]):
    items: Sequence[T]
    number: int  # from 1
    count: int

    @property
    def next_number(self) -> int:
        return self.number % self.count + 1


def page_of(items: Sequence[T], number: int, size: int) -> Page[T]:
    """Page ``number`` (from 1, wrapping round past the last) of ``items`` in pages of ``size``."""
    count = max(1, math.ceil(len(items) / size))
    number = (max(number, 1) - 1) % count + 1
    return Page(items[(number - 1) * size : number * size], number, count)
