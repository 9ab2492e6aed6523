"""How long importing a large event holds the database's write lock, and what a phone's write
waits meanwhile.

A 1,000-table event (4,000 players) with 8 rounds of hands, each hand with its entry in the
history, is made once through the models (hands generated in bulk and scored by the game's own
rescore; entering 90,000 hands one by one through the services would take most of an hour) and
its export kept in the system's temporary directory. The export is then imported as a new
tournament while a second thread writes what the venue writes all evening (a table's phone
reporting in, a hand entered at another event's table) in a loop, each write its own
transaction, as a request would. The report: how long the import's write transaction ran to
its commit (SQLite's one write lock is held for all of it; on PostgreSQL the commit runs the
foreign-key checks of every row) and the CPU time the importing thread spent in it, the
longest any of the second thread's writes took while the import ran, and the import's time as
a whole (most of it checking the file, outside the transaction).

``BENCH_IMPORT_TABLES`` and ``BENCH_IMPORT_ROUNDS`` set the size (default 1000 and 8). SQLite
runs on a file (WAL, as the app runs it; in memory there is no second connection to wait), other
databases on a test database beside DATABASE_URL's.
"""

from __future__ import annotations

import json
import os
import random
import sys
import tempfile
import threading
import time
from pathlib import Path

import django

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
for name, value in {"DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": "bench-" + "k" * 50,
                    "DJANGO_ALLOWED_HOSTS": "testserver", "DJANGO_HTTPS": "false"}.items():  # fmt: skip
    os.environ.setdefault(name, value)
django.setup()
from django.db import OperationalError, connection, connections  # noqa: E402

from scoring.random_hands import random_hand  # noqa: E402
from tournament.formats.progressive.simulation import create_progressive  # noqa: E402
from tournament.models import Game, Hand, HandRevision, Table  # noqa: E402
from tournament.play.games import record_phone_report  # noqa: E402
from tournament.play.hands import enter_hand  # noqa: E402
from tournament.play.rounds import close_round, start_round  # noqa: E402
from tournament.simulation.play import hand_entry  # noqa: E402
from tournament.transfer.export import export_tournament  # noqa: E402
from tournament.transfer.write import import_tournament  # noqa: E402

TABLES = int(os.environ.get("BENCH_IMPORT_TABLES", "1000"))
ROUNDS = int(os.environ.get("BENCH_IMPORT_ROUNDS", "8"))
CACHE = Path(tempfile.gettempdir()) / f"spades-bench-import-{TABLES}x{ROUNDS}.json"


def play_round_in_bulk(round_, rng: random.Random) -> None:
    """Every game of a running round played to its end: hands made up front, stored in bulk,
    each game scored by :meth:`Game.rescore` (the services' path, one hand at a time, is what
    ``bench/tournament_scale.py`` measures)."""
    hands, revisions = [], []
    games = list(round_.games.select_related("round__tournament", "table"))
    for game in games:
        rules, own = game.rules, []
        while True:
            replayed = game.replay(own) if own else None
            if replayed is not None and replayed.game.over:
                break
            scores = replayed.game.scores if replayed else (0, 0)
            (north, south), (east, west) = random_hand(rules, rng, scores=scores)
            hand = Hand(game=game, number=len(own) + 1)
            hand.store(hand_entry(north, east, south, west))
            own.append(hand)
        game.record(replayed, own)
        hands += own
    Hand.objects.bulk_create(hands)
    revisions = [HandRevision(hand=h, source=HandRevision.Source.TABLE, after=h.snapshot()) for h in hands]
    HandRevision.objects.bulk_create(revisions)


def build_export() -> dict:
    if CACHE.exists():
        return json.loads(CACHE.read_text())
    start = time.perf_counter()
    rng = random.Random(1)
    tournament = create_progressive(couples=2 * TABLES, rounds=ROUNDS, seed=1)
    round_ = tournament.rounds.get(number=1)
    while round_ is not None:
        start_round(round_=round_)
        play_round_in_bulk(round_, rng)
        round_ = close_round(round_=round_)
    data = json.loads(json.dumps(export_tournament(tournament)))
    CACHE.write_text(json.dumps(data))
    print(f"  built and exported in {time.perf_counter() - start:.0f} s ({CACHE})")
    return data


class Writer(threading.Thread):
    """Writes in a loop on its own connection, each write a transaction, and keeps how long each took."""

    def __init__(self, table: Table, game_id: int) -> None:
        super().__init__(daemon=True)
        self.table, self.game_id = table, game_id
        self.stop, self.times, self.failed = threading.Event(), [], 0
        self.rng = random.Random(2)

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                start = time.perf_counter()
                try:
                    self.write()
                except OperationalError:  # the database stayed locked for its whole timeout
                    self.failed += 1
                self.times.append(time.perf_counter() - start)
                time.sleep(0.005)
        finally:
            connections["default"].close()

    def write(self) -> None:
        record_phone_report(table=self.table, waiting=0)  # a table's phone reporting in
        game = Game.objects.select_related("round__tournament", "table").get(pk=self.game_id)
        if game.status != Game.Status.FINISHED:  # a hand entered there (until that game is over)
            (north, south), (east, west) = random_hand(game.rules, self.rng, scores=(game.ns_score, game.ew_score))
            entry = hand_entry(north, east, south, west)
            number = game.hands.count() + 1
            enter_hand(game=game, number=number, entry=entry, source=HandRevision.Source.TABLE)


class TransactionStart:
    """When (wall and this thread's CPU clock) the importing connection sends its first statement
    that is not a read: the import's write transaction opening (SQLite's BEGIN IMMEDIATE, which
    takes the write lock; on PostgreSQL the transaction's first write). Everything before it (the
    file's checks) only reads; the import returns as its transaction commits. Installed with
    Django's ``connection.execute_wrapper``, on the importing thread's connection alone."""

    def __init__(self) -> None:
        self.at: tuple[float, float] | None = None

    def __call__(self, execute, sql, params, many, context):
        if self.at is None and not sql.lstrip().upper().startswith("SELECT"):
            self.at = (time.perf_counter(), time.thread_time())
        return execute(sql, params, many, context)


def measure(data: dict, replace=None) -> tuple[dict[str, float], object]:
    """Import ``data`` (as new, or in place of ``replace``) while the second thread writes."""
    other = create_progressive(couples=8, rounds=1, seed=3)
    start_round(round_=other.rounds.get())
    game = other.rounds.get().games.select_related("table").first()
    timings: dict[str, float] = {}
    writer = Writer(game.table, game.pk)
    writer.start()
    time.sleep(0.3)
    before = len(writer.times)
    began = TransactionStart()
    start, cpu = time.perf_counter(), time.thread_time()
    with connection.execute_wrapper(began):
        imported = import_tournament(data, replace=replace)
    end, end_cpu = time.perf_counter(), time.thread_time()
    timings["transaction"], timings["transaction cpu"] = end - began.at[0], end_cpu - began.at[1]
    timings["import"], timings["import cpu"] = end - start, end_cpu - cpu
    time.sleep(0.3)
    writer.stop.set()
    writer.join()
    during = writer.times[before:]
    timings["writes during import"] = len(during)
    timings["longest write"] = max(during, default=0.0)
    timings["failed writes"] = writer.failed
    return timings, imported


def main() -> None:
    vendor = connection.vendor
    print(f"import lock ({vendor}, Python {sys.version.split()[0]}, load {os.getloadavg()[0]:.2f})")
    original = connection.settings_dict["NAME"]
    folder = tempfile.TemporaryDirectory()
    if vendor == "sqlite":  # a file, so that a second connection shares the WAL database and its lock
        connection.settings_dict["TEST"] = {**connection.settings_dict.get("TEST", {}), "NAME": f"{folder.name}/b.db"}
    connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        data = build_export()
        size = len(json.dumps(data, separators=(",", ":"))) / 1024 / 1024  # as the page exports it
        hands = sum(len(g["hands"]) for r in data["rounds"] for g in r["games"])
        print(f"  {TABLES:,} tables, {ROUNDS} rounds, {hands:,} hands; the export is {size:.0f} MB")
        copy = None
        for how in ("as new", "in place"):
            t, copy = measure(data, replace=copy)
            second = (
                f"the second thread's longest write {t['longest write'] * 1000:.0f} ms ("
                f"{t['writes during import']:.0f} writes meanwhile, {t['failed writes']:.0f} gave up locked)"
            )
            print(f"  import {how}: {t['import']:.2f} s wall, {t['import cpu']:.2f} s CPU; its write transaction "
                  f"{t['transaction']:.2f} s to its commit ({t['transaction cpu']:.2f} s CPU in this thread); "
                  f"{second}")  # fmt: skip
    finally:
        connection.creation.destroy_test_db(original, verbosity=0)
        folder.cleanup()


if __name__ == "__main__":
    main()
