"""Standings: rank entrants (players, or teams with fixed partners) by their round scores.

Pure: per-round scores in, ranked rows out. The order, documented on every standings page:

1. total points over all rounds;
2. then rounds won;
3. then the most recent round's points, then the round before it, and so on.

Entrants equal on all three share a rank. A player sitting out a round neither wins nor loses
it and is credited with what the rule set's ``sit_out_credit`` says (:func:`sit_out_credit`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Generic, TypeVar

from scoring.words import signed

E = TypeVar("E", bound=Hashable)

TIEBREAK_TEXT = (
    "Ranked by total points; then by rounds won; then by points in the most recent round, then the round before it."
)

# A sit-out credit's basis (RuleSet.sit_out_credit) as a standings note says it, and in a sentence.
CREDIT_NOTES = {"round_average": "average", "winners_average": "winners' average", "none": "nothing"}
CREDIT_WORDS = {
    "round_average": "the round's average side score (rounded half up)",
    "winners_average": "the average score of the round's winning sides (rounded half up)",
    "none": "nothing (0 points)",
}


@dataclass(frozen=True)
class RoundScore:
    """One entrant's points in one round; ``won`` is None while the game is undecided or sat out.

    ``credit`` is a sat-out round's basis (a key of :data:`CREDIT_NOTES`). ``tie_hand`` is the
    hand that broke a round tied after its hands (0: none), ``tie_counted`` whether its points
    are in ``points``."""

    round: int
    points: int
    won: bool | None = None
    sat_out: bool = False
    credit: str = ""
    tie_hand: int = 0
    tie_counted: bool = False


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


def round_note(score: RoundScore, *, number: Callable[[int], str] = signed) -> str:
    """What a standings cell's mark stands for: "sat out: +139, average", "tie broken by hand 5,
    not counted"; "" for an ordinary round. ``number`` writes the points (plain in a CSV)."""
    if score.sat_out:
        return f"sat out: {number(score.points)}, {CREDIT_NOTES[score.credit]}"
    if score.tie_hand:
        return f"tie broken by hand {score.tie_hand}, {'counted' if score.tie_counted else 'not counted'}"
    return ""


def round_mark(score: RoundScore) -> str:
    """The mark after a round's points that has a note: * sat out, † a tie broken by an extra hand."""
    return "*" if score.sat_out else "\u2020" if score.tie_hand else ""


def round_notes(rounds: Iterable[Sequence[RoundScore | None]]) -> list[str]:
    """Every different note of ``rounds`` (each entrant's line), once, by round, after its
    mark: "* Round 3: sat out: +139, average"."""
    notes = {
        (s.round, round_mark(s), round_note(s)) for line in rounds for s in line if s and (s.sat_out or s.tie_hand)
    }
    return [f"{mark} Round {number}: {note}" for number, mark, note in sorted(notes)]


def sit_out_credit(basis: str, sides: Sequence[tuple[int, bool | None]]) -> int:
    """What a player sitting out a round is credited with, on ``basis`` (a key of
    :data:`CREDIT_NOTES`), from the round's sides as (points, won; None while undecided)."""
    if basis == "none":
        return 0
    if basis == "winners_average":
        return sit_out_points([points for points, won in sides if won])
    return sit_out_points([points for points, _ in sides])


def sit_out_points(side_scores: Sequence[int]) -> int:
    """The average of a round's side scores, rounded half up (0 with no scores)."""
    if not side_scores:
        return 0
    total, count = sum(side_scores), len(side_scores)
    return (2 * total + count) // (2 * count)
