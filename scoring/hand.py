"""Scoring one hand: two sides' bids and tricks in, each side's score change out.

:func:`validate_hand` enforces the rules a scorekeeper can break (tricks total 13, bids in
range, blind nil only when far enough behind); :func:`score_hand` validates and then scores.
Both raise :class:`InvalidHand`, which names the side, the player, the field and the rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from scoring.rules import RuleSet

NIL = "nil"
BLIND_NIL = "blind_nil"
TRICKS_IN_A_HAND = 13

Bid = int | str


class InvalidHand(ValueError):
    """A hand that breaks a rule; ``team`` and ``player`` count from 1 and may be None.

    ``code`` names the rule for programs (``tricks_total``, ``blind_nil_deficit``, …).
    """

    def __init__(
        self, message: str, *, field: str, team: int | None = None, player: int | None = None, code: str = "invalid"
    ) -> None:
        self.message = message
        self.field = field
        self.code = code
        self.team = team
        self.player = player
        where = ", ".join(
            part for part in (f"team {team}" if team else "", f"player {player}" if player else "") if part
        )
        super().__init__(f"{where + ': ' if where else ''}{field}: {message}")


@dataclass(frozen=True)
class PlayerHand:
    """One player's bid (0..13, ``"nil"`` or ``"blind_nil"``) and tricks taken."""

    bid: Bid
    tricks: int


@dataclass(frozen=True)
class SideHand:
    """One side's hand, with its standing before the hand."""

    players: tuple[PlayerHand, PlayerHand]
    score: int = 0
    bags: int = 0
    reneges: int = 0
    table_talk: int = 0


@dataclass(frozen=True)
class SideResult:
    """What one hand did to one side.

    ``points`` is the whole change (``bag_penalty``, 0 or negative, and reneg points included); ``bags`` and
    ``score`` are the side's standing after the hand; ``made`` tells whether the side's
    contract (the nil bidder's partner's, where there is one; every nil, when both bid nil)
    was made; ``lines`` explains the points in words.
    """

    points: int
    bag_penalty: int
    bags: int
    score: int
    made: bool
    lines: tuple[str, ...]


@dataclass(frozen=True)
class HandResult:
    teams: tuple[SideResult, SideResult]
    game_over: bool
    winner: int | None


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


def validate_hand(rules: RuleSet, sides: Sequence[SideHand]) -> None:
    """Raise :class:`InvalidHand` for the first rule the hand breaks."""
    if len(sides) != 2:
        raise InvalidHand("a hand has exactly two sides", field="teams")
    for team, side in enumerate(sides, start=1):
        _validate_side(rules, side, team, opponent=sides[2 - team])
    total = sum(p.tricks for side in sides for p in side.players)
    if total != TRICKS_IN_A_HAND:
        raise InvalidHand(
            f"the four players' tricks must total 13 (they total {total})", field="tricks", code="tricks_total"
        )


def _validate_side(rules: RuleSet, side: SideHand, team: int, *, opponent: SideHand) -> None:
    if len(side.players) != 2:
        raise InvalidHand("a side has exactly two players", field="players", team=team)
    for name in ("score", "bags", "reneges", "table_talk"):
        value = getattr(side, name)
        if not _is_int(value):
            raise InvalidHand("must be a whole number", field=name, team=team, code="not_whole")
        if name != "score" and value < 0:
            raise InvalidHand("cannot be negative", field=name, team=team, code="negative")
    for player, hand in enumerate(side.players, start=1):
        _validate_player(rules, hand, team, player, trailing_by=opponent.score - side.score)
    bids = [p.bid for p in side.players]
    if not all(is_nil(rules, bid) for bid in bids) and side_contract(rules, side.players) < rules.min_team_bid:
        raise InvalidHand(
            f"the side must bid at least {rules.min_team_bid} tricks together"
            + (" (a nil bidder's partner alone must reach it)" if any(is_nil(rules, b) for b in bids) else ""),
            field="bid",
            team=team,
            code="min_team_bid",
        )


def _validate_player(rules: RuleSet, hand: PlayerHand, team: int, player: int, *, trailing_by: int) -> None:
    where = {"team": team, "player": player}
    if not _is_int(hand.tricks) or not 0 <= hand.tricks <= TRICKS_IN_A_HAND:
        raise InvalidHand("must be a whole number from 0 to 13", field="tricks", code="tricks_range", **where)
    bid = hand.bid
    if bid == NIL and not rules.has_nil:
        raise InvalidHand(
            "nil is not a bid under these rules (0 is an ordinary bid)", field="bid", code="nil_not_allowed", **where
        )
    if bid == BLIND_NIL:
        if not rules.has_blind_nil:
            raise InvalidHand(
                "blind nil is not allowed under these rules", field="bid", code="blind_nil_not_allowed", **where
            )
        deficit = rules.blind_nil_min_deficit
        if deficit is not None and trailing_by < deficit:
            behind = f"trails by {trailing_by}" if trailing_by > 0 else "is not behind"
            raise InvalidHand(
                f"blind nil needs the side to trail by at least {deficit} points (it {behind})",
                field="bid",
                code="blind_nil_deficit",
                **where,
            )
        return
    if bid == NIL:
        return
    if not _is_int(bid) or not 0 <= bid <= TRICKS_IN_A_HAND:
        raise InvalidHand(
            'must be a whole number from 0 to 13, "nil" or "blind_nil"', field="bid", code="bid_range", **where
        )
    if not is_nil(rules, bid) and bid < rules.min_player_bid:
        raise InvalidHand(
            f"a player must bid at least {rules.min_player_bid} unless bidding nil",
            field="bid",
            code="min_player_bid",
            **where,
        )


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def score_hand(rules: RuleSet, sides: Sequence[SideHand]) -> HandResult:
    """Validate and score one hand; raises :class:`InvalidHand` for a hand that breaks a rule."""
    validate_hand(rules, sides)
    reneg_points = [sides[1 - i].reneges * rules.reneg_points_to_opponents for i in range(2)]
    results = tuple(_score_side(rules, side, reneg_points[i]) for i, side in enumerate(sides))
    over, winner = rules.outcome((results[0].score, results[1].score))
    return HandResult(teams=(results[0], results[1]), game_over=over, winner=winner)


@dataclass
class _Tally:
    """The running sum of one side's score for a hand, with its explanation."""

    points: int = 0
    bags: int = 0
    lines: list[str] = field(default_factory=list)

    def add(self, points: int, line: str) -> None:
        self.points += points
        self.lines.append(line)


def _score_side(rules: RuleSet, side: SideHand, reneg_points: int) -> SideResult:
    tally = _Tally()
    penalty = side.reneges * rules.reneg_tricks + side.table_talk * rules.table_talk_tricks
    if penalty:
        tally.lines.append(_penalty_line(rules, side))
    nils = [p for p in side.players if is_nil(rules, p.bid)]
    if len(nils) == 2:
        made = _score_both_nil(rules, side.players, penalty, tally)
    else:
        made = _score_contract(rules, side.players, penalty, tally)
    if reneg_points:
        tally.add(reneg_points, f"Opponents reneged: +{reneg_points}")
    bag_penalty, bags = _apply_bag_rule(rules, side.bags, tally)
    return SideResult(
        points=tally.points,
        bag_penalty=bag_penalty,
        bags=bags,
        score=side.score + tally.points,
        made=made,
        lines=tuple(tally.lines),
    )


def _penalty_line(rules: RuleSet, side: SideHand) -> str:
    parts = []
    if side.reneges and rules.reneg_tricks:
        parts.append(f"{_count(side.reneges, 'reneg')} × {rules.reneg_tricks}")
    if side.table_talk and rules.table_talk_tricks:
        parts.append(f"{_count(side.table_talk, 'table-talk incident')} × {rules.table_talk_tricks}")
    total = side.reneges * rules.reneg_tricks + side.table_talk * rules.table_talk_tricks
    return f"Penalty: {' + '.join(parts)} = {_count(total, 'trick')} taken off, scoring for nobody"


def _score_contract(rules: RuleSet, players: Sequence[PlayerHand], penalty: int, tally: _Tally) -> bool:
    """Score a side with at most one nil bidder; returns whether its contract was made."""
    bidders = [p for p in players if not is_nil(rules, p.bid)]
    nil_bidders = [p for p in players if is_nil(rules, p.bid)]
    contract = sum(int(p.bid) for p in bidders)
    own_tricks = sum(p.tricks for p in bidders)
    nil_tricks = sum(p.tricks for p in nil_bidders)
    # Penalty tricks come off the contract tricks first, then off the failed nil's tricks
    # (wherever those would have counted), never below zero.
    counted = max(0, own_tricks - penalty)
    nil_left = max(0, nil_tricks - max(0, penalty - own_tricks))
    for nil in nil_bidders:
        _score_nil(rules, nil, tally)
    if nil_tricks and rules.failed_nil_tricks == "count_for_partner":
        counted += nil_left
        tally.lines.append(f"The nil bidder's {_count(nil_left, 'trick')} {_verb(nil_left)} toward the partner's bid")
    made = counted >= contract
    _score_made_or_set(rules, contract, counted, made, tally)
    if nil_tricks and rules.failed_nil_tricks == "bags":
        tally.add(
            nil_left * rules.overtrick_points,
            f"The failed nil's {_count(nil_left, 'trick')}: bags, +{nil_left * rules.overtrick_points}",
        )
        tally.bags += nil_left
    elif nil_tricks and rules.failed_nil_tricks == "ignored":
        tally.lines.append(f"The failed nil's {_count(nil_tricks, 'trick')} {_verb(nil_tricks)} for nothing")
    return made


def _score_made_or_set(rules: RuleSet, contract: int, counted: int, made: bool, tally: _Tally) -> None:
    big = rules.big_bid is not None and contract >= rules.big_bid
    head = f"Bid {contract}, took {counted}"
    if made:
        over = counted - contract
        value = rules.big_bid_points if big else 10 * contract
        assert value is not None
        label = f"a bid of {rules.big_bid} or more scores {value}" if big else f"{contract} × 10 = +{value}"
        tally.add(value, f"{head}: made, {label}" if contract else f"{head}: nothing bid")
        if over:
            tally.add(
                over * rules.overtrick_points, f"{_count(over, 'overtrick')} (bags): +{over * rules.overtrick_points}"
            )
            tally.bags += over
        return
    if big and rules.big_bid_penalty is not None:
        loss = rules.big_bid_penalty
    elif rules.set_penalty == "minus_bid":
        loss = 10 * contract
    else:
        loss = 0
    tally.add(-loss, f"{head}: set, -{loss}" if loss else f"{head}: set, scores 0")


def _score_nil(rules: RuleSet, player: PlayerHand, tally: _Tally) -> None:
    value = nil_value(rules, player.bid)
    name = "Blind nil" if player.bid == BLIND_NIL else "Nil"
    if player.tricks == 0:
        tally.add(value, f"{name} made: +{value}")
    else:
        tally.add(-value, f"{name} failed ({_count(player.tricks, 'trick')} taken): -{value}")


def _score_both_nil(rules: RuleSet, players: Sequence[PlayerHand], penalty: int, tally: _Tally) -> bool:
    """Score a side whose partners both bid nil; returns whether both nils were made."""
    both_made = all(p.tricks == 0 for p in players)
    if rules.both_nil == "separate":
        for player in players:
            _score_nil(rules, player, tally)
        tricks = max(0, sum(p.tricks for p in players) - penalty)
        if tricks and rules.failed_nil_tricks != "ignored":
            tally.add(
                tricks * rules.overtrick_points,
                f"The failed nils' {_count(tricks, 'trick')}: bags, +{tricks * rules.overtrick_points}",
            )
            tally.bags += tricks
        return both_made
    value = sum(nil_value(rules, p.bid) for p in players)
    if both_made:
        tally.add(value, f"Both partners bid nil and made it: +{value}")
    elif rules.both_nil == "all_or_nothing":
        tally.add(0, "Both partners bid nil and not both made it: scores 0")
    else:
        tally.add(-value, f"Both partners bid nil and not both made it: -{value}")
    return both_made


def _apply_bag_rule(rules: RuleSet, bags_before: int, tally: _Tally) -> tuple[int, int]:
    """Add this hand's bags to the count and charge the bag penalty; returns (penalty, bags)."""
    bags = bags_before + tally.bags
    if rules.bag_limit is None:
        return 0, bags  # counted, but they cost nothing: not worth a line
    if bags < rules.bag_limit:
        if tally.bags:
            tally.lines.append(f"Bags: {bags_before} + {tally.bags} = {bags} of {rules.bag_limit}")
        return 0, bags
    assert rules.bag_penalty is not None
    times = bags // rules.bag_limit if rules.bag_overflow == "carry" else 1
    left = bags % rules.bag_limit if rules.bag_overflow == "carry" else 0
    cost = times * rules.bag_penalty
    how = f"{times} × {rules.bag_limit}" if times > 1 else f"the limit of {rules.bag_limit}"
    tally.add(-cost, f"Bags: {bags_before} + {tally.bags} = {bags} reached {how}: -{cost}, {left} left")
    return -cost, left


def _verb(n: int) -> str:
    return "counts" if n == 1 else "count"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
