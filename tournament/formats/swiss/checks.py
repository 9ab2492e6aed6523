"""An imported Swiss event checked (see :meth:`tournament.formats.registry.EventFormat.check_import`):
its rounds within the settings' count, each team at most once a round (in a pairing or the bye), a
pairing's games played in its round, its late teams among its teams; each match given its name."""

from __future__ import annotations

from typing import Any

from tournament.formats.swiss.standings import STAGE
from tournament.models import Match
from tournament.transfer.rows import Row, fail

STATUSES = {Match.Status.PLAYING, Match.Status.FINISHED, Match.Status.BYE}


def read_late_entries(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The file's late teams (``swiss_late_entries``): team number, round joined, and the missed
    rounds' result; an older file has none."""
    entries = data.get("swiss_late_entries") or []
    if not isinstance(entries, list):
        fail("Tournament", "swiss_late_entries must be a list", "type")
    read = []
    for index, entry in enumerate(entries, start=1):
        row = Row(entry, f"Late team {index}")
        read.append({"team": row.number("team", low=1), "joined_round": row.number("joined_round", low=2),
                     "won": row.flag("won"), "points_for": row.number("points_for", low=0, high=2000),
                     "points_against": row.number("points_against", low=0, high=2000)})  # fmt: skip
    return read


def check_swiss(plan: Any) -> None:
    """``plan.format_settings`` holds the Swiss settings and the late teams, in that order."""
    settings, late = plan.format_settings
    if len(plan.rounds) > settings.rounds:
        fail("Rounds", f"{len(plan.rounds)} rounds but the Swiss settings play {settings.rounds}", "rounds")
    numbers = {team.number for team in plan.teams}
    for entry in late:
        if entry["team"] not in numbers:
            fail("Late team", f"there is no team {entry['team']}", "team")
    seen: set[tuple[int, int]] = set()
    for match in plan.matches:
        _check_match(plan, match, settings.rounds, seen)
    for game, _ in plan.games:
        match = game.match
        if match is None:
            fail(f"Round {game.round.number}", "every game of a Swiss event belongs to a pairing", "match")
        if game.round.number != match.round:
            fail(f"Match {match.key}", f"its games are played in round {match.round}", "round")


def _check_match(plan: Any, match: Match, rounds: int, seen: set[tuple[int, int]]) -> None:
    where = f"Match {match.key}"
    if match.stage != STAGE:
        fail(where, f"stage: a Swiss pairing's stage is {STAGE}, not {match.stage}", "stage")
    if match.status not in STATUSES:
        fail(where, "a Swiss pairing is playing or finished, or a bye", "status")
    if not 1 <= match.round <= min(rounds, len(plan.rounds)):
        fail(where, f"round must be a round played, from 1 to {len(plan.rounds)}", "round")
    bye = match.status == Match.Status.BYE
    if match.home is None or (match.away is None) != bye:
        fail(where, "a pairing has its two teams; a bye has one (home) and no other", "teams")
    if bye and match.winner != match.home:
        fail(where, "a bye is won by its team", "winner")
    for team in (match.home, match.away):
        if team is not None:
            if (match.round, team.number) in seen:
                fail(where, f"team {team.number} plays twice in round {match.round}", "duplicate")
            seen.add((match.round, team.number))
    match.name = f"Round {match.round}, bye" if bye else f"Round {match.round}, match {match.number}"
