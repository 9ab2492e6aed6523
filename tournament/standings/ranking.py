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
from operator import itemgetter
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
    # A national event ranks 4,000 entrants on every standings page: each line is worked out
    # once, and a Standing built once, after the sort has given it its place.
    column = {number: i for i, number in enumerate(numbers)}
    lines = []
    for entrant, rounds in scores.items():
        line: list[RoundScore | None] = [None] * len(numbers)
        total = won = 0
        for s in rounds:
            line[column[s.round]] = s
            total += s.points
            if s.won:
                won += 1
        recent = [0 if s is None else -s.points for s in reversed(line)]
        lines.append(((-total, -won, *recent), entrant, total, won, tuple(line)))
    lines.sort(key=itemgetter(0))
    ranked: list[Standing[E]] = []
    place, previous = 0, None
    for position, (key, entrant, total, won, line) in enumerate(lines, start=1):
        if key != previous:
            place, previous = position, key
        ranked.append(Standing(place, entrant, total, won, line, key))
    return ranked


def sit_out_points(side_scores: Sequence[int]) -> int:
    """The average of a round's side scores, rounded half up (0 with no scores)."""
    if not side_scores:
        return 0
    total, count = sum(side_scores), len(side_scores)
    return (2 * total + count) // (2 * count)
