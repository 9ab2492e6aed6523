"""A part of an event played under rules of its own (a knockout's final, a league's championship
final) beside the event's other games, in words generated from the two rule sets."""

from __future__ import annotations

from scoring.rules import RuleSet
from scoring.words import quantity


def game_end(rules: RuleSet) -> str:
    """How a game under ``rules`` ends, after "Games" or a part's name: "to 300 in 30 minutes",
    "of 4 hands", "to 500"."""
    target, hands = rules.target_score, rules.hands_per_round
    if target is not None and hands is not None:
        end = f"to {target} or {quantity(hands, 'hand')}"
    elif target is not None:
        end = f"to {target}"
    elif hands is not None:
        end = f"of {quantity(hands, 'hand')}"
    else:
        end = "played out"
    return f"{end} in {rules.time_limit_minutes} minutes" if rules.time_limit_minutes else end


def compared(rules: RuleSet, part: RuleSet, name: str) -> str:
    """One sentence on games played under ``part`` (called ``name``: "The final") beside the
    event's others, under ``rules``: "Games to 300; the final to 500."; when they end alike, that
    the part has rules of its own."""
    inside = name[0].lower() + name[1:]
    if game_end(rules) != game_end(part):
        return f"Games {game_end(rules)}; {inside} {game_end(part)}."
    return f"{name} is played under rules of its own."
