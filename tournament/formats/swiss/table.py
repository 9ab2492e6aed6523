"""A Swiss event's standings as a pure function: results in, ranked rows and a sentence for every
tie out (no Django here).

The order:

1. rounds won (a bye is a round won; a late team's missed round a loss, or the score the director
   gave it);
2. then the tiebreaks the director chose, in the director's order, from Buchholz (the sum of the
   wins of every opponent met), median Buchholz (the same without the best and the worst of them,
   once a team has met three or more), point difference (game points over every round, a bye's and
   a missed round's given score included) and head to head (rounds won against the other teams
   still level).

A bye or a missed round has no opponent, so Buchholz and median Buchholz leave it out and head to
head never sees it. When a tiebreak separates some of a level group but not all, the teams still
level start the tiebreaks again among themselves (head to head then counts only their own
meetings). Teams still level after every tiebreak share a place; within it they keep the order
they were given in (the seeding), which is also how the pairing reads them.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from scoring.words import signed
from tournament.standings.level import Splitter, then_in_order

T = TypeVar("T", bound=Hashable)


class Tiebreak(enum.StrEnum):
    BUCHHOLZ = "buchholz"
    MEDIAN_BUCHHOLZ = "median-buchholz"
    POINT_DIFFERENCE = "point-difference"
    HEAD_TO_HEAD = "head-to-head"

    @property
    def label(self) -> str:
        return _LABELS[self]


_LABELS = {
    Tiebreak.BUCHHOLZ: "Buchholz",
    Tiebreak.MEDIAN_BUCHHOLZ: "median Buchholz",
    Tiebreak.POINT_DIFFERENCE: "point difference",
    Tiebreak.HEAD_TO_HEAD: "head to head",
}
DEFAULT_TIEBREAKS = tuple(Tiebreak)


@dataclass(frozen=True)
class Played(Generic[T]):
    """A decided pairing: ``winner`` is one of the two teams; the game points each took in it."""

    round: int
    first: T
    second: T
    winner: T
    first_points: int = 0
    second_points: int = 0


@dataclass(frozen=True)
class Alone(Generic[T]):
    """A round a team had no opponent: a bye (a win), or a round it missed by joining late."""

    round: int
    team: T
    won: bool
    points_for: int = 0
    points_against: int = 0
    bye: bool = True


@dataclass(frozen=True)
class SwissRow(Generic[T]):
    rank: int
    team: T
    played: int  # rounds with a result: played, a bye, a missed round
    won: int
    lost: int
    buchholz: int
    median_buchholz: int
    points_for: int
    points_against: int
    byes: int

    @property
    def difference(self) -> int:
        return self.points_for - self.points_against


@dataclass(frozen=True)
class SwissTable(Generic[T]):
    """Rows best first (teams sharing a place share ``rank``) and one sentence per level group."""

    rows: tuple[SwissRow[T], ...]
    ties: tuple[str, ...]

    def ranked(self) -> list[T]:
        """The teams best first: the order the next round is paired in."""
        return [row.team for row in self.rows]


def order_text(tiebreaks: Sequence[Tiebreak]) -> str:
    """The ranking rule in words, for the foot of every Swiss standings table."""
    return (
        f"Ranked by rounds won (a bye is a round won).{then_in_order(tiebreaks)} "
        "Buchholz is the sum of the wins of every opponent met; median Buchholz leaves out the best and the "
        "worst of them. A bye has no opponent, so those leave it out. Teams still level share a place."
    )


def swiss_table(
    teams: Sequence[T],
    played: Sequence[Played[T]],
    alone: Sequence[Alone[T]] = (),
    tiebreaks: Sequence[Tiebreak] = DEFAULT_TIEBREAKS,
    *,
    name: Callable[[T], str] = str,
) -> SwissTable[T]:
    """Rank ``teams`` (given in seeding order) by their results; ``name`` words the ties."""
    if len(set(tiebreaks)) != len(tiebreaks):
        raise ValueError("each tiebreak is used once")
    stats = {team: _Line() for team in teams}
    for p in played:
        for team, other, scored, conceded in (
            (p.first, p.second, p.first_points, p.second_points),
            (p.second, p.first, p.second_points, p.first_points),
        ):
            line = stats[team]
            line.add(team == p.winner, scored, conceded)
            line.opponents.append(other)
    for a in alone:
        stats[a.team].add(a.won, a.points_for, a.points_against, bye=a.bye)
    for line in stats.values():
        faced = sorted(stats[o].won for o in line.opponents)
        line.buchholz = sum(faced)
        line.median = sum(faced[1:-1]) if len(faced) >= 3 else line.buchholz
    ranker = _Ranker(stats, played)
    head_to_head = Tiebreak.HEAD_TO_HEAD if Tiebreak.HEAD_TO_HEAD in tiebreaks else None
    splitter = Splitter(ranker.values, ranker.show, name, head_to_head)
    by_wins: dict[int, list[T]] = {}
    for team in teams:
        by_wins.setdefault(stats[team].won, []).append(team)
    groups = [(f"{won} won", by_wins[won]) for won in sorted(by_wins, reverse=True)]
    rows, ties = splitter.rank(groups, tiebreaks, lambda rank, t: stats[t].row(rank, t))
    return SwissTable(rows, ties)


class _Line:
    """One team's counts as the results are read."""

    def __init__(self) -> None:
        self.played = self.won = self.lost = self.points_for = self.points_against = self.byes = 0
        self.buchholz = self.median = 0
        self.opponents: list = []

    def add(self, won: bool, scored: int, conceded: int, *, bye: bool = False) -> None:
        self.played += 1
        self.won += won
        self.lost += not won
        self.points_for += scored
        self.points_against += conceded
        self.byes += bye

    def row(self, rank: int, team: T) -> SwissRow[T]:
        return SwissRow(rank, team, self.played, self.won, self.lost, self.buchholz, self.median,
                        self.points_for, self.points_against, self.byes)  # fmt: skip


class _Ranker(Generic[T]):
    """A Swiss table's tiebreak values, and how its notes show them."""

    def __init__(self, stats: dict[T, _Line], played: Sequence[Played[T]]) -> None:
        self.stats, self.played = stats, played

    def values(self, criterion: Tiebreak, group: list[T]) -> dict[T, int]:
        """Each of ``group``'s value of ``criterion``; larger is better."""
        if criterion is Tiebreak.HEAD_TO_HEAD:
            members = set(group)
            won = dict.fromkeys(group, 0)
            for p in self.played:
                if p.first in members and p.second in members:
                    won[p.winner] += 1
            return won
        lines = {t: self.stats[t] for t in group}
        if criterion is Tiebreak.BUCHHOLZ:
            return {t: line.buchholz for t, line in lines.items()}
        if criterion is Tiebreak.MEDIAN_BUCHHOLZ:
            return {t: line.median for t, line in lines.items()}
        return {t: line.points_for - line.points_against for t, line in lines.items()}

    @staticmethod
    def show(criterion: Tiebreak, value: int) -> str:
        """A tiebreak's value as the standings show it: point difference with a true minus sign."""
        if criterion is Tiebreak.HEAD_TO_HEAD:
            return f"{value} won"
        if criterion is Tiebreak.POINT_DIFFERENCE:
            return signed(value)
        return str(value)
