"""Load test of score entry: gunicorn (2 workers) on loopback, 100 tables posting hands at once.

For each database (SQLite file, and PostgreSQL when a server answers at 127.0.0.1:5432), a
tournament of 100 running tables (and three more, kept apart) is built. First, one hand entry's
SQL statements are counted in-process at a spare table. Then one phone alone posts SEQUENTIAL
hands at another spare table, each followed by a post to a bare view that does one database
write through the same middleware (alternated, so that both see the machine as it is at that
moment: on a shared 2-core machine that drifts by a third within a minute): the ratio of their
median latencies is one entry's cost. Beside it, the server's CPU time per request of each (its
workers' user and system time, read from /proc in 10 ms ticks, over CPU_BLOCK requests of each
kind in a row at the third spare table). Then the
burst: 100 client threads, one per table, each load their table's page (for the CSRF cookie)
and post HANDS hands in a row, as phones would (htmx requests, what changed sent back); the
same threads then post as often to the bare view. Reported: requests/s, p50 and p95 latency,
errors, the CPU per request of the server and of the phones (this process, which shares the
machine's cores with the server), and the ratio of the entry's throughput to the bare view's.

``BENCH_PG_DATABASE`` names the PostgreSQL database the run creates and drops (default
"spades_bench"), so that people sharing a server do not collide.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLES = 100
HANDS = 10
SEQUENTIAL = 100
CPU_BLOCK = 60
WARM_UP = 8
PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/test"
PG_DATABASE = os.environ.get("BENCH_PG_DATABASE", "spades_bench")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def prepare(env: dict[str, str]) -> tuple[list[str], int]:
    """Migrate, build the event and the baseline's table; count one entry's SQL statements at the
    first table; return the other tables' tokens and that count."""
    key = "INTEGER PRIMARY KEY AUTOINCREMENT" if "sqlite" in env["DATABASE_URL"] else "SERIAL PRIMARY KEY"
    code = f"""
import json, django
django.setup()
from django.core.management import call_command
from django.db import connection
call_command("migrate", verbosity=0)
call_command("collectstatic", verbosity=0, interactive=False)
with connection.cursor() as c:
    c.execute("CREATE TABLE IF NOT EXISTS bench_write (id {key}, note TEXT)")
from django.test import Client
from django.test.utils import CaptureQueriesContext
from tournament.play.rounds import start_round
from tournament.formats.progressive.simulation import create_progressive
t = create_progressive(couples={2 * (TABLES + 3)}, rounds=2, seed=1, partners="fixed")
t.rule_overrides = {{"target_score": 10000}}
t.save()
r = t.rounds.get(number=1)
start_round(round_=r)
tokens = list(r.games.order_by("table__number").values_list("table__token", flat=True))
hand = {{"number": 1, "north_bid": "3", "east_bid": "3", "south_bid": "3", "west_bid": "3",
        "north_tricks": 4, "east_tricks": 3, "south_tricks": 3, "west_tricks": 3}}
with CaptureQueriesContext(connection) as captured:
    answer = Client(HTTP_HOST="127.0.0.1").post(f"/table/{{tokens[0]}}/round/1/hands/", hand, HTTP_HX_REQUEST="true")
assert answer.status_code == 200, answer.status_code
work = [q for q in captured.captured_queries if not q["sql"].startswith(("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE"))]
print(json.dumps([tokens[1:], len(work)]))
"""
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True)
    tokens, statements = json.loads(done.stdout.strip().splitlines()[-1])
    return tokens, statements


class Phone:
    """One table's scorekeeper: a keep-alive connection with the CSRF cookie."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.csrf = ""

    def get(self, path: str) -> int:
        self.conn.request("GET", path)
        response = self.conn.getresponse()
        response.read()
        cookie = response.getheader("Set-Cookie") or ""
        match = re.search(r"csrftoken=([^;]+)", cookie)
        self.csrf = match.group(1) if match else self.csrf
        return response.status

    def post(self, path: str, data: dict) -> tuple[int, float]:
        body = urllib.parse.urlencode(data)
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "X-CSRFToken": self.csrf,
            "Cookie": f"csrftoken={self.csrf}",
            "HX-Request": "true",
            "X-Next-Hand": "client",  # as table.js: the phone blanks its form for the next hand itself
        }
        start = time.perf_counter()
        self.conn.request("POST", path, body, headers)
        response = self.conn.getresponse()
        response.read()
        return response.status, time.perf_counter() - start


def random_values(rng: random.Random) -> dict[str, object]:
    cuts = sorted(rng.randint(0, 13) for _ in range(3))
    tricks = [b - a for a, b in zip([0, *cuts], [*cuts, 13], strict=True)]
    values: dict[str, object] = {}
    for seat, took in zip(("north", "east", "south", "west"), tricks, strict=True):
        # At most 12: a seat that took all 13 beside a partner who took none would otherwise make
        # the side bid 14, which the rules refuse (one table's every post used to fail so).
        values[f"{seat}_bid"] = str(min(max(1, took), 12))
        values[f"{seat}_tricks"] = took
    return values


def hand_url(token: str) -> str:
    return f"/table/{token}/round/1/hands/"


def server_cpu(server: subprocess.Popen) -> float:
    """CPU seconds the server's workers have used so far (Linux /proc): unlike the latencies, it
    hardly moves when other work shares the machine."""
    children = Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split()
    ticks = 0
    for pid in children:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def run_sequential(port: int, tokens: list[str], server: subprocess.Popen) -> tuple[float, ...]:
    """One phone alone: the median latencies of SEQUENTIAL hand entries at ``tokens[0]`` and of as
    many bare writes, alternated; then the server's CPU time per request of each kind, over
    CPU_BLOCK entries at ``tokens[1]`` and as many bare writes in a row, and those blocks' median
    latencies (the measure before the alternation, printed beside it)."""
    phone = Phone(port)
    phone.get(f"/table/{tokens[0]}/")
    hands = {token: (iter(range(1, 10_000)), random.Random(0)) for token in tokens[:2]}

    def entry(token: str) -> tuple[int, float]:
        numbers, rng = hands[token]
        return phone.post(hand_url(token), {"number": next(numbers), **random_values(rng)})

    def bare() -> tuple[int, float]:
        return phone.post("/bench/write/", {})

    # A worker's first requests compile templates and SQL that every later one reuses.
    for _ in range(WARM_UP):
        entry(tokens[0]), bare()
    pairs = [(entry(tokens[0]), bare()) for _ in range(SEQUENTIAL)]
    start = server_cpu(server)
    cpu_entries = [entry(tokens[1]) for _ in range(CPU_BLOCK)]
    middle = server_cpu(server)
    cpu_bare = [bare() for _ in range(CPU_BLOCK)]
    end = server_cpu(server)
    statuses = [status for pair in pairs for status, _ in pair] + [status for status, _ in cpu_entries + cpu_bare]
    assert all(status == 200 for status in statuses), statuses
    return (
        statistics.median(seconds for (_, seconds), _ in pairs),
        statistics.median(seconds for _, (_, seconds) in pairs),
        (middle - start) / CPU_BLOCK,
        (end - middle) / CPU_BLOCK,
        statistics.median(seconds for _, seconds in cpu_entries),
        statistics.median(seconds for _, seconds in cpu_bare),
    )


def run_load(
    port: int, tokens: list[str], server: subprocess.Popen, *, bare: bool
) -> tuple[list[float], int, float, float, float]:
    """The burst: latencies, errors, wall time, and the CPU time the server's workers and this
    process (the phones: on these 2 cores they compete with the server) spent."""
    latencies: list[float] = []
    errors = [0]
    lock = threading.Lock()
    barrier = threading.Barrier(len(tokens) + 1)

    def table(index: int, token: str) -> None:
        phone, rng = Phone(port), random.Random(index)
        phone.get(f"/table/{token}/")
        barrier.wait()
        for number in range(1, HANDS + 1):
            if bare:
                status, seconds = phone.post("/bench/write/", {})
            else:
                status, seconds = phone.post(hand_url(token), {"number": number, **random_values(rng)})
            with lock:
                latencies.append(seconds)
                errors[0] += status != 200

    threads = [threading.Thread(target=table, args=(i, t)) for i, t in enumerate(tokens)]
    for thread in threads:
        thread.start()
    barrier.wait()
    start, server_start, client_start = time.perf_counter(), server_cpu(server), time.process_time()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - start
    return latencies, errors[0], wall, server_cpu(server) - server_start, time.process_time() - client_start


def measure(label: str, database_url: str) -> None:
    env = {**os.environ, "DATABASE_URL": database_url, "DJANGO_SETTINGS_MODULE": "bench.settings",
           "DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": "bench-" + "k" * 50, "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
           "DJANGO_HTTPS": "false", "DATABASE_CONN_MAX_AGE": "60"}  # fmt: skip
    tokens, statements = prepare(env)
    port = free_port()
    server = subprocess.Popen(
        [str(Path(sys.executable).with_name("gunicorn")), "tournament.wsgi", "-w", "2", "-b", f"127.0.0.1:{port}",
         "--log-level", "warning"], env=env, cwd=ROOT,
    )  # fmt: skip
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        entry, bare_write, entry_cpu, bare_cpu, entry_block, bare_block = run_sequential(port, tokens[:2], server)
        tokens = tokens[2:]
        print(f"  {label}: one hand entry runs {statements} SQL statements (besides BEGIN/COMMIT)")
        print(f"    alone: hand entry p50 {entry * 1000:.1f} ms, bare write p50 {bare_write * 1000:.1f} ms,"
              f" {entry / bare_write:.2f} x the bare write's time")  # fmt: skip
        print(f"    in blocks ({CPU_BLOCK} entries, then {CPU_BLOCK} bare writes): p50 {entry_block * 1000:.1f} ms vs"
              f" {bare_block * 1000:.1f} ms, {entry_block / bare_block:.2f} x")  # fmt: skip
        print(f"    server CPU per request: hand entry {entry_cpu * 1000:.1f} ms, bare write {bare_cpu * 1000:.1f} ms,"
              f" {entry_cpu / max(bare_cpu, 1e-9):.2f} x (load average {os.getloadavg()[0]:.1f})")  # fmt: skip
        rows = {}
        for name, bare in (("hand entry", False), ("bare write", True)):
            latencies, errors, wall, server_s, phones_s = run_load(port, tokens, server, bare=bare)
            q = statistics.quantiles(latencies, n=20)
            count = len(latencies)
            rows[name] = (count / wall, q[9], q[18], errors, count, server_s / count, phones_s / count)
        print(f"  {label}: {TABLES} tables x {HANDS} posts, gunicorn 2 workers")
        for name, (rate, p50, p95, errors, count, server_each, client_each) in rows.items():
            print(f"    {name:<11} {rate:>7.1f} req/s  p50 {p50 * 1000:>6.1f} ms  p95 {p95 * 1000:>6.1f} ms"
                  f"  errors {errors}/{count}  CPU per request: server {server_each * 1000:.1f} ms,"
                  f" phones {client_each * 1000:.1f} ms")  # fmt: skip
        print(
            f"    hand entry runs at {rows['hand entry'][0] / rows['bare write'][0]:.2f} x the bare write's throughput"
        )
    finally:
        server.terminate()
        server.wait()


def postgres_available() -> bool:
    try:
        import psycopg

        psycopg.connect(PG_ADMIN, connect_timeout=2).close()
        return True
    except Exception:
        return False


def main() -> None:
    print(f"table entry load test (Python {sys.version.split()[0]})")
    scratch = Path(tempfile.mkdtemp(prefix="spades-load-"))
    try:
        measure("SQLite", f"sqlite:///{scratch / 'load.sqlite3'}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if not postgres_available():
        print("  PostgreSQL: no server at 127.0.0.1:5432; skipped")
        return
    import psycopg

    with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{PG_DATABASE}"')
        admin.execute(f'CREATE DATABASE "{PG_DATABASE}"')
    try:
        measure("PostgreSQL", f"postgres://postgres@127.0.0.1:5432/{PG_DATABASE}")
    finally:
        with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{PG_DATABASE}" WITH (FORCE)')


if __name__ == "__main__":
    main()
