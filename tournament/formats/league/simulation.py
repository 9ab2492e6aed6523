"""A league season played with random legal hands (``manage.py simulate league``): every night
opened, started, played to its end and closed; then the top teams play the championship, whose
final is a game to 500 under ``championship-500`` (rule text 004)."""

from __future__ import annotations

import random
from argparse import ArgumentParser
from typing import Any

from tournament.formats.knockout.models import KnockoutSettings
from tournament.formats.knockout.simulation import knockout_log, lines
from tournament.formats.league import services as league
from tournament.formats.league.models import LeagueSettings
from tournament.formats.registry import Simulation
from tournament.models import Match, Tournament
from tournament.play.rounds import close_round, start_play, start_round
from tournament.simulation.play import create_event, play_round


def create_league(*, teams: int, seed: int, legs: int = 1, best_of: int = 1, championship: int = 2) -> Tournament:
    """A league under ``league-300`` with ``teams`` registered teams (the schedule not yet made)."""
    tournament = create_event(
        teams=teams, name="Simulated league", preset="league-300", format=league.ROUND_ROBIN, seating_seed=seed
    )
    LeagueSettings.objects.create(tournament=tournament, legs=legs, championship_teams=championship)
    KnockoutSettings.objects.create(
        tournament=tournament, final_preset="championship-500", best_of=best_of, final_best_of=best_of
    )
    return tournament


def play_league(tournament: Tournament, rng: random.Random) -> None:
    """The whole season night by night, then the championship."""
    round_ = start_play(tournament=tournament)
    nights = league.load_schedule(tournament).nights
    for night in range(1, nights + 1):
        if night > 1:
            round_ = league.open_night(tournament=tournament, night=night)
        start_round(round_=round_)
        play_round(round_, rng)
        close_round(round_=round_)
    if LeagueSettings.objects.get(tournament=tournament).championship_teams:
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


def _arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--teams", type=int, default=8, help="registered teams")
    parser.add_argument("--legs", type=int, choices=[1, 2], default=1, help="2: home and away")
    parser.add_argument("--best-of", type=int, choices=[1, 3, 5], default=1, help="games a match")
    parser.add_argument("--championship", type=int, choices=[0, 2, 4], default=2, help="teams in the championship")


def _run(options: dict[str, Any]) -> dict[str, Any]:
    if options["championship"] > options["teams"]:
        raise ValueError("--championship: more teams than the league has.")
    return simulate_league(teams=options["teams"], seed=options["seed"], legs=options["legs"],
                           best_of=options["best_of"], championship=options["championship"])  # fmt: skip


SIMULATION = Simulation("league", "a league season, then its championship", _arguments, _run, lines)
