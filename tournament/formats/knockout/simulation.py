"""A knockout played with random legal hands (``manage.py simulate single-elimination``, and
``double-elimination``): the bracket drawn, every match played at its table until the champion is
known; its log lists every match in the order finished, and the places."""

from __future__ import annotations

import random
from argparse import ArgumentParser
from collections.abc import Callable
from typing import Any

from tournament.formats.knockout.models import KnockoutSettings
from tournament.formats.knockout.services import DOUBLE, SINGLE
from tournament.formats.registry import Simulation, format_of
from tournament.models import Game, Match, Tournament
from tournament.play.rounds import start_play
from tournament.simulation.play import create_event, play_game

FORMATS = {"single-elimination": SINGLE, "double-elimination": DOUBLE}


def create_knockout(*, teams: int, seed: int, format: str, third_place: bool = False, best_of: int = 1) -> Tournament:
    """A knockout with ``teams`` registered teams (not yet drawn)."""
    tournament = create_event(
        teams=teams, name=f"Simulated {format}", preset="league-300", format=FORMATS[format], seating_seed=seed
    )
    KnockoutSettings.objects.create(
        tournament=tournament, final_preset="championship-500", third_place_match=third_place, best_of=best_of,
        final_best_of=best_of,
    )  # fmt: skip
    return tournament


def play_knockout(tournament: Tournament, rng: random.Random) -> None:
    """Draw the bracket and play every match at its table until the champion is known."""
    start_play(tournament=tournament)
    while True:
        games = list(
            Game.objects.filter(match__tournament=tournament)
            .exclude(status=Game.Status.FINISHED)
            .select_related("round__tournament", "table", "match")
            .order_by("match__position", "match_game")
        )
        if not games:
            return
        for game in games:
            play_game(game, rng)


def simulate_knockout(*, format: str, teams: int, seed: int, third_place: bool = False, best_of: int = 1) -> dict:
    """Run the knockout and return its log (the shape ``manage.py simulate --json`` prints)."""
    tournament = create_knockout(teams=teams, seed=seed, format=format, third_place=third_place, best_of=best_of)
    play_knockout(tournament, random.Random(seed))
    return knockout_log(tournament, format)


def knockout_log(
    tournament: Tournament,
    format: str,
    stage_and_round: Callable[[Match], tuple[str, int]] = lambda m: (m.stage, m.round),
) -> dict[str, Any]:
    """The JSON log; ``stage_and_round`` says how a match is labelled (a league names its own)."""
    number = dict(tournament.teams.values_list("pk", "number"))
    games: dict[int, list[list[int]]] = {}
    for match_id, ns, ew in (
        Game.objects.filter(match__tournament=tournament)
        .order_by("match_game")
        .values_list("match_id", "ns_score", "ew_score")
    ):
        games.setdefault(match_id, []).append([ns, ew])
    matches = [
        {
            "stage": stage_and_round(m)[0],
            "round": stage_and_round(m)[1],
            "number": m.number,
            "teams": [number[m.home_id], number.get(m.away_id)],
            "winner": number[m.winner_id],
            "games": games.get(m.pk, []),
        }
        for m in tournament.matches.filter(finished_order__isnull=False).order_by("finished_order")
    ]
    rows = format_of(tournament).standings(tournament)
    by_place: dict[int, list[int]] = {}
    for row in rows:
        by_place.setdefault(row.standing.rank, []).append(number[row.standing.entrant])
    return {
        "format": format,
        "teams": sorted(number.values()),
        "seeds": {str(n): seed for n, seed in tournament.teams.values_list("number", "seed")},
        "matches": matches,
        "places": {"1": by_place[1][0], "2": by_place[2][0], "3": by_place.get(3, [])},
    }


def _arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--teams", type=int, default=8, help="registered teams")
    parser.add_argument("--third-place", action="store_true", help="single elimination: a third-place match")
    parser.add_argument("--best-of", type=int, choices=[1, 3, 5], default=1, help="games a match")
    parser.add_argument("--double", action="store_true", help="double elimination (else single)")


def _run(options: dict[str, Any]) -> dict[str, Any]:
    format = "double-elimination" if options["double"] else "single-elimination"
    return simulate_knockout(format=format, teams=options["teams"], seed=options["seed"],
                             third_place=options["third_place"], best_of=options["best_of"])  # fmt: skip


def lines(log: dict[str, Any]) -> list[str]:
    """A knockout's (or a league's) log in words: every match in the order played, then the places."""
    out = []
    for m in log["matches"]:
        away = "bye" if m["teams"][1] is None else f"team {m['teams'][1]}"
        scores = ", ".join(f"{a}-{b}" for a, b in m["games"])
        out.append(
            f"{m['stage']:>11} round {m['round']} match {m['number']}: team {m['teams'][0]} v {away}"
            f"  {scores}  winner team {m['winner']}"
        )
    places = log["places"]
    return [*out, f"Champion: team {places['1']}; runner-up: team {places['2']}; third: {places['3']}."]


SIMULATION = Simulation(
    "knockout",
    "a knockout: seeds, every match in the order played, places",
    _arguments,
    _run,
    lines,
)
