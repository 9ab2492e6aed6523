"""The values a hand is made of: bids, each player's and each side's hand, and the error a hand
that breaks a rule raises. Shared by validation (:mod:`scoring.validation`) and scoring
(:mod:`scoring.hand`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.rules import RuleSet

NIL = "nil"
BLIND_NIL = "blind_nil"
TRICKS_IN_A_HAND = 13

Bid = int | str


class InvalidHand(ValueError):
    """A hand that breaks a rule; ``team`` and ``player`` count from 1 and may be None.

    ``teams`` names every side that breaks it: ``(team,)``, or both sides (``team`` None then)
    for a rule both break at once, such as the minimum side bid. ``code`` names the rule for
    programs (``tricks_total``, ``blind_nil_deficit``, …).
    """

    def __init__(
        self,
        message: str,
        *,
        field: str,
        team: int | None = None,
        player: int | None = None,
        code: str = "invalid",
        teams: tuple[int, ...] = (),
    ) -> None:
        self.message = message
        self.field = field
        self.code = code
        self.team = team
        self.teams = (team,) if team else teams
        self.player = player
        sides = f"team {team}" if team else f"teams {' and '.join(map(str, teams))}" if teams else ""
        where = ", ".join(part for part in (sides, f"player {player}" if player else "") if part)
        super().__init__(f"{where + ': ' if where else ''}{field}: {message}")


@dataclass(frozen=True)
class PlayerHand:
    """One player's bid (0..13, ``"nil"`` or ``"blind_nil"``) and tricks taken; under rules
    scoring each player's own bid (``contract: "player"``), also the reneges and table-talk
    incidents the player committed (their side's counts are the sums)."""

    bid: Bid
    tricks: int
    reneges: int = 0
    table_talk: int = 0


@dataclass(frozen=True)
class SideHand:
    """One side's hand, with its standing before the hand."""

    players: tuple[PlayerHand, PlayerHand]
    score: int = 0
    bags: int = 0
    reneges: int = 0
    table_talk: int = 0


def is_nil(rules: RuleSet, bid: Bid) -> bool:
    """Whether ``bid`` is a nil of either kind under ``rules`` (0 is a nil when nil exists)."""
    return bid in (NIL, BLIND_NIL) or (bid == 0 and rules.has_nil)


def nil_value(rules: RuleSet, bid: Bid) -> int:
    value = rules.blind_nil_points if bid == BLIND_NIL else rules.nil_points
    assert value is not None, "validate_hand lets no nil through that the rules lack"
    return value


def side_contract(rules: RuleSet, players: Sequence[PlayerHand]) -> int:
    """The tricks a side has contracted for: the sum of its non-nil bids."""
    return sum(int(p.bid) for p in players if not is_nil(rules, p.bid))
