"""The league table (issue 12): teams ranked by the matches they won, as a pure function.

Pure: match results in, ranked rows and a sentence for every tie out. The order:

1. matches won, then fewest matches lost (a postponed match not yet played counts as neither);
2. then the tiebreakers the director chose, in the director's order, from head-to-head (matches
   won against the other teams still level), point difference, points scored and fewest bags.

When a tiebreaker separates some of a level group but not all, the teams still level start the
tiebreakers again among themselves, so head-to-head is counted again between just those teams
(point difference, points scored and bags are the same in a smaller group, so they are not
asked twice). Teams still level after every tiebreaker share a place. A walkover counts as a match
won and a match lost with no points and no bags for either team.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from scoring.words import number, signed
from tournament.standings.level import Splitter, then_in_order

T = TypeVar("T", bound=Hashable)


class Tiebreaker(enum.StrEnum):
    HEAD_TO_HEAD = "head-to-head"
    POINT_DIFFERENCE = "point-difference"
    POINTS_SCORED = "points-scored"
    FEWEST_BAGS = "fewest-bags"

    @property
    def label(self) -> str:
        return _LABELS[self]


_LABELS = {
    Tiebreaker.HEAD_TO_HEAD: "head-to-head",
    Tiebreaker.POINT_DIFFERENCE: "point difference",
    Tiebreaker.POINTS_SCORED: "points scored",
    Tiebreaker.FEWEST_BAGS: "fewest bags",
}

DEFAULT_TIEBREAKERS = (
    Tiebreaker.HEAD_TO_HEAD,
    Tiebreaker.POINT_DIFFERENCE,
    Tiebreaker.POINTS_SCORED,
    Tiebreaker.FEWEST_BAGS,
)


@dataclass(frozen=True)
class MatchResult(Generic[T]):
    """A finished league match: its winner, and the game points and bags each team took in it."""

    home: T
    away: T
    winner: T
    home_points: int = 0
    away_points: int = 0
    home_bags: int = 0
    away_bags: int = 0
    walkover: bool = False

    @property
    def loser(self) -> T:
        return self.away if self.winner == self.home else self.home


@dataclass(frozen=True)
class LeagueRow(Generic[T]):
    rank: int
    team: T
    played: int
    won: int
    lost: int
    points_for: int
    points_against: int
    bags: int

    @property
    def difference(self) -> int:
        return self.points_for - self.points_against


@dataclass(frozen=True)
class LeagueTable(Generic[T]):
    """Rows best first (teams sharing a place share ``rank``) and one sentence per level group."""

    rows: tuple[LeagueRow[T], ...]
    ties: tuple[str, ...]


def order_text(tiebreakers: Sequence[Tiebreaker]) -> str:
    """The ranking rule in words, for the foot of every league table."""
    return (
        f"Ranked by matches won, then fewest lost.{then_in_order(tiebreakers)} "
        "A walkover counts as won and lost with no points. Teams still level share a place."
    )


def league_table(
    teams: Sequence[T],
    results: Sequence[MatchResult[T]],
    tiebreakers: Sequence[Tiebreaker] = DEFAULT_TIEBREAKERS,
    *,
    name: Callable[[T], str] = str,
) -> LeagueTable[T]:
    """Rank ``teams`` by ``results`` (only results that count: no voided match); ``name`` words the ties."""
    if len(set(tiebreakers)) != len(tiebreakers):
        raise ValueError("each tiebreaker is used once")
    stats = {team: [0, 0, 0, 0, 0, 0] for team in teams}  # played, won, lost, for, against, bags
    for r in results:
        counted = 0 if r.walkover else 1  # a walkover's games, if any were begun, do not count
        for team, scored, conceded, bags in (
            (r.home, r.home_points * counted, r.away_points * counted, r.home_bags * counted),
            (r.away, r.away_points * counted, r.home_points * counted, r.away_bags * counted),
        ):
            line = stats[team]
            line[0] += 1
            line[1 if team == r.winner else 2] += 1
            line[3] += scored
            line[4] += conceded
            line[5] += bags
    ranker = _Ranker(stats, results)
    head_to_head = Tiebreaker.HEAD_TO_HEAD if Tiebreaker.HEAD_TO_HEAD in tiebreakers else None
    splitter = Splitter(ranker.values, ranker.show, name, head_to_head)
    by_record: dict[tuple[int, int], list[T]] = {}
    for team in teams:
        by_record.setdefault((stats[team][1], -stats[team][2]), []).append(team)
    groups = [(f"{won} won, {-lost} lost", by_record[(won, lost)]) for won, lost in sorted(by_record, reverse=True)]
    rows, ties = splitter.rank(groups, tiebreakers, lambda rank, t: LeagueRow(rank, t, *stats[t]))
    return LeagueTable(rows, ties)


class _Ranker(Generic[T]):
    """A league table's tiebreaker values, and how its notes show them."""

    def __init__(self, stats: dict[T, list[int]], results: Sequence[MatchResult[T]]) -> None:
        self.stats, self.results = stats, results

    def values(self, criterion: Tiebreaker, group: list[T]) -> dict[T, int]:
        """Each of ``group``'s value of ``criterion``; larger is better."""
        return {t: self.value(criterion, t, group) for t in group}

    def value(self, criterion: Tiebreaker, team: T, group: list[T]) -> int:
        """Larger is better."""
        _, _, _, scored, conceded, bags = self.stats[team]
        if criterion is Tiebreaker.HEAD_TO_HEAD:
            return sum(1 for r in self.results if r.winner == team and r.loser in group)
        if criterion is Tiebreaker.POINT_DIFFERENCE:
            return scored - conceded
        if criterion is Tiebreaker.POINTS_SCORED:
            return scored
        return -bags

    @staticmethod
    def show(criterion: Tiebreaker, value: int) -> str:
        """A tiebreaker's value as the league table shows it: points with a true minus sign."""
        if criterion is Tiebreaker.HEAD_TO_HEAD:
            return f"{value} won"
        if criterion is Tiebreaker.POINT_DIFFERENCE:
            return signed(value, zero="±0")
        if criterion is Tiebreaker.FEWEST_BAGS:
            return f"{-value} bags"
        return number(value)
