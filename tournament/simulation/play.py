"""What every simulated event is made of: readable names, a registered field of teams, and
tables played with random legal hands until their games are over."""

from __future__ import annotations

import datetime
import random
from typing import Any

from scoring import HandEntry, PlayerHand, Seat
from scoring.random_hands import random_hand
from tournament.models import Club, Game, HandRevision, Round, Tournament
from tournament.play.hands import enter_hand
from tournament.teams.services import register_team

SIMULATION_CLUB = "Simulations"
FIRST_NAMES = [
    "Ada", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gina", "Hugo", "Iris", "Jack", "Kara", "Leo", "Mia", "Noah",
    "Olga", "Paul", "Quinn", "Rosa", "Sam", "Tess", "Uma", "Vic", "Wren", "Xavi", "Yara", "Zed",
]  # fmt: skip


def player_name(index: int) -> str:
    """A readable, unique name for the index-th player: Ada, Ben, … Zed, Ada 2, Ben 2, …"""
    lap, position = divmod(index, len(FIRST_NAMES))
    return FIRST_NAMES[position] + (f" {lap + 1}" if lap else "")


def create_event(*, teams: int, **fields: Any) -> Tournament:
    """A tournament (``fields`` as the model takes them; its club, unless given, the simulations'
    own) with ``teams`` teams of two registered."""
    fields.setdefault("club", Club.objects.get_or_create(name=SIMULATION_CLUB)[0])
    tournament = Tournament.objects.create(date=datetime.date(2026, 1, 1), **fields)
    for team in range(teams):
        register_team(tournament=tournament, names=[player_name(2 * team), player_name(2 * team + 1)])
    return tournament


def play_game(game: Game, rng: random.Random) -> None:
    """Enter random legal hands at one table until its game is over."""
    rules = game.rules
    while game.status != Game.Status.FINISHED:
        (north, south), (east, west) = random_hand(rules, rng, scores=(game.ns_score, game.ew_score))
        number = Game.next_number(game.hands.order_by("number", "deal").last())
        entry = hand_entry(north, east, south, west)
        game = enter_hand(game=game, number=number, entry=entry, source=HandRevision.Source.TABLE).game


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


def hand_entry(north: PlayerHand, east: PlayerHand, south: PlayerHand, west: PlayerHand) -> HandEntry:
    """The entry of a hand whose four players bid and took as given."""
    return HandEntry.from_players({Seat.NORTH: north, Seat.EAST: east, Seat.SOUTH: south, Seat.WEST: west})
