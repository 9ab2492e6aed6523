"""A club's ratings: 200 roster players, 50 finished progressive evenings of 40 players (10 tables,
5 rounds: 2,500 games, 10,000 seats).

Times rating the whole club cold (the cache empty: the games read and every period rated), after a
change to the latest evening (as while it is played: that evening rated on the run kept before it),
and warm (the kept run read back), then the roster page and a player's page as a director opens them, with
their SQL query counts. Budget (issue 27): season standings and ratings together within 300 ms,
ratings aiming at 150 ms warm.

Runs on a throw-away database (SQLite in memory, or a test database beside DATABASE_URL's).
"""

from __future__ import annotations

import datetime
import math
import os
import random
import sys

import django

# Pages timed as a director's server serves them: production settings, as bench/tournament_scale.py.
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
for name, value in {"DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": "bench-" + "k" * 50,
                    "DJANGO_ALLOWED_HOSTS": "testserver", "DJANGO_HTTPS": "false"}.items():  # fmt: skip
    os.environ.setdefault(name, value)
django.setup()
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from django.urls import reverse  # noqa: E402
from django.utils import timezone  # noqa: E402
from tournament_scale import timed  # noqa: E402 - beside this script

from scoring import Side  # noqa: E402
from tournament.models import (  # noqa: E402
    Club,
    Game,
    Player,
    RosterPlayer,
    Round,
    Seating,
    Table,
    Team,
    Tournament,
)
from tournament.ratings.services import club_ratings  # noqa: E402
from tournament.simulation.scratch import throwaway_database  # noqa: E402

PEOPLE, EVENTS, COUPLES, ROUNDS = 200, 50, 20, 5


def build(seed: int = 1) -> Club:
    """The club, its roster and its played evenings, made by bulk inserts: each person has a hidden
    strength, and the side with the stronger pair wins each game with the Elo-like odds of the
    difference (so the ratings have something to find)."""
    rng = random.Random(seed)
    club = Club.objects.create(name="Bench club")
    roster = RosterPlayer.objects.bulk_create(
        RosterPlayer(club=club, name=f"Player {n}", key=f"player {n}") for n in range(1, PEOPLE + 1)
    )
    strength = {person.pk: rng.gauss(1500, 200) for person in roster}
    start = datetime.date(2025, 1, 3)
    events = Tournament.objects.bulk_create(
        Tournament(club=club, name=f"Night {n}", date=start + datetime.timedelta(weeks=n), preset="progressive",
                   rounds_planned=ROUNDS, status=Tournament.Status.FINISHED)
        for n in range(1, EVENTS + 1)
    )  # fmt: skip
    teams = Team.objects.bulk_create(
        Team(tournament=event, number=n) for event in events for n in range(1, COUPLES + 1)
    )
    entered = {event.pk: rng.sample(roster, 2 * COUPLES) for event in events}
    players = Player.objects.bulk_create(
        Player(team=team, name=person.name, roster=person)
        for team in teams
        for person in entered[team.tournament_id][2 * (team.number - 1) : 2 * team.number]
    )
    by_event: dict[int, list[Player]] = {}
    for player, team in zip(players, [t for t in teams for _ in range(2)], strict=True):
        by_event.setdefault(team.tournament_id, []).append(player)
    rounds = Round.objects.bulk_create(
        Round(tournament=event, number=n, status=Round.Status.CLOSED) for event in events for n in range(1, ROUNDS + 1)
    )
    tables = Table.objects.bulk_create(
        Table(tournament=event, number=n) for event in events for n in range(1, COUPLES // 2 + 1)
    )
    tables_of: dict[int, list[Table]] = {}
    for table in tables:
        tables_of.setdefault(table.tournament_id, []).append(table)
    seatings, games = [], []
    for round_ in rounds:
        field = by_event[round_.tournament_id][:]
        rng.shuffle(field)
        for index, table in enumerate(tables_of[round_.tournament_id]):
            north, east, south, west = field[4 * index : 4 * index + 4]
            seatings += [Seating(round=round_, table=table, seat=seat, player=player)
                         for seat, player in zip("NESW", (north, east, south, west), strict=True)]  # fmt: skip
            gap = (strength[north.roster_id] + strength[south.roster_id]) - (
                strength[east.roster_id] + strength[west.roster_id]
            )
            ns_wins = rng.random() < 1 / (1 + math.pow(10, -gap / 800))
            games.append(Game(round=round_, table=table, status=Game.Status.FINISHED, hands_played=4,
                              winner=Side.NS if ns_wins else Side.EW))  # fmt: skip
    Seating.objects.bulk_create(seatings, batch_size=2000)
    Game.objects.bulk_create(games, batch_size=2000)
    return club


def main() -> None:
    setup_test_environment()
    # Production settings serve static files by their hashed names, from the manifest.
    call_command("collectstatic", verbosity=0, interactive=False)
    print(f"club ratings (Python {sys.version.split()[0]}, {connection.vendor})")
    with throwaway_database():
        get_user_model().objects.create_superuser("bench", password="bench-password-1")
        club = build()
        print(f"  {PEOPLE} players, {EVENTS} events, {Game.objects.count()} games, {Seating.objects.count()} seats")

        def cold() -> None:
            cache.clear()
            club_ratings(club.pk)

        seconds, queries = timed(cold, repeat=5)
        print(f"    ratings, cold (rated anew)    {1000 * seconds:8.2f} ms  {queries:4d} queries")
        latest = Tournament.objects.filter(club=club).order_by("date", "id").last()

        def latest_changed() -> None:
            # A hand entered at the latest evening: its stamp moves, the runs kept before it stay.
            Tournament.objects.filter(pk=latest.pk).update(changed_at=timezone.now())
            club_ratings(club.pk)

        seconds, queries = timed(latest_changed, repeat=5)
        print(f"    ratings, latest event changed {1000 * seconds:8.2f} ms  {queries:4d} queries")
        seconds, queries = timed(lambda: club_ratings(club.pk), repeat=20)
        print(f"    ratings, warm (kept run)      {1000 * seconds:8.2f} ms  {queries:4d} queries")
        client = Client()
        client.force_login(get_user_model().objects.get(username="bench"))
        person = RosterPlayer.objects.filter(club=club).first()
        for label, url in (
            ("roster page, warm", reverse("director:club_roster", args=[club.pk])),
            ("player's page, warm", reverse("director:roster_player", args=[club.pk, person.pk])),
        ):
            seconds, queries = timed(lambda url=url: client.get(url).content, repeat=5)
            print(f"    {label:<29} {1000 * seconds:8.2f} ms  {queries:4d} queries")
        rated = club_ratings(club.pk).players
        provisional = sum(1 for r in rated.values() if r.provisional)
        spread = sorted(round(r.now.rating) for r in rated.values())
        print(f"  {len(rated)} rated ({provisional} provisional), from {spread[0]} to {spread[-1]}")


if __name__ == "__main__":
    main()
