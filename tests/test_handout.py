"""The rule handout says what each rule text says, marks our readings, and nothing more."""

import pytest

from scoring.describe import OUR_READING, Event, bid_name, handout, summary
from scoring.presets import PRESETS, READING_FIELDS, readings_of, rules_from_json
from scoring.rules import RuleSet
from tests.conftest import a_club
from tournament.formats.registry import format_named
from tournament.models import Tournament
from tournament.printing.documents import rule_handout


def format_sections(format: str, preset: str = "progressive", overrides: dict | None = None) -> list:
    """The handout's sections a format writes (its key as the tournament stores it; "" for none)
    for a tournament of ``preset`` with ``overrides``."""
    tournament = Tournament(format=format, preset=preset, rule_overrides=overrides or {})
    return format_named(format).handout_sections(tournament) if format else []


def sentences(
    rules: RuleSet, *, format: str = "", readings: frozenset[str] = frozenset(), preset: str = "progressive"
) -> list[str]:
    """Every title, sentence and table row of the handout, in order (the format's sections as a
    tournament of ``preset`` has them)."""
    out = []
    for section in handout(rules, readings=readings, extra=format_sections(format, preset)):
        out += [section.title, *section.paragraphs, *(" ".join(row) for row in section.table)]
        out += [example.situation for example in section.examples]
    return out


def text_of(name: str, **kwargs) -> str:
    preset = PRESETS[name]
    return " ".join(sentences(preset.rules, readings=preset.readings, **kwargs))


# A rule the fields set, and words the handout says it with: present exactly when the rule is.
RULE_PHRASES = [
    ("nil", lambda r: r.has_nil, "A nil that takes no trick wins"),
    ("no nil", lambda r: not r.has_nil, "There is no nil"),
    ("blind nil", lambda r: r.has_blind_nil, "is a nil bid before"),
    ("double nil", lambda r: r.blind_nil_name == "double nil", "double nil"),
    ("blind nil by side", lambda r: r.blind_nil_by_side, "before either partner looks"),
    ("deficit", lambda r: bool(r.blind_nil_min_deficit), "points behind"),
    ("bag limit", lambda r: r.bag_limit is not None, "bags reach"),
    ("bag reset", lambda r: r.bag_overflow == "reset" and r.bag_limit, "the count goes back to zero"),
    ("big bid", lambda r: r.big_bid is not None, "or more bid: made / set"),
    ("set scores 0", lambda r: r.set_penalty == "zero", "scores nothing for the hand"),
    ("team minimum", lambda r: r.min_team_bid > 0, "Each side must bid at least"),
    ("reneg", lambda r: r.reneg_tricks > 0, "A reneg (not following suit when able)"),
    ("reneg to nobody", lambda r: r.reneg_tricks_to == "nobody", "which score for nobody"),
    ("reneg to opponents", lambda r: r.reneg_tricks_to == "opponents", "which go to the other side"),
    ("reneg flat award", lambda r: r.reneg_points_to_opponents and not r.reneg_trick_points,
     "The other side is also awarded 30 points."),
    ("table talk", lambda r: r.table_talk_tricks > 0, "Table talk:"),
    ("talk heading", lambda r: r.table_talk_tricks > 0, "Reneg and table talk"),
    ("bid talk", lambda r: r.bid_talk == "bid_only", "only to decide their bid"),
    ("card talk", lambda r: r.bid_talk == "no_card_details", "Partners may discuss how many tricks"),
    ("nil exchange", lambda r: r.nil_exchange > 0, "After a nil,"),
    ("exchange via dealer", lambda r: r.card_exchange == "optional_via_dealer", "to the dealer, who passes them on"),
    ("both nil all or nothing", lambda r: r.both_nil == "all_or_nothing", "200 if both make it, nothing otherwise"),
    ("both nil zero if split", lambda r: r.both_nil == "zero_if_split", "scores 0 if only one does"),
    ("player contract", lambda r: r.contract == "player", "Each player's bid is scored on its own"),
    ("side contract", lambda r: r.contract == "side", "partners' bids add up to their side's contract"),
    ("cut", lambda r: r.cut == "players_in_turn", "asks the players to cut"),
    ("tricks kept", lambda r: r.has_nil or r.contract == "player", "Every trick is kept by the player who wins it"),
    ("no talk in play", lambda r: r.bid_talk == "no_card_details", "During play, partners must not discuss"),
    ("keeps score", lambda r: r.hands_per_round is not None, "keeps the table's bids and scores for the round"),
    ("bag carry", lambda r: r.bag_limit and r.bag_overflow == "carry", "carry over toward the next"),
    ("separate nils", lambda r: r.has_nil and r.both_nil == "separate", "each nil is scored on its own"),
    ("failed nil bags", lambda r: r.has_nil and r.failed_nil_tricks == "bags", "count as extra tricks (bags)"),
    ("failed nil nothing", lambda r: r.has_nil and r.failed_nil_tricks == "ignored", "takes count for nothing"),
    ("jokers", lambda r: r.deck == "jokers", "big joker, little joker"),
    ("lowest club", lambda r: r.first_lead == "lowest_club", "lowest club"),
    ("time limit", lambda r: bool(r.time_limit_minutes), "-minute limit"),
    ("target", lambda r: r.target_score is not None, "The first side to reach"),
    ("hands a round", lambda r: r.hands_per_round is not None, "A round is 4 hands"),
    ("high card", lambda r: r.first_dealer == "high_card", "draws the high card"),
    ("random dealer", lambda r: r.first_dealer == "random", "chosen at random"),
    ("left of dealer", lambda r: r.bidding_starts == "left_of_dealer", "bidding starts with the player to"),
    ("dealer first", lambda r: r.bidding_starts == "dealer", "The dealer bids first"),
    ("non-dealing side", lambda r: r.bidding_starts == "non_dealing_side", "The side that did not deal bids first"),
    ("card count any time", lambda r: r.misdeal_card_count_any_time, "at any point of the hand, the dealer declares"),
    ("no face cards", lambda r: "no_face_cards" in r.misdeal_reasons, "no face cards"),
    ("two players", lambda r: r.two_player_variant, "Spades for two"),
]  # fmt: skip


@pytest.mark.parametrize("name", PRESETS)
@pytest.mark.parametrize(("rule", "applies", "phrase"), RULE_PHRASES, ids=[row[0] for row in RULE_PHRASES])
def test_the_handout_states_each_rule_its_preset_sets_and_none_it_does_not(name, rule, applies, phrase):
    text = text_of(name).lower()
    assert (phrase.lower() in text) == bool(applies(PRESETS[name].rules)), f"{name}: {rule}"


# Words of each topic's sentence, which starts "Our reading:" when the topic is our reading.
READING_PHRASES = {
    "tie": "one more hand",
    "bids_total": "the two sides' bids need not add up to 13",
    "seating": "partners sit opposite each other",
    "trick_leads": "the winner of a trick leads to the next",
    "tricks_kept": "every trick is kept by the player who wins it",
    "misdeal_redeal": "a misdeal scores nothing",
    "no_passing": "nobody may pass",
    "failed_nil_tricks": "a failed nil bidder takes",
    "two_nils": "each nil is scored on its own",
    "no_bag_penalty": "extra tricks (bags) are counted but cost nothing",
    "bag_overflow": "bags past the",
    "big_bid_penalty": "set on such a bid",
    "big_bid_overtricks": "extra tricks over such a bid",
    "reneg": "a reneg (not following suit when able)",
    "reneg_trick_points": "count toward the receivers' bid",
    "misdeals": "before bidding starts, a player who",
    "misdeal_timing": "the text says misdeals are called before bidding starts",
    "first_dealer": "the first dealer is chosen at random",
    "bidding_starts": "bidding starts with the player to the dealer's left",
    "both_nil_exchange": "there is no exchange",
    "time_limit": "there is no time limit",
    "spades_lead": "spades may not be led until spades are broken",
    "spades_broken": "spades are broken once a spade has been played",
    "joker_ranks": "the ace of spades is the lowest trump",
    "player_bids": "a bid is a number from 1 to 13, or nil",
    "player_contract": "partners' extra tricks count together",
    "sit_out_credit": "sitting out a round is credited with",
    "tie_hand": "the extra hand that breaks a round tied",
    "movement": "partners stay together all evening",
}


def test_every_reading_topic_has_a_marked_sentence():
    assert set(READING_PHRASES) == set(READING_FIELDS)


@pytest.mark.parametrize("name", PRESETS)
def test_the_handout_marks_our_readings_and_only_those(name):
    preset = PRESETS[name]
    # Run as a progressive event, with the preset's partners: the movement's sentences are in it.
    format = f"progressive_{preset.rules.partners}"
    text = sentences(preset.rules, readings=preset.readings, format=format, preset=name)
    marked = [s.lower() for s in text if s.startswith(OUR_READING)]
    for topic, phrase in READING_PHRASES.items():
        assert any(phrase in sentence for sentence in marked) == (topic in preset.readings), f"{name}: {topic}"


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("classic", "Our reading: equal scores at that point play one more hand"),  # ties at the target
        ("tennessee", "Our reading: tricks a failed nil bidder takes do not help the partner"),  # a failed nil
        ("league-300", "Our reading: bags past the 6th in that hand are dropped"),  # bags past the limit
        ("league-300", "Our reading: set on such a bid, a side loses 120"),  # 10-for-200 set
        ("championship-500", "Our reading: set on such a bid, a side loses 200"),
    ],
)
def test_the_issue_examples_of_our_readings(name, expected):
    assert expected in text_of(name)


def test_readings_the_texts_share_are_always_marked():
    for name in PRESETS:
        text = text_of(name)
        assert "Our reading: a side's two bids together are at most 13." in text
        assert "Our reading: the same dealer deals again after a misdeal." in text


def test_a_sentence_is_marked_in_one_line_starting_our_reading():
    for name in PRESETS:
        for sentence in sentences(PRESETS[name].rules, readings=PRESETS[name].readings):
            assert OUR_READING not in sentence[1:], sentence


def test_a_rule_the_tournament_overrides_is_its_own_not_our_reading():
    overrides = {"failed_nil_tricks": "ignored"}
    rules = rules_from_json({"preset": "tennessee", **overrides})
    text = " ".join(sentences(rules, readings=readings_of("tennessee", overrides)))
    assert "Tricks a failed nil bidder takes count for nothing:" in text
    assert "Our reading: tricks a failed nil bidder" not in text
    assert "Our reading: when both partners bid" in text  # the other readings stay


# --- what each text says that the handout must say -------------------------------------------------


def test_001_no_exchange_when_both_partners_bid_nil_and_the_two_player_game():
    text = text_of("classic")
    assert "When both partners bid nil (or double nil) there is no exchange." in text
    assert "a partner who has not bid yet bids first" in text
    assert "A double nil must be bid before drawing any card." in text
    assert "Spades for two" not in text_of("tennessee")


def test_002_card_count_misdeal_at_any_time_and_the_optional_pass_through_the_dealer():
    text = text_of("friendly")
    assert "If a player is found to hold the wrong number of cards at any point of the hand, the dealer " \
           "declares a misdeal." in text  # fmt: skip
    assert "the side may pass 2 cards each to the dealer, who passes them on" in text
    assert "Before bidding starts, a player who was dealt no spades may call a misdeal." in text


def test_004_partners_may_discuss_the_bid_but_not_their_cards_and_the_misdeal_reading():
    text = text_of("league-300")
    assert "Partners may discuss how many tricks they can take, but must not say anything about their cards" in text
    assert "No talk about the hands" not in text
    assert "During play, partners must not discuss their hands across the table." in text
    misdeals = next(s for s in handout(PRESETS["league-300"].rules) if s.title == "Misdeals").paragraphs
    assert "gave away their hand" not in misdeals[0]  # not among those called before bidding starts
    assert "the other side calls that one during the bidding" in " ".join(misdeals)


@pytest.mark.parametrize(
    ("name", "sentence"),
    [
        ("tennessee", "Our reading: before bidding starts, a player who was dealt no spades, or who does not hold 13 "
                      "cards, may call a misdeal."),
        ("league-300", "Before bidding starts, a player who was dealt no face cards or no spades, or who does not "
                       "hold 13 cards, may call a misdeal."),
        ("friendly", "Before bidding starts, a player who was dealt no spades may call a misdeal."),
    ],
)  # fmt: skip
def test_who_may_call_a_misdeal_before_bidding_in_one_sentence(name, sentence):
    misdeals = next(s for s in handout(PRESETS[name].rules, readings=PRESETS[name].readings) if s.title == "Misdeals")
    misdeals = misdeals.paragraphs
    assert misdeals[0] == sentence


@pytest.mark.parametrize(
    ("name", "order"),
    [
        ("tennessee", "Bidding starts with the player to the dealer's left"),
        ("classic", "The dealer bids first"),
        ("league-300", "The side that did not deal bids first"),
        ("progressive", "Bidding starts with the player to the dealer's left"),
    ],
)
def test_bidding_order_as_the_text_gives_it(name, order):
    bidding = next(s for s in handout(PRESETS[name].rules) if s.title == "Bidding")
    assert bidding.paragraphs[0].startswith(order)


@pytest.mark.parametrize(
    ("format", "section"),
    [
        ("progressive_split", "Moving between tables"),
        ("progressive_fixed", "Moving between tables"),
        ("single_elimination", "The knockout"),
        ("", None),
    ],
)
def test_moving_between_tables_only_for_formats_that_move(format, section):
    titles = [s.title for s in handout(PRESETS["league-300"].rules, extra=format_sections(format))]
    assert ("Moving between tables" in titles) == (section == "Moving between tables")
    assert section is None or section in titles


def test_how_split_partners_pair_up_is_marked_as_our_reading():
    split = sentences(PRESETS["progressive"].rules, format="progressive_split")
    fixed = sentences(PRESETS["progressive-500"].rules, format="progressive_fixed", preset="progressive-500")
    assert (
        "Our reading: of the two ways the newcomers can split, the one is seated whose partners have not played "
        "together yet this evening;" in " ".join(split)
    )
    assert all(OUR_READING not in sentence[1:] for sentence in split)
    assert not any("the newcomers can split" in sentence for sentence in fixed)


def test_no_penalties_section_without_penalties():
    titles = [s.title for s in handout(RuleSet(reneg_tricks=0))]
    assert not any("Reneg" in title or "talk" in title for title in titles)


def test_the_printed_handout_follows_the_tournaments_format_and_overrides():
    tournament = Tournament(
        name="Cup", preset="classic", format="progressive_fixed", rule_overrides={"reneg_tricks": 2}
    )
    (part,) = rule_handout(tournament).contexts[0]["parts"]
    sections = part["sections"]
    text = " ".join(p for s in sections for p in s.paragraphs)
    assert "costs the offending side 2 tricks" in text and "Our reading: a reneg" not in text
    assert "Our reading: partners stay together all evening" in text  # 001 has no evening of several tables


@pytest.mark.parametrize(
    ("name", "bid", "said"),
    [("classic", "blind_nil", "Double nil"), ("friendly", "blind_nil", "Blind nil"), ("classic", "nil", "Nil"),
     ("classic", 7, "7"), ("tennessee", "7", "7")],
)  # fmt: skip
def test_a_bid_is_named_as_the_text_names_it(name, bid, said):
    assert bid_name(PRESETS[name].rules, bid) == said


# --- the sentences the texts do not support, marked; what they say, added (issue 23) ---------------


@pytest.mark.parametrize(
    ("name", "sentence"),
    [
        ("friendly", "Our reading: each extra trick scores 1 point, and partners' extra tricks count together as "
                     "their side's bags."),
        ("friendly", "Our reading: a side whose two bids add up to 10 or more is scored as one side contract, which "
                     "scores 200 for making it instead of 10 a trick."),
        ("friendly", "Our reading: bags past the 10th carry over toward the next 10."),
        ("friendly", "Our reading: spades may not be led until spades are broken, unless the leader holds only "
                     "spades."),
        ("friendly", "Our reading: penalty tricks come off the offending player's own tricks."),
        ("league-300", "Our reading: tricks a failed nil bidder takes count for nothing: not toward the partner's "
                       "bid, not as bags."),
        ("league-300", "Our reading: spades are broken once a spade has been played on a trick of another suit."),
        ("championship-500", "Our reading: tricks a failed nil bidder takes count for nothing"),
        ("championship-500", "Our reading: spades are broken once a spade has been played"),
    ],
)  # fmt: skip
def test_a_sentence_the_text_does_not_support_is_marked_our_reading(name, sentence):
    assert sentence in text_of(name)


@pytest.mark.parametrize(
    ("name", "sentence"),
    [
        ("progressive-500", "Bags past the 10th carry over toward the next 10."),  # 003 says so
        ("league-300", "Spades may not be led until spades are broken, unless the leader holds only spades."),
        ("tennessee", "Spades are broken once a spade has been played on a trick of another suit."),
        ("classic", "Tricks a failed nil bidder takes do not help the partner"),  # 001: a reading, below
        ("progressive-500", "Tricks a failed nil bidder takes do not help the partner"),  # 003 says so
    ],
)
def test_a_sentence_the_text_says_is_not_marked(name, sentence):
    text = text_of(name)
    assert (sentence in text and _reading_of(sentence) not in text) or name == "classic"


def _reading_of(sentence: str) -> str:
    return OUR_READING + sentence[0].lower() + sentence[1:]


@pytest.mark.parametrize("name", PRESETS)
def test_no_sentence_says_a_blind_nil_may_be_bid_whatever_the_score(name):
    assert "whatever the score" not in text_of(name)


@pytest.mark.parametrize(
    ("name", "sentence"),
    [
        ("tennessee", "The two sides' bids need not add up to 13."),
        ("tennessee", "A side's score can go below zero."),
        ("classic", "The two sides' bids need not add up to 13."),
        ("classic", "A side's score can go below zero."),
        ("classic", "Every trick is kept by the player who wins it, so each player's tricks can be counted."),
        ("friendly", "The dealer shuffles and asks the players to cut, starting with the player on the dealer's "
                     "right and going on in turn."),
        ("friendly", "Before bidding starts, a player who was dealt no spades may call a misdeal."),
        ("friendly", "If a player is found to hold the wrong number of cards at any point of the hand, the dealer "
                     "declares a misdeal."),
        ("progressive", "each player bids once. Nobody may pass."),
        ("progressive", "One player at each table keeps the table's bids and scores for the round."),
        ("progressive-500", "each player bids once. Nobody may pass."),
        ("league-300", "During play, partners must not discuss their hands across the table."),
        ("league-300", "When both partners bid nil (any mix of nil and blind nil), the side wins 120 if both make "
                       "it, scores 0 if only one does, and loses 120 if both fail."),
        ("league-300", "Both partners nil: both made / one / neither +120 / 0 / −120"),
        ("league-300", "The other side may call a misdeal when a player gives away their hand while bidding."),
        ("championship-500", "the side wins 200 if both make it, scores 0 if only one does, and loses 200 if both "
                             "fail."),
        ("championship-500", "Both partners nil: both made / one / neither +200 / 0 / −200"),
    ],
)  # fmt: skip
def test_the_handout_says_what_the_text_says(name, sentence):
    assert sentence in text_of(name)


def test_only_the_friendly_flyer_has_the_cut():
    assert [name for name in PRESETS if "asks the players to cut" in text_of(name)] == ["friendly"]


# --- the league's reneg: 3 tricks and a flat 30 -------------------------------------------------------


@pytest.mark.parametrize("name", ["league-300", "championship-500"])
def test_the_league_reneg_forfeits_3_tricks_and_awards_a_flat_30(name):
    text = text_of(name)
    assert "costs the offending side 3 tricks, which go to the other side. The other side is also awarded 30 " \
           "points. The offending side must still make its original bid" in text  # fmt: skip
    assert "Our reading: the tricks that can move (no more than the offending side took) count toward the " \
           "receivers' bid, are never bags and earn nothing beyond the 30. The 30 points are awarded whatever " \
           "the offending side holds." in text  # fmt: skip
    assert "Reneg 3 tricks and +30 to the opponents" in text
    assert "each worth 0 points" not in text and "+0 each" not in text


def test_the_reneg_example_agrees_with_the_reneg_sentence():
    examples = {e.situation: e for s in handout(PRESETS["league-300"].rules) for e in s.examples}
    received = examples["Your side bids 6 and takes 5; the other side reneges once"]
    assert received.points == 60 + 30  # made with the tricks received, none a bag, nothing beyond the 30
    assert not any("bag" in line for line in received.explanation)
    assert examples["Your side bids 5, takes 7, and North reneges once"].points == -50


def test_tricks_received_worth_points_each_say_so():
    rules = rules_from_json({"preset": "league-300", "reneg_trick_points": 10})
    text = " ".join(sentences(rules))
    assert "which go to the other side, each worth 10 points to it." in text
    assert "Tricks received count toward the receivers' bid and are never bags." in text
    assert "Reneg 3 tricks to the opponents, +10 each; opponents +30" in text


# --- a player's own contract (friendly) -------------------------------------------------------------


def test_friendly_scores_each_players_bid_and_says_so():
    text = text_of("friendly")
    assert "Each player bids the tricks they expect to take; each player's bid is their own contract." in text
    assert "Each player's bid is scored on its own and partners' points are added up: a player who takes at least " \
           "their bid scores 10 points a trick bid; one who falls short is set and scores nothing" in text  # fmt: skip
    assert "Our reading: each extra trick +1" in text  # the scoring table's row
    assert "partners' bids add up" not in text
    assert "nil bidder's partner first" not in text  # penalties come off the offender's own tricks
    assert "each player's bid scored on its own" in summary(PRESETS["friendly"].rules)


def test_friendly_worked_example_scores_each_players_bid_on_its_own():
    examples = {e.situation: e for s in handout(PRESETS["friendly"].rules) for e in s.examples}
    # North makes 3 with 2 bags (32), South is set (0): 32, where a side contract of 6 would score 60.
    assert examples["North bids 3 and takes 5; South bids 3 and takes 1"].points == 32


@pytest.mark.parametrize("name", [name for name in PRESETS if PRESETS[name].rules.contract == "side"])
def test_a_side_contract_has_no_players_own_example(name):
    assert "North bids 3 and takes 5; South bids 3 and takes 1" not in text_of(name)


def test_a_player_contract_the_tournament_chose_is_not_marked():
    overrides = {"contract": "side"}
    rules = rules_from_json({"preset": "friendly", **overrides})
    text = " ".join(sentences(rules, readings=readings_of("friendly", overrides)))
    assert "A side bidding 10 or more scores 200 for making it instead of 10 a trick." in text
    assert "partners' extra tricks" not in text


# --- a big bid's bonus ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("overrides", "sentence", "row"),
    [
        ({}, "Set on such a bid, a side is set as usual and loses 10 points for each trick bid.",
         "10 or more bid: made / set 10 × bid + 50 / −10 a trick bid"),
        ({"big_bid_penalty": 100}, "Set on such a bid, a side loses 100.",
         "10 or more bid: made / set 10 × bid + 50 / −100"),
    ],
)  # fmt: skip
def test_a_big_bid_bonus_is_10_a_trick_plus_the_bonus(overrides, sentence, row):
    rules = RuleSet(big_bid=10, big_bid_bonus=50, **overrides)
    text = " ".join(sentences(rules))
    assert "A side bidding 10 or more scores 10 a trick bid plus 50 for making it (10 × bid + 50)." in text
    assert sentence in text and row in text
    assert "10 or more bid: 10 × bid + 50" in summary(rules)
    assert "None" not in text + summary(rules)


# --- the event's rounds and prizes --------------------------------------------------------------------


def test_the_event_section_gives_the_rounds_and_prizes():
    event = Event(rounds=5, prizes=("1st place $100.00", "2nd place $50.00"))
    section = next(s for s in handout(PRESETS["progressive"].rules, event=event) if s.title == "This event")
    assert section.paragraphs == ("5 rounds are played.", "Prizes: 1st place $100.00; 2nd place $50.00.")


def test_no_event_section_without_rounds_or_prizes():
    assert "This event" not in [s.title for s in handout(PRESETS["progressive"].rules, event=Event())]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("format", "rounds"), [("progressive_split", "4 rounds are played."), ("single_elimination", None)]
)
def test_the_printed_handout_gives_the_events_rounds_and_prizes(format, rounds):
    tournament = Tournament.objects.create(
        club=a_club(), name="Cup", preset="progressive", format=format, rounds_planned=4
    )
    tournament.prizes.create(place=1, amount=100)
    tournament.prizes.create(place=2, share_percent=25)
    tournament.prizes.create(kind="division", division="Women", amount=20)
    sections = rule_handout(tournament).contexts[0]["parts"][0]["sections"]
    event = next(s for s in sections if s.title == "This event").paragraphs
    assert event[-1] == "Prizes: 1st place $100.00; 2nd place 25% of the fees; High Women $20.00."
    assert (event[0] == rounds) if rounds else len(event) == 1


# --- a progressive event's sit-out credit and tie-breaking hand (issue 23) ---------------------------


def movement_text(format: str, preset: str, overrides: dict | None = None) -> list[str]:
    (section,) = format_sections(format, preset, overrides)
    return list(section.paragraphs)


@pytest.mark.parametrize(
    ("credit", "sentence"),
    [
        ("round_average", "A player sitting out a round is credited with the round's average side score (rounded "
                          "half up), so sitting out neither helps nor hurts."),
        ("winners_average", "A player sitting out a round is credited with the average score of the round's "
                            "winning sides (rounded half up)."),
        ("none", "A player sitting out a round is credited with nothing (0 points)."),
    ],
)  # fmt: skip
def test_the_handout_says_what_a_player_sitting_out_is_credited_with(credit, sentence):
    assert sentence in movement_text("progressive_split", "progressive", {"sit_out_credit": credit})


@pytest.mark.parametrize(
    ("counts", "sentence"),
    [
        (False, "The extra hand that breaks a round tied after 4 hands decides who wins the table and moves, but "
                "its points do not count: each player is credited with their side's score after 4 hands."),
        (True, "The extra hand that breaks a round tied after 4 hands decides who wins the table and moves, and "
               "its points count like any other hand's."),
    ],
)  # fmt: skip
def test_the_handout_says_what_the_tie_breaking_hand_counts_for(counts, sentence):
    assert sentence in movement_text("progressive_split", "progressive", {"tie_hand_counts": counts})


def test_the_presets_sit_out_credit_and_tie_hand_are_our_reading_until_the_tournament_sets_them():
    text = movement_text("progressive_split", "progressive")
    assert "Our reading: a player sitting out a round is credited with the round's average side score" in " ".join(text)
    assert "Our reading: the extra hand that breaks a round tied after 4 hands" in " ".join(text)
    chosen = movement_text("progressive_split", "progressive", {"sit_out_credit": "round_average"})
    assert any(s.startswith("A player sitting out a round is credited with the round's average") for s in chosen)
    assert any(s.startswith("Our reading: the extra hand") for s in chosen)  # the tie hand is still ours


def test_games_to_500_have_no_tie_breaking_hand_and_teams_sit_out():
    text = " ".join(movement_text("progressive_fixed", "progressive-500"))
    assert "Our reading: a team sitting out a round is credited with the round's average side score" in text
    assert "extra hand" not in text


def test_the_fixed_partner_movement_the_text_does_not_describe_is_our_reading():
    first, rest, ranked, _ = movement_text("progressive_fixed", "progressive-500")
    assert first == (
        "Partners stay together all evening. After each game the winning team moves up one table (table 2's winners "
        "to table 1, and so on)."
    )
    assert rest.startswith("Our reading: the text describes the rest of the movement for couples who split")
    assert "the losers at table 1 go to the last table" in rest and "odd number of teams" in rest
    assert (
        ranked == "Our reading: teams are ranked on their total points over all games, as players are when "
        "partners split."
    )


# --- the handout re-read against the texts (issue 23, third reading) -----------------------------


@pytest.mark.parametrize(("format", "preset"), [(f, p) for f in ("progressive_fixed", "progressive_split")
                                                for p in ("tennessee", "classic", "friendly", "league-300",
                                                          "championship-500")])  # fmt: skip
def test_under_a_text_with_no_evening_of_several_tables_every_movement_sentence_is_our_reading(format, preset):
    text = movement_text(format, preset)
    assert text and all(sentence.startswith("Our reading: ") for sentence in text), text
    assert "the text describes the rest of the movement" not in " ".join(text)


@pytest.mark.parametrize("preset", ["progressive", "progressive-500"])
def test_under_003_the_movement_it_describes_is_not_marked(preset):
    assert movement_text("progressive_split", preset)[0].startswith("After each round the side with more points")
    assert movement_text("progressive_fixed", preset)[0].startswith("Partners stay together all evening.")


def _table_rows(name: str) -> list[str]:
    preset = PRESETS[name]
    return [label for section in handout(preset.rules, readings=preset.readings) for label, _ in section.table]


@pytest.mark.parametrize("name", PRESETS)
def test_the_scoring_tables_reneg_row_is_marked_where_the_reneg_is_our_reading(name):
    reneg = [label for label in _table_rows(name) if label.lower().endswith("reneg")]
    assert reneg == ["Our reading: reneg" if "reneg" in PRESETS[name].readings else "Reneg"]


def test_001_two_player_game_the_first_card_is_seen_before_it_is_discarded():
    text = text_of("classic")
    assert "or discards it before looking at the next one, which they must keep." in text
    assert "unseen" not in text


def test_001_a_bid_from_1_to_13_is_our_reading_as_under_000():
    sentence = "Our reading: a bid is a number from 1 to 13, or nil: a promise to take no trick at all."
    assert sentence in text_of("classic") and sentence in text_of("tennessee")
