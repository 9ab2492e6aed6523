"""A season's points and ranking, pure (tournament.seasons.points): values worked out by hand."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest

from tournament.seasons.points import (
    DECIDED_BY_PLACES,
    DECIDED_BY_RECENT,
    SHARED,
    EventScore,
    choose_best,
    place_points,
    rank_season,
    show,
)

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("places", "table", "expected"),
    [
        ([1, 2, 3], [10, 8, 6], {1: 10, 2: 8, 3: 6}),
        ([1, 2, 2], [10, 8, 6], {1: 10, 2: 7}),  # 2nd and 3rd shared: (8 + 6) / 2
        ([1, 1, 1], [10, 8, 6], {1: 8}),  # (10 + 8 + 6) / 3
        ([1, 2, 2, 2], [10, 8, 6], {1: 10, 2: F(14, 3)}),  # (8 + 6 + 0) / 3
        ([1, 2, 3, 4, 5], [3, 2, 1], {1: 3, 2: 2, 3: 1, 4: 0, 5: 0}),  # past the table's end: 0
        ([1, 1, 3, 3], [10, 8, 6, 5], {1: 9, 3: F(11, 2)}),
        ([], [10], {}),
    ],
)
def test_tied_places_share_the_average_of_the_places_they_cover(places, table, expected):
    assert place_points(places, table) == {p: F(v) for p, v in expected.items()}


def _scores(*pairs):
    """EventScores from (place, points) per event in order; None for an event not played."""
    return [EventScore(n, place, F(points)) for n, pair in enumerate(pairs) if pair for place, points in [pair]]


def test_the_worked_example_of_the_module_ranks_ann_cy_bob():
    results = {"Ann": _scores((1, 10), (2, 8)), "Bob": _scores((2, 7), (3, 6)), "Cy": _scores((2, 7), (1, 10))}
    ranked = rank_season(results, events=2)
    assert [(s.rank, s.entrant, s.points) for s in ranked] == [(1, "Ann", 18), (2, "Cy", 17), (3, "Bob", 13)]
    assert [s.decided_by for s in ranked] == ["", "", ""]


@pytest.mark.parametrize(
    ("scores", "best", "counted"),
    [
        ([(1, 10), (3, 6), (2, 8)], 2, [True, False, True]),
        ([(1, 10), (3, 6)], 3, [True, True]),  # fewer events than N: all count
        ([(2, 8), (2, 8), (1, 10)], 2, [False, True, True]),  # of equal scores the most recent are kept
        ([(4, 5)], 1, [True]),
    ],
)
def test_best_n_counts_each_entrants_best_n_events(scores, best, counted):
    chosen = choose_best(_scores(*scores), best)
    assert [s.counted for s in chosen] == counted


def test_best_n_ranks_by_the_counted_events_only():
    results = {"Ann": _scores((1, 10), (5, 1), (5, 1)), "Bob": _scores((2, 8), (2, 8), (2, 8))}
    ranked = rank_season(results, events=3, best_n=1)
    assert [(s.entrant, s.points) for s in ranked] == [("Ann", 10), ("Bob", 8)]
    everything = rank_season(results, events=3)
    assert [(s.entrant, s.points) for s in everything] == [("Bob", 24), ("Ann", 12)]


def test_equal_points_go_to_the_better_best_place_then_the_second_best():
    results = {
        "Ann": _scores((2, 8), (2, 8), None),  # 16: best places 2, 2
        "Bob": _scores((1, 10), (5, 6), None),  # 16: a win
        "Cy": _scores((1, 10), (6, 6), None),  # 16: a win, then 6th
    }
    ranked = rank_season(results, events=3)
    assert [(s.rank, s.entrant, s.decided_by) for s in ranked] == [
        (1, "Bob", ""),
        (2, "Cy", DECIDED_BY_PLACES),
        (3, "Ann", DECIDED_BY_PLACES),
    ]


def test_equal_points_and_places_go_to_the_better_most_recent_event():
    results = {"Ann": _scores((1, 10), (3, 6)), "Bob": _scores((3, 6), (1, 10))}
    ranked = rank_season(results, events=2)
    assert [(s.rank, s.entrant, s.decided_by) for s in ranked] == [(1, "Bob", ""), (2, "Ann", DECIDED_BY_RECENT)]


def test_entrants_equal_on_everything_share_a_rank_and_the_next_is_skipped():
    results = {"Ann": _scores((1, 9)), "Bob": _scores((1, 9)), "Cy": _scores((3, 5))}
    ranked = rank_season(results, events=1)
    assert [(s.rank, s.decided_by) for s in ranked] == [(1, ""), (1, SHARED), (3, "")]


def test_an_event_not_played_counts_as_the_worst_place_in_the_tiebreak():
    results = {"Ann": _scores((2, 8), None, (2, 8)), "Bob": _scores((2, 8), (2, 8), None)}
    # Equal points and places; the most recent event: Ann 8, Bob nothing.
    assert [s.entrant for s in rank_season(results, events=3)] == ["Ann", "Bob"]


@pytest.mark.parametrize(
    ("value", "shown"),
    [(F(20, 3), "6⅔"), (F(7), "7"), (F(1, 2), "½"), (F(-3, 2), "−1½"), (F(23, 7), "3 2/7"), (F(29, 4), "7¼"),
     (F(0), "0"), (3, "3")],
)  # fmt: skip
def test_season_points_show_exactly_as_whole_numbers_and_fractions(value, shown):
    assert show(value) == shown


def test_the_season_points_module_imports_no_django():
    code = "import sys, tournament.seasons.points; sys.exit('django' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=False).returncode == 0
