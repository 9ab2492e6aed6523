"""Rule sets: every choice that changes how Spades is bid, scored or organised.

A :class:`RuleSet` is a frozen value. Its field names are also its JSON keys, so a tournament
stores a rule set as ``{"preset": "friendly", "bag_limit": 6}`` and :func:`rules_from_json`
turns that back into the value. The presets reproduce the published rule texts; where a text
is silent the preset's docstring says what we chose and why.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

SET_PENALTIES = ("minus_bid", "zero")
BAG_OVERFLOWS = ("carry", "reset")
BOTH_NIL = ("separate", "all_or_nothing", "team_contract", "zero_if_split")
CONTRACTS = ("side", "player")
SIT_OUT_CREDITS = ("round_average", "winners_average", "none")
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
CUTS = ("silent", "players_in_turn")
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
    ``contract``
        ``"side"``: the partners' bids add up to one contract, made or set together.
        ``"player"``: each player's bid is scored on its own (made: 10 a trick bid, set: the
        set penalty) and the two scores are summed; the side's overtricks are its bags, and
        a reneg's or table talk's tricks come off the offending player's own tricks. A combined
        bid of ``big_bid`` or more is still scored as one side contract.
    ``both_nil``
        How a side whose partners both bid nil scores: ``"separate"`` (each nil on its own),
        ``"all_or_nothing"`` (``both_nil_points`` if both make it, else 0),
        ``"team_contract"`` (that value if both make it, minus it otherwise) or
        ``"zero_if_split"`` (plus it if both make it, minus it if both fail, 0 if one does).
    ``both_nil_points``
        With any ``both_nil`` but ``separate``: what a side whose partners both bid nil wins
        or loses as a unit, whatever mix of nil and blind nil they bid; null adds up the two
        nil values.
    ``big_bid_points``, ``big_bid_bonus``
        A made contract of ``big_bid`` or more scores ``big_bid_points`` in place of 10 a
        trick, or (one or the other) its ordinary score plus ``big_bid_bonus``. A set one
        scores ``-big_bid_penalty``, or as an ordinary set when that is null.
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
    ``cut``
        Who cuts the shuffled pack: ``"silent"`` (the text says nothing) or ``"players_in_turn"``
        (the dealer asks each player to cut, starting on the dealer's right). The handout's words only.
    ``misdeal_card_count_any_time``
        A wrong card count found at any point of the hand is a misdeal the dealer declares
        (otherwise every misdeal is called before bidding starts).
    ``two_player_variant``
        The rule text has a two-player game; the handout prints it.
    ``sit_out_credit``, ``tie_hand_counts``
        Read only by the progressive format. What a player sitting out a round (odd number
        of couples) is credited with: ``"round_average"`` (the average side score of the
        round), ``"winners_average"`` (the average of the round's winning sides) or
        ``"none"``. Whether the extra hand that breaks a tied round counts toward the
        players' totals (false: it only decides who moves on).
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
    contract: str = "side"
    failed_nil_tricks: str = "bags"
    big_bid: int | None = None
    big_bid_points: int | None = None
    big_bid_penalty: int | None = None
    big_bid_bonus: int | None = None
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
    cut: str = "silent"
    bidding_starts: str = "left_of_dealer"
    hands_per_round: int | None = None
    time_limit_minutes: int | None = None
    partners: str = "fixed"
    misdeal_reasons: tuple[str, ...] = ("no_spades", "wrong_card_count")
    misdeal_card_count_any_time: bool = False
    two_player_variant: bool = False
    sit_out_credit: str = "round_average"
    tie_hand_counts: bool = False

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
        if self.big_bid is not None and (self.big_bid_points is None) == (self.big_bid_bonus is None):
            raise InvalidRules(
                "big_bid_points", "a big bid needs either the points it scores or a bonus on top of 10 a trick"
            )
        if self.big_bid is None and self.big_bid_bonus is not None:
            raise InvalidRules("big_bid_bonus", "a big bid bonus needs big_bid")
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
    "big_bid_bonus": ("int?", 0, 10_000),
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
    "contract": CONTRACTS,
    "cut": CUTS,
    "sit_out_credit": SIT_OUT_CREDITS,
}
_FLAGS = ("blind_nil_by_side", "misdeal_card_count_any_time", "two_player_variant", "tie_hand_counts")
FIELD_NAMES = tuple(field.name for field in dataclasses.fields(RuleSet))


def _check_number(name: str, value: object, *, nullable: bool, low: int, high: int) -> None:
    if value is None and nullable:
        return
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidRules(name, "must be a whole number" + (" or null" if nullable else ""))
    if not low <= value <= high:
        raise InvalidRules(name, f"must be between {low} and {high}")
