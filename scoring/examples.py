"""The rule handout's worked examples: hands described in words, scored by the engine under the
rule set the handout describes, so an example can never disagree with scoring."""

from __future__ import annotations

from dataclasses import dataclass, field

from scoring.hand import NIL, PlayerHand, SideHand, score_hand
from scoring.rules import RuleSet


@dataclass(frozen=True)
class Example:
    """A hand described in words and what it scores, computed by the engine; ``sides`` is the
    hand itself (our side first), for the vectors both scoring engines run (:mod:`scoring.vectors`)."""

    situation: str
    points: int
    explanation: tuple[str, ...]
    sides: tuple[SideHand, SideHand] = field(default=(), compare=False, repr=False)  # type: ignore[assignment]


def worked_examples(rules: RuleSet) -> tuple[Example, ...]:
    """The handout's worked examples under ``rules``: each hand the rules allow, scored by the engine."""
    examples = [_example(rules, "Your side bids 5 and takes 7", [(3, 4), (2, 3)], [(3, 3), (3, 3)])]
    examples.append(_example(rules, "Your side bids 6 and takes 4", [(3, 2), (3, 2)], [(3, 5), (3, 4)]))
    if rules.contract == "player":
        examples.append(_example(rules, "North bids 3 and takes 5; South bids 3 and takes 1",
                                 [(3, 5), (3, 1)], [(3, 3), (3, 4)]))  # fmt: skip
    if rules.has_nil:
        examples.append(_example(rules, "North bids nil and takes none; South bids 4 and takes 4",
                                 [(NIL, 0), (4, 4)], [(4, 5), (4, 4)]))  # fmt: skip
        examples.append(_example(rules, "North bids nil but takes 1; South bids 4 and takes 4",
                                 [(NIL, 1), (4, 4)], [(4, 4), (4, 4)]))  # fmt: skip
    if rules.bag_limit is not None:
        before = rules.bag_limit - 1
        examples.append(_example(rules, f"Your side has {before} bags, bids 4 and takes 6",
                                 [(2, 3), (2, 3)], [(4, 5), (3, 2)], bags=before))  # fmt: skip
    if rules.big_bid is not None:
        low = rules.big_bid - rules.big_bid // 2
        examples.append(_example(rules, f"Your side bids {rules.big_bid} and takes {rules.big_bid}",
                                 [(low, low), (rules.big_bid - low, rules.big_bid - low)],
                                 [(1, 13 - rules.big_bid), (max(1, rules.min_team_bid - 1), 0)]))  # fmt: skip
    if rules.reneg_tricks:
        examples.append(_example(rules, "Your side bids 5, takes 7, and North reneges once",
                                 [(3, 4), (2, 3)], [(3, 3), (3, 3)], reneges=1))  # fmt: skip
        if rules.reneg_tricks_to == "opponents":
            examples.append(_example(rules, "Your side bids 6 and takes 5; the other side reneges once",
                                     [(3, 3), (3, 2)], [(4, 5), (3, 3)], their_reneges=1))  # fmt: skip
    return tuple(example for example in examples if example is not None)


def _example(
    rules: RuleSet, situation: str, ours: list, theirs: list, *, bags: int = 0, reneges: int = 0, their_reneges: int = 0
) -> Example | None:
    """Score the example with the engine; None if these rules do not allow it (a bid too low).
    A reneg is North's (East's for the other side): scoring each player's own bid, it is theirs."""
    own = rules.contract == "player"  # otherwise the side answers for it, and no player is named
    us = SideHand(players=(PlayerHand(*ours[0], reneges=reneges if own else 0), PlayerHand(*ours[1])), bags=bags,
                  reneges=reneges)  # fmt: skip
    them_bids = [max(b, rules.min_player_bid, 1 if rules.has_nil else 0) for b, _ in theirs]
    if sum(them_bids) < rules.min_team_bid:
        them_bids[0] += rules.min_team_bid - sum(them_bids)
    them_players = [PlayerHand(b, t) for b, (_, t) in zip(them_bids, theirs, strict=True)]
    them_players[0] = PlayerHand(them_players[0].bid, them_players[0].tricks, reneges=their_reneges if own else 0)
    them = SideHand(players=(them_players[0], them_players[1]), reneges=their_reneges)
    try:
        result = score_hand(rules, [us, them])
    except ValueError:
        return None
    side = result.teams[0]
    return Example(situation=situation, points=side.points, explanation=side.lines, sides=(us, them))
