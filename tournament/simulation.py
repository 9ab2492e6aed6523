"""Play a whole progressive event through the real models and services with random legal hands.

Used by ``manage.py simulate`` (on a throw-away database), by the benchmarks and by tests.
"""

from __future__ import annotations

import datetime
import random
from typing import Any

from scoring import HandEntry, PlayerHand, Seat
from scoring.random_hands import random_hand
from tournament import services
from tournament.models import Game, HandRevision, Round, Tournament

FIRST_NAMES = [
    "Ada", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gina", "Hugo", "Iris", "Jack", "Kara", "Leo", "Mia", "Noah",
    "Olga", "Paul", "Quinn", "Rosa", "Sam", "Tess", "Uma", "Vic", "Wren", "Xavi", "Yara", "Zed",
]  # fmt: skip


def player_name(index: int) -> str:
    """A readable, unique name for the index-th player: Ada, Ben, … Zed, Ada 2, Ben 2, …"""
    lap, position = divmod(index, len(FIRST_NAMES))
    return FIRST_NAMES[position] + (f" {lap + 1}" if lap else "")


def create_event(*, couples: int, rounds: int, seed: int, partners: str = "split") -> Tournament:
    """A tournament with ``couples`` registered teams, round 1 seated."""
    split = partners == "split"
    tournament = Tournament.objects.create(
        name=f"Simulated {'split' if split else 'fixed'}-partner event",
        date=datetime.date(2026, 1, 1),
        preset="progressive" if split else "progressive-500",
        format=Tournament.Format.PROGRESSIVE_SPLIT if split else Tournament.Format.PROGRESSIVE_FIXED,
        rounds_planned=rounds,
        seating_seed=seed,
    )
    for couple in range(couples):
        services.register_team(tournament=tournament, names=[player_name(2 * couple), player_name(2 * couple + 1)])
    services.seat_first_round(tournament=tournament)
    return tournament


def play_game(game: Game, rng: random.Random) -> None:
    """Enter random legal hands at one table until its game is over."""
    rules = game.rules
    number = game.hands.count()
    while game.status != Game.Status.FINISHED:
        (north, south), (east, west) = random_hand(rules, rng, scores=(game.ns_score, game.ew_score))
        number += 1
        entry = hand_entry(north, east, south, west)
        game = services.enter_hand(game=game, number=number, entry=entry, source=HandRevision.Source.TABLE).game


def hand_entry(north: PlayerHand, east: PlayerHand, south: PlayerHand, west: PlayerHand) -> HandEntry:
    """The entry of a hand whose four players bid and took as given."""
    return HandEntry.from_players({Seat.NORTH: north, Seat.EAST: east, Seat.SOUTH: south, Seat.WEST: west})


def simulate(*, couples: int, rounds: int, seed: int, partners: str = "split") -> dict[str, Any]:
    """Run the event and return its log: each round's tables, scores, winners and sitters."""
    rng = random.Random(seed)
    tournament = create_event(couples=couples, rounds=rounds, seed=seed, partners=partners)
    log = []
    round_: Round | None = tournament.rounds.get(number=1)
    while round_ is not None:
        services.start_round(round_=round_)
        for game in round_.games.select_related("round__tournament", "table"):
            play_game(game, rng)
        log.append(round_log(round_))
        round_ = services.close_round(round_=round_)
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
