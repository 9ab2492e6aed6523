"""Progressive-table movement ("advancing winners"), as a pure function: results in, seating out.

The rule (rule text 003): after each round the side with the higher round score at each table
moves to the next lower-numbered table; the winners at table 1 stay; the losers at table 1 go
to the highest-numbered table. With partners split, "the incoming partners split and join with
the sitting partners, so that they make 2 new couples". With an odd number of pairs, the losers
at table 1 sit out the next round and come back at the highest-numbered table after it.

The movement is built as one ordered queue of pairs, two to a table: table 1 gets its winners
and table 2's winners; table *k* its losers and table *k+1*'s winners; the last table its losers
and the queue's tail: the pair that sat out, late arrivals, then table 1's losers. With an odd
number of pairs the last in the queue sits out, which is table 1's losers. Absent players leave
the queue; a player whose partner is absent pairs with the next such player in the queue
(split partners) or sits out (fixed partners, where a team plays together or not at all).

Who moves where is the text's; how the two pairs at a table split is not: either incoming
player may partner either sitting one. Our reading of "2 new couples": of the two splits, the
one whose partnerships have not played together earlier in the evening (``history``); failing
that, the one repeating fewer partnerships, then the one repeating them fewer times. Tables are
independent (everyone sits at one), so choosing table by table is best for the round. A tie
keeps the first incoming player partnering the first sitting one: the same results and history
always give the same seats and nothing random is drawn. This regular split is also what keeps
later rounds free of repeats: in trials of 5-round evenings of 4 to 40 couples with random
results no partnership repeated, while also preferring opponents who had not met (on a tie)
brought repeated partnerships back, so opponents do not decide the split.

Players are any hashable ids; nothing here touches the database.
"""

from __future__ import annotations

from collections import Counter
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
    return _pack(list(couples), split=False, singles=[], met=_Met.of(()))


def next_round(
    results: Sequence[TableResult[P]],
    sitting_out: Sequence[P] = (),
    *,
    split: bool,
    absent: Iterable[P] = (),
    arrivals: Sequence[tuple[P, P]] = (),
    history: Iterable[TableSeating[P]] = (),
) -> Movement[P]:
    """The next round's seating from this round's ``results`` (see the module docstring).

    ``sitting_out`` are the players who sat out this round; ``absent`` leave before the next;
    ``arrivals`` are couples joining late; ``history`` is every table played so far this evening
    (in any order), which decides how partners split.
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
    return _pack(pairs, split=split, singles=singles, met=_Met.of(history))


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


@dataclass(frozen=True)
class _Met(Generic[P]):
    """How often two players have partnered so far."""

    partners: Counter[frozenset[P]]

    @classmethod
    def of(cls, history: Iterable[TableSeating[P]]) -> _Met[P]:
        return cls(Counter(frozenset(pair) for table in history for pair in (table.north_south, table.east_west)))

    def repeats(self, table: TableSeating[P]) -> tuple[int, int]:
        """The partnerships at ``table`` that played together before, and how many times in all."""
        times = [self.partners[frozenset(pair)] for pair in (table.north_south, table.east_west)]
        return sum(map(bool, times)), sum(times)


def _pack(pairs: list[tuple[P, P]], *, split: bool, singles: list[P], met: _Met[P]) -> Movement[P]:
    resting = list(singles)
    if len(pairs) % 2:
        resting.extend(pairs.pop())
    tables = []
    for index in range(0, len(pairs), 2):
        (s1, s2), (i1, i2) = pairs[index], pairs[index + 1]
        number = index // 2 + 1
        if split:
            # The sitting pair keeps North and East; the incoming players take South and West.
            splits = (TableSeating(number, s1, s2, i1, i2), TableSeating(number, s1, s2, i2, i1))
            tables.append(min(splits, key=met.repeats))  # the first on a tie
        else:
            tables.append(TableSeating(number, s1, i1, s2, i2))
    return Movement(tables=tuple(tables), sitting_out=tuple(resting))


def swap(movement: Movement[P], first: P, second: P) -> Movement[P]:
    """The same movement with two players' places exchanged (either may be sitting out)."""

    def exchange(player: P) -> P:
        return second if player == first else first if player == second else player

    tables = tuple(
        TableSeating(t.table, *(exchange(p) for p in (t.north, t.east, t.south, t.west))) for t in movement.tables
    )
    return Movement(tables=tables, sitting_out=tuple(exchange(p) for p in movement.sitting_out))
