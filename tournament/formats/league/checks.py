"""An imported league checked (see :meth:`tournament.formats.registry.EventFormat.check_import`): the
season's schedule (each pairing once a leg, a match played only on a night opened) and its
championship (a knockout of the bracket's settings)."""

from __future__ import annotations

from typing import Any

from tournament.formats.knockout.checks import check_bracket
from tournament.formats.knockout.services import BRACKET_STAGES
from tournament.models import Match
from tournament.transfer.rows import fail


def check_league(plan: Any) -> None:
    """``plan.format_settings`` holds the league's settings and the bracket's, in that order."""
    league, bracket = plan.format_settings
    for game, _ in plan.games:
        match = game.match
        if match is not None and match.stage == Match.Stage.LEAGUE and game.round.number != match.round:
            fail(f"Match {match.key}", f"its games are played in round {match.round}", "round")
    pairings: set[tuple[int | None, int, int]] = set()
    for match in plan.matches:
        where = f"Match {match.key}"
        if match.stage not in (Match.Stage.LEAGUE, *BRACKET_STAGES):
            fail(where, f"stage: a league's matches are its season's or its championship's, not {match.stage}", "stage")
        if match.stage != Match.Stage.LEAGUE:
            if match.leg is not None or match.postponed_from is not None or match.make_up or match.void:
                fail(where, "leg, postponed_from, make_up and void are for league matches", "league")
            continue
        _league_match(plan, match, where, league.legs, pairings)
    if any(m.stage != Match.Stage.LEAGUE for m in plan.matches) and not league.championship_teams:
        fail("Matches", "championship matches, but this league has no championship", "championship")
    check_bracket(plan, bracket)


def _league_match(plan: Any, match: Match, where: str, legs: int, pairings: set) -> None:
    if match.leg not in range(1, legs + 1):
        fail(where, f"leg must be from 1 to {legs} (the league's legs)", "leg")
    if match.home is None or match.away is None:
        fail(where, "a league match has its two teams", "teams")
    pairing = (match.leg, match.home.number, match.away.number)
    if pairing in pairings:
        fail(where, f"team {pairing[1]} is at home to team {pairing[2]} twice in leg {match.leg}", "duplicate")
    pairings.add(pairing)
    if match.round < 1:
        fail(where, "round (the night) must be from 1", "range")
    if match.status not in (Match.Status.READY, Match.Status.PLAYING, Match.Status.FINISHED):
        fail(where, "a league match is ready, playing or finished", "status")
    if match.status == Match.Status.PLAYING and match.round > len(plan.rounds):
        fail(where, f"it is playing but night {match.round} has not been opened", "night")
    match.name = f"Night {match.round}, match {match.number}"
