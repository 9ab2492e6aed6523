"""Play a whole league season through the real models and services with random legal hands.

Used by ``manage.py simulate --format round-robin`` (on a throw-away database), by the benchmarks
and by tests: every night is opened, started, played to its end and closed; then the top teams
play the championship, whose final is a game to 500 under ``championship-500`` (rule text 004).
"""

from __future__ import annotations

import datetime
import random
from typing import Any

from tournament import league, services
from tournament.formats import format_of
from tournament.models import Game, Match, Round, Tournament
from tournament.simulation import play_game, player_name
from tournament.simulation_knockout import knockout_log


def create_league(*, teams: int, seed: int, legs: int = 1, best_of: int = 1, championship: int = 2) -> Tournament:
    """A league under ``league-300`` with ``teams`` registered teams (the schedule not yet made)."""
    tournament = Tournament.objects.create(
        name="Simulated league",
        date=datetime.date(2026, 1, 1),
        preset="league-300",
        final_preset="championship-500",
        format=Tournament.Format.ROUND_ROBIN,
        legs=legs,
        best_of=best_of,
        final_best_of=best_of,
        championship_teams=championship,
        seating_seed=seed,
    )
    for team in range(teams):
        services.register_team(tournament=tournament, names=[player_name(2 * team), player_name(2 * team + 1)])
    return tournament


def play_round(round_: Round, rng: random.Random) -> None:
    """Play every game of a running round until none is left unfinished (a best-of-N match adds
    its next game when one ends)."""
    while True:
        games = list(
            round_.games.exclude(status=Game.Status.FINISHED)
            .select_related("round__tournament", "table", "match")
            .order_by("table__number", "match_game")
        )
        if not games:
            return
        for game in games:
            play_game(game, rng)


def play_league(tournament: Tournament, rng: random.Random) -> None:
    """The whole season night by night, then the championship."""
    round_ = format_of(tournament).start(tournament=tournament)
    nights = league.load_schedule(tournament).nights
    for night in range(1, nights + 1):
        if night > 1:
            round_ = league.open_night(tournament=tournament, night=night)
        services.start_round(round_=round_)
        play_round(round_, rng)
        league.close_night(round_=round_)
    if tournament.championship_teams:
        play_round(league.start_championship(tournament=tournament), rng)


def simulate_league(*, teams: int, seed: int, legs: int = 1, best_of: int = 1, championship: int = 2) -> dict[str, Any]:
    """Run the season and return its log, in the knockout simulation's shape: league matches are
    ``"stage": "league"`` with the night as ``"round"``, the championship's ``"championship"``."""
    tournament = create_league(teams=teams, seed=seed, legs=legs, best_of=best_of, championship=championship)
    play_league(tournament, random.Random(seed))
    championship_night = tournament.rounds.order_by("-number").values_list("number", flat=True).first()

    def stage_and_round(match: Match) -> tuple[str, int]:
        if match.stage == Match.Stage.LEAGUE:
            return "league", match.round
        return "championship", championship_night

    return knockout_log(tournament, "round-robin", stage_and_round)
