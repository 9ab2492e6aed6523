"""Issue 27's figure: a club's season standings and its ratings, together, for 200 roster players
and 50 finished events (25 of split partners, 25 of fixed), with their SQL query counts:

- **first read**: nothing stored or cached (right after the events were played): every event's
  places worked out (and stored), every rating period rated;
- **cold**: Django's cache cleared, as after a restart or an eviction: each event's places read
  back from the table they are stored in, the ranking and the ratings worked out from them;
- **warm**: the ranking and the rating run read back from the cache;
- **one event corrected**: a hand corrected at the latest event (its stamp moved): that event's
  places worked out again, its ratings rated on the run kept before it;

then the public season page, the roster page and a player's page as their browsers ask for them.

Each event is 12 couples drawn from the 200, three rounds of four-hand games played with random
legal hands through the services (the simulation's path), so the standings read what a real
evening leaves. ``BENCH_SEASON_EVENTS`` and ``BENCH_SEASON_PLAYERS`` set the size. Target: season
standings and ratings together within 300 ms, cold and warm.

Runs on a throw-away database (SQLite in memory, or a test database beside DATABASE_URL's), with
production settings (pages timed as a director's server serves them, as bench/tournament_scale.py).
"""

from __future__ import annotations

import datetime
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
for name, value in {"DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": "bench-" + "k" * 50,
                    "DJANGO_ALLOWED_HOSTS": "testserver", "DJANGO_HTTPS": "false"}.items():  # fmt: skip
    os.environ.setdefault(name, value)
django.setup()
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, reset_queries  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402
from django.urls import reverse  # noqa: E402
from django.utils import timezone  # noqa: E402
from tournament_scale import timed  # noqa: E402 - beside this script

from tournament.models import Club, RosterPlayer, Tournament  # noqa: E402
from tournament.play.rounds import close_round, start_play, start_round  # noqa: E402
from tournament.ratings.services import club_ratings  # noqa: E402
from tournament.seasons.models import Season, StoredPlaces  # noqa: E402
from tournament.seasons.services import save_season  # noqa: E402
from tournament.seasons.standings import season_tables  # noqa: E402
from tournament.simulation.play import play_round  # noqa: E402
from tournament.simulation.scratch import throwaway_database  # noqa: E402
from tournament.teams.services import register_team  # noqa: E402

EVENTS = int(os.environ.get("BENCH_SEASON_EVENTS", "50"))
PLAYERS = int(os.environ.get("BENCH_SEASON_PLAYERS", "200"))
COUPLES, ROUNDS = 12, 3
TARGET_MS = 300
REPEAT = 3


def build(rng: random.Random) -> list[Tournament]:
    club = Club.objects.create(name="Bench club")
    names = [f"Player {n:03d}" for n in range(PLAYERS)]
    # Regular partnerships for the fixed events (a team is the same two people across them).
    pairs = [names[i : i + 2] for i in range(0, PLAYERS, 2)]
    events = []
    for number in range(EVENTS):
        split = number % 2 == 0
        tournament = Tournament.objects.create(
            club=club, name=f"Night {number + 1}", date=datetime.date(2026, 1, 1) + datetime.timedelta(days=7 * number),
            preset="progressive", format="progressive_split" if split else "progressive_fixed",
            rounds_planned=ROUNDS, seating_seed=number,
        )  # fmt: skip
        for couple in rng.sample(pairs, COUPLES):
            register_team(tournament=tournament, names=couple)
        round_ = start_play(tournament=tournament)
        while round_ is not None:
            start_round(round_=round_)
            play_round(round_, rng)
            round_ = close_round(round_=round_)
        events.append(tournament)
    return events


def both(prepare: Callable[[], None], season: Season) -> tuple[float, int, float, int]:
    """Median milliseconds and queries (of one run) of the season standings, then of the club's
    ratings, over ``REPEAT`` runs, each after ``prepare`` (not timed)."""
    season_ms, ratings_ms, queries = [], [], [0, 0]
    for _ in range(REPEAT):
        prepare()
        season = Season.objects.get(pk=season.pk)  # as a request reads it
        actions = ((partial(season_tables, season), season_ms), (partial(club_ratings, season.club_id), ratings_ms))
        for index, (action, times) in enumerate(actions):
            reset_queries()
            with CaptureQueriesContext(connection) as captured:
                start = time.perf_counter()
                action()
                times.append(1000 * (time.perf_counter() - start))
            queries[index] = len(captured)
    return statistics.median(season_ms), queries[0], statistics.median(ratings_ms), queries[1]


def main() -> None:
    rng = random.Random(1)
    start = time.perf_counter()
    events = build(rng)
    built = time.perf_counter() - start
    season = save_season(club_id=events[0].club_id, season_id=None, name="Bench season", rule="best_n",
                         points_table=[10, 8, 6, 5, 4, 3, 2, 1], best_n=10, events=events)  # fmt: skip

    def nothing_kept() -> None:
        StoredPlaces.objects.all().delete()
        cache.clear()

    def latest_corrected() -> None:  # a hand corrected at the latest event: its stamp moves
        Tournament.objects.filter(pk=events[-1].pk).update(changed_at=timezone.now())

    figures = {
        "first read (nothing kept)": both(nothing_kept, season),
        "cold (places stored)": both(cache.clear, season),
        "warm": both(lambda: None, season),
        "one event corrected": both(latest_corrected, season),
    }
    tables = season_tables(season)
    print(f"season and ratings bench ({connection.vendor}): {EVENTS} events of {COUPLES} couples ({ROUNDS} rounds), "
          f"{PLAYERS} roster players; built in {built:.1f} s")  # fmt: skip
    print(f"  players' table: {len(tables.players.lines)} lines over {len(tables.players.events)} events; "
          f"teams' table: {len(tables.teams.lines)} lines over {len(tables.teams.events)} events")  # fmt: skip
    print(f"  {'':28} {'season':>17} {'ratings':>17} {'together':>9}")
    for label, (season_ms, season_q, ratings_ms, ratings_q) in figures.items():
        print(f"  {label:<28} {season_ms:7.1f} ms {season_q:4d} q {ratings_ms:7.1f} ms {ratings_q:4d} q "
              f"{season_ms + ratings_ms:6.1f} ms")  # fmt: skip
    user = get_user_model().objects.create_superuser("bench", password="bench-password-1")
    director = Client()
    director.force_login(user)
    person = RosterPlayer.objects.filter(club=season.club_id).first()
    for label, client, url in (
        ("public season page", Client(), reverse("public:season", args=[season.club_id, season.pk])),
        ("roster page", director, reverse("director:club_roster", args=[season.club_id])),
        ("player's page", director, reverse("director:roster_player", args=[season.club_id, person.pk])),
    ):
        seconds, queries = timed(lambda client=client, url=url: client.get(url).content, repeat=5)
        print(f"  {label + ', warm':<28} {1000 * seconds:7.1f} ms {queries:4d} q")
    over = [label for label, (s, _, r, _) in figures.items() if label in ("cold (places stored)", "warm")
            and s + r > TARGET_MS]  # fmt: skip
    if over:
        sys.exit(f"season standings and ratings over the {TARGET_MS} ms target: {', '.join(over)}")


if __name__ == "__main__":
    setup_test_environment()
    # Production settings serve static files by their hashed names, from the manifest.
    call_command("collectstatic", verbosity=0, interactive=False)
    with throwaway_database():
        main()
