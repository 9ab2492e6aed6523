"""Every worked example and stated rule of the five rule texts, scored by the engine.

Each test names the text it comes from (000 … 004, see shared/rule-texts/README.md).
"""

import dataclasses

import pytest

from scoring import Game, InvalidHand, PlayerHand
from scoring.hand import side_contract
from scoring.presets import PRESETS
from scoring.vectors import BID_7, BIG_NIL_VALUES_004, BOTH_NIL_001, BOTH_NIL_004, NIL_SITUATIONS, OUTCOMES, SANDBAG_337
from tests.hands import offending, score, side

# --- 003: tournament rules, "advancing winners" and standard tournament play ---------------


def test_003_bidding_example_adds_partners_bids_into_each_sides_contract():
    # South deals; West bids 3; North bids 1; East bids 4; South bids 4.
    rules = PRESETS["progressive"].rules
    north_south = [PlayerHand(1, 0), PlayerHand(4, 0)]
    east_west = [PlayerHand(4, 0), PlayerHand(3, 0)]
    assert side_contract(rules, north_south) == 5
    assert side_contract(rules, east_west) == 7


# The tables of stated numbers live in scoring/vectors.py: the phone's scorer.js runs them too.
@pytest.mark.parametrize(("won", "points", "bag_penalty", "new_score", "bags"), SANDBAG_337)
def test_003_sandbag_example_337_bids_5(won, points, bag_penalty, new_score, bags):
    us = side((3, won - 3), (2, 3), score=337, bags=7)
    them = side((2, 13 - won), (2, 0))
    result = score("progressive-500", us, them).teams[0]
    assert (result.points, result.bag_penalty, result.score, result.bags) == (points, bag_penalty, new_score, bags)
    assert result.made


def test_003_made_bid_scores_ten_a_trick_and_one_an_overtrick():
    result = score("progressive", side((3, 4), (2, 3)), side((3, 3), (3, 3))).teams
    assert (result[0].points, result[1].points) == (52, 60)


def test_003_set_side_loses_ten_for_each_trick_bid():
    result = score("progressive", side((4, 2), (3, 2)), side((2, 5), (2, 4))).teams[0]
    assert result.points == -70
    assert not result.made


def test_003_progressive_round_has_no_nil_so_zero_is_an_ordinary_bid():
    result = score("progressive", side((0, 1), (4, 4)), side((4, 4), (4, 4))).teams[0]
    assert result.points == 41  # contract 4, took 5: the bidder of 0 just took an overtrick
    with pytest.raises(InvalidHand, match="nil is not a bid"):
        score("progressive", side(("nil", 0), (4, 5)), side((4, 4), (4, 4)))


def test_003_progressive_round_has_no_bag_penalty():
    result = score("progressive", side((1, 6), (1, 5), bags=9), side((1, 1), (1, 1))).teams[0]
    assert (result.points, result.bag_penalty, result.bags) == (20 + 9, 0, 18)


def test_003_progressive_round_ends_after_four_hands_higher_side_wins():
    game = Game(PRESETS["progressive"].rules)
    for _ in range(4):
        assert not game.over
        game = game.play((side((3, 4), (3, 3)).players, side((3, 3), (3, 3)).players))
    assert game.over and game.winner == 0
    with pytest.raises(InvalidHand, match="game is over"):
        game.play((side((3, 4), (3, 3)).players, side((3, 3), (3, 3)).players))


def test_003_tied_progressive_round_plays_one_more_hand():
    game = Game(PRESETS["progressive"].rules)
    even = (side((3, 3), (3, 3)).players, side((3, 4), (3, 3)).players)
    swapped = (even[1], even[0])
    for players in (even, swapped, even, swapped):
        game = game.play(players)
    assert game.scores == (60 + 61 + 60 + 61,) * 2
    assert game.tied and not game.over
    game = game.play(even)
    assert game.over and game.winner == 1


def test_003_nil_made_adds_100_to_the_partners_score():
    result = score("progressive-500", side(("nil", 0), (4, 4)), side((4, 5), (4, 4))).teams[0]
    assert result.points == 100 + 40


def test_003_failed_nil_loses_100_but_keeps_partners_score_and_its_tricks_are_bags():
    # The usual rule: the nil bidder's tricks do not help the partner but count as bags.
    result = score("progressive-500", side(("nil", 2), (4, 4)), side((3, 4), (3, 3))).teams[0]
    assert result.points == -100 + 40 + 2
    assert result.bags == 2
    assert result.made


def test_003_failed_nils_tricks_do_not_rescue_a_set_partner():
    result = score("progressive-500", side(("nil", 2), (5, 4)), side((3, 4), (3, 3))).teams[0]
    assert result.points == -100 - 50 + 2
    assert not result.made


def test_003_blind_nil_wins_or_loses_200():
    made = score("progressive-500", side(("blind_nil", 0), (4, 4), score=100), side((4, 5), (4, 4), score=250))
    failed = score("progressive-500", side(("blind_nil", 1), (4, 4), score=100), side((4, 4), (4, 4), score=250))
    assert made.teams[0].points == 200 + 40
    assert failed.teams[0].points == -200 + 40 + 1


def test_003_blind_nil_refused_when_not_trailing_by_100():
    with pytest.raises(InvalidHand) as refused:
        score("progressive-500", side(("blind_nil", 0), (4, 4), score=200), side((4, 5), (4, 4), score=299))
    assert (refused.value.team, refused.value.player, refused.value.field) == (1, 1, "bid")
    assert "trail by at least 100" in refused.value.message


def test_003_blind_nil_allowed_when_trailing_by_exactly_100():
    result = score("progressive-500", side(("blind_nil", 0), (4, 4), score=200), side((4, 5), (4, 4), score=300))
    assert result.teams[0].points == 240


def test_003_nil_is_the_only_way_to_bid_no_tricks_in_500_play():
    result = score("progressive-500", side((0, 0), (4, 4)), side((4, 5), (4, 4))).teams[0]
    assert result.points == 140  # a bid of 0 is a nil


def outcomes(rules: str) -> list[tuple]:
    return [(scores, outcome) for name, scores, outcome in OUTCOMES if name == rules]


@pytest.mark.parametrize(("scores", "outcome"), outcomes("progressive-500"))
def test_003_game_to_500_higher_side_wins_when_both_reach_it(scores, outcome):
    assert PRESETS["progressive-500"].rules.outcome(scores) == outcome


# --- 004: league rules, games to 300 and the championship to 500 ----------------------------


@pytest.mark.parametrize(("took", "points"), BID_7)
def test_004_scoring_examples_bid_7(took, points):
    result = score("league-300", side((4, took - 3), (3, 3)), side((4, 13 - took), (3, 0))).teams[0]
    assert result.points == points


@pytest.mark.parametrize(("preset", "nil_tricks", "partner_tricks", "points"), NIL_SITUATIONS)
def test_004_nil_situations_partner_bids_5(preset, nil_tricks, partner_tricks, points):
    them = side((4, 13 - nil_tricks - partner_tricks), (4, 0))
    result = score(preset, side(("nil", nil_tricks), (5, partner_tricks)), them).teams[0]
    assert result.points == points
    assert result.bags == 0  # a failed nil's trick counts for nothing in the league


@pytest.mark.parametrize(("preset", "tricks", "points"), BOTH_NIL_004)
def test_004_both_partners_nil(preset, tricks, points):
    them = side((6, 13 - sum(tricks)), (4, 0))
    result = score(preset, side(("nil", tricks[0]), ("nil", tricks[1])), them).teams[0]
    assert result.points == points


@pytest.mark.parametrize(("preset", "value"), BIG_NIL_VALUES_004)
def test_004_blind_nil_value_and_100_point_deficit(preset, value):
    made = score(preset, side(("blind_nil", 0), (5, 5), score=0), side((4, 8), (4, 0), score=100))
    failed = score(preset, side(("blind_nil", 1), (5, 5), score=0), side((4, 7), (4, 0), score=100))
    assert made.teams[0].points == value + 50
    assert failed.teams[0].points == -value + 50
    with pytest.raises(InvalidHand, match="trail by at least 100"):
        score(preset, side(("blind_nil", 0), (5, 5), score=1), side((4, 8), (4, 0), score=100))


@pytest.mark.parametrize(("preset", "value"), BIG_NIL_VALUES_004)
def test_004_ten_for_200_scores_and_loses_the_same_amount(preset, value):
    exact = score(preset, side((6, 6), (4, 4)), side((4, 3), (1, 0))).teams[0]
    over = score(preset, side((6, 7), (4, 4)), side((4, 2), (1, 0))).teams[0]
    set_ = score(preset, side((6, 5), (4, 4)), side((4, 4), (1, 0))).teams[0]
    assert (exact.points, over.points, over.bags, set_.points) == (value, value + 1, 1, -value)


def test_004_sixth_sandbag_costs_60_and_the_count_resets_to_zero():
    on_sixth = score("league-300", side((3, 4), (2, 2), bags=5), side((4, 7), (4, 0))).teams[0]
    past_sixth = score("league-300", side((3, 6), (2, 2), bags=5), side((4, 5), (4, 0))).teams[0]
    assert (on_sixth.points, on_sixth.bag_penalty, on_sixth.bags) == (51 - 60, -60, 0)
    assert (past_sixth.points, past_sixth.bag_penalty, past_sixth.bags) == (53 - 60, -60, 0)  # excess dropped


def test_004_championship_bag_limit_is_ten_costing_100():
    result = score("championship-500", side((3, 4), (2, 2), bags=9), side((4, 7), (4, 0))).teams[0]
    assert (result.points, result.bag_penalty, result.bags) == (51 - 100, -100, 0)


def test_004_each_team_bids_at_least_four():
    with pytest.raises(InvalidHand) as refused:
        score("league-300", side((2, 4), (1, 2)), side((4, 7), (4, 0)))
    assert (refused.value.team, refused.value.field) == (1, "bid")
    assert "at least 4" in refused.value.message


def test_004_nil_bidders_partner_must_still_bid_four():
    with pytest.raises(InvalidHand, match="partner alone must reach it"):
        score("league-300", side(("nil", 0), (3, 3)), side((5, 10), (4, 0)))


def test_004_both_partners_nil_is_exempt_from_the_team_minimum():
    result = score("league-300", side(("nil", 0), ("nil", 0)), side((5, 13), (4, 0))).teams[0]
    assert result.points == 120


def test_004_reneg_forfeits_3_tricks_and_gives_the_opponents_30():
    # The offender took 7 on a bid of 5; 3 tricks come off, so it is set on its original bid.
    result = score("league-300", side((3, 5), (2, 2), reneges=1), side((4, 6), (2, 0))).teams
    assert result[0].points == -50
    assert result[0].bags == 0
    assert result[1].points == 60 + 30


def test_004_reneg_offender_that_still_makes_its_bid_scores_it():
    result = score("league-300", side((3, 6), (2, 3), reneges=1), side((2, 4), (2, 0))).teams
    assert result[0].points == 50 + 1  # 9 taken, 6 counted: one overtrick
    assert result[1].points == 40 + 30


@pytest.mark.parametrize(("scores", "outcome"), outcomes("league-300"))
def test_004_game_to_300_highest_score_wins_and_a_tie_plays_the_next_hand(scores, outcome):
    assert PRESETS["league-300"].rules.outcome(scores) == outcome


def test_004_league_plays_with_jokers_and_a_30_minute_limit():
    league, championship = PRESETS["league-300"].rules, PRESETS["championship-500"].rules
    assert (league.deck, league.time_limit_minutes, league.target_score) == ("jokers", 30, 300)
    assert (championship.deck, championship.target_score) == ("jokers", 500)


# --- 002: the friendly tournament flyer ------------------------------------------------------


def test_002_every_player_bids_at_least_one_unless_nil():
    result = score("friendly", side((0, 0), (4, 4)), side((4, 5), (4, 4))).teams[0]
    assert result.points == 140  # 0 is a nil


def test_002_a_player_who_fails_their_bid_scores_zero_and_the_partner_keeps_theirs():
    result = score("friendly", side((3, 2), (3, 3)), side((3, 4), (3, 4))).teams[0]
    assert (result.points, result.made) == (30, False)


def test_002_a_set_side_scores_zero_as_a_side_contract():
    rules = dataclasses.replace(PRESETS["friendly"].rules, contract="side")
    result = score(rules, side((3, 2), (3, 3)), side((3, 4), (3, 4))).teams[0]
    assert (result.points, result.made) == (0, False)


def test_002_nil_wins_or_loses_100():
    made = score("friendly", side(("nil", 0), (4, 4)), side((4, 5), (4, 4))).teams[0]
    failed = score("friendly", side(("nil", 1), (4, 4)), side((4, 4), (4, 4))).teams[0]
    assert (made.points, failed.points) == (140, -100 + 40 + 1)


def test_002_blind_nil_wins_or_loses_300():
    made = score("friendly", side(("blind_nil", 0), (4, 4), score=0), side((4, 5), (4, 4), score=150)).teams[0]
    failed = score("friendly", side(("blind_nil", 2), (4, 4), score=0), side((4, 4), (3, 3), score=150)).teams[0]
    assert (made.points, failed.points) == (340, -300 + 40 + 2)


def test_002_ten_books_for_200_or_lose_200():
    made = score("friendly", side((5, 6), (5, 5)), side((1, 2), (1, 0))).teams[0]
    set_ = score("friendly", side((5, 5), (5, 4)), side((1, 4), (1, 0))).teams[0]
    assert (made.points, set_.points) == (201, -200)


def test_002_ten_bags_cost_100_and_a_side_can_bag_out_again():
    first = score("friendly", side((2, 4), (2, 4), bags=6), side((2, 5), (1, 0))).teams[0]
    assert (first.points, first.bag_penalty, first.bags) == (44 - 100, -100, 0)
    twice = score("friendly", side((1, 7), (1, 6), bags=9), side((0, 0), (0, 0)))
    assert (twice.teams[0].bag_penalty, twice.teams[0].bags) == (-200, 0)  # 9 + 11 = 20: two penalties


def test_002_reneg_costs_the_reneging_player_3_books_that_score_for_nobody():
    # North bid 3 and took 4 but reneged: 1 counted, set (0); South made 2; East–West unchanged.
    rules = PRESETS["friendly"].rules
    result = score(rules, offending(rules, (PlayerHand(3, 4), PlayerHand(2, 2)), reneges=1),
                   side((3, 4), (3, 3))).teams  # fmt: skip
    assert result[0].points == 20
    assert result[1].points == 61  # its own 6 bid and 1 overtrick; no reneg points in this text


def test_002_table_talk_removes_one_book_per_incident_from_the_talkers_tricks():
    rules = PRESETS["friendly"].rules
    once = score(rules, offending(rules, (PlayerHand(3, 3), PlayerHand(2, 3)), table_talk=1),
                 side((3, 4), (3, 3))).teams[0]  # fmt: skip
    twice = score(rules, offending(rules, (PlayerHand(3, 4), PlayerHand(2, 2)), table_talk=2),
                  side((3, 4), (3, 3))).teams[0]  # fmt: skip
    assert (once.points, twice.points) == (0 + 21, 0 + 20)


def test_002_as_side_contracts_a_penalty_comes_off_the_side():
    rules = dataclasses.replace(PRESETS["friendly"].rules, contract="side")
    reneg = score(rules, side((3, 4), (2, 2), reneges=1), side((3, 4), (3, 3))).teams[0]
    once = score(rules, side((3, 3), (2, 3), table_talk=1), side((3, 4), (3, 3))).teams[0]
    twice = score(rules, side((3, 3), (2, 3), table_talk=2), side((3, 4), (3, 3))).teams[0]
    assert (reneg.points, once.points, twice.points) == (0, 50, 0)


def test_002_first_trick_is_lowest_club_and_blind_nil_passes_two_cards():
    rules = PRESETS["friendly"].rules
    assert (rules.first_lead, rules.blind_nil_exchange, rules.target_score) == ("lowest_club", 2, 500)


# --- 001: the classic rules -------------------------------------------------------------------


@pytest.mark.parametrize(("tricks", "points"), BOTH_NIL_001)
def test_001_both_partners_nil_score_200_only_if_both_make_it(tricks, points):
    result = score("classic", side(("nil", tricks[0]), ("nil", tricks[1])), side((5, 13 - sum(tricks)), (4, 0)))
    assert result.teams[0].points == points
    assert result.teams[0].bags == 0


def test_001_nil_and_double_nil_scored_apart_from_the_partner():
    nil = score("classic", side(("nil", 0), (4, 5)), side((4, 4), (4, 4))).teams[0]
    double = score("classic", side(("blind_nil", 1), (4, 4), score=0), side((4, 4), (4, 4), score=100)).teams[0]
    assert (nil.points, double.points) == (141, -200 + 40 + 1)


def test_001_nil_exchanges_three_cards_and_bags_cost_nothing():
    rules = PRESETS["classic"].rules
    assert (rules.nil_exchange, rules.blind_nil_exchange, rules.bag_limit) == (3, 3, None)
    result = score("classic", side((1, 7), (1, 6), bags=25), side((0, 0), (0, 0)))
    assert (result.teams[0].bag_penalty, result.teams[0].bags) == (0, 36)


# --- 000: the Tennessee house rules -----------------------------------------------------------


def test_000_made_bid_and_overtricks():
    result = score("tennessee", side((3, 4), (3, 3)), side((3, 3), (3, 3))).teams[0]
    assert result.points == 61


def test_000_set_side_goes_negative():
    result = score("tennessee", side((3, 2), (3, 2)), side((3, 5), (3, 4))).teams[0]
    assert result.points == -60


def test_000_nil_100_and_double_nil_200_combined_with_partners_score():
    nil = score("tennessee", side(("nil", 1), (4, 4)), side((4, 4), (4, 4))).teams[0]
    double = score("tennessee", side(("blind_nil", 0), (4, 5), score=0), side((4, 4), (4, 4), score=120)).teams[0]
    assert (nil.points, double.points) == (-100 + 40 + 1, 200 + 41)


def test_000_two_nils_are_scored_separately():
    result = score("tennessee", side(("nil", 0), ("nil", 1)), side((5, 8), (4, 4))).teams[0]
    assert result.points == 100 - 100 + 1


@pytest.mark.parametrize(("scores", "outcome"), outcomes("tennessee"))
def test_000_game_to_500_equal_totals_play_one_more_hand(scores, outcome):
    assert PRESETS["tennessee"].rules.outcome(scores) == outcome
