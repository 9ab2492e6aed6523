"""The rule handout says what each rule text says, marks our readings, and nothing more."""

import pytest

from scoring.describe import OUR_READING, bid_name, handout
from scoring.presets import PRESETS, READING_FIELDS, readings_of, rules_from_json
from scoring.rules import RuleSet
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
    ("big bid", lambda r: r.big_bid is not None, "or more scores"),
    ("set scores 0", lambda r: r.set_penalty == "zero", "scores nothing for the hand"),
    ("team minimum", lambda r: r.min_team_bid > 0, "Each side must bid at least"),
    ("reneg", lambda r: r.reneg_tricks > 0, "A reneg (not following suit when able)"),
    ("reneg to nobody", lambda r: r.reneg_tricks_to == "nobody", "which score for nobody"),
    ("reneg to opponents", lambda r: r.reneg_tricks_to == "opponents", "which go to the other side"),
    ("reneg trick points", lambda r: r.reneg_trick_points is not None, "worth 10 points to it"),
    ("table talk", lambda r: r.table_talk_tricks > 0, "Table talk:"),
    ("talk heading", lambda r: r.table_talk_tricks > 0, "Reneg and table talk"),
    ("bid talk", lambda r: r.bid_talk == "bid_only", "only to decide their bid"),
    ("card talk", lambda r: r.bid_talk == "no_card_details", "Partners may discuss how many tricks"),
    ("nil exchange", lambda r: r.nil_exchange > 0, "After a nil,"),
    ("exchange via dealer", lambda r: r.card_exchange == "optional_via_dealer", "to the dealer, who passes them on"),
    ("both nil flat", lambda r: r.both_nil_points is not None, f"the side scores {200} if both make it"),
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
    "failed_nil_tricks": "a failed nil bidder takes",
    "two_nils": "each nil is scored on its own",
    "no_bag_penalty": "extra tricks (bags) are counted but cost nothing",
    "bag_overflow": "in that hand are dropped",
    "big_bid_penalty": "set on such a bid",
    "big_bid_overtricks": "extra tricks over such a bid",
    "reneg": "a reneg (not following suit when able)",
    "reneg_trick_points": "tricks received count toward the receivers' bid",
    "misdeals": "may be called before bidding starts",
    "misdeal_timing": "the text says misdeals are called before bidding starts",
    "first_dealer": "the first dealer is chosen at random",
    "bidding_starts": "bidding starts with the player to the dealer's left",
    "both_nil_exchange": "there is no exchange",
    "time_limit": "there is no time limit",
    "spades_broken": "spades may not be led",
    "joker_ranks": "the ace of spades is the lowest trump",
    "player_bids": "a bid is a number from 1 to 13, or nil",
    "sit_out_credit": "sitting out a round is credited with",
    "tie_hand": "the extra hand that breaks a round tied",
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
    assert "Tricks a failed nil bidder takes count for nothing." in text
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
    assert "A misdeal may be called before bidding starts when a player was dealt no spades." in text


def test_004_partners_may_discuss_the_bid_but_not_their_cards_and_the_misdeal_reading():
    text = text_of("league-300")
    assert "Partners may discuss how many tricks they can take, but must not say anything about their cards" in text
    assert "No talk about the hands" not in text
    misdeals = next(s for s in handout(PRESETS["league-300"].rules) if s.title == "Misdeals").paragraphs
    assert "gave away their hand" not in misdeals[0]  # not among those called before bidding starts
    assert "the other side calls that one during the bidding" in " ".join(misdeals)


@pytest.mark.parametrize(
    ("name", "sentence"),
    [
        ("tennessee", "A misdeal may be called before bidding starts when a player was dealt no spades or a player "
                      "does not hold 13 cards."),
        ("league-300", "A misdeal may be called before bidding starts when a player was dealt no face cards, a "
                       "player was dealt no spades or a player does not hold 13 cards."),
    ],
)  # fmt: skip
def test_the_misdeal_causes_read_as_one_list_joined_by_or(name, sentence):
    misdeals = next(s for s in handout(PRESETS[name].rules) if s.title == "Misdeals").paragraphs
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
    sections = rule_handout(tournament).contexts[0]["sections"]
    text = " ".join(p for s in sections for p in s.paragraphs)
    assert "costs the offending side 2 tricks" in text and "Our reading: a reneg" not in text
    assert "Partners stay together all evening" in text


@pytest.mark.parametrize(
    ("name", "bid", "said"),
    [("classic", "blind_nil", "Double nil"), ("friendly", "blind_nil", "Blind nil"), ("classic", "nil", "Nil"),
     ("classic", 7, "7"), ("tennessee", "7", "7")],
)  # fmt: skip
def test_a_bid_is_named_as_the_text_names_it(name, bid, said):
    assert bid_name(PRESETS[name].rules, bid) == said


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
