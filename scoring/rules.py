"""Rule sets: every choice that changes how Spades is bid, scored or organised.

A :class:`RuleSet` is a frozen value. Its field names are also its JSON keys, so a tournament
stores a rule set as ``{"preset": "friendly", "bag_limit": 6}`` and :func:`rules_from_json`
turns that back into the value. The presets reproduce the published rule texts; where a text
is silent the preset's docstring says what we chose and why.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

SET_PENALTIES = ("minus_bid", "zero")
BAG_OVERFLOWS = ("carry", "reset")
BOTH_NIL = ("separate", "all_or_nothing", "team_contract")
FAILED_NIL_TRICKS = ("bags", "count_for_partner", "ignored")
DECKS = ("standard", "jokers")
FIRST_LEADS = ("any_but_spades", "lowest_club")
PARTNERS = ("split", "fixed")
RENEG_TRICKS_TO = ("opponents", "nobody")
BLIND_NIL_NAMES = ("blind nil", "double nil")
FIRST_DEALERS = ("random", "high_card")
BIDDING_STARTS = ("left_of_dealer", "dealer", "non_dealing_side")
CARD_EXCHANGES = ("required", "optional", "optional_via_dealer")
BID_TALK = ("silent", "bid_only", "no_card_details")
MISDEAL_REASONS = {
    "no_spades": "a player was dealt no spades",
    "no_face_cards": "a player was dealt no face cards",
    "wrong_card_count": "a player does not hold 13 cards",
    "table_talk_in_bidding": "a player gave away their hand while bidding",
}


class InvalidRules(ValueError):
    """A rule set (or its JSON) that breaks a rule about rule sets; names the field."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


@dataclass(frozen=True)
class RuleSet:
    """How a game of Spades is bid and scored; see the issue tracker's field table.

    The defaults are the common club game to 500 (nil 100, blind nil 200 when 100 behind,
    10 bags cost 100 and carry), so an override names only what differs. Fields whose
    meaning is not plain from their name:

    ``target_score``
        The score that ends a game; null for a game with no score end (a timed game, a
        progressive round of ``hands_per_round`` hands, or hands scored one at a time).
    ``both_nil_points``
        With ``both_nil`` ``all_or_nothing`` or ``team_contract``: what a side whose
        partners both bid nil wins (or, under ``team_contract``, loses) as a unit, whatever
        mix of nil and blind nil they bid; null adds up the two nil values.
    ``reneg_tricks_to``
        Where a reneg's ``reneg_tricks`` go: ``"opponents"`` moves them from the offending
        side's count to the other side's; ``"nobody"`` takes them off and they score for no one.
    ``reneg_trick_points``
        Null: tricks received from a reneg count as the receivers' own (toward the bid, then
        as bags). A number: each received trick counts toward the bid, is worth that many
        points and is never a bag (see :mod:`scoring.hand`).
    ``reneg_points_to_opponents``
        A flat award to the other side for each reneg, on top of any tricks.
    ``bid_talk``
        What partners may say while bidding: ``"silent"`` (the text says nothing),
        ``"bid_only"`` (they may talk about the game only to decide their bid) or
        ``"no_card_details"`` (they may discuss how many tricks to bid, never their cards).
    ``card_exchange``
        How a nil or blind nil bidder trades cards with the partner: ``"required"``,
        ``"optional"``, or ``"optional_via_dealer"`` (both pass to the dealer, who passes them on).
    ``blind_nil_name``
        What the players call the nil bid before looking: ``"blind nil"`` or ``"double nil"``.
        The bid's value in JSON stays ``"blind_nil"``. ``blind_nil_by_side``: it is declared
        before either partner looks at their cards.
    ``first_dealer``, ``bidding_starts``
        How the first dealer is chosen and who bids first (the handout's words; the app
        draws a first dealer at random either way and the table may change it).
    ``misdeal_card_count_any_time``
        A wrong card count found at any point of the hand is a misdeal the dealer declares
        (otherwise every misdeal is called before bidding starts).
    ``two_player_variant``
        The rule text has a two-player game; the handout prints it.
    """

    target_score: int | None = 500
    lose_score: int | None = None
    set_penalty: str = "minus_bid"
    overtrick_points: int = 1
    bag_limit: int | None = 10
    bag_penalty: int | None = 100
    bag_overflow: str = "carry"
    nil_points: int | None = 100
    blind_nil_points: int | None = 200
    blind_nil_min_deficit: int | None = 100
    both_nil: str = "separate"
    both_nil_points: int | None = None
    failed_nil_tricks: str = "bags"
    big_bid: int | None = None
    big_bid_points: int | None = None
    big_bid_penalty: int | None = None
    min_player_bid: int = 1
    min_team_bid: int = 0
    reneg_tricks: int = 3
    reneg_tricks_to: str = "opponents"
    reneg_trick_points: int | None = None
    reneg_points_to_opponents: int = 0
    table_talk_tricks: int = 0
    bid_talk: str = "silent"
    deck: str = "standard"
    first_lead: str = "any_but_spades"
    nil_exchange: int = 0
    blind_nil_exchange: int = 0
    card_exchange: str = "optional"
    blind_nil_name: str = "blind nil"
    blind_nil_by_side: bool = False
    first_dealer: str = "random"
    bidding_starts: str = "left_of_dealer"
    hands_per_round: int | None = None
    time_limit_minutes: int | None = None
    partners: str = "fixed"
    misdeal_reasons: tuple[str, ...] = ("no_spades", "wrong_card_count")
    misdeal_card_count_any_time: bool = False
    two_player_variant: bool = False

    def __post_init__(self) -> None:
        for name, (kind, low, high) in _NUMBERS.items():
            _check_number(name, getattr(self, name), nullable=kind == "int?", low=low, high=high)
        for name, allowed in _CHOICES.items():
            if getattr(self, name) not in allowed:
                raise InvalidRules(name, f"must be one of {', '.join(allowed)}")
        for name in _FLAGS:
            if not isinstance(getattr(self, name), bool):
                raise InvalidRules(name, "must be true or false")
        self._check_misdeal_reasons()
        self._check_consistency()

    def _check_misdeal_reasons(self) -> None:
        reasons = self.misdeal_reasons
        if not isinstance(reasons, tuple) or any(not isinstance(r, str) or r not in MISDEAL_REASONS for r in reasons):
            raise InvalidRules("misdeal_reasons", f"each must be one of {', '.join(MISDEAL_REASONS)}")

    def _check_consistency(self) -> None:
        if self.both_nil_points is not None and self.both_nil == "separate":
            raise InvalidRules(
                "both_nil_points", "a side's value for two nils needs both_nil all_or_nothing or team_contract"
            )
        if self.bag_limit is not None and self.bag_penalty is None:
            raise InvalidRules("bag_penalty", "a bag limit needs a bag penalty")
        if self.big_bid is not None and self.big_bid_points is None:
            raise InvalidRules("big_bid_points", "a big bid needs the points it scores")
        if self.lose_score is not None and self.target_score is not None and self.lose_score >= self.target_score:
            raise InvalidRules("lose_score", "must be below the target score")

    def outcome(self, scores: tuple[int, int]) -> tuple[bool, int | None]:
        """(game over, winner's index) for the two sides' scores after a hand.

        A side at or past ``target_score`` wins; a side at or below ``lose_score`` loses,
        unless both sides are past the same line: then the higher score wins and equal scores
        play one more hand. A progressive round's end by hand count is :class:`Game`'s.
        """
        first, second = scores
        target, floor = self.target_score, self.lose_score
        past_target = target is not None and (first >= target or second >= target)
        below = (False, False) if floor is None else (first <= floor, second <= floor)
        if first == second or not (past_target or below[0] or below[1]):
            return False, None
        if past_target or (below[0] and below[1]):
            return True, 0 if first > second else 1
        return True, 1 if below[0] else 0

    @property
    def has_nil(self) -> bool:
        return self.nil_points is not None

    @property
    def has_blind_nil(self) -> bool:
        return self.blind_nil_points is not None

    @property
    def has_reneg_penalty(self) -> bool:
        return bool(self.reneg_tricks or self.reneg_points_to_opponents)

    @property
    def has_table_talk_penalty(self) -> bool:
        return bool(self.table_talk_tricks)

    @property
    def penalties(self) -> tuple[str, ...]:
        """The infractions these rules penalise, by name: ``("reneg", "table talk")``, or fewer."""
        named = (("reneg", self.has_reneg_penalty), ("table talk", self.has_table_talk_penalty))
        return tuple(name for name, has in named if has)

    @property
    def penalties_heading(self) -> str:
        """The penalties as a heading: "Reneg or table talk", "Reneg", or "" for none."""
        return " or ".join(self.penalties).capitalize()

    def to_json(self) -> dict[str, Any]:
        """Every field as a JSON-ready value (tuples become lists)."""
        data = dataclasses.asdict(self)
        data["misdeal_reasons"] = list(self.misdeal_reasons)
        return data


# field: (kind, lowest, highest); "int?" may also be null.
_NUMBERS: dict[str, tuple[str, int, int]] = {
    "target_score": ("int?", 1, 10_000),
    "lose_score": ("int?", -10_000, 10_000),
    "overtrick_points": ("int", 0, 100),
    "bag_limit": ("int?", 1, 100),
    "bag_penalty": ("int?", 0, 10_000),
    "nil_points": ("int?", 0, 10_000),
    "blind_nil_points": ("int?", 0, 10_000),
    "blind_nil_min_deficit": ("int?", 0, 10_000),
    "both_nil_points": ("int?", 0, 10_000),
    "big_bid": ("int?", 1, 13),
    "big_bid_points": ("int?", 0, 10_000),
    "big_bid_penalty": ("int?", 0, 10_000),
    "min_player_bid": ("int", 0, 13),
    "min_team_bid": ("int", 0, 13),
    "reneg_tricks": ("int", 0, 13),
    "reneg_trick_points": ("int?", 0, 100),
    "reneg_points_to_opponents": ("int", 0, 10_000),
    "table_talk_tricks": ("int", 0, 13),
    "nil_exchange": ("int", 0, 13),
    "blind_nil_exchange": ("int", 0, 13),
    "hands_per_round": ("int?", 1, 100),
    "time_limit_minutes": ("int?", 1, 1_000),
}
_CHOICES: dict[str, tuple[str, ...]] = {
    "set_penalty": SET_PENALTIES,
    "bag_overflow": BAG_OVERFLOWS,
    "both_nil": BOTH_NIL,
    "failed_nil_tricks": FAILED_NIL_TRICKS,
    "deck": DECKS,
    "first_lead": FIRST_LEADS,
    "partners": PARTNERS,
    "reneg_tricks_to": RENEG_TRICKS_TO,
    "blind_nil_name": BLIND_NIL_NAMES,
    "first_dealer": FIRST_DEALERS,
    "bidding_starts": BIDDING_STARTS,
    "card_exchange": CARD_EXCHANGES,
    "bid_talk": BID_TALK,
}
_FLAGS = ("blind_nil_by_side", "misdeal_card_count_any_time", "two_player_variant")
FIELD_NAMES = tuple(field.name for field in dataclasses.fields(RuleSet))


def _check_number(name: str, value: object, *, nullable: bool, low: int, high: int) -> None:
    if value is None and nullable:
        return
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidRules(name, "must be a whole number" + (" or null" if nullable else ""))
    if not low <= value <= high:
        raise InvalidRules(name, f"must be between {low} and {high}")


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
    "spades_broken": (),
    "joker_ranks": ("deck",),
    "reneg_trick_points": ("reneg_trick_points",),
    "player_bids": ("min_player_bid", "min_team_bid"),
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
    "failed_nil_tricks", "two_nils", "no_bag_penalty", "reneg", "misdeals", "first_dealer",
)  # fmt: skip
def _tennessee() -> RuleSet:
    """A state association's house rules: game to 500, a set side loses 10 a trick bid,
    overtricks 1 each, nil 100 and "double nil" (bid before looking) 200 whatever the score,
    each nil scored apart from the partner's bid; bidding starts at the dealer's left. The
    text names no bag penalty, so bags cost nothing. Silent in the text, our choice as most
    clubs play: a failed nil's tricks count as overtricks for the side, two nils are scored
    each on its own, a reneg hands 3 tricks to the other side, the usual misdeals, the first
    dealer drawn at random."""
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
    "tie", "failed_nil_tricks", "no_bag_penalty", "reneg", "misdeals", "first_dealer",
)  # fmt: skip
def _classic() -> RuleSet:
    """The classic partnership rules: game to 500, the dealer bids first, nil 100, double nil
    200, a nil bidder and partner exchange three cards; when both partners bid nil (or double
    nil) there is no exchange and the side scores 200 if both make it, nothing otherwise.
    Double nil may be bid whatever the score. The text names no bag penalty, so bags cost
    nothing; it adds a two-player game. Silent in the text, our choice as most clubs play:
    equal scores past 500 play one more hand, a failed nil's tricks count as overtricks, a
    reneg hands 3 tricks to the other side, the usual misdeals, the first dealer at random."""
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
    "big_bid_overtricks", "spades_broken",
)  # fmt: skip
def _friendly() -> RuleSet:
    """A club's friendly tournament: every player bids at least 1 unless nil, the first
    trick is everyone's lowest club, nil 100, blind nil 300 with an optional pass of two
    cards each through the dealer, a set side scores 0, a side that bids 10 or more wins or
    loses 200, every 10 bags cost 100 (a side can be bagged out more than once), a reneg
    takes 3 tricks that score for nobody, table talk takes 1 trick an incident (partners may
    talk only to decide the bid), a wrong card count found at any time is a misdeal the
    dealer declares. Blind nil may be bid whatever the score. Silent in the text, our choice
    as most clubs play: equal scores past 500 play one more hand, each of two nils scored on
    its own, a failed nil's tricks count as bags, bidding starts at the dealer's left, the
    first dealer at random, no exchange when both partners bid nil."""
    return RuleSet(
        target_score=500,
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
        first_lead="lowest_club",
        blind_nil_exchange=2,
        card_exchange="optional_via_dealer",
        misdeal_reasons=("no_spades", "wrong_card_count"),
        misdeal_card_count_any_time=True,
    )


@_preset("progressive", "Progressive tables, four-hand rounds (advancing winners)", "tie", "reneg", "misdeals")
def _progressive() -> RuleSet:
    """Advancing winners: four hands a round, partners split after every round, each player
    credited with the side's round score. Plain scoring only: 10 a trick bid when made, 1
    an overtrick, minus 10 a trick bid when set; no nil (a bid of 0 is an ordinary bid), no
    blind nil, no bag penalty. The first dealer is chosen at random and bidding starts at
    the dealer's left. Silent in the text, our choice: a round tied at a table plays one more
    hand, a reneg hands 3 tricks to the other side, the usual misdeals; and of the two ways
    incoming partners can split, the one making partners who have not played together that
    evening, else the one repeating fewer partnerships."""
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
    )


@_preset(
    "progressive-500", "Progressive tables, games to 500",
    "tie", "two_nils", "reneg", "misdeals", "both_nil_exchange",
)  # fmt: skip
def _progressive_500() -> RuleSet:
    """Standard tournament play: each table plays to 500 (both past it in one deal: the
    higher wins) and the winning team moves on. Every 10 bags cost 100 and the rest carry
    over, so a positive score's last digit is the bag count. Nil 100 (a bid of 0 is always
    a nil), blind nil 200 only when 100 behind, with an optional exchange of two cards; a
    failed nil's tricks do not help the partner but count as bags. The first dealer is
    chosen at random. Silent in the text, our choice as most clubs play: equal scores past
    500 play one more hand, each of two nils scored on its own, a reneg hands 3 tricks to
    the other side, the usual misdeals, no exchange when both partners bid nil."""
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
    "player_bids",
)  # fmt: skip
def _league_300() -> RuleSet:
    """A league's games to 300 within a 30-minute match, played with both jokers as the top
    trumps (big joker, little joker, 2 of spades, then the ace). The first dealer draws the
    high card; the side that did not deal bids first and partners may discuss how many tricks
    to bid, never their cards. Each side bids at least 4 (a nil bidder's partner too, unless
    both bid nil); our reading of "any number of tricks 4-13": a player may bid from 1.
    Nil 60, blind nil 120 when 100 behind, two nils each scored on their own; a failed
    nil's tricks count for nothing. A side bidding 10 or more wins 120, and set
    loses the same (our settled reading; the text names only the win). Six bags cost 60 and
    the count "resets to zero": bags past the sixth in that hand are dropped (our reading of
    "reset"). A reneg moves 3 tricks to the opponents, worth 10 each to them and never bags;
    the offender must still make its bid. The text says misdeals are called before bidding
    yet names talk during the bidding as one: our reading, that one is called during the
    bidding, the others before it."""
    return RuleSet(
        target_score=300,
        set_penalty="minus_bid",
        bag_limit=6,
        bag_penalty=60,
        bag_overflow="reset",
        nil_points=60,
        blind_nil_points=120,
        blind_nil_min_deficit=100,
        both_nil="separate",
        failed_nil_tricks="ignored",
        big_bid=10,
        big_bid_points=120,
        big_bid_penalty=120,
        min_player_bid=1,
        min_team_bid=4,
        reneg_tricks=3,
        reneg_tricks_to="opponents",
        reneg_trick_points=10,
        reneg_points_to_opponents=0,
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
    "player_bids", "time_limit",
)  # fmt: skip
def _championship_500() -> RuleSet:
    """The league's championship game: as the league game but to 500, with nil 100, blind
    nil 200, 10 for 200 (set: minus 200) and a bag limit of ten costing 100 (the count goes
    back to 0). Our reading: the 30-minute match limit does not apply, the championship game
    is played out."""
    return dataclasses.replace(
        PRESETS["league-300"].rules,
        target_score=500,
        nil_points=100,
        blind_nil_points=200,
        big_bid_points=200,
        big_bid_penalty=200,
        bag_limit=10,
        bag_penalty=100,
        time_limit_minutes=None,
    )


# Presets whose rule text names another rule set for the final: rule text 004's league plays
# its season to 300 and "the championship game" to 500. A new tournament's final defaults to it.
FINAL_PRESETS: dict[str, str] = {"league-300": "championship-500"}


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
