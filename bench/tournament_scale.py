"""Build a 100-table event (400 players) with 8 rounds of hands, then time closing a round and
rendering the standings page and the projector view, with their SQL query counts. A 10-table
event is measured the same way to show the query counts do not grow with the tables, and a
national-size one of 1,000 tables (4,000 players) to show the standings still come in time.

``BENCH_SCALE_TABLES`` lists the sizes (default "10,100,1000"; building the 1,000-table event
through the simulation takes several minutes). Runs on a throw-away database (SQLite in
memory, or a test database beside DATABASE_URL's), with production settings unless the
environment says otherwise.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
for name, value in {"DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": "bench-" + "k" * 50,
                    "DJANGO_ALLOWED_HOSTS": "testserver", "DJANGO_HTTPS": "false"}.items():  # fmt: skip
    os.environ.setdefault(name, value)
django.setup()
from django.core.management import call_command  # noqa: E402
from django.db import connection, reset_queries  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402
from django.urls import reverse  # noqa: E402

from tournament.formats.progressive.simulation import create_progressive  # noqa: E402
from tournament.play.rounds import close_round, start_round  # noqa: E402
from tournament.simulation.play import play_game  # noqa: E402
from tournament.simulation.scratch import throwaway_database  # noqa: E402

ROUNDS = 8
SIZES = [int(n) for n in os.environ.get("BENCH_SCALE_TABLES", "10,100,1000").split(",")]


def build(tables: int, seed: int = 1):
    """An event of ``tables`` tables with ROUNDS rounds played; the last one still open."""
    rng = random.Random(seed)
    tournament = create_progressive(couples=2 * tables, rounds=ROUNDS + 1, seed=seed)
    round_ = tournament.rounds.get(number=1)
    for number in range(1, ROUNDS + 1):
        start_round(round_=round_)
        for game in round_.games.select_related("round__tournament", "table"):
            play_game(game, rng)
        if number < ROUNDS:
            round_ = close_round(round_=round_)
    return tournament, round_


def timed(action, repeat: int = 1) -> tuple[float, int]:
    """Median seconds of ``action`` over ``repeat`` runs, and the queries of one run."""
    times, queries = [], 0
    for _ in range(repeat):
        reset_queries()  # the log keeps 9,000 queries at most; the build filled it
        with CaptureQueriesContext(connection) as captured:
            start = time.perf_counter()
            action()
            times.append(time.perf_counter() - start)
        queries = len(captured)
    return statistics.median(times), queries


def measure(tables: int) -> dict[str, tuple[float, int]]:
    start = time.perf_counter()
    tournament, open_round = build(tables)
    built = time.perf_counter() - start
    client = Client()

    def page(name: str):
        return lambda: client.get(reverse(name, args=[tournament.pk])).content

    results = {
        "standings page": timed(page("public:standings"), repeat=5),
        "projector view": timed(page("public:projector"), repeat=5),
        "close a round": timed(lambda: close_round(round_=open_round)),
    }
    hands = sum(g.hands_played for r in tournament.rounds.all() for g in r.games.all())
    print(f"  built {tables} tables, {4 * tables} players, {ROUNDS} rounds, {hands} hands in {built:.1f} s")
    return results


def main() -> None:
    setup_test_environment()
    # Production settings serve static files by their hashed names, from the manifest.
    call_command("collectstatic", verbosity=0, interactive=False)
    with throwaway_database():
        print(f"tournament scale ({connection.vendor}, Python {sys.version.split()[0]})")
        results = {tables: measure(tables) for tables in SIZES}
    print(f"  {'':<16}" + "".join(f"{f'{tables:,} tables':>24}" for tables in SIZES))
    for key in results[SIZES[0]]:
        cells = "".join(f"{t * 1000:>10.1f} ms {q:>4} queries" for t, q in (results[n][key] for n in SIZES))
        print(f"  {key:<16}{cells}")


if __name__ == "__main__":
    main()
