"""The rules a scorekeeper can break: tricks total 13, bids in range, a side's bid at most 13,
the minimum bids, blind nil only when far enough behind, a standing the rules allow.

:func:`validate_hand` raises :class:`~scoring.values.InvalidHand`, naming the side, the player,
the field and the rule.
"""

from __future__ import annotations

from collections.abc import Sequence

from scoring.rules import RuleSet
from scoring.values import BLIND_NIL, NIL, TRICKS_IN_A_HAND, InvalidHand, PlayerHand, SideHand, is_nil


def validate_hand(rules: RuleSet, sides: Sequence[SideHand]) -> None:
    """Raise :class:`InvalidHand` for the first rule the hand breaks."""
    if len(sides) != 2:
        raise InvalidHand("a hand has exactly two sides", field="teams")
    first, second = sides
    _validate_offenders(rules, first, 1)
    _validate_offenders(rules, second, 2)
    _validate_standing(rules, first, 1)
    _validate_standing(rules, second, 2)
    first_short = _validate_side(rules, first, 1, trailing_by=second.score - first.score)
    second_short = _validate_side(rules, second, 2, trailing_by=first.score - second.score)
    if first_short or second_short:
        _refuse_short_bids(rules, sides, [team for team, short in ((1, first_short), (2, second_short)) if short])
    total = first.players[0].tricks + first.players[1].tricks + second.players[0].tricks + second.players[1].tricks
    if total != TRICKS_IN_A_HAND:
        raise InvalidHand(
            f"the four players' tricks must total 13 (they total {total})", field="tricks", code="tricks_total"
        )


def _validate_standing(rules: RuleSet, side: SideHand, team: int) -> None:
    if len(side.players) != 2:
        raise InvalidHand("a side has exactly two players", field="players", team=team)
    score, bags, reneges, talk = side.score, side.bags, side.reneges, side.table_talk
    whole = type(score) is int and type(bags) is int and type(reneges) is int and type(talk) is int
    if whole and bags >= 0 and reneges >= 0 and talk >= 0:
        limit = rules.bag_limit
        if limit is not None and bags >= limit:
            # Play never leaves a side there (the penalty takes the count below the limit): only a
            # standing carried over from other rules can, and charging it in a hand with no
            # overtricks would be a penalty for nothing.
            raise InvalidHand(
                f"the side starts the hand holding {bags} bags, at or past the limit of {limit}; "
                "a side cannot start a hand there",
                field="bags", team=team, code="bags_at_limit",
            )  # fmt: skip
        return
    for name in ("score", "bags", "reneges", "table_talk"):
        value = getattr(side, name)
        if not _is_int(value):
            raise InvalidHand("must be a whole number", field=name, team=team, code="not_whole")
        if name != "score" and value < 0:
            raise InvalidHand("cannot be negative", field=name, team=team, code="negative")


def _validate_offenders(rules: RuleSet, side: SideHand, team: int) -> None:
    """Under ``contract: "player"`` each of the side's infractions names its player (the players'
    counts add up to the side's); under side contracts the side answers for them, no player."""
    for name, label in (("reneges", "reneg"), ("table_talk", "table-talk incident")):
        counts = [getattr(player, name) for player in side.players]
        for player, count in enumerate(counts, start=1):
            if not _is_int(count) or count < 0:
                raise InvalidHand("must be a whole number, 0 or more", field=name, team=team, player=player,
                                  code="not_whole")  # fmt: skip
        total = getattr(side, name)
        if not _is_int(total):
            continue  # the side's own count is refused with the standing
        if rules.contract == "player" and sum(counts) != total:
            raise InvalidHand(
                f"each {label} comes off the tricks of the player who committed it: say which player for each "
                f"(the side has {total}, its players {sum(counts)})",
                field=name, team=team, code="penalty_player",
            )  # fmt: skip
        if rules.contract == "side" and any(counts):
            raise InvalidHand(
                f"under these rules a {label} costs the side, not one player: give the side's count only",
                field=name, team=team, code="penalty_player",
            )  # fmt: skip


def _validate_side(rules: RuleSet, side: SideHand, team: int, *, trailing_by: int) -> bool:
    """Raise for a bad bid or trick count of the side; returns whether it bids under the minimum
    side bid (refused once both sides are seen, so that a rule both break names both)."""
    has_nil = rules.nil_points is not None
    contract, nils = 0, 0
    for player, hand in enumerate(side.players, start=1):
        if _validate_player(rules, hand, team, player, trailing_by, has_nil):
            nils += 1
        else:
            contract += hand.bid  # type: ignore[operator]  # a non-nil bid is a whole number
    if contract > TRICKS_IN_A_HAND:
        raise InvalidHand("a side can bid at most 13 tricks", field="bid", team=team, code="max_team_bid")
    return nils < 2 and contract < rules.min_team_bid


def _refuse_short_bids(rules: RuleSet, sides: Sequence[SideHand], short: list[int]) -> None:
    """Raise for the sides (team numbers) that bid under the minimum side bid."""
    nil = any(is_nil(rules, p.bid) for team in short for p in sides[team - 1].players)
    raise InvalidHand(
        f"{'the side' if len(short) == 1 else 'each side'} must bid at least {rules.min_team_bid} tricks together"
        + (" (a nil bidder's partner alone must reach it)" if nil else ""),
        field="bid",
        code="min_team_bid",
        team=short[0] if len(short) == 1 else None,
        teams=tuple(short),
    )


def _validate_player(rules: RuleSet, hand: PlayerHand, team: int, player: int, trailing_by: int, has_nil: bool) -> bool:
    """Raise for a bad bid or trick count; returns whether the bid is a nil of either kind."""
    tricks, bid = hand.tricks, hand.bid
    if type(tricks) is not int or not 0 <= tricks <= TRICKS_IN_A_HAND:
        raise InvalidHand(
            "must be a whole number from 0 to 13", field="tricks", code="tricks_range", team=team, player=player
        )
    if type(bid) is int:
        if not 0 <= bid <= TRICKS_IN_A_HAND:
            raise InvalidHand(
                'must be a whole number from 0 to 13, "nil" or "blind_nil"',
                field="bid", code="bid_range", team=team, player=player,
            )  # fmt: skip
        if bid == 0 and has_nil:
            return True
        if bid < rules.min_player_bid:
            raise InvalidHand(
                f"a player must bid at least {rules.min_player_bid} unless bidding nil",
                field="bid", code="min_player_bid", team=team, player=player,
            )  # fmt: skip
        return False
    if bid == NIL:
        if not has_nil:
            raise InvalidHand(
                "nil is not a bid under these rules (0 is an ordinary bid)",
                field="bid", code="nil_not_allowed", team=team, player=player,
            )  # fmt: skip
        return True
    if bid == BLIND_NIL:
        _validate_blind_nil(rules, team, player, trailing_by)
        return True
    raise InvalidHand(
        'must be a whole number from 0 to 13, "nil" or "blind_nil"',
        field="bid",
        code="bid_range",
        team=team,
        player=player,
    )


def _validate_blind_nil(rules: RuleSet, team: int, player: int, trailing_by: int) -> None:
    where = {"team": team, "player": player}
    if not rules.has_blind_nil:
        raise InvalidHand(
            f"{rules.blind_nil_name} is not allowed under these rules",
            field="bid",
            code="blind_nil_not_allowed",
            **where,
        )
    deficit = rules.blind_nil_min_deficit
    if deficit is not None and trailing_by < deficit:
        behind = f"trails by {trailing_by}" if trailing_by > 0 else "is not behind"
        raise InvalidHand(
            f"{rules.blind_nil_name} needs the side to trail by at least {deficit} points (it {behind})",
            field="bid",
            code="blind_nil_deficit",
            **where,
        )


def _is_int(value: object) -> bool:
    return type(value) is int
