"""The presets: the rule sets of the published rule texts, and rule sets read from JSON.

A tournament stores its rule set as ``{"preset": "friendly", "bag_limit": 6}``;
:func:`rules_from_json` turns that back into a :class:`~scoring.rules.RuleSet`. Each preset's
docstring says what its text settles and what we chose where the text is silent.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from scoring.rules import FIELD_NAMES, InvalidRules, RuleSet

# Topics a rule text may leave unsaid, each with the fields the app's reading of it rests on.
# A preset lists the topics where its value is our reading rather than the text's; the handout
# marks those "Our reading:". A tournament that overrides one of the fields has made the rule
# its own, so the mark goes (see :func:`readings_of`).
READING_FIELDS: dict[str, tuple[str, ...]] = {
    "tie": ("target_score", "hands_per_round"),
    "failed_nil_tricks": ("failed_nil_tricks",),
    "two_nils": ("both_nil", "both_nil_points"),
    "no_bag_penalty": ("bag_limit", "bag_penalty"),
    "bag_overflow": ("bag_overflow",),
    "big_bid_penalty": ("big_bid_penalty",),
    "reneg": ("reneg_tricks", "reneg_tricks_to", "reneg_trick_points", "reneg_points_to_opponents"),
    "misdeals": ("misdeal_reasons", "misdeal_card_count_any_time"),
    "misdeal_timing": ("misdeal_reasons",),
    "first_dealer": ("first_dealer",),
    "bidding_starts": ("bidding_starts",),
    "both_nil_exchange": ("nil_exchange", "blind_nil_exchange", "card_exchange"),
    "time_limit": ("time_limit_minutes",),
    "big_bid_overtricks": ("big_bid", "overtrick_points"),
    "spades_lead": (),
    "spades_broken": (),
    "joker_ranks": ("deck",),
    "reneg_trick_points": ("reneg_trick_points",),
    "player_bids": ("min_player_bid", "min_team_bid"),
    "player_contract": ("contract",),
    "sit_out_credit": ("sit_out_credit",),
    "tie_hand": ("tie_hand_counts",),
    "bids_total": (),
    "seating": (),
    "trick_leads": (),
    "tricks_kept": (),
    "misdeal_redeal": (),
    "no_passing": (),
    "movement": (),
}


@dataclass(frozen=True)
class Preset:
    """A named rule set taken from one of the published rule texts.

    ``readings`` names the topics of :data:`READING_FIELDS` the text leaves unsaid, where the
    rule set holds our reading.
    """

    name: str
    title: str
    description: str
    rules: RuleSet
    readings: frozenset[str] = frozenset()


PRESETS: dict[str, Preset] = {}


def _preset(name: str, title: str, *readings: str) -> Callable[[Callable[[], RuleSet]], Callable[[], RuleSet]]:
    unknown = set(readings) - set(READING_FIELDS)
    assert not unknown, f"unknown reading topics {unknown}"

    def register(build: Callable[[], RuleSet]) -> Callable[[], RuleSet]:
        description = " ".join((build.__doc__ or "").split())
        PRESETS[name] = Preset(
            name=name, title=title, description=description, rules=build(), readings=frozenset(readings)
        )
        return build

    return register


@_preset(
    "tennessee", "Tennessee house rules (game to 500)",
    "failed_nil_tricks", "two_nils", "no_bag_penalty", "reneg", "misdeals", "first_dealer", "sit_out_credit",
    "movement", "player_bids", "seating", "trick_leads", "tricks_kept", "misdeal_redeal", "no_passing",
)  # fmt: skip
def _tennessee() -> RuleSet:
    """A state association's house rules: game to 500, a set side loses 10 a trick bid,
    overtricks 1 each, nil 100 and "double nil" (bid before looking) 200 whatever the score,
    each nil scored apart from the partner's bid; bidding starts at the dealer's left. The
    text names no bag penalty, so bags cost nothing. Silent in the text, our choice as most
    clubs play: a failed nil's tricks count as overtricks for the side, two nils are scored
    each on its own, a reneg hands 3 tricks to the other side, the usual misdeals, the first
    dealer drawn at random.
    A progressive evening's movement between tables, and a couple sitting out a round of it
    credited with the round's average side score, are our reading (the text has no such evening).
    Also our reading, as the game is usually played: partners sit opposite, nobody may pass,
    a bid is 1 to 13 or nil, a trick's winner leads to the next, each player keeps the tricks they win, and a
    misdeal scores nothing and is dealt again."""
    return RuleSet(
        target_score=500,
        set_penalty="minus_bid",
        bag_limit=None,
        bag_penalty=None,
        nil_points=100,
        blind_nil_points=200,
        blind_nil_min_deficit=None,
        blind_nil_name="double nil",
        both_nil="separate",
        failed_nil_tricks="bags",
        min_player_bid=1,
    )


@_preset(
    "classic", "Classic partnership Spades (game to 500)",
    "tie", "failed_nil_tricks", "no_bag_penalty", "reneg", "misdeals", "first_dealer", "sit_out_credit", "movement",
    "seating", "trick_leads", "misdeal_redeal", "no_passing", "player_bids",
)  # fmt: skip
def _classic() -> RuleSet:
    """The classic partnership rules: game to 500, the dealer bids first, nil 100, double nil
    200, a nil bidder and partner exchange three cards; when both partners bid nil (or double
    nil) there is no exchange and the side scores 200 if both make it, nothing otherwise.
    Double nil may be bid whatever the score. The text names no bag penalty, so bags cost
    nothing; it adds a two-player game. Silent in the text, our choice as most clubs play:
    equal scores past 500 play one more hand, a failed nil's tricks count as overtricks, a
    reneg hands 3 tricks to the other side, the usual misdeals, the first dealer at random.
    A progressive evening's movement between tables, and a couple sitting out a round of it
    credited with the round's average side score, are our reading (the text has no such evening).
    Also our reading: partners sit opposite, nobody may pass, a bid is 1 to 13 or nil (the text
    bids "out of the total possible of thirteen" and names no lowest bid; a player expecting no
    trick bids nil), a trick's winner leads to the next, and a misdeal scores nothing and is
    dealt again."""
    return RuleSet(
        target_score=500,
        set_penalty="minus_bid",
        bag_limit=None,
        bag_penalty=None,
        nil_points=100,
        blind_nil_points=200,
        blind_nil_min_deficit=None,
        blind_nil_name="double nil",
        both_nil="all_or_nothing",
        both_nil_points=200,
        failed_nil_tricks="bags",
        nil_exchange=3,
        blind_nil_exchange=3,
        card_exchange="required",
        bidding_starts="dealer",
        min_player_bid=1,
        two_player_variant=True,
    )


@_preset(
    "friendly", "Friendly club tournament (game to 500)",
    "tie", "failed_nil_tricks", "two_nils", "first_dealer", "bidding_starts", "both_nil_exchange",
    "big_bid_overtricks", "spades_lead", "spades_broken", "player_contract", "bag_overflow", "bids_total",
    "sit_out_credit", "movement",
)  # fmt: skip
def _friendly() -> RuleSet:
    """A club's friendly tournament: each player's own bid is scored on its own ("if a player makes
    their number of bids, 10 points are given to each trick bid … 0 points are given to
    players who fail") and partners' points are added up. Every player bids at least 1
    unless nil, the first trick is everyone's lowest club, nil 100, blind nil 300 with an
    optional pass of two cards each through the dealer, a set side scores 0, a side that
    bids 10 or more wins or loses 200, every 10 bags cost 100 (a side can be bagged out more
    than once), a reneg takes 3 tricks that score for nobody, table talk takes 1 trick an
    incident (partners may talk only to decide the bid), a wrong card count found at any
    time is a misdeal the dealer declares. Blind nil may be bid whatever the score. Silent
    in the text, our choice as most clubs play: equal scores past 500 play one more hand,
    each of two nils scored on its own, a failed nil's tricks count as bags, bidding starts
    at the dealer's left, the first dealer at random, no exchange when both partners bid
    nil, bags past the tenth carried toward the next ten (the flyer says only that a side
    can be bagged out more than once), and spades not led until broken by a spade played on
    another suit (the flyer has no such rule; most clubs play it). The dealer asks the
    players to cut, from the dealer's right. The flyer leaves open what a bag is worth and
    whose bags count: our reading, a bag is worth 1 point and the side's bags count together
    toward the 10-bag penalty (the flyer says "a player makes 10 bags" but also that teams
    are "bagged out", and one count per side is what the score sheet can show); a side
    bidding 10 or more together is scored as one side contract, bags on top; a reneg's 3
    books and table talk's 1 book come off the offending player's own tricks, so that player
    alone must still make their bid. The flyer does not say whether the four bids must add up
    to 13: our reading, they need not.
    A progressive evening's movement between tables, and a couple sitting out a round of it
    credited with the round's average side score, are our reading (the text has no such evening)."""
    return RuleSet(
        target_score=500,
        contract="player",
        set_penalty="zero",
        bag_limit=10,
        bag_penalty=100,
        bag_overflow="carry",
        nil_points=100,
        blind_nil_points=300,
        blind_nil_min_deficit=None,
        both_nil="separate",
        failed_nil_tricks="bags",
        big_bid=10,
        big_bid_points=200,
        big_bid_penalty=200,
        min_player_bid=1,
        reneg_tricks=3,
        reneg_tricks_to="nobody",
        table_talk_tricks=1,
        bid_talk="bid_only",
        cut="players_in_turn",
        first_lead="lowest_club",
        blind_nil_exchange=2,
        card_exchange="optional_via_dealer",
        misdeal_reasons=("no_spades", "wrong_card_count"),
        misdeal_card_count_any_time=True,
    )


@_preset(
    "progressive", "Progressive tables, four-hand rounds (advancing winners)",
    "tie", "reneg", "misdeals", "sit_out_credit", "tie_hand",  "misdeal_redeal",
)  # fmt: skip
def _progressive() -> RuleSet:
    """Advancing winners: four hands a round, partners split after every round, each player
    credited with the side's round score. Plain scoring only: 10 a trick bid when made, 1
    an overtrick, minus 10 a trick bid when set; no nil (a bid of 0 is an ordinary bid), no
    blind nil, no bag penalty. The first dealer is chosen at random and bidding starts at
    the dealer's left. Silent in the text, our choice: a round tied at a table plays one more
    hand, a reneg hands 3 tricks to the other side, the usual misdeals; and of the two ways
    incoming partners can split, the one making partners who have not played together that
    evening, else the one repeating fewer partnerships. The text says who sits out with an
    odd number of couples but not what they score: our reading, the round's average side
    score, so sitting out neither helps nor hurts. It says four hands are played: our reading,
    the extra hand of a tied round decides who moves but its points do not count, so a tied
    table's players are not credited with more hands than everyone else.
    Also our reading: a misdeal scores nothing and is dealt again."""
    return RuleSet(
        target_score=None,
        set_penalty="minus_bid",
        bag_limit=None,
        bag_penalty=None,
        nil_points=None,
        blind_nil_points=None,
        blind_nil_min_deficit=None,
        min_player_bid=0,
        hands_per_round=4,
        partners="split",
        sit_out_credit="round_average",
        tie_hand_counts=False,
    )


@_preset(
    "progressive-500", "Progressive tables, games to 500",
    "tie", "two_nils", "reneg", "misdeals", "both_nil_exchange", "sit_out_credit",  "tricks_kept", "misdeal_redeal",
)  # fmt: skip
def _progressive_500() -> RuleSet:
    """Standard tournament play: each table plays to 500 (both past it in one deal: the
    higher wins) and the winning team moves on. Every 10 bags cost 100 and the rest carry
    over, so a positive score's last digit is the bag count. Nil 100 (a bid of 0 is always
    a nil), blind nil 200 only when 100 behind, with an optional exchange of two cards; a
    failed nil's tricks do not help the partner but count as bags. The first dealer is
    chosen at random. Silent in the text, our choice as most clubs play: equal scores past
    500 play one more hand, each of two nils scored on its own, a reneg hands 3 tricks to
    the other side, the usual misdeals, no exchange when both partners bid nil, and a couple
    sitting out a round credited with the round's average side score.
    Also our reading: each player keeps the tricks they win (a nil is made or failed on them),
    and a misdeal scores nothing and is dealt again."""
    return RuleSet(
        target_score=500,
        set_penalty="minus_bid",
        bag_limit=10,
        bag_penalty=100,
        bag_overflow="carry",
        nil_points=100,
        blind_nil_points=200,
        blind_nil_min_deficit=100,
        both_nil="separate",
        failed_nil_tricks="bags",
        min_player_bid=1,
        blind_nil_exchange=2,
        partners="fixed",
    )


_LEAGUE_MISDEALS = ("table_talk_in_bidding", "no_face_cards", "no_spades", "wrong_card_count")


@_preset(
    "league-300", "League game to 300 (30-minute matches, jokers deck)",
    "big_bid_penalty", "big_bid_overtricks", "bag_overflow", "misdeal_timing", "joker_ranks", "reneg_trick_points",
    "player_bids", "failed_nil_tricks", "spades_broken", "bids_total", "tie", "sit_out_credit", "movement",
    "trick_leads", "tricks_kept", "misdeal_redeal", "no_passing",
)  # fmt: skip
def _league_300() -> RuleSet:
    """A league's games to 300 within a 30-minute match, played with both jokers as the top trumps
    (big joker, little joker, 2 of spades, then the ace). The first dealer draws the high
    card; the side that did not deal bids first and partners may discuss how many tricks to
    bid, never their cards. Each side bids at least 4 (a nil bidder's partner too, unless
    both bid nil); our reading of "any number of tricks 4-13": a player may bid from 1. Nil
    60, blind nil 120 when 100 behind; when both partners bid nil (any mix of nil and blind
    nil) the side wins 120 if both make it, 0 if one does, and loses 120 if both fail. Our
    reading: a failed nil's tricks count for nothing, neither toward the partner's bid nor
    as bags (the text's third nil example, -60 + 50 = -10, has no bag for the nil's trick).
    A side bidding 10 or more wins 120, and set loses the same (our settled reading; the
    text names only the win). Six bags cost 60 and the count "resets to zero": bags past the
    sixth in that hand are dropped (our reading of "reset"). A reneg forfeits 3 tricks to
    the opponents, who are awarded 30 points whatever the offenders hold; our reading: the
    tricks that can move (no more than the offenders took) count toward the receivers' bid,
    are never bags and earn nothing beyond the 30. The offender must still make its bid.
    Spades may not be led until "broken", which the text does not define: our reading, as
    the other texts, by a spade played on another suit. No discussion of the hands across
    the table during play. The text says misdeals are called before bidding yet names talk
    during the bidding as one: our reading, that one is called during the bidding, the
    others before it. Silent in the text, our reading: the four bids need not add up to 13,
    and equal scores past the target (untimed) play one more hand, as the text says of a
    game tied when time runs out.
    A progressive evening's movement between tables, and a couple sitting out a round of it
    credited with the round's average side score, are our reading (the text has no such evening).
    Also our reading: nobody may pass, a trick's winner leads to the next, each player keeps
    the tricks they win (a nil is made or failed on them), and a misdeal scores nothing and is
    dealt again."""
    return RuleSet(
        target_score=300,
        set_penalty="minus_bid",
        bag_limit=6,
        bag_penalty=60,
        bag_overflow="reset",
        nil_points=60,
        blind_nil_points=120,
        blind_nil_min_deficit=100,
        both_nil="zero_if_split",
        both_nil_points=120,
        failed_nil_tricks="ignored",
        big_bid=10,
        big_bid_points=120,
        big_bid_penalty=120,
        min_player_bid=1,
        min_team_bid=4,
        reneg_tricks=3,
        reneg_tricks_to="opponents",
        reneg_trick_points=0,
        reneg_points_to_opponents=30,
        bid_talk="no_card_details",
        blind_nil_by_side=True,
        first_dealer="high_card",
        bidding_starts="non_dealing_side",
        deck="jokers",
        time_limit_minutes=30,
        misdeal_reasons=_LEAGUE_MISDEALS,
    )


@_preset(
    "championship-500", "League championship game to 500 (jokers deck)",
    "big_bid_penalty", "big_bid_overtricks", "bag_overflow", "misdeal_timing", "joker_ranks", "reneg_trick_points",
    "player_bids", "failed_nil_tricks", "spades_broken", "time_limit", "bids_total", "tie", "sit_out_credit",
    "movement", "trick_leads", "tricks_kept", "misdeal_redeal", "no_passing",
)  # fmt: skip
def _championship_500() -> RuleSet:
    """The league's championship game: as the league game but to 500, with nil 100, blind
    nil 200, both nils 200, 10 for 200 (set: minus 200) and a bag limit of ten costing 100 (the count goes
    back to 0). Our reading: the 30-minute match limit does not apply, the championship game
    is played out.
    A progressive evening's movement between tables, and a couple sitting out a round of it
    credited with the round's average side score, are our reading (the text has no such evening)."""
    return dataclasses.replace(
        PRESETS["league-300"].rules,
        target_score=500,
        nil_points=100,
        blind_nil_points=200,
        both_nil_points=200,
        big_bid_points=200,
        big_bid_penalty=200,
        bag_limit=10,
        bag_penalty=100,
        time_limit_minutes=None,
    )


# Presets whose rule text names another rule set for the final: rule text 004's league plays
# its season to 300 and "the championship game" to 500. A new tournament's final defaults to it.
FINAL_PRESETS: dict[str, str] = {"league-300": "championship-500"}


# What the rules' third pass (2026-11) changed in the presets, field by field: an event (or a
# match under its own preset) played before it keeps these values, so its scores do not move.
BEFORE_THIRD_PASS: dict[str, dict[str, Any]] = {
    "friendly": {"contract": "side"},
    "league-300": {
        "reneg_trick_points": 10, "reneg_points_to_opponents": 0, "both_nil": "separate", "both_nil_points": None,
    },
    "championship-500": {
        "reneg_trick_points": 10, "reneg_points_to_opponents": 0, "both_nil": "separate", "both_nil_points": None,
    },
}  # fmt: skip


def played_before_third_pass(preset: str, overrides: Mapping[str, Any]) -> dict[str, Any]:
    """``overrides`` of an event (or match) played under ``preset`` before the rules' third pass,
    with the values it was scored by for each field it did not set: the preset's old values,
    and the extra hand of a tied round counted (as every round of so many hands counted it)."""
    old = dict(BEFORE_THIRD_PASS.get(preset, {}))
    hands = PRESETS[preset].rules.hands_per_round if preset in PRESETS else None
    if overrides.get("hands_per_round", hands) is not None:
        old["tie_hand_counts"] = True
    return {**old, **overrides}


def preset_rules(name: str) -> RuleSet:
    """The rule set of preset ``name``; :class:`InvalidRules` names the presets otherwise."""
    return find_preset(name).rules


def readings_of(preset: str, overrides: Mapping[str, Any] | None = None) -> frozenset[str]:
    """The topics where preset ``preset``'s rule set holds our reading of its text, less any
    topic whose fields ``overrides`` changes (the tournament made that rule its own)."""
    changed = set(overrides or ())
    return frozenset(topic for topic in find_preset(preset).readings if not changed.intersection(READING_FIELDS[topic]))


def find_preset(name: str) -> Preset:
    """Preset ``name``; :class:`InvalidRules` names the presets otherwise."""
    try:
        return PRESETS[name]
    except KeyError:
        raise InvalidRules("preset", f"unknown preset {name!r}; choose one of {', '.join(PRESETS)}") from None


def rules_from_json(value: str | Mapping[str, Any]) -> RuleSet:
    """A preset name, or ``{"preset": name, field: value, ...}`` with overrides.

    Without ``"preset"`` the overrides apply to the defaults of :class:`RuleSet`.
    Unknown fields and bad values raise :class:`InvalidRules`.
    """
    if isinstance(value, str):
        return preset_rules(value)
    if not isinstance(value, Mapping):
        raise InvalidRules("rules", "must be a preset name or an object of rule fields")
    overrides = dict(value)
    base = preset_rules(overrides.pop("preset")) if "preset" in overrides else RuleSet()
    unknown = sorted(set(overrides) - set(FIELD_NAMES))
    if unknown:
        raise InvalidRules(unknown[0], "unknown rule field")
    if "misdeal_reasons" in overrides and isinstance(overrides["misdeal_reasons"], list):
        overrides["misdeal_reasons"] = tuple(overrides["misdeal_reasons"])
    return dataclasses.replace(base, **overrides)
