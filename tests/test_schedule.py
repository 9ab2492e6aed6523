"""The league season's schedule (rule text 004, issue 12), as pure functions."""

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import examples
from tournament.formats.league.schedule import (
    Missed,
    PlayedResults,
    Schedule,
    ScheduleError,
    add_team,
    free_nights,
    postpone,
    round_robin,
    withdraw,
)

sizes = st.integers(min_value=2, max_value=30)
legs = st.integers(min_value=1, max_value=2)


def field(n: int) -> list[str]:
    return [f"T{i}" for i in range(1, n + 1)]


def assert_nobody_plays_twice_a_night(schedule: Schedule) -> None:
    for night in range(1, schedule.nights + 1):
        teams = [t for f in schedule.on_night(night) if f.to_play for t in f.teams]
        assert len(teams) == len(set(teams)), f"night {night}: {teams}"


def assert_every_pair_meets_once_a_leg(schedule: Schedule) -> None:
    for leg in range(1, schedule.legs + 1):
        meetings = Counter(frozenset(f.teams) for f in schedule.fixtures if f.leg == leg)
        assert meetings == {frozenset(pair): 1 for pair in combinations(schedule.teams, 2)}


@settings(max_examples=examples(60), deadline=None)
@given(n=sizes, legs=legs)
def test_every_pair_meets_once_a_leg_and_nobody_plays_twice_a_night(n, legs):
    schedule = round_robin(field(n), legs=legs)
    assert_every_pair_meets_once_a_leg(schedule)
    assert_nobody_plays_twice_a_night(schedule)


@settings(max_examples=examples(60), deadline=None)
@given(n=sizes, legs=legs)
def test_a_leg_takes_n_minus_one_nights_for_an_even_field_and_n_for_an_odd_one(n, legs):
    schedule = round_robin(field(n), legs=legs)
    per_leg = n - 1 if n % 2 == 0 else n
    assert schedule.nights == legs * per_leg
    assert all(1 + (f.leg - 1) * per_leg <= f.night <= f.leg * per_leg for f in schedule.fixtures)


@settings(max_examples=examples(40), deadline=None)
@given(n=sizes)
def test_an_odd_field_rests_exactly_one_team_a_night_and_each_team_once_a_leg(n):
    schedule = round_robin(field(n))
    resting = [schedule.resting_on(night) for night in range(1, schedule.nights + 1)]
    if n % 2:
        assert all(len(r) == 1 for r in resting)
        assert sorted(t for r in resting for t in r) == sorted(field(n))
    else:
        assert all(r == () for r in resting)


@settings(max_examples=examples(40), deadline=None)
@given(n=sizes)
def test_the_second_leg_repeats_the_first_with_home_and_away_exchanged(n):
    schedule = round_robin(field(n), legs=2)
    first = {(f.home, f.away) for f in schedule.fixtures if f.leg == 1}
    second = {(f.away, f.home) for f in schedule.fixtures if f.leg == 2}
    assert first == second


@pytest.mark.parametrize("n", [4, 5, 6, 9, 10])
def test_home_and_away_are_shared_out_within_one_match_a_team(n):
    schedule = round_robin(field(n))
    homes = Counter(f.home for f in schedule.fixtures)
    aways = Counter(f.away for f in schedule.fixtures)
    assert all(abs(homes[t] - aways[t]) <= 2 for t in field(n)), (homes, aways)


def test_four_teams_by_the_circle_method():
    schedule = round_robin(["A", "B", "C", "D"])
    assert [[(f.home, f.away) for f in schedule.on_night(n)] for n in (1, 2, 3)] == [
        [("A", "D"), ("B", "C")],
        [("C", "A"), ("D", "B")],
        [("A", "B"), ("C", "D")],
    ]


@pytest.mark.parametrize(
    ("teams", "legs", "message"),
    [
        (["A"], 1, "at least two teams"),
        (["A", "B", "A"], 1, "listed twice"),
        (["A", "B"], 3, "one leg or two"),
    ],
)
def test_a_season_that_cannot_be_built_says_why(teams, legs, message):
    with pytest.raises(ScheduleError, match=message):
        round_robin(teams, legs=legs)


@settings(max_examples=examples(60), deadline=None)
@given(n=sizes, legs=legs, data=st.data())
def test_a_postponed_match_moves_to_a_free_night_and_remembers_its_first(n, legs, data):
    schedule = round_robin(field(n), legs=legs)
    match = data.draw(st.sampled_from(schedule.fixtures))
    free = [
        night
        for night in range(1, schedule.nights + 2)
        if night != match.night and not schedule.playing_on(night) & set(match.teams)
    ]
    to_night = data.draw(st.sampled_from(free))  # the next new night is always free
    moved = postpone(schedule, match.key, to_night=to_night)
    assert moved.fixture(match.key).night == to_night
    assert moved.fixture(match.key).postponed_from == match.night
    assert_every_pair_meets_once_a_leg(moved)
    assert_nobody_plays_twice_a_night(moved)
    assert {f.key: f.night for f in moved.fixtures if f.key != match.key} == {
        f.key: f.night for f in schedule.fixtures if f.key != match.key
    }


def test_a_match_postponed_twice_keeps_its_first_night_and_moved_back_is_not_postponed():
    schedule = round_robin(["A", "B", "C"])
    key = schedule.on_night(1)[0].key
    twice = postpone(postpone(schedule, key, to_night=4), key, to_night=5)
    assert (twice.fixture(key).night, twice.fixture(key).postponed_from) == (5, 1)
    back = postpone(twice, key, to_night=1)
    assert (back.fixture(key).night, back.fixture(key).postponed_from) == (1, None)


def test_a_match_cannot_move_onto_a_night_where_a_team_already_plays():
    schedule = round_robin(["A", "B", "C", "D"])
    key = schedule.on_night(1)[0].key
    with pytest.raises(ScheduleError, match="A already plays on night 2"):
        postpone(schedule, key, to_night=2)
    with pytest.raises(ScheduleError, match="Choose night 1 to 4"):
        postpone(schedule, key, to_night=6)
    with pytest.raises(ScheduleError, match="already on night 1"):
        postpone(schedule, key, to_night=1)


def test_a_postponed_match_comes_last_on_its_new_night():
    schedule = round_robin(["A", "B", "C", "D"])
    key = schedule.on_night(1)[0].key
    moved = postpone(schedule, key, to_night=4)
    assert [f.key for f in moved.on_night(4)] == [key]
    assert moved.nights == 4 and len(moved.on_night(1)) == 1


@settings(max_examples=examples(60), deadline=None)
@given(n=st.integers(min_value=2, max_value=16), legs=legs, missed=st.sampled_from(Missed), data=st.data())
def test_a_late_joiner_meets_everyone_once_a_leg_and_past_nights_stay_as_played(n, legs, missed, data):
    schedule = round_robin(field(n), legs=legs)
    from_night = data.draw(st.integers(min_value=1, max_value=schedule.nights + 1))
    joined = add_team(schedule, "NEW", from_night=from_night, missed=missed)
    assert_every_pair_meets_once_a_leg(joined)
    assert_nobody_plays_twice_a_night(joined)
    past = {f.key: f for f in schedule.fixtures if f.night < from_night}
    assert {f.key: f for f in joined.fixtures if f.key in past} == past
    new = joined.of("NEW")
    played_new = [f for f in new if f.to_play]
    assert all(f.night >= from_night for f in played_new)
    if missed is Missed.FORFEIT:
        assert all(f.walkover_to == f.opponent("NEW") for f in new if not f.to_play)
        assert not any(f.make_up for f in new)
    else:
        assert all(f.to_play for f in new)
    if n % 2:  # the joiner takes the bye: the nights still to come keep their matches
        coming = {f.key: f.night for f in schedule.fixtures if f.night >= from_night}
        assert {f.key: f.night for f in joined.fixtures if f.key in coming} == coming


def test_a_joiner_in_an_odd_field_plays_the_resting_team_and_makes_up_the_missed_nights():
    schedule = round_robin(["A", "B", "C"])  # one team rests each night
    rests = {night: schedule.resting_on(night) for night in (1, 2, 3)}
    joined = add_team(schedule, "D", from_night=2, missed=Missed.MAKE_UP)
    for night in (2, 3):
        (match,) = [f for f in joined.on_night(night) if "D" in f.teams]
        assert match.opponent("D") in rests[night] and not match.make_up
    (make_up,) = [f for f in joined.of("D") if f.make_up]
    assert make_up.opponent("D") == rests[1][0] and make_up.night == 4
    assert joined.resting_on(1) == rests[1]  # D had not joined yet


def test_a_joiner_forfeits_the_missed_nights_when_the_director_says_so():
    schedule = round_robin(["A", "B", "C"])
    joined = add_team(schedule, "D", from_night=3, missed=Missed.FORFEIT)
    forfeits = [f for f in joined.of("D") if not f.to_play]
    assert sorted(f.walkover_to for f in forfeits) == sorted(schedule.resting_on(1) + schedule.resting_on(2))
    assert joined.nights == 3


@pytest.mark.parametrize("played", list(PlayedResults))
def test_a_withdrawn_team_leaves_walkovers_and_its_played_matches_stand_or_are_voided(played):
    schedule = round_robin(["A", "B", "C", "D"], legs=2)
    gone = withdraw(schedule, "B", from_night=3, played=played)
    for f in gone.of("B"):
        if f.night >= 3:
            assert f.walkover_to == f.opponent("B") and not f.void
        else:
            assert f.walkover_to is None and f.void is (played is PlayedResults.VOID)
    assert all(f.to_play for f in gone.fixtures if "B" not in f.teams)
    assert "B" not in gone.resting_on(3) and "B" not in gone.playing_on(3)
    with pytest.raises(ScheduleError, match="withdrawn already"):
        withdraw(gone, "B", from_night=4, played=played)


def test_a_walkover_cannot_be_postponed():
    gone = withdraw(round_robin(["A", "B", "C", "D"]), "B", from_night=1, played=PlayedResults.STAND)
    key = next(f.key for f in gone.of("B"))
    with pytest.raises(ScheduleError, match="decided already"):
        postpone(gone, key, to_night=4)


def test_a_team_given_a_walkover_that_night_is_not_resting():
    gone = withdraw(round_robin(["A", "B", "C", "D", "E"]), "B", from_night=2, played=PlayedResults.STAND)
    (walkover,) = (f for f in gone.on_night(2) if not f.to_play)
    winner = walkover.walkover_to
    assert winner not in gone.resting_on(2) and winner not in gone.playing_on(2)
    assert len(gone.resting_on(2)) == 1  # the bye of the odd field, as before the withdrawal


@settings(max_examples=examples(60), deadline=None)
@given(n=sizes, legs=legs, first=st.integers(min_value=1, max_value=8))
def test_the_night_offered_for_a_postponement_is_the_first_free_one_and_postpone_takes_it(n, legs, first):
    schedule = round_robin(field(n), legs=legs)
    first = min(first, schedule.nights + 1)  # the first night not opened is at most a new one
    offered = free_nights(schedule, first=first)
    for match in schedule.fixtures[:20]:
        night = offered[match.key]
        assert night >= first and night != match.night
        earlier = range(first, night)
        assert all(k == match.night or schedule.playing_on(k) & set(match.teams) for k in earlier)
        assert postpone(schedule, match.key, to_night=night).fixture(match.key).night == night


def test_a_postponement_is_offered_a_new_night_when_no_night_is_free():
    schedule = round_robin(["A", "B", "C", "D"])  # everyone plays every night
    assert set(free_nights(schedule, first=2).values()) == {schedule.nights + 1}
