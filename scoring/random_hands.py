"""Random legal hands, for benchmarks, simulations and property tests.

The deal is not simulated card by card: tricks are split at random among the four players and
bids are drawn near what each player took, then adjusted until the rule set accepts them.
"""

from __future__ import annotations

import random

from scoring.hand import BLIND_NIL, NIL, TRICKS_IN_A_HAND, PlayerHand
from scoring.rules import RuleSet

Pair = tuple[PlayerHand, PlayerHand]


def random_tricks(rng: random.Random) -> list[int]:
    """Thirteen tricks split among four players."""
    cuts = sorted(rng.randint(0, TRICKS_IN_A_HAND) for _ in range(3))
    bounds = [0, *cuts, TRICKS_IN_A_HAND]
    return [bounds[i + 1] - bounds[i] for i in range(4)]


def random_hand(
    rules: RuleSet, rng: random.Random, *, scores: tuple[int, int] = (0, 0), nil_chance: float = 0.08
) -> tuple[Pair, Pair]:
    """A hand that :func:`scoring.hand.validate_hand` accepts for sides standing at ``scores``."""
    tricks = random_tricks(rng)
    sides = []
    for team in range(2):
        trailing_by = scores[1 - team] - scores[team]
        pair = [tricks[2 * team], tricks[2 * team + 1]]
        bids = [_random_bid(rules, rng, took, trailing_by, nil_chance) for took in pair]
        bids = _meet_minimums(rules, bids)
        sides.append((PlayerHand(bids[0], pair[0]), PlayerHand(bids[1], pair[1])))
    return sides[0], sides[1]


def _random_bid(rules: RuleSet, rng: random.Random, took: int, trailing_by: int, nil_chance: float) -> int | str:
    roll = rng.random()
    # Players bid nil mostly on hands that take nothing, as real players do.
    if rules.has_nil and roll < (nil_chance * 6 if took == 0 else nil_chance / 4):
        deficit = rules.blind_nil_min_deficit or 0
        if rules.has_blind_nil and roll < nil_chance and trailing_by >= deficit:
            return BLIND_NIL
        return NIL
    bid = took + rng.choice((-2, -1, -1, 0, 0, 0, 0, 1))
    low = max(rules.min_player_bid, 1 if rules.has_nil else 0)
    return min(TRICKS_IN_A_HAND, max(low, bid))


def _meet_minimums(rules: RuleSet, bids: list[int | str]) -> list[int | str]:
    """The side's bids raised to the side's minimum, or lowered to 13 together."""
    numbers = [i for i, bid in enumerate(bids) if not isinstance(bid, str)]
    if not numbers:
        return bids
    shortfall = rules.min_team_bid - sum(int(bids[i]) for i in numbers)
    if shortfall > 0:
        bids[numbers[0]] = int(bids[numbers[0]]) + shortfall
    excess = sum(int(bids[i]) for i in numbers) - TRICKS_IN_A_HAND
    if excess > 0:
        high = max(numbers, key=lambda i: int(bids[i]))
        bids[high] = int(bids[high]) - excess
    return bids
