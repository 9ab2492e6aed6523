"""Knockout brackets (single and double elimination), as pure values."""

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import examples
from tournament.formats.knockout.bracket import (
    Bracket,
    BracketState,
    Stage,
    Status,
    director_seeding,
    double_elimination,
    places_so_far,
    random_seeding,
    resolve,
    seed_order,
    single_elimination,
)

SIZES = range(2, 65)


def play(bracket: Bracket, rng: random.Random) -> tuple[BracketState, list[str]]:
    """Play the bracket to its end, each match's winner drawn by ``rng``; the keys in playing order."""
    seeds = [f"T{n}" for n in range(1, bracket.teams + 1)]
    results: dict[str, str] = {}
    while ready := resolve(bracket, seeds, results).ready():
        match = rng.choice(ready)  # any ready match may finish first
        results[match.slot.key] = rng.choice(match.teams)
    return resolve(bracket, seeds, results), list(results)


def played(state: BracketState) -> list:
    return [m for m in state.matches if m.status == Status.DECIDED]


@pytest.mark.parametrize("teams", SIZES)
def test_single_elimination_byes_go_to_the_top_seeds_in_round_one_only(teams):
    bracket = single_elimination(teams)
    byes = [slot for slot in bracket.slots if slot.is_bye]
    assert all(slot.stage == Stage.WINNERS and slot.round == 1 for slot in byes)
    size = 1 << (teams - 1).bit_length()
    assert sorted(slot.sides[0].ref for slot in byes) == list(range(1, size - teams + 1))
    assert len(bracket.matches) == teams - 1


@given(teams=st.integers(2, 64), third_place=st.booleans(), rng=st.randoms(use_true_random=False))
@settings(max_examples=examples(150), deadline=None)
def test_single_elimination_plays_n_minus_1_matches_and_every_team_but_the_champion_loses_once(teams, third_place, rng):
    state, _ = play(single_elimination(teams, third_place=third_place), rng)
    assert state.finished
    with_third = third_place and teams >= 4
    assert len(played(state)) == teams - 1 + with_third
    losses = {}
    for match in played(state):
        if match.slot.stage != Stage.THIRD_PLACE:
            losses[match.loser] = losses.get(match.loser, 0) + 1
    assert state.champion not in losses
    assert set(losses) == {f"T{n}" for n in range(1, teams + 1)} - {state.champion}
    assert set(losses.values()) == {1}


@given(teams=st.integers(2, 64), rng=st.randoms(use_true_random=False))
@settings(max_examples=examples(150), deadline=None)
def test_double_elimination_every_team_but_the_champion_leaves_after_exactly_two_losses(teams, rng):
    state, order = play(double_elimination(teams), rng)
    assert state.finished
    losses = Counter(match.loser for match in played(state))
    assert losses.get(state.champion, 0) <= 1
    assert {team: n for team, n in losses.items() if team != state.champion} == {
        f"T{n}": 2 for n in range(1, teams + 1) if f"T{n}" != state.champion
    }
    second_final = state.match("F2").status == Status.DECIDED
    assert len(order) == 2 * teams - 2 + second_final


@pytest.mark.parametrize("teams", SIZES)
def test_every_field_size_plays_to_a_champion_in_both_formats(teams):
    """One deterministic playthrough for every size, beside the random ones above."""
    for bracket in (single_elimination(teams, third_place=True), double_elimination(teams)):
        state, _ = play(bracket, random.Random(teams))
        assert state.finished and state.champion is not None
        assert sum(len(p.teams) for p in state.places()) == teams


@given(teams=st.integers(2, 64), double=st.booleans(), rng=st.randoms(use_true_random=False))
@settings(max_examples=examples(40), deadline=None)
def test_a_teams_place_is_known_from_the_moment_it_goes_out_and_never_changes(teams, double, rng):
    bracket = double_elimination(teams) if double else single_elimination(teams, third_place=rng.random() < 0.5)
    final, order = play(bracket, rng)
    places = {team: p.place for p in final.places() for team in p.teams}
    knocked_out = Stage.LOSERS if double else Stage.WINNERS
    third_place_teams = {team for m in final.matches if m.slot.stage == Stage.THIRD_PLACE for team in m.teams}
    seeds = [f"T{n}" for n in range(1, teams + 1)]
    results = {key: final.match(key).winner for key in order}
    for step in range(len(order)):
        so_far = places_so_far(bracket, seeds, {key: results[key] for key in order[:step]})
        assert all(places[team] == p.place for p in so_far for team in p.teams)
        out = {m.loser for key in order[:step] if (m := final.match(key)).slot.stage == knocked_out}
        assert out - {team for p in so_far for team in p.teams} <= third_place_teams
    assert places_so_far(bracket, seeds, results) == final.places()


def test_the_second_final_is_played_only_when_the_losers_bracket_team_wins_the_first():
    bracket = double_elimination(4)
    seeds = ["A", "B", "C", "D"]
    # A wins the winners' bracket; C comes through the losers' bracket.
    results = {"W1-1": "A", "W1-2": "B", "W2-1": "A", "L1-1": "D", "L2-1": "B"}
    assert [m.slot.key for m in resolve(bracket, seeds, results).ready()] == ["F1"]
    won_by_a = resolve(bracket, seeds, {**results, "F1": "A"})
    assert won_by_a.finished and won_by_a.champion == "A"
    assert won_by_a.match("F2").status == Status.NOT_NEEDED
    won_by_b = resolve(bracket, seeds, {**results, "F1": "B"})
    assert not won_by_b.finished
    assert won_by_b.match("F2").teams == ("A", "B")
    final = resolve(bracket, seeds, {**results, "F1": "B", "F2": "B"})
    assert final.champion == "B"
    assert [(p.place, p.teams) for p in final.places()] == [(1, ("B",)), (2, ("A",)), (3, ("D",)), (4, ("C",))]


def test_semi_final_losers_share_third_without_a_third_place_match():
    state, _ = play(single_elimination(8), random.Random(3))
    places = state.places()
    assert [(p.place, len(p.teams)) for p in places] == [(1, 1), (2, 1), (3, 2), (5, 4)]


def test_the_third_place_match_decides_third_and_fourth():
    bracket = single_elimination(4, third_place=True)
    results = {"W1-1": "A", "W1-2": "B", "3P": "D", "F1": "B"}
    state = resolve(bracket, ["A", "B", "C", "D"], results)
    assert [(p.place, p.teams) for p in state.places()] == [(1, ("B",)), (2, ("A",)), (3, ("D",)), (4, ("C",))]


def test_a_three_team_field_has_no_third_place_match():
    assert not single_elimination(3, third_place=True).third_place


def test_seed_order_keeps_the_top_two_seeds_apart_until_the_final():
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]


def test_a_result_for_a_match_not_ready_is_refused():
    with pytest.raises(ValueError, match="not ready"):
        resolve(single_elimination(4), ["A", "B", "C", "D"], {"F1": "A"})
    with pytest.raises(ValueError, match="does not play"):
        resolve(single_elimination(4), ["A", "B", "C", "D"], {"W1-1": "B"})


def test_random_seeding_is_reproducible_from_its_seed():
    teams = list(range(1, 17))
    assert random_seeding(teams, 7) == random_seeding(teams, 7)
    assert random_seeding(teams, 7) != random_seeding(teams, 8)
    assert sorted(random_seeding(teams, 7)) == teams


def test_director_seeding_needs_each_seed_once():
    assert director_seeding(["A", "B", "C"], {"A": 3, "B": 1, "C": 2}) == ["B", "C", "A"]
    with pytest.raises(ValueError, match="exactly one seed"):
        director_seeding(["A", "B", "C"], {"A": 1, "B": 1, "C": 2})


def test_a_bracket_needs_two_teams():
    with pytest.raises(ValueError, match="at least two"):
        single_elimination(1)


QUARTERS = [f"Quarter-final, match {n}" for n in range(2, 6)]
DOUBLE_4 = ["Winners' round 1, match 1", "Winners' round 1, match 2", "Winners' final", "Losers' round 1, match 4"]


@pytest.mark.parametrize(
    ("shape", "names"),
    [
        (single_elimination(2), ["Final"]),
        (single_elimination(3), ["Semi-final, match 1", "Final"]),
        (
            single_elimination(4, third_place=True),
            ["Semi-final, match 1", "Semi-final, match 2", "Third-place match", "Final"],
        ),
        (single_elimination(5), ["Quarter-final, match 1", "Semi-final, match 2", "Semi-final, match 3", "Final"]),
        (single_elimination(9), ["Round 1, match 1", *QUARTERS, "Semi-final, match 6", "Semi-final, match 7", "Final"]),
        (double_elimination(2), ["Winners' final", "Final", "Second final"]),
        (double_elimination(4), [*DOUBLE_4, "Losers' final", "Final", "Second final"]),
    ],
)
def test_a_match_is_named_by_its_round_counted_back_from_the_final_and_its_number(shape, names):
    assert [shape.match_name(slot.stage, slot.round, n) for n, slot in enumerate(shape.matches, start=1)] == names


@pytest.mark.parametrize("teams", SIZES)
@pytest.mark.parametrize("double", [False, True])
def test_every_match_of_every_bracket_has_a_name_of_its_own_and_every_round_a_title(teams, double):
    shape = double_elimination(teams) if double else single_elimination(teams, third_place=True)
    names = [shape.match_name(slot.stage, slot.round, n) for n, slot in enumerate(shape.matches, start=1)]
    assert len(set(names)) == len(names)
    rounds = {(slot.stage, slot.round) for slot in shape.slots}
    assert len({shape.column_title(stage, round_) for stage, round_ in rounds}) == len(rounds)
    assert names.count("Final") == 1
    before_final = {name.split(",")[0] for name in names} & {"Semi-final", "Quarter-final"}
    assert len(before_final) == (0 if double else min(2, (teams - 1).bit_length() - 1))


def test_a_rounds_column_title_is_plural_where_its_name_is_a_kind_of_match():
    shape = single_elimination(8, third_place=True)
    rounds = dict.fromkeys((slot.stage, slot.round) for slot in shape.slots)  # in playing order
    titles = [shape.column_title(stage, round_) for stage, round_ in rounds]
    assert titles == ["Quarter-finals", "Semi-finals", "Third place", "Final"]
