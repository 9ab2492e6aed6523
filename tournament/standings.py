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
    """One entrant's line. ``rounds`` holds every round of the event in order, None where the
    entrant had no score (arrived later, or withdrew); ``key`` sorts best first and equal keys
    share a rank."""

    rank: int
    entrant: E
    total: int
    rounds_won: int
    rounds: tuple[RoundScore | None, ...]
    key: tuple[int, ...]


def rank(scores: Mapping[E, Sequence[RoundScore]]) -> list[Standing[E]]:
    """Rank every entrant; a round an entrant did not play counts as 0 in the tiebreak."""
    numbers = sorted({s.round for rounds in scores.values() for s in rounds})
    rows = []
    for entrant, rounds in scores.items():
        by_round = {s.round: s for s in rounds}
        total, won = sum(s.points for s in rounds), sum(1 for s in rounds if s.won)
        recent = tuple(-(by_round[n].points if n in by_round else 0) for n in reversed(numbers))
        line = tuple(by_round.get(n) for n in numbers)
        rows.append(Standing(0, entrant, total, won, line, (-total, -won, *recent)))
    rows.sort(key=lambda row: row.key)
    ranked: list[Standing[E]] = []
    for position, row in enumerate(rows, start=1):
        place = ranked[-1].rank if ranked and ranked[-1].key == row.key else position
        ranked.append(Standing(place, row.entrant, row.total, row.rounds_won, row.rounds, row.key))
    return ranked


def sit_out_points(side_scores: Sequence[int]) -> int:
    """The average of a round's side scores, rounded half up (0 with no scores)."""
    if not side_scores:
        return 0
    total, count = sum(side_scores), len(side_scores)
    return (2 * total + count) // (2 * count)
