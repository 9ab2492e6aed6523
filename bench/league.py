"""A league season: a 20-team double round robin (38 nights, 380 matches).

Times building the schedule (the pure circle method, and saving it as matches), then, with every
match decided, the league table page (public and director), the projector view and the schedule
page, with their SQL query counts. A 6-team season is measured the same way to show the query
counts do not grow with the field.

Runs on a throw-away database (SQLite in memory, or a test database beside DATABASE_URL's).
"""

from __future__ import annotations

import os
import random
import sys

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
django.setup()
from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from django.urls import reverse  # noqa: E402
from tournament_scale import timed  # noqa: E402 - beside this script

from scoring import Side  # noqa: E402
from tournament.formats.league import schedule  # noqa: E402
from tournament.formats.league.services import build_schedule, load_schedule  # noqa: E402
from tournament.formats.league.simulation import create_league  # noqa: E402
from tournament.formats.league.standings import league_matches  # noqa: E402
from tournament.models import Game, Match, Round, Table, Tournament  # noqa: E402
from tournament.simulation.scratch import throwaway_database  # noqa: E402


def decide_every_match(tournament: Tournament, seed: int = 1) -> None:
    """Every night played and closed, each match one game with a random score: the state the
    table pages read at the end of a season (set directly; playing 380 games by hand is the
    simulation's job, not this benchmark's)."""
    rng = random.Random(seed)
    matches = list(league_matches(tournament).order_by("round", "number"))
    nights = max(m.round for m in matches)
    rounds = Round.objects.bulk_create(
        Round(tournament=tournament, number=n, status=Round.Status.CLOSED) for n in range(1, nights + 1)
    )
    tables = Table.objects.bulk_create(Table(tournament=tournament, number=n) for n in range(1, 11))
    games = []
    for m in matches:
        home, away = rng.randrange(300, 420), rng.randrange(-100, 299)
        if rng.random() < 0.5:
            home, away = away, home
        m.status, m.outcome, m.table = Match.Status.FINISHED, Match.Outcome.PLAYED, tables[m.number - 1]
        m.winner_id = m.home_id if home > away else m.away_id
        games.append(
            Game(
                round=rounds[m.round - 1], table=m.table, match=m, match_game=1, ns_score=home, ew_score=away,
                ns_bags=rng.randrange(6), ew_bags=rng.randrange(6), status=Game.Status.FINISHED,
                winner=Side.NS if home > away else Side.EW, hands_played=8,
            )
        )  # fmt: skip
    Match.objects.bulk_update(matches, ["status", "outcome", "table", "winner"])
    Game.objects.bulk_create(games)


def measure(teams: int) -> None:
    ids = list(range(1, teams + 1))
    pure_seconds, _ = timed(lambda: schedule.round_robin(ids, legs=2), repeat=20)
    tournament = create_league(teams=teams, seed=1, legs=2)
    built, queries = timed(lambda: build_schedule(tournament=tournament))
    matches = league_matches(tournament).count()
    nights = load_schedule(tournament).nights
    print(f"  {teams} teams, two legs: {nights} nights, {matches} matches")
    print(f"    schedule, pure circle method  {1000 * pure_seconds:8.2f} ms")
    print(f"    schedule, saved as matches    {1000 * built:8.2f} ms  {queries:4d} queries")
    decide_every_match(tournament)
    client = Client()
    client.force_login(get_user_model().objects.get(username="bench"))
    for label, name in (
        ("league table, public page", "public:league"),
        ("league table, director", "director:league_table"),
        ("projector view", "public:league_projector"),
        ("schedule page, director", "director:league_schedule"),
    ):
        url = reverse(name, args=[tournament.pk])
        seconds, queries = timed(lambda url=url: client.get(url).content, repeat=5)
        print(f"    {label:<29} {1000 * seconds:8.2f} ms  {queries:4d} queries")


def main() -> None:
    setup_test_environment()
    print(f"league season (Python {sys.version.split()[0]}, {connection.vendor})")
    with throwaway_database():
        get_user_model().objects.create_superuser("bench", password="bench-password-1")
        for teams in (6, 20):
            measure(teams)


if __name__ == "__main__":
    main()
