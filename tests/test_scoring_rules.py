"""Rule sets: the presets' fields, JSON overrides, and the field-level rules of scoring."""

import dataclasses

import pytest

from scoring import InvalidHand, InvalidRules, PlayerHand, RuleSet, rules_from_json
from scoring.parts import compared, game_end
from scoring.presets import PRESETS, readings_of
from scoring.rules import FIELD_NAMES
from scoring.vectors import BOTH_NIL_TEAM_CONTRACT, OUTCOMES
from tests.hands import offending, score, side

# preset: (target, set penalty, bag limit, bag penalty, overflow, nil, blind nil, both nil,
#          failed nil tricks, big bid points, big bid penalty, min team bid, reneg points, deck)
PRESET_TABLE = {
    "tennessee": (500, "minus_bid", None, None, "carry", 100, 200, "separate", "bags", None, None, 0, 0, "standard"),
    "classic": (
        500,
        "minus_bid",
        None,
        None,
        "carry",
        100,
        200,
        "all_or_nothing",
        "bags",
        None,
        None,
        0,
        0,
        "standard",
    ),
    "friendly": (500, "zero", 10, 100, "carry", 100, 300, "separate", "bags", 200, 200, 0, 0, "standard"),
    "progressive": (
        None,
        "minus_bid",
        None,
        None,
        "carry",
        None,
        None,
        "separate",
        "bags",
        None,
        None,
        0,
        0,
        "standard",
    ),
    "progressive-500": (500, "minus_bid", 10, 100, "carry", 100, 200, "separate", "bags", None, None, 0, 0, "standard"),
    "league-300": (300, "minus_bid", 6, 60, "reset", 60, 120, "zero_if_split", "ignored", 120, 120, 4, 30, "jokers"),
    "championship-500": (
        500,
        "minus_bid",
        10,
        100,
        "reset",
        100,
        200,
        "zero_if_split",
        "ignored",
        200,
        200,
        4,
        30,
        "jokers",
    ),
}
TABLE_FIELDS = (
    "target_score", "set_penalty", "bag_limit", "bag_penalty", "bag_overflow", "nil_points", "blind_nil_points",
    "both_nil", "failed_nil_tricks", "big_bid_points", "big_bid_penalty", "min_team_bid",
    "reneg_points_to_opponents", "deck",
)  # fmt: skip


# preset: (both nil points, blind nil name, reneg tricks to, reneg trick points, first dealer,
#          bidding starts, bid talk, card exchange)
READING_TABLE = {
    "tennessee": (None, "double nil", "opponents", None, "random", "left_of_dealer", "silent", "optional"),
    "classic": (200, "double nil", "opponents", None, "random", "dealer", "silent", "required"),
    "friendly": (None, "blind nil", "nobody", None, "random", "left_of_dealer", "bid_only", "optional_via_dealer"),
    "progressive": (None, "blind nil", "opponents", None, "random", "left_of_dealer", "silent", "optional"),
    "progressive-500": (None, "blind nil", "opponents", None, "random", "left_of_dealer", "silent", "optional"),
    "league-300": (120, "blind nil", "opponents", 0, "high_card", "non_dealing_side", "no_card_details", "optional"),
    "championship-500": (
        200,
        "blind nil",
        "opponents",
        0,
        "high_card",
        "non_dealing_side",
        "no_card_details",
        "optional",
    ),
}
READING_FIELDS = (
    "both_nil_points", "blind_nil_name", "reneg_tricks_to", "reneg_trick_points", "first_dealer", "bidding_starts",
    "bid_talk", "card_exchange",
)  # fmt: skip


@pytest.mark.parametrize(("name", "expected"), READING_TABLE.items())
def test_preset_fields_of_issue_9_match_their_rule_text(name, expected):
    rules = PRESETS[name].rules
    assert tuple(getattr(rules, field) for field in READING_FIELDS) == expected


def test_an_overridden_field_is_the_tournaments_rule_not_our_reading():
    assert "reneg" in readings_of("classic")
    assert "reneg" not in readings_of("classic", {"reneg_tricks": 2})
    assert readings_of("classic", {"reneg_tricks": 2}) == readings_of("classic") - {"reneg"}


def test_every_preset_in_the_rule_texts_exists():
    assert set(PRESETS) == set(PRESET_TABLE)


@pytest.mark.parametrize(("name", "expected"), PRESET_TABLE.items())
def test_preset_fields_match_their_rule_text(name, expected):
    rules = PRESETS[name].rules
    assert tuple(getattr(rules, field) for field in TABLE_FIELDS) == expected


@pytest.mark.parametrize("name", PRESETS)
def test_every_preset_explains_itself_and_its_silent_choices(name):
    preset = PRESETS[name]
    assert preset.title and len(preset.description) > 80


def test_progressive_rounds_are_four_hands_with_split_partners():
    rules = PRESETS["progressive"].rules
    assert (rules.hands_per_round, rules.partners, rules.min_player_bid) == (4, "split", 0)


def test_rules_from_json_applies_overrides_to_a_preset():
    rules = rules_from_json({"preset": "friendly", "bag_limit": 6, "misdeal_reasons": ["no_spades"]})
    assert rules.bag_limit == 6 and rules.set_penalty == "zero"
    assert rules.misdeal_reasons == ("no_spades",)


def test_rules_round_trip_through_json():
    for preset in PRESETS.values():
        assert rules_from_json(preset.rules.to_json()) == preset.rules


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"preset": "friendly", "bagz": 1}, "bagz"),
        ({"preset": "nope"}, "preset"),
        ({"set_penalty": "half"}, "set_penalty"),
        ({"bag_limit": "ten"}, "bag_limit"),
        ({"bag_limit": True}, "bag_limit"),
        ({"overtrick_points": None}, "overtrick_points"),
        ({"bag_limit": 5, "bag_penalty": None}, "bag_penalty"),
        ({"misdeal_reasons": ["sneezed"]}, "misdeal_reasons"),
        ({"lose_score": 600}, "lose_score"),
        ({"misdeal_reasons": [[1]]}, "misdeal_reasons"),
        ({"preset": "tennessee", "both_nil_points": 200}, "both_nil_points"),
        ({"reneg_tricks_to": "partner"}, "reneg_tricks_to"),
        ({"reneg_trick_points": 500}, "reneg_trick_points"),
        ({"blind_nil_name": "ghost nil"}, "blind_nil_name"),
        ({"bid_talk": "yes"}, "bid_talk"),
        ({"two_player_variant": 1}, "two_player_variant"),
        ({"first_dealer": "eldest"}, "first_dealer"),
    ],
)
def test_bad_rule_json_names_the_field(data, field):
    with pytest.raises(InvalidRules) as refused:
        rules_from_json(data)
    assert refused.value.field == field


def test_every_field_is_a_json_key():
    assert set(RuleSet().to_json()) == set(FIELD_NAMES)


# --- field rules not covered by a rule text's own example --------------------------------------


def test_bag_reset_drops_the_excess_but_carry_keeps_it():
    carry = RuleSet(bag_limit=6, bag_penalty=60, bag_overflow="carry")
    reset = RuleSet(bag_limit=6, bag_penalty=60, bag_overflow="reset")
    us, them = side((2, 5), (2, 4), bags=4), side((2, 4), (2, 0))
    assert score(carry, us, them).teams[0].bags == 3  # 4 + 5 = 9: one penalty, 3 carried
    assert score(reset, us, them).teams[0].bags == 0


def test_carried_bags_nine_plus_eleven_cost_two_penalties():
    rules = RuleSet(overtrick_points=1)
    result = score(rules, side((1, 7), (1, 6), bags=9), side((1, 0), (1, 0)))
    assert (result.teams[0].bag_penalty, result.teams[0].bags) == (-200, 0)


def test_overtricks_worth_nothing_still_count_as_bags():
    rules = RuleSet(overtrick_points=0)
    result = score(rules, side((3, 5), (2, 2)), side((3, 6), (2, 0))).teams[0]
    assert (result.points, result.bags) == (50, 2)


@pytest.mark.parametrize(("scores", "outcome"), [row[1:] for row in OUTCOMES if row[0] == {"lose_score": -200}])
def test_lose_score_floor_ends_the_game(scores, outcome):
    assert RuleSet(lose_score=-200).outcome(scores) == outcome


@pytest.mark.parametrize(("tricks", "points"), BOTH_NIL_TEAM_CONTRACT)
def test_both_nil_team_contract_wins_or_loses_the_sum(tricks, points):
    rules = RuleSet(both_nil="team_contract")
    result = score(rules, side(("nil", tricks[0]), ("nil", tricks[1])), side((5, 13 - sum(tricks)), (4, 0)))
    assert result.teams[0].points == points


def test_failed_nil_tricks_can_count_for_the_partner():
    rules = RuleSet(failed_nil_tricks="count_for_partner")
    result = score(rules, side(("nil", 2), (5, 3)), side((3, 6), (2, 2))).teams[0]
    assert result.points == -100 + 50  # 3 + 2 = 5: the partner's bid is made
    assert result.made


def test_failed_nil_tricks_as_bags_count_even_when_the_partner_is_set():
    result = score(RuleSet(), side(("nil", 2), (5, 3)), side((3, 6), (2, 2))).teams[0]
    assert (result.points, result.bags, result.made) == (-100 - 50 + 2, 2, False)


def test_penalty_tricks_come_off_the_nil_bidders_partner_first():
    # Partner took 2, nil took 1; a reneg takes 3: 2 off the partner, the last off the nil's bag.
    result = score("progressive-500", side(("nil", 1), (2, 2), reneges=1), side((5, 6), (4, 4))).teams[0]
    assert (result.points, result.bags) == (-100 - 20, 0)


@pytest.mark.parametrize("contract", ["side", "player"])
def test_penalty_tricks_never_go_below_zero(contract):
    rules = dataclasses.replace(PRESETS["friendly"].rules, contract=contract)
    us = offending(rules, (PlayerHand(1, 1), PlayerHand(1, 0)), reneges=1, table_talk=2)
    result = score(rules, us, side((5, 7), (5, 5))).teams[0]
    assert result.points == 0
    assert any("5 tricks taken off" in line for line in result.lines)


def test_a_made_contract_lines_explain_the_points_in_words():
    result = score("progressive-500", side((3, 5), (2, 3), score=337, bags=7), side((2, 5), (1, 0))).teams[0]
    assert result.lines == (
        "Bid 5, took 8: made, 5 × 10 = +50",
        "3 overtricks (bags): +3",
        "Bags: 7 + 3 = 10 reached the limit of 10: −100, 0 left",
    )


def test_lines_write_lost_points_with_a_true_minus_sign():
    set_ = score("progressive-500", side((4, 2), (3, 2)), side((3, 5), (3, 4))).teams[0]
    assert set_.lines == ("Bid 7, took 4: set, −70",)
    nil = score("progressive-500", side(("nil", 1), (4, 4)), side((4, 4), (4, 4))).teams[0]
    assert nil.lines[0] == "Nil failed (1 trick taken): −100"
    both = score("tennessee", side(("nil", 1), ("nil", 0)), side((6, 6), (4, 6))).teams[0]
    assert "−" in " ".join(both.lines) and "-" not in " ".join(both.lines)
    assert set_.points == -70  # the number itself stays a plain int for programs


@pytest.mark.parametrize(
    ("first", "second", "field", "player", "message"),
    [
        ((3, 4), (3, 4), "tricks", None, "total 13"),
        ((14, 4), (3, 5), "bid", 1, "from 0 to 13"),
        ((3, 4), (3, -1), "tricks", 2, "from 0 to 13"),
        (("maybe", 4), (3, 5), "bid", 1, "from 0 to 13"),
        ((3.5, 4), (3, 5), "bid", 1, "from 0 to 13"),
    ],
)
def test_bad_hands_name_the_player_field_and_rule(first, second, field, player, message):
    with pytest.raises(InvalidHand) as refused:
        score("classic", side(first, second), side((3, 2), (1, 0)))
    assert (refused.value.field, refused.value.player) == (field, player)
    assert message in refused.value.message


@pytest.mark.parametrize(
    ("us", "them", "teams", "text"),
    [
        (((1, 4), (2, 2)), ((4, 7), (4, 0)), (1,), "team 1: bid: the side must bid at least 4 tricks together"),
        (((4, 7), (4, 0)), ((1, 4), (2, 2)), (2,), "team 2: bid: the side must bid at least 4 tricks together"),
        (((1, 4), (2, 2)), ((1, 5), (2, 2)), (1, 2), "teams 1 and 2: bid: each side must bid at least 4 tricks"),
    ],
)
def test_a_short_side_bid_names_every_side_that_bid_under_the_minimum(us, them, teams, text):
    with pytest.raises(InvalidHand) as refused:
        score("league-300", side(*us), side(*them))
    assert (refused.value.code, refused.value.teams) == ("min_team_bid", teams)
    assert str(refused.value).startswith(text)


def test_friendly_bid_below_one_refused_only_for_non_nil_bids():
    with pytest.raises(InvalidHand, match="at least 4"):
        score("league-300", side((1, 4), (1, 2)), side((4, 7), (4, 0)))
    rules = RuleSet(nil_points=None, blind_nil_points=None, min_player_bid=1)
    with pytest.raises(InvalidHand, match="at least 1 unless bidding nil"):
        score(rules, side((0, 4), (3, 2)), side((4, 7), (4, 0)))


def test_negative_bags_or_infractions_are_refused():
    with pytest.raises(InvalidHand) as refused:
        score("classic", side((3, 4), (3, 4), reneges=-1), side((3, 5), (1, 0)))
    assert (refused.value.team, refused.value.field) == (1, "reneges")


@pytest.mark.parametrize(
    ("rules", "names"),
    [
        (PRESETS["friendly"].rules, ("reneg", "table talk")),
        (PRESETS["league-300"].rules, ("reneg",)),
        (RuleSet(reneg_tricks=0), ()),
        (RuleSet(reneg_tricks=0, table_talk_tricks=1), ("table talk",)),
    ],
)
def test_rules_name_the_penalties_they_have(rules, names):
    assert rules.penalties == names


def test_a_part_ending_alike_is_said_to_have_rules_of_its_own():
    classic, tennessee = rules_from_json({"preset": "classic"}), rules_from_json({"preset": "tennessee"})
    assert compared(classic, tennessee, "The final") == "The final is played under rules of its own."
    assert game_end(rules_from_json({"preset": "progressive"})) == "of 4 hands"
