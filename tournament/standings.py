"""Standings: rank entrants (players, or teams with fixed partners) by their round scores.

Pure: per-round scores in, ranked rows out. The order, documented on every standings page:

1. total points over all rounds;
2. then rounds won;
3. then the most recent round's points, then the round before it, and so on.

Entrants equal on all three share a rank. A player sitting out a round is credited with that
round's average side score (rounded half up) and neither wins nor loses it, so the table-1
losers the rule sits out are not punished for it.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

E = TypeVar("E", bound=Hashable)

TIEBREAK_TEXT = (
    "Ranked by total points; then by rounds won; then by points in the most recent round, "
    "then the round before it. A player sitting out a round is credited with that round's "
    "average side score."
)


@dataclass(frozen=True)
class RoundScore:
    """One entrant's points in one round; ``won`` is None while the game is undecided or sat out."""

    round: int
    points: int
    won: bool | None = None
    sat_out: bool = False


@dataclass(frozen=True)
class Standing(Generic[E]):
    rank: int
    entrant: E
    total: int
    rounds_won: int
    rounds: tuple[RoundScore, ...]

    @property
    def key(self) -> tuple[int, ...]:
        """Sorts best first; equal keys share a rank."""
        recent = tuple(-score.points for score in sorted(self.rounds, key=lambda s: -s.round))
        return (-self.total, -self.rounds_won, *recent)


def rank(scores: Mapping[E, Sequence[RoundScore]]) -> list[Standing[E]]:
    """Rank every entrant; entrants with no round yet are ranked on zero."""
    rows = [
        Standing(
            rank=0,
            entrant=entrant,
            total=sum(s.points for s in rounds),
            rounds_won=sum(1 for s in rounds if s.won),
            rounds=tuple(sorted(rounds, key=lambda s: s.round)),
        )
        for entrant, rounds in scores.items()
    ]
    rows.sort(key=lambda row: row.key)
    ranked: list[Standing[E]] = []
    for position, row in enumerate(rows, start=1):
        same = ranked and ranked[-1].key == row.key
        ranked.append(
            Standing(ranked[-1].rank if same else position, row.entrant, row.total, row.rounds_won, row.rounds)
        )
    return ranked


def sit_out_points(side_scores: Sequence[int]) -> int:
    """The average of a round's side scores, rounded half up (0 with no scores)."""
    if not side_scores:
        return 0
    total, count = sum(side_scores), len(side_scores)
    return (2 * total + count) // (2 * count)
