"""Progressive-table movement ("advancing winners"), as a pure function: results in, seating out.

The rule (rule text 003): after each round the side with the higher round score at each table
moves to the next lower-numbered table; the winners at table 1 stay; the losers at table 1 go
to the highest-numbered table. With partners split, each incoming pair splits and each incoming
player partners one of the players already sitting there. With an odd number of pairs, the
losers at table 1 sit out the next round and come back at the highest-numbered table after it.

The movement is built as one ordered queue of pairs, two to a table: table 1 gets its winners
and table 2's winners; table *k* its losers and table *k+1*'s winners; the last table its losers
and the queue's tail: the pair that sat out, late arrivals, then table 1's losers. With an odd
number of pairs the last in the queue sits out, which is table 1's losers. Absent players leave
the queue; a player whose partner is absent pairs with the next such player in the queue
(split partners) or sits out (fixed partners, where a team plays together or not at all).

Players are any hashable ids; nothing here touches the database.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

P = TypeVar("P", bound=Hashable)


@dataclass(frozen=True)
class TableResult(Generic[P]):
    """How one table's round ended: the winning pair and the losing pair."""

    table: int
    winners: tuple[P, P]
    losers: tuple[P, P]


@dataclass(frozen=True)
class TableSeating(Generic[P]):
    """Four players at one table; North–South and East–West are the partnerships."""

    table: int
    north: P
    east: P
    south: P
    west: P

    @property
    def north_south(self) -> tuple[P, P]:
        return (self.north, self.south)

    @property
    def east_west(self) -> tuple[P, P]:
        return (self.east, self.west)

    @property
    def players(self) -> tuple[P, P, P, P]:
        return (self.north, self.east, self.south, self.west)


@dataclass(frozen=True)
class Movement(Generic[P]):
    """A round's seating: the tables in number order and who sits out."""

    tables: tuple[TableSeating[P], ...]
    sitting_out: tuple[P, ...]

    def seated(self) -> list[P]:
        return [player for table in self.tables for player in table.players]


def first_round(couples: Sequence[tuple[P, P]]) -> Movement[P]:
    """Round 1: couples sit across from each other, two couples a table, in the given order.

    With an odd number of couples the last one sits out.
    """
    return _pack(list(couples), split=False, singles=[])


def next_round(
    results: Sequence[TableResult[P]],
    sitting_out: Sequence[P] = (),
    *,
    split: bool,
    absent: Iterable[P] = (),
    arrivals: Sequence[tuple[P, P]] = (),
) -> Movement[P]:
    """The next round's seating from this round's ``results`` (see the module docstring).

    ``sitting_out`` are the players who sat out this round; ``absent`` leave before the next;
    ``arrivals`` are couples joining late.
    """
    ordered = sorted(results, key=lambda r: r.table)
    if not ordered:
        raise ValueError("a round with no tables has no movement")
    queue: list[tuple[P, ...]] = []
    for index, result in enumerate(ordered):
        queue.append(result.winners if index == 0 else result.losers)
        if index + 1 < len(ordered):
            queue.append(ordered[index + 1].winners)
    resting = list(sitting_out)
    queue.extend(tuple(resting[i : i + 2]) for i in range(0, len(resting), 2))
    queue.extend(arrivals)
    queue.append(ordered[0].losers)
    gone = set(absent)
    pairs, singles = _pair_up([tuple(p for p in pair if p not in gone) for pair in queue], split=split)
    return _pack(pairs, split=split, singles=singles)


def _pair_up(queue: list[tuple[P, ...]], *, split: bool) -> tuple[list[tuple[P, P]], list[P]]:
    """Whole pairs in queue order, broken pairs rejoined (split) or set aside (fixed)."""
    pairs: list[tuple[P, P] | None] = []
    waiting: tuple[int, P] | None = None  # a single, and where its pair stood in the queue
    singles: list[P] = []
    for unit in queue:
        if len(unit) == 2:
            pairs.append((unit[0], unit[1]))
        elif len(unit) == 1 and not split:
            singles.append(unit[0])
        elif len(unit) == 1 and waiting is None:
            waiting = (len(pairs), unit[0])
            pairs.append(None)
        elif len(unit) == 1:
            assert waiting is not None
            pairs[waiting[0]] = (waiting[1], unit[0])
            waiting = None
    if waiting is not None:
        singles.append(waiting[1])
    return [pair for pair in pairs if pair is not None], singles


def _pack(pairs: list[tuple[P, P]], *, split: bool, singles: list[P]) -> Movement[P]:
    resting = list(singles)
    if len(pairs) % 2:
        resting.extend(pairs.pop())
    tables = []
    for index in range(0, len(pairs), 2):
        staying, incoming = pairs[index], pairs[index + 1]
        number = index // 2 + 1
        if split:
            tables.append(TableSeating(number, staying[0], staying[1], incoming[0], incoming[1]))
        else:
            tables.append(TableSeating(number, staying[0], incoming[0], staying[1], incoming[1]))
    return Movement(tables=tuple(tables), sitting_out=tuple(resting))


def swap(movement: Movement[P], first: P, second: P) -> Movement[P]:
    """The same movement with two players' places exchanged (either may be sitting out)."""

    def exchange(player: P) -> P:
        return second if player == first else first if player == second else player

    tables = tuple(
        TableSeating(t.table, *(exchange(p) for p in (t.north, t.east, t.south, t.west))) for t in movement.tables
    )
    return Movement(tables=tables, sitting_out=tuple(exchange(p) for p in movement.sitting_out))
