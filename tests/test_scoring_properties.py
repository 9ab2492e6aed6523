"""Properties of the engine that hold for every legal hand (hypothesis)."""

import random
from dataclasses import fields

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import Game, HandResult, PlayerHand, SideHand, SideResult, hand, score_hand
from scoring.hand import is_nil
from scoring.presets import PRESETS
from scoring.random_hands import random_hand
from tests.conftest import examples
from tests.hands import offending

presets = st.sampled_from(sorted(PRESETS))
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def _play(name: str, seed: int, hands: int) -> Game:
    rules, rng = PRESETS[name].rules, random.Random(seed)
    game = Game(rules)
    for _ in range(hands):
        if game.over:
            break
        game = game.play(random_hand(rules, rng, scores=game.scores))
    return game


@settings(max_examples=examples(200), deadline=None)
@given(seed=seeds, hands=st.integers(min_value=1, max_value=40))
def test_with_carried_bags_and_no_nils_a_positive_scores_last_digit_is_the_bag_count(seed, hands):
    rules, rng = PRESETS["progressive-500"].rules, random.Random(seed)
    game = Game(rules)
    for _ in range(hands):
        if game.over:
            break
        game = game.play(random_hand(rules, rng, scores=game.scores, nil_chance=0))
        for team in range(2):
            assert game.scores[team] % 10 == game.bags[team]
            if game.scores[team] > 0:
                assert str(game.scores[team])[-1] == str(game.bags[team])


@settings(max_examples=examples(300), deadline=None)
@given(name=presets, seed=seeds, hands=st.integers(min_value=1, max_value=15))
def test_score_is_the_sum_of_each_hands_points_and_bags_stay_under_the_limit(name, seed, hands):
    game = _play(name, seed, hands)
    for team in range(2):
        assert game.scores[team] == sum(hand.teams[team].points for hand in game.hands)
        limit = game.rules.bag_limit
        assert game.bags[team] >= 0 and (limit is None or game.bags[team] < limit)
        assert all(hand.teams[team].bag_penalty <= 0 for hand in game.hands)


@settings(max_examples=examples(300), deadline=None)
@given(name=presets, seed=seeds, score_a=st.integers(-300, 600), score_b=st.integers(-300, 600))
def test_swapping_the_sides_swaps_the_result(name, seed, score_a, score_b):
    rules = PRESETS[name].rules
    first, second = random_hand(rules, random.Random(seed), scores=(score_a, score_b))
    a, b = SideHand(first, score=score_a), SideHand(second, score=score_b)
    forward, backward = score_hand(rules, [a, b]), score_hand(rules, [b, a])
    assert forward.teams == backward.teams[::-1]
    assert forward.game_over == backward.game_over
    if forward.winner is not None:
        assert backward.winner == 1 - forward.winner


@settings(max_examples=examples(300), deadline=None)
@given(name=presets, seed=seeds)
def test_one_more_trick_never_costs_a_side_without_nil_or_bag_limit_points(name, seed):
    rules = PRESETS[name].rules
    if rules.bag_limit is not None:
        return
    first, second = random_hand(rules, random.Random(seed), nil_chance=0)
    if any(is_nil(rules, p.bid) for p in (*first, *second)) or second[0].tricks == 0:
        return
    more = (PlayerHand(first[0].bid, first[0].tricks + 1), first[1])
    fewer = (PlayerHand(second[0].bid, second[0].tricks - 1), second[1])
    before = score_hand(rules, [SideHand(first), SideHand(second)]).teams[0].points
    after = score_hand(rules, [SideHand(more), SideHand(fewer)]).teams[0].points
    assert after >= before


@settings(max_examples=examples(200), deadline=None)
@given(name=presets, seed=seeds)
def test_a_finished_game_has_a_winner_with_the_higher_score(name, seed):
    game = _play(name, seed, 200)
    assert game.over
    winner = game.winner
    assert winner is not None and game.scores[winner] > game.scores[1 - winner]


@settings(max_examples=examples(300), deadline=None)
@given(name=presets, seed=seeds, reneges=st.integers(min_value=1, max_value=2))
def test_the_other_sides_reneg_never_costs_a_side_unless_received_tricks_can_bag_it_out(name, seed, reneges):
    rules = PRESETS[name].rules
    first, second = random_hand(rules, random.Random(seed))
    clean = score_hand(rules, [SideHand(first), SideHand(second)]).teams[1]
    fouled = score_hand(rules, [offending(rules, first, reneges=reneges), SideHand(second)]).teams[1]
    if rules.bag_limit is None or rules.reneg_trick_points is not None or rules.reneg_tricks_to == "nobody":
        assert fouled.points >= clean.points
    if rules.reneg_tricks_to == "nobody" and not rules.reneg_points_to_opponents:
        assert fouled == clean


@settings(max_examples=examples(200), deadline=None)
@given(name=presets, seed=seeds, reneges=st.tuples(st.integers(0, 2), st.integers(0, 2)))
def test_swapping_the_sides_swaps_the_result_with_reneges(name, seed, reneges):
    rules = PRESETS[name].rules
    first, second = random_hand(rules, random.Random(seed))
    a, b = offending(rules, first, reneges=reneges[0]), offending(rules, second, reneges=reneges[1])
    assert score_hand(rules, [a, b]).teams == score_hand(rules, [b, a]).teams[::-1]


@settings(max_examples=examples(200), deadline=None)
@given(name=presets, seed=seeds, reneges=st.integers(min_value=0, max_value=2))
def test_a_scored_hands_results_are_the_values_their_classes_build(name, seed, reneges):
    # The engine builds its results without their dataclasses' __init__ (for speed): scored again
    # with the classes' own constructors, every result must be the same value, field by field.
    rules, rng = PRESETS[name].rules, random.Random(seed)
    first, second = random_hand(rules, rng)
    sides = [offending(rules, first, reneges=reneges), SideHand(second)]
    fast = score_hand(rules, sides)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(hand, "_side_result", SideResult)
        patch.setattr(hand, "_hand_result", HandResult)
        built = score_hand(rules, sides)
    assert fast == built and hash(fast) == hash(built) and repr(fast) == repr(built)
    for cls, ours, theirs in [
        (HandResult, fast, built),
        *((SideResult, a, b) for a, b in zip(fast.teams, built.teams, strict=True)),
    ]:
        assert {f.name: getattr(ours, f.name) for f in fields(cls)} == {
            f.name: getattr(theirs, f.name) for f in fields(cls)
        }
        assert set(vars(ours)) >= {f.name for f in fields(cls)}
    assert [side.lines for side in fast.teams] == [side.lines for side in built.teams]
