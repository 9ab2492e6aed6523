"""A progressive event played with random legal hands (``manage.py simulate progressive``): each
round started, every table played to its end, the round closed and the next one seated."""

from __future__ import annotations

import random
from argparse import ArgumentParser
from typing import Any

from scoring import Seat
from tournament.formats.progressive.movement import FIXED, SPLIT
from tournament.formats.registry import Simulation
from tournament.models import Round, Tournament
from tournament.play.rounds import close_round, start_play, start_round
from tournament.simulation.play import create_event, play_round


def create_progressive(*, couples: int, rounds: int, seed: int, partners: str = "split") -> Tournament:
    """A progressive event with ``couples`` registered teams, round 1 seated."""
    split = partners == "split"
    tournament = create_event(
        teams=couples,
        name=f"Simulated {'split' if split else 'fixed'}-partner event",
        preset="progressive" if split else "progressive-500",
        format=SPLIT if split else FIXED,
        rounds_planned=rounds,
        seating_seed=seed,
    )
    start_play(tournament=tournament)
    return tournament


def simulate(*, couples: int, rounds: int, seed: int, partners: str = "split") -> dict[str, Any]:
    """Run the event and return its log: each round's tables, scores, winners and sitters."""
    rng = random.Random(seed)
    tournament = create_progressive(couples=couples, rounds=rounds, seed=seed, partners=partners)
    log = []
    round_: Round | None = tournament.rounds.get(number=1)
    while round_ is not None:
        start_round(round_=round_)
        play_round(round_, rng)
        log.append(round_log(round_))
        round_ = close_round(round_=round_)
    return {"rounds": log}


def round_log(round_: Round) -> dict[str, Any]:
    names = {
        (table, seat): name
        for table, seat, name in round_.seatings.values_list("table__number", "seat", "player__name")
    }
    tables = [
        {
            "table": game.table.number,
            **{seat.prefix: names[game.table.number, seat] for seat in Seat},
            "ns_points": game.ns_score,
            "ew_points": game.ew_score,
            "winner": game.winner,
        }
        for game in round_.games.select_related("table").order_by("table__number")
    ]
    return {
        "number": round_.number,
        "tables": tables,
        "sitting_out": list(
            round_.sit_outs.order_by("player__team__number", "player_id").values_list("player__name", flat=True)
        ),
    }


def _arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--couples", type=int, default=8, help="registered couples (teams of two)")
    parser.add_argument("--rounds", type=int, default=4, help="rounds to play")
    parser.add_argument("--partners", choices=["split", "fixed"], default="split")


def _run(options: dict[str, Any]) -> dict[str, Any]:
    return simulate(couples=options["couples"], rounds=options["rounds"], seed=options["seed"],
                    partners=options["partners"])  # fmt: skip


def _lines(log: dict[str, Any]) -> list[str]:
    lines = []
    for round_ in log["rounds"]:
        lines.append(f"Round {round_['number']}  sitting out: {', '.join(round_['sitting_out']) or 'nobody'}")
        lines += [
            f"  table {t['table']:>3}: {t['north']} & {t['south']} {t['ns_points']:>5}  v  "
            f"{t['east']} & {t['west']} {t['ew_points']:>5}   winner {t['winner']}"
            for t in round_["tables"]
        ]
    return [*lines, f"Simulated {len(log['rounds'])} rounds."]


SIMULATION = Simulation(
    "progressive",
    "a progressive event: tables, players, points, winners, who sat out",
    _arguments,
    _run,
    _lines,
)
