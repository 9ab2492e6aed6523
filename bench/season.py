"""A club's season: 200 roster players, 50 finished events (25 of split partners, 25 of fixed),
then the season standings timed cold (every event's places worked out) and warm (each event's
places from the cache, as while nothing is corrected) and after one event changed (a hand
corrected: that event's places made anew), with their SQL query counts, and the public season
page as a spectator's browser asks for it.

Each event is 12 couples drawn from the 200, three rounds of four-hand games played with random
legal hands through the services (the simulation's path), so the standings read what a real
evening leaves. ``BENCH_SEASON_EVENTS`` and ``BENCH_SEASON_PLAYERS`` set the size. Target: the
standings within 300 ms warm (the ratings add to the same budget).

Runs on a throw-away database (SQLite in memory, or a test database beside DATABASE_URL's).
"""

from __future__ import annotations

import datetime
import os
import random
import sys
import time

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
django.setup()
from django.core.cache import cache  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from django.urls import reverse  # noqa: E402
from django.utils import timezone  # noqa: E402
from tournament_scale import timed  # noqa: E402 - beside this script

from tournament.models import Club, Tournament  # noqa: E402
from tournament.play.rounds import close_round, start_play, start_round  # noqa: E402
from tournament.seasons.services import save_season  # noqa: E402
from tournament.seasons.standings import season_tables  # noqa: E402
from tournament.simulation.play import play_round  # noqa: E402
from tournament.simulation.scratch import throwaway_database  # noqa: E402
from tournament.teams.services import register_team  # noqa: E402

EVENTS = int(os.environ.get("BENCH_SEASON_EVENTS", "50"))
PLAYERS = int(os.environ.get("BENCH_SEASON_PLAYERS", "200"))
COUPLES, ROUNDS = 12, 3
TARGET_MS = 300


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


def main() -> None:
    rng = random.Random(1)
    start = time.perf_counter()
    events = build(rng)
    built = time.perf_counter() - start
    season = save_season(club_id=events[0].club_id, season_id=None, name="Bench season", rule="best_n",
                         points_table=[10, 8, 6, 5, 4, 3, 2, 1], best_n=10, events=events)  # fmt: skip

    def cold() -> None:
        cache.clear()
        season_tables(season)

    cold_s, cold_q = timed(cold, repeat=3)
    warm_s, warm_q = timed(lambda: season_tables(season), repeat=5)

    def one_changed() -> None:  # a hand corrected at one event: that event's places made anew
        Tournament.objects.filter(pk=events[-1].pk).update(changed_at=timezone.now())
        season_tables(season)

    changed_s, changed_q = timed(one_changed, repeat=3)
    tables = season_tables(season)
    client = Client()
    page = reverse("public:season", args=[season.club_id, season.pk])
    page_s, page_q = timed(lambda: client.get(page), repeat=5)
    print(f"season bench: {EVENTS} events of {COUPLES} couples ({ROUNDS} rounds), {PLAYERS} roster players; "
          f"built in {built:.1f} s")  # fmt: skip
    print(f"  players' table: {len(tables.players.lines)} lines over {len(tables.players.events)} events; "
          f"teams' table: {len(tables.teams.lines)} lines over {len(tables.teams.events)} events")  # fmt: skip
    print(f"  season standings, cold:  {cold_s * 1000:7.1f} ms, {cold_q} queries")
    print(f"  season standings, warm:  {warm_s * 1000:7.1f} ms, {warm_q} queries (target {TARGET_MS} ms)")
    print(f"  one event corrected:     {changed_s * 1000:7.1f} ms, {changed_q} queries")
    print(f"  public season page, warm: {page_s * 1000:7.1f} ms, {page_q} queries")
    if warm_s * 1000 > TARGET_MS:
        sys.exit(f"season standings took {warm_s * 1000:.0f} ms, over the {TARGET_MS} ms target")


if __name__ == "__main__":
    setup_test_environment()
    with throwaway_database():
        main()
