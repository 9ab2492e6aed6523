"""Scoring one hand: two sides' bids and tricks in, each side's score change out.

:func:`~scoring.validation.validate_hand` enforces the rules a scorekeeper can break;
:func:`score_hand` validates and then scores. Both raise :class:`InvalidHand`, which names the side, the
player, the field and the rule.

Penalty tricks (reneges, table talk) come off the side's contract tricks first, then off a
failed nil's tricks, never below zero; a nil is made or failed on the tricks its bidder took.
Under ``reneg_tricks_to: "opponents"`` a reneg's tricks move to the other side, where they
count toward its contract (never toward a nil). With ``reneg_trick_points`` set, a received
trick is worth that many points and is never a bag; with ``own`` the receivers' own tricks,
``b`` their bid and ``k`` the tricks received:

* ``own >= b``: the usual score for ``own``, plus ``reneg_trick_points × k``;
* ``own < b <= own + k``: made; the received tricks first fill the bid, the rest are worth
  ``reneg_trick_points`` each (10 a trick: ``10 × (own + k)``), no bags;
* ``own + k < b``: set as usual, plus ``reneg_trick_points × k``.

A flat ``reneg_points_to_opponents`` is added for each reneg whatever moved (004: 30, with
``reneg_trick_points`` 0, so the moved tricks help the bid and earn nothing more).

Under ``contract: "player"`` each player's bid is scored on its own from the tricks they took
less their own penalty tricks (see :func:`_score_players`), unless the side's bids together
reach ``big_bid``: that is one side contract.

Scoring is the hot path (a standings page replays every game), so the explanation of a side's
points in words, :attr:`SideResult.lines`, is built only when asked for: the side is scored
again with its words written down.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from scoring.rules import RuleSet
from scoring.validation import validate_hand
from scoring.values import (
    BLIND_NIL,
    NIL,
    TRICKS_IN_A_HAND,
    Bid,
    InvalidHand,
    PlayerHand,
    SideHand,
    is_nil,
    nil_value,
    side_contract,
)
from scoring.words import quantity, signed

__all__ = [
    "BLIND_NIL", "NIL", "TRICKS_IN_A_HAND", "Bid", "HandResult", "InvalidHand", "PlayerHand", "SideHand",
    "SideResult", "is_nil", "nil_value", "score_hand", "side_contract", "validate_hand",
]  # fmt: skip


@dataclass(frozen=True)
class SideResult:
    """What one hand did to one side.

    ``points`` is the whole change (``bag_penalty``, 0 or negative, and reneg points included); ``bags`` and
    ``score`` are the side's standing after the hand; ``made`` tells whether the side's
    contract (the nil bidder's partner's, where there is one; every nil, when both bid nil)
    was made; :attr:`lines` explains the points in words. ``scored_from`` is what the side was
    scored from, kept to write :attr:`lines` on demand.
    """

    points: int
    bag_penalty: int
    bags: int
    score: int
    made: bool
    scored_from: tuple[Any, ...] = field(default=(), repr=False, compare=False)

    @cached_property
    def lines(self) -> tuple[str, ...]:
        """The points in words, one line a step (built on first use, then kept)."""
        words: list[str] = []
        _score_side(*self.scored_from, words)
        return tuple(words)


@dataclass(frozen=True)
class HandResult:
    teams: tuple[SideResult, SideResult]
    game_over: bool
    winner: int | None


# A frozen dataclass's __init__ sets its fields one object.__setattr__ at a time: building two
# SideResults and a HandResult was half the cost of scoring a hand. The engine builds them here,
# every field at once, as the same values the classes build (a test holds them equal).
_new, _set = object.__new__, object.__setattr__


def _side_result(
    points: int, bag_penalty: int, bags: int, score: int, made: bool, scored_from: tuple[Any, ...]
) -> SideResult:
    result = _new(SideResult)
    _set(result, "__dict__", {"points": points, "bag_penalty": bag_penalty, "bags": bags, "score": score,
                              "made": made, "scored_from": scored_from})  # fmt: skip
    return result


def _hand_result(teams: tuple[SideResult, SideResult], game_over: bool, winner: int | None) -> HandResult:
    result = _new(HandResult)
    _set(result, "__dict__", {"teams": teams, "game_over": game_over, "winner": winner})
    return result


# --- scoring ---------------------------------------------------------------------------------


def score_hand(rules: RuleSet, sides: Sequence[SideHand]) -> HandResult:
    """Validate and score one hand; raises :class:`InvalidHand` for a hand that breaks a rule."""
    validate_hand(rules, sides)
    first, second = sides
    if first.reneges or second.reneges:
        given = (_reneg_tricks_given(rules, first), _reneg_tricks_given(rules, second))
        award = rules.reneg_points_to_opponents
        one = _score_side(rules, first, given[1], second.reneges * award)
        two = _score_side(rules, second, given[0], first.reneges * award)
    else:
        one = _score_side(rules, first, 0, 0)
        two = _score_side(rules, second, 0, 0)
    over, winner = rules.outcome((one.score, two.score))
    return _hand_result((one, two), over, winner)


def _reneg_tricks_given(rules: RuleSet, side: SideHand) -> int:
    """The tricks ``side``'s reneges hand to the other side (none if they score for nobody)."""
    if rules.reneg_tricks_to != "opponents":
        return 0
    first, second = side.players
    if rules.contract == "player":  # each offender gives from their own tricks
        return sum(min(p.reneges * rules.reneg_tricks, p.tricks) for p in side.players)
    return min(side.reneges * rules.reneg_tricks, first.tricks + second.tricks)


def _score_players(
    rules: RuleSet, players: Sequence[PlayerHand], received: int, words: list[str] | None
) -> tuple[int, int, bool]:
    """(points, bags, made) under ``contract: "player"``: each player's bid scored on its own
    from their own tricks less their own penalty tricks, then summed; ``made``: every bid made.

    A side whose bids together reach ``big_bid`` is scored as one side contract, on the tricks
    its players have left after their own penalties. Tricks received from the other side's
    reneges first fill a set player's shortfall, then count beyond the first bid, as they would
    for a side contract.
    """
    counted = [max(0, p.tricks - p.reneges * rules.reneg_tricks - p.table_talk * rules.table_talk_tricks)
               for p in players]  # fmt: skip
    nils = [is_nil(rules, p.bid) for p in players]
    if rules.failed_nil_tricks == "count_for_partner" and any(nils):
        nil = nils.index(True)
        counted[1 - nil] += counted[nil]
        counted[nil] = 0
    points = bags = 0
    for i, player in enumerate(players):
        if nils[i]:
            points += _score_nil(rules, player, words)
            if counted[i] and rules.failed_nil_tricks == "bags":
                points += counted[i] * rules.overtrick_points
                bags += counted[i]
                if words is not None:
                    words.append(f"The failed nil's {quantity(counted[i], 'trick')}: bags, "
                                 f"{signed(counted[i] * rules.overtrick_points)}")  # fmt: skip
    contract = side_contract(rules, players)
    if rules.big_bid is not None and contract >= rules.big_bid:
        taken = sum(c for c, nil in zip(counted, nils, strict=True) if not nil)
        own, over, made = _score_contract(rules, contract, taken, received, words)
        return points + own, bags + over, made
    shares = [0, 0]
    for i, player in enumerate(players):
        if not nils[i]:
            shares[i] = min(received, max(0, int(player.bid) - counted[i]))
            received -= shares[i]
    shares[nils.index(False)] += received
    made = True
    for i, (player, label) in enumerate(zip(players, ("One partner", "The other"), strict=True)):
        if nils[i]:
            continue
        start = len(words) if words is not None else 0
        own, over, ok = _score_contract(rules, int(player.bid), counted[i], shares[i], words)
        points, bags, made = points + own, bags + over, made and ok
        if words is not None and len(words) > start and not any(nils):  # beside a nil, one bid needs no name
            words[start] = f"{label}: {words[start][0].lower()}{words[start][1:]}"
    return points, bags, made


def _score_side(
    rules: RuleSet, side: SideHand, received: int, award: int, words: list[str] | None = None
) -> SideResult:
    """Score one side, given the tricks it ``received`` from the other side's reneges and the
    flat ``award`` for them; writes the explanation to ``words`` when given."""
    first, second = side.players
    penalty = side.reneges * rules.reneg_tricks + side.table_talk * rules.table_talk_tricks
    if penalty and words is not None:
        words.append(_penalty_line(rules, side))
    has_nil = rules.nil_points is not None
    first_nil = type(first.bid) is str or (has_nil and first.bid == 0)
    second_nil = type(second.bid) is str or (has_nil and second.bid == 0)
    if rules.contract == "player" and not (first_nil and second_nil):
        points, bags, made = _score_players(rules, side.players, received, words)
    elif not first_nil and not second_nil:
        counted = first.tricks + second.tricks - penalty
        points, bags, made = _score_contract(
            rules,
            first.bid + second.bid,
            counted if counted > 0 else 0,
            received,
            words,  # type: ignore[operator]
        )
    elif first_nil and second_nil:
        points, bags, made = _score_both_nil(rules, side.players, penalty, received, words)
    else:
        nil, bidder = (first, second) if first_nil else (second, first)
        points, bags, made = _score_with_nil(rules, nil, bidder, penalty, received, words)
    if award:
        points += award
        if words is not None:
            words.append(f"Opponents reneged: {signed(award)}")
    bags += side.bags
    bag_penalty = 0
    limit = rules.bag_limit
    if limit is not None and bags >= limit:
        bag_penalty, left = _bag_penalty(rules, bags)
        if words is not None:
            words.append(_bag_line(rules, side.bags, bags, bag_penalty, left))
        points += bag_penalty
        bags = left
    elif words is not None and limit is not None and bags > side.bags:
        words.append(f"Bags: {side.bags} + {bags - side.bags} = {bags} of {limit}")
    return _side_result(points, bag_penalty, bags, side.score + points, made, (rules, side, received, award))


def _score_contract(
    rules: RuleSet, contract: int, counted: int, received: int, words: list[str] | None
) -> tuple[int, int, bool]:
    """(points, bags, made) for a contract and the tricks counted toward it (after penalties)."""
    per_trick = rules.reneg_trick_points
    made = counted + received >= contract
    big = rules.big_bid is not None and contract >= rules.big_bid
    extra = 0
    if made:
        bonus = rules.big_bid_bonus
        value = (10 * contract + bonus if bonus is not None else rules.big_bid_points) if big else 10 * contract
        assert value is not None
        if per_trick is None:
            over = counted + received - contract
        else:
            over = counted - contract if counted > contract else 0
            extra = per_trick * (received - (contract - counted if contract > counted else 0))
        points = value + over * rules.overtrick_points + extra
    else:
        over = 0
        if big and rules.big_bid_penalty is not None:
            value = -rules.big_bid_penalty
        elif rules.set_penalty == "minus_bid":
            value = -10 * contract
        else:
            value = 0
        if per_trick is not None:
            extra = per_trick * received
        points = value + extra
    if words is not None:
        _contract_words(rules, contract, counted, received, made, big, value, over, extra, words)
    return points, over, made


def _contract_words(
    rules: RuleSet,
    contract: int,
    counted: int,
    received: int,
    made: bool,
    big: bool,
    value: int,
    over: int,
    extra: int,
    words: list[str],
) -> None:
    head = f"Bid {contract}, took {counted}" + (f" + {received} received" if received else "")
    if made:
        if not big:
            label = f"{contract} × 10 = {signed(value)}"
        elif rules.big_bid_bonus is not None:
            label = f"{contract} × 10 + {rules.big_bid_bonus} for a bid of {rules.big_bid} or more = {signed(value)}"
        else:
            label = f"a bid of {rules.big_bid} or more scores {value}"
        words.append(f"{head}: made, {label}" if contract else f"{head}: nothing bid")
        if over:
            words.append(f"{quantity(over, 'overtrick')} (bags): {signed(over * rules.overtrick_points)}")
    else:
        words.append(f"{head}: set, {signed(value)}" if value else f"{head}: set, scores 0")
    if extra:
        per_trick = rules.reneg_trick_points
        words.append(f"{quantity(extra // per_trick, 'received trick')} × {per_trick} (never bags): {signed(extra)}")


def _score_with_nil(
    rules: RuleSet, nil: PlayerHand, bidder: PlayerHand, penalty: int, received: int, words: list[str] | None
) -> tuple[int, int, bool]:
    """(points, bags, made) for a side with one nil bidder; ``made`` is the partner's contract."""
    points = _score_nil(rules, nil, words)
    own, nil_tricks = bidder.tricks, nil.tricks
    # Penalty tricks come off the contract tricks first, then off the failed nil's tricks.
    counted = own - penalty if own > penalty else 0
    nil_left = nil_tricks - (penalty - own) if penalty > own else nil_tricks
    if nil_left < 0:
        nil_left = 0
    failed = rules.failed_nil_tricks
    if nil_tricks and failed == "count_for_partner":
        counted += nil_left
        if words is not None:
            words.append(f"The nil bidder's {quantity(nil_left, 'trick')} {_verb(nil_left)} toward the partner's bid")
    contract_points, bags, made = _score_contract(rules, int(bidder.bid), counted, received, words)
    points += contract_points
    if nil_tricks and failed == "bags":
        points += nil_left * rules.overtrick_points
        bags += nil_left
        if words is not None:
            extra = signed(nil_left * rules.overtrick_points)
            words.append(f"The failed nil's {quantity(nil_left, 'trick')}: bags, {extra}")
    elif nil_tricks and failed == "ignored" and words is not None:
        words.append(f"The failed nil's {quantity(nil_tricks, 'trick')} {_verb(nil_tricks)} for nothing")
    return points, bags, made


def _score_nil(rules: RuleSet, player: PlayerHand, words: list[str] | None) -> int:
    value = nil_value(rules, player.bid)
    points = value if player.tricks == 0 else -value
    if words is not None:
        name = rules.blind_nil_name.capitalize() if player.bid == BLIND_NIL else "Nil"
        if player.tricks == 0:
            words.append(f"{name} made: {signed(value)}")
        else:
            words.append(f"{name} failed ({quantity(player.tricks, 'trick')} taken): {signed(-value)}")
    return points


def _score_both_nil(
    rules: RuleSet, players: Sequence[PlayerHand], penalty: int, received: int, words: list[str] | None
) -> tuple[int, int, bool]:
    """(points, bags, made) for a side whose partners both bid nil; ``made``: both nils made."""
    both_made = players[0].tricks == 0 and players[1].tricks == 0
    bags = 0
    if rules.both_nil == "separate":
        points = _score_nil(rules, players[0], words) + _score_nil(rules, players[1], words)
        tricks = max(0, players[0].tricks + players[1].tricks - penalty)
        if tricks and rules.failed_nil_tricks != "ignored":
            points += tricks * rules.overtrick_points
            bags = tricks
            if words is not None:
                extra = signed(tricks * rules.overtrick_points)
                words.append(f"The failed nils' {quantity(tricks, 'trick')}: bags, {extra}")
    else:
        value = rules.both_nil_points
        if value is None:
            value = nil_value(rules, players[0].bid) + nil_value(rules, players[1].bid)
        if both_made:
            points = value
            line = f"Both partners bid nil and made it: {signed(value)}"
        elif rules.both_nil == "all_or_nothing":
            points = 0
            line = "Both partners bid nil and not both made it: scores 0"
        elif rules.both_nil == "team_contract" or (players[0].tricks and players[1].tricks):
            points = -value
            how = "not both made it" if rules.both_nil == "team_contract" else "both failed"
            line = f"Both partners bid nil and {how}: {signed(-value)}"
        else:
            points = 0
            line = "Both partners bid nil and one of them made it: scores 0"
        if words is not None:
            words.append(line)
    if received:
        # Received tricks are the side's own, beyond a contract of nothing.
        per_trick = rules.reneg_trick_points
        if per_trick is None:
            points += received * rules.overtrick_points
            bags += received
            if words is not None:
                extra = signed(received * rules.overtrick_points)
                words.append(f"{quantity(received, 'received trick')} (bags): {extra}")
        else:
            points += received * per_trick
            if words is not None and per_trick:  # worth nothing (004): the 30 awarded says it all
                words.append(
                    f"{quantity(received, 'received trick')} × {per_trick} (never bags): {signed(received * per_trick)}"
                )
    return points, bags, both_made


def _bag_penalty(rules: RuleSet, bags: int) -> tuple[int, int]:
    """(penalty, bags left) for a count at or past the limit."""
    limit, cost = rules.bag_limit, rules.bag_penalty
    assert limit is not None and cost is not None
    if rules.bag_overflow == "carry":
        return -(bags // limit) * cost, bags % limit
    return -cost, 0


def _bag_line(rules: RuleSet, before: int, bags: int, penalty: int, left: int) -> str:
    times = bags // rules.bag_limit if rules.bag_overflow == "carry" else 1  # type: ignore[operator]
    how = f"{times} × {rules.bag_limit}" if times > 1 else f"the limit of {rules.bag_limit}"
    return f"Bags: {before} + {bags - before} = {bags} reached {how}: {signed(penalty)}, {left} left"


def _penalty_line(rules: RuleSet, side: SideHand) -> str:
    parts = []
    if side.reneges and rules.reneg_tricks:
        parts.append(f"{quantity(side.reneges, 'reneg')} × {rules.reneg_tricks}")
    if side.table_talk and rules.table_talk_tricks:
        parts.append(f"{quantity(side.table_talk, 'table-talk incident')} × {rules.table_talk_tricks}")
    total = side.reneges * rules.reneg_tricks + side.table_talk * rules.table_talk_tricks
    given = _reneg_tricks_given(rules, side)
    line = f"Penalty: {' + '.join(parts)} = {quantity(total, 'trick')} taken off"
    if not given:
        return f"{line}, scoring for nobody"
    return f"{line}, {given} to the opponents" + (", the rest scoring for nobody" if given < total else "")


def _verb(n: int) -> str:
    return "counts" if n == 1 else "count"
