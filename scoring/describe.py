"""Rule sets in words, generated from their fields so the text can never disagree with scoring."""

from __future__ import annotations

from scoring.rules import RuleSet


def summary(rules: RuleSet) -> str:
    """One line: how a game ends, what nil is worth, what bags cost."""
    parts = []
    if rules.target_score is not None:
        parts.append(f"Game to {rules.target_score}")
    if rules.hands_per_round is not None:
        parts.append(f"{rules.hands_per_round} hands a round")
    if rules.time_limit_minutes:
        parts.append(f"{rules.time_limit_minutes}-minute limit")
    parts.append("set: scores 0" if rules.set_penalty == "zero" else "set: minus 10 a trick bid")
    if rules.nil_points is not None:
        parts.append(f"nil {rules.nil_points}")
    else:
        parts.append("no nil")
    if rules.blind_nil_points is not None:
        behind = f" (when {rules.blind_nil_min_deficit} behind)" if rules.blind_nil_min_deficit else ""
        parts.append(f"blind nil {rules.blind_nil_points}{behind}")
    if rules.big_bid is not None:
        parts.append(f"{rules.big_bid} or more bid: {rules.big_bid_points}")
    if rules.bag_limit is not None:
        parts.append(f"{rules.bag_limit} bags cost {rules.bag_penalty}")
    else:
        parts.append("no bag penalty")
    if rules.min_team_bid:
        parts.append(f"side bids at least {rules.min_team_bid}")
    if rules.deck == "jokers":
        parts.append("jokers deck")
    return " · ".join(parts)
