"""An imported knockout checked (see :meth:`tournament.formats.registry.EventFormat.check_import`): its
bracket settings, and that its matches are the bracket of its seeded teams, each holding the
teams the seeds and the results before it put there. A league's championship is checked so too."""

from __future__ import annotations

from typing import Any

from tournament.formats.knockout import bracket as pure
from tournament.formats.knockout.models import KnockoutSettings
from tournament.formats.knockout.services import BRACKET_STAGES, DOUBLE
from tournament.models import Match
from tournament.transfer.rows import fail

STATUSES = {
    pure.Status.WAITING: {Match.Status.WAITING},
    pure.Status.READY: {Match.Status.READY, Match.Status.PLAYING},
    pure.Status.DECIDED: {Match.Status.FINISHED},
    pure.Status.BYE: {Match.Status.BYE},
    pure.Status.NOT_NEEDED: {Match.Status.NOT_NEEDED},
}


def play_finals_by(settings: KnockoutSettings, plan: Any) -> None:
    """The file's finals play by the bracket's settings' rule set for a final, as the draw makes them."""
    for match in plan.matches:
        match.preset = settings.final_preset if match.stage == Match.Stage.FINAL else ""


def check_knockout(plan: Any) -> None:
    """A knockout: one round, holding every match's games, once its bracket is drawn."""
    for match in plan.matches:
        if match.stage not in BRACKET_STAGES:
            fail(f"Match {match.key}", "stage: league matches belong to a league", "stage")
        if match.leg is not None or match.postponed_from is not None or match.make_up or match.void:
            fail(f"Match {match.key}", "leg, postponed_from, make_up and void are for league matches", "league")
    if bool(plan.matches) != bool(plan.rounds):
        fail("Rounds", "a knockout has one round, holding its matches' games, once its bracket is drawn", "rounds")
    if len(plan.rounds) > 1:
        fail("Rounds", "a knockout has one round, holding its matches' games", "rounds")
    check_bracket(plan, plan.format_settings)


def check_bracket(plan: Any, settings: KnockoutSettings) -> None:
    """The bracket matches of ``plan`` (a knockout's, a league's championship) against the bracket of
    its seeded teams; each match is given its name, as the draw gives it."""
    matches = [m for m in plan.matches if m.stage in BRACKET_STAGES]
    if not matches:
        return
    seeded = sorted((team for team in plan.teams if team.seed is not None), key=lambda team: team.seed)
    if len(seeded) < 2 or [team.seed for team in seeded] != list(range(1, len(seeded) + 1)):
        fail("Teams", "seed: the bracket's teams are seeded 1, 2, 3… each seed once", "seeds")
    if plan.tournament.format == DOUBLE:
        shape = pure.double_elimination(len(seeded))
    else:
        shape = pure.single_elimination(len(seeded), third_place=settings.third_place_match)
    keys = {slot.key for slot in shape.slots}
    missing, extra = sorted(keys - {m.key for m in matches}), sorted({m.key for m in matches} - keys)
    if missing or extra:
        words = f"missing: {', '.join(missing) or 'none'}; not in it: {', '.join(extra) or 'none'}"
        fail("Matches", f"they are not the bracket of {len(seeded)} seeded teams ({words})", "bracket")
    results = {m.key: m.winner.number for m in matches if m.status == Match.Status.FINISHED}
    try:
        state = pure.resolve(shape, [team.number for team in seeded], results)
    except ValueError as error:
        fail("Matches", f"the results do not fit the bracket: {error}", "bracket")
    by_key = {m.key: m for m in matches}
    numbers = {slot.key: n for n, slot in enumerate(shape.matches, start=1)}  # as the draw numbers them
    for ms in state.matches:
        match, slot = by_key[ms.slot.key], ms.slot
        where, number = f"Match {match.key}", numbers.get(slot.key, 0)
        if (match.stage, match.round, match.number) != (slot.stage.value, slot.round, number):
            fail(where, f"the bracket has it as {slot.stage} round {slot.round}, match {number}", "bracket")
        teams = tuple(team.number if team else None for team in (match.home, match.away))
        if ms.status != pure.Status.NOT_NEEDED and teams != ms.teams:
            fail(where, f"the seeds and results put teams {_pair(ms.teams)} in it, not {_pair(teams)}", "bracket")
        if match.status not in STATUSES[ms.status]:
            fail(where, f"status: {match.status}, but by the results it is {ms.status}", "bracket")
        match.name = shape.match_name(slot.stage, slot.round, number)
    last = plan.rounds[-1].number if plan.rounds else None
    for game, _ in plan.games:
        if game.match is not None and game.match.stage in BRACKET_STAGES and game.round.number != last:
            fail(f"Match {game.match.key}", f"its games are played in round {last}", "round")


def _pair(teams: tuple[int | None, ...]) -> str:
    return " and ".join("none" if team is None else str(team) for team in teams)
