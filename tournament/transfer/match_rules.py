"""The rules an imported event's games are scored by: an export made before the rules' third pass
keeps the rules it was played under, and a match's own overrides must make a rule set."""

from __future__ import annotations

from typing import Any

from scoring import InvalidRules
from scoring.presets import played_before_third_pass
from tournament.models import Match, Tournament
from tournament.transfer.rows import fail


def keep_the_rules_played(tournament: Tournament, matches: list[Match], rounds: list[Any]) -> None:
    """An export made before the rules' third pass: the event, and each match under its own
    preset, keep the rules their hands were scored by (as migration 0015 keeps them)."""
    lists = [r.get("games") for r in rounds if isinstance(r, dict)]
    games = [g for games in lists if isinstance(games, list) for g in games if isinstance(g, dict)]
    played = [g for g in games if g.get("hands")]
    if played:
        tournament.rule_overrides = played_before_third_pass(tournament.preset, tournament.rule_overrides)
    keys = {g.get("match") for g in played}
    for match in matches:
        if match.preset and match.key in keys:
            match.rule_overrides = played_before_third_pass(match.preset, match.rule_overrides)


def check_match_rules(match: Match) -> None:
    """A match's own rule set, built: its overrides must make one with its preset (and a match
    playing by the tournament's rules has none)."""
    if not match.rule_overrides:
        return
    if not match.preset:
        fail(f"Match {match.key}", "rule_overrides: only a match under a rule set of its own has them", "rules")
    if "preset" in match.rule_overrides:
        fail(f"Match {match.key}", "rule_overrides: a match's preset is its format's, not an override", "rules")
    try:
        match.rules  # noqa: B018 - building the rule set is the check
    except InvalidRules as error:
        fail(f"Match {match.key}", f"rule_overrides: {error.field}: {error.message}", "rules")
