"""A season's standings from its events' places: pure (plain values in, frozen dataclasses out,
no Django).

The club chooses the season's rule:

- ``places``: each event gives points by place from the club's table (e.g. 10, 8, 6, 5, …; a
  place past the table's end scores 0). Entrants tied for a place share the average of the
  points of the places they cover: two tied for 2nd with the table 10/8/6 cover 2nd and 3rd and
  get (8 + 6) / 2 = 7 each.
- ``total``: each event gives the points the entrant scored there (its standings total).
- ``best_n``: points by place as above, but only an entrant's best N events count (fewer than N
  events: all of them count). Of equal event scores the most recent are the ones kept.

Shared points are kept exact, as :class:`~fractions.Fraction` (never floats): 20/3 stays 20/3,
and :func:`show` writes it "6⅔".

The ranking (:data:`TIEBREAK_TEXT`, printed under every season table): season points; then the
best places (the better best place, then the better second-best place, and so on: more wins
first); then the points of the most recent event, then the event before it. Entrants equal on
all of these share a rank. Each standing says how it was told apart from the one above it with
equal points (:attr:`SeasonStanding.decided_by`).

Worked example (table 10/8/6, rule ``places``, two events). Event 1: Ann 1st, Bob and Cy tied
2nd (7 each). Event 2: Cy 1st (10), Ann 2nd (8), Bob 3rd (6). Ann 18, Cy 17, Bob 13.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Generic, TypeVar

E = TypeVar("E", bound=Hashable)

PLACES, TOTAL, BEST_N = "places", "total", "best_n"
RULES = (PLACES, TOTAL, BEST_N)

TIEBREAK_TEXT = (
    "Ranked by season points; then by best places (the better best place, then the better second-best place, "
    "and so on); then by points at the most recent event, then the event before it."
)
DECIDED_BY_PLACES = "best places"
DECIDED_BY_RECENT = "the most recent events"
SHARED = "shared"

_UNPLACED = 10**9  # sorts after every real place: an event not played


@dataclass(frozen=True)
class EventScore:
    """One entrant's result at one event of the season: ``event`` its position in the season (0 the
    first), ``place`` at the event, ``points`` towards the season; ``counted`` False for an event
    that best N leaves out."""

    event: int
    place: int
    points: Fraction
    counted: bool = True


@dataclass(frozen=True)
class SeasonStanding(Generic[E]):
    """One entrant's line: ``events`` in season order; ``decided_by`` how it stands against the
    line above with equal season points ("" when the points differ or it is first)."""

    rank: int
    entrant: E
    points: Fraction
    events: tuple[EventScore, ...]
    decided_by: str
    key: tuple


def place_points(places: Sequence[int], table: Sequence[int]) -> dict[int, Fraction]:
    """The points of each place of one event, from all its entrants' ``places`` (equal entrants
    share a place, the next place skipped: 1, 2, 2, 4) by the club's ``table`` (its first number
    the winner's). Entrants sharing place p, k of them, cover places p … p+k−1 and each gets the
    average of those places' points; a place past the table's end is worth 0.

    >>> place_points([1, 2, 2, 4], [10, 8, 6])
    {1: Fraction(10, 1), 2: Fraction(7, 1), 4: Fraction(0, 1)}
    """
    counts = Counter(places)
    worth = [*table, *[0] * len(places)]
    return {p: Fraction(sum(worth[p - 1 : p - 1 + k]), k) for p, k in sorted(counts.items())}


def choose_best(scores: Sequence[EventScore], best_n: int) -> tuple[EventScore, ...]:
    """``scores`` with only the best ``best_n`` counted (the others marked not counted); of equal
    scores the most recent are kept. Fewer than ``best_n`` events: all count."""
    kept = sorted(scores, key=lambda s: (s.points, s.event), reverse=True)[:best_n]
    chosen = {s.event for s in kept}
    return tuple(replace(s, counted=s.event in chosen) for s in sorted(scores, key=lambda s: s.event))


def rank_season(
    results: Mapping[E, Sequence[EventScore]], *, events: int, best_n: int | None = None
) -> list[SeasonStanding[E]]:
    """Rank every entrant of a season of ``events`` events by :data:`TIEBREAK_TEXT`; ``best_n``
    (the rule best N) counts only each entrant's best N. Equal entrants share a rank, the next
    rank skipped (1, 2, 2, 4)."""
    # The sort compares whole numbers: every event's points scaled by one common denominator (a
    # shared place's is the number sharing it), exact and much faster than comparing fractions.
    scale = math.lcm(1, *{s.points.denominator for scores in results.values() for s in scores})
    lines = []
    for entrant, scores in results.items():
        line = choose_best(scores, best_n) if best_n else tuple(sorted(scores, key=lambda s: s.event))
        scaled = {s.event: s.points.numerator * (scale // s.points.denominator) for s in line}
        total = sum(scaled[s.event] for s in line if s.counted)
        places = sorted(s.place for s in line) + [_UNPLACED] * (events - len(line))
        recent = tuple(-scaled.get(n, 0) for n in reversed(range(events)))
        lines.append(((-total, tuple(places), recent), entrant, Fraction(total, scale), line))
    lines.sort(key=lambda item: item[0])
    ranked: list[SeasonStanding[E]] = []
    place, previous = 0, None
    for position, (key, entrant, points, line) in enumerate(lines, start=1):
        decided = _decided_by(previous, key)
        if key != previous:
            place, previous = position, key
        ranked.append(SeasonStanding(place, entrant, points, line, decided, key))
    return ranked


def _decided_by(above: tuple | None, key: tuple) -> str:
    if above is None or above[0] != key[0]:
        return ""
    if above[1] != key[1]:
        return DECIDED_BY_PLACES
    return DECIDED_BY_RECENT if above[2] != key[2] else SHARED


_VULGAR = {
    (1, 2): "½", (1, 3): "⅓", (2, 3): "⅔", (1, 4): "¼", (3, 4): "¾", (1, 5): "⅕", (2, 5): "⅖",
    (3, 5): "⅗", (4, 5): "⅘", (1, 6): "⅙", (5, 6): "⅚", (1, 8): "⅛", (3, 8): "⅜", (5, 8): "⅝", (7, 8): "⅞",
}  # fmt: skip


def show(value: Fraction | int) -> str:
    """Season points as a page shows them: whole numbers plainly, a shared place's fraction as a
    fraction ("6⅔", "−1½", "3 2/7"), never rounded.

    >>> show(Fraction(20, 3)), show(Fraction(-3, 2)), show(Fraction(23, 7)), show(7)
    ('6⅔', '−1½', '3 2/7', '7')
    """
    value = Fraction(value)
    sign = "−" if value < 0 else ""
    whole, rest = divmod(abs(value), 1)
    if not rest:
        return f"{sign}{whole}"
    part = _VULGAR.get((rest.numerator, rest.denominator), f"{rest.numerator}/{rest.denominator}")
    head = str(whole) if whole else ""
    spacer = " " if head and "/" in part else ""
    return f"{sign}{head}{spacer}{part}"
