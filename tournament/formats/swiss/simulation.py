"""A Swiss event played with random legal hands (``manage.py simulate swiss``, or ``simulate
--format swiss``): every round paired from the standings, started, played to its end and closed.
Its log, as JSON: the teams, each round's bye and pairings (tables in rank order, with the winner),
and the final standings with wins and Buchholz, best first."""

from __future__ import annotations

import random
from argparse import ArgumentParser
from typing import Any

from tournament.formats.registry import Simulation
from tournament.formats.swiss.models import MAX_ROUNDS, SwissSettings
from tournament.formats.swiss.services import SWISS
from tournament.formats.swiss.standings import swiss_matches, swiss_standings
from tournament.models import Match, Tournament
from tournament.play.rounds import close_round, start_play, start_round
from tournament.simulation.play import create_event, play_round


def create_swiss(*, teams: int, rounds: int, seed: int, best_of: int = 1) -> Tournament:
    """A Swiss event under ``league-300`` with ``teams`` registered teams, round 1 drawn from ``seed``."""
    tournament = create_event(teams=teams, name="Simulated Swiss", preset="league-300", format=SWISS,
                              seating_seed=seed)  # fmt: skip
    SwissSettings.objects.create(tournament=tournament, rounds=rounds, best_of=best_of)
    return tournament


def play_swiss(tournament: Tournament, rng: random.Random) -> None:
    """Every round, paired as the previous one closes, played to its end."""
    round_ = start_play(tournament=tournament)
    while round_ is not None:
        start_round(round_=round_)
        play_round(round_, rng)
        round_ = close_round(round_=round_)


def simulate_swiss(*, teams: int, rounds: int, seed: int, best_of: int = 1) -> dict[str, Any]:
    """Run the event and return its log (see the module docstring); teams are named by number."""
    tournament = create_swiss(teams=teams, rounds=rounds, seed=seed, best_of=best_of)
    play_swiss(tournament, random.Random(seed))
    number = dict(tournament.teams.values_list("pk", "number"))
    log_rounds = []
    matches = swiss_matches(tournament).order_by("round", "number")
    for r in range(1, tournament.rounds.count() + 1):
        these = [m for m in matches if m.round == r]
        bye = next((number[m.home_id] for m in these if m.status == Match.Status.BYE), None)
        pairings = [{"table": m.number, "teams": [number[m.home_id], number[m.away_id]], "winner": number[m.winner_id]}
                    for m in these if m.status != Match.Status.BYE]  # fmt: skip
        log_rounds.append({"round": r, "bye": bye, "pairings": pairings})
    standings = [{"team": number[line.row.team], "wins": line.row.won, "buchholz": line.row.buchholz}
                 for line in swiss_standings(tournament).lines]  # fmt: skip
    return {"format": SWISS, "teams": sorted(number.values()), "rounds": log_rounds, "standings": standings}


def lines(log: dict[str, Any]) -> list[str]:
    """The log in words: each round's tables, then the standings."""
    out = [f"A Swiss event of {len(log['teams'])} teams over {len(log['rounds'])} rounds."]
    for entry in log["rounds"]:
        out.append(f"Round {entry['round']}:")
        out.extend(f"  Table {p['table']}: team {p['teams'][0]} v team {p['teams'][1]}, team {p['winner']} won"
                   for p in entry["pairings"])  # fmt: skip
        if entry["bye"] is not None:
            out.append(f"  Bye: team {entry['bye']}")
    out.append("Standings:")
    out.extend(f"  {place}. team {s['team']}: {s['wins']} won, Buchholz {s['buchholz']}"
               for place, s in enumerate(log["standings"], start=1))  # fmt: skip
    return out


def _arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--teams", type=int, default=16, help="registered teams")
    parser.add_argument("--rounds", type=int, default=5, help=f"rounds, 1 to {MAX_ROUNDS}")
    parser.add_argument("--best-of", type=int, choices=[1, 3, 5], default=1, help="games a pairing")


def _run(options: dict[str, Any]) -> dict[str, Any]:
    if not 1 <= options["rounds"] <= MAX_ROUNDS:
        raise ValueError(f"--rounds: from 1 to {MAX_ROUNDS}.")
    if options["rounds"] >= options["teams"]:
        raise ValueError("--rounds: fewer rounds than teams, or some teams must meet twice.")
    return simulate_swiss(teams=options["teams"], rounds=options["rounds"], seed=options["seed"],
                          best_of=options["best_of"])  # fmt: skip


SIMULATION = Simulation("swiss", "a Swiss event: rounds paired from the standings", _arguments, _run, lines)
