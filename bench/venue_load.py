"""A national evening at the venue: 1,000 tables, their phones and 200 viewers on one 2-core box.

Simulates, on SQLite (a file) and on PostgreSQL (when a server answers at 127.0.0.1:5432), the
app served as README.md's "Running an event" serves it: gunicorn, 2 sync workers, production
settings from the environment (plain HTTP, DATABASE_CONN_MAX_AGE=60), access and error log.

Setup (not timed), in a fresh database: a split-partner progressive event of 2,000 couples
(4,000 players, 1,000 tables), round 1 seated and started.

Before the window (timed, reported apart, not against the targets): over OPENING seconds, each of
the 1,000 phones loads its table page at a random moment, at most OPENING_AT_ONCE at a time
(keeping the CSRF cookie, the token and the hand form); then each page's poll is timed 3 times,
one at a time: its cost on an idle server. The viewers' pages are open already: in the window
they only poll.

The window (timed: WINDOW = 60 s), as the browsers send it (static/js/table.js, htmx polling):
- each phone saves exactly one hand at a uniformly random moment (an htmx-style POST with
  X-CSRFToken, HX-Request, X-Next-Hand: client and an entry_key; it gives up after 5 s as the
  phone does), and reports "still here" every 30 s from a random phase (setInterval: each ping on
  time, whatever the last one's fate);
- each viewer polls the standings and the projector (their partials: HX-Request, HX-Target, ...;
  the projector's next page as its answer names it), each 15 s after the last answer (htmx's
  polling restarts with the element it swapped in), from a random phase.
Nothing is retried. Every answer but a 2xx (or a save's 409) is an error, and so is a timeout.

Reported per database: count, p50/p95/p99 and errors of saves, pings and pages (standings and
projector apart and together), the server's and the load generator's CPU time, and the targets:
p95 save <= 300 ms, p95 page <= 500 ms, no errors. Exits 1 when a target is missed.

``BENCH_VENUE_TABLES`` / ``BENCH_VENUE_VIEWERS`` shrink the evening for a quick try;
``BENCH_PG_DATABASE`` names the PostgreSQL database created and dropped (default "venue").
"""

from __future__ import annotations

import asyncio
import collections
import json
import math
import os
import random
import re
import resource
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp
import psycopg

ROOT = Path(__file__).resolve().parent.parent
TABLES = int(os.environ.get("BENCH_VENUE_TABLES", "1000"))
VIEWERS = int(os.environ.get("BENCH_VENUE_VIEWERS", "200"))
OPENING, WINDOW, PING_EVERY, POLL_EVERY = 30.0, 60.0, 30.0, 15.0
# Table pages in flight at most before the window: a server slower than that stretches the opening
# instead of carrying a queue (of pages whose phones gave up, still to be served) into the window.
OPENING_AT_ONCE = 4
SAVE_TIMEOUT, OTHER_TIMEOUT = 5.0, 30.0  # the phone's SEND_TIMEOUT_MS; pings and polls: our patience
TARGETS = {"save": 0.300, "pages": 0.500}  # p95, seconds
PG_SERVER = "postgres://postgres@127.0.0.1:5432"
PG_DATABASE = os.environ.get("BENCH_PG_DATABASE", "venue")


def build_event(tables: int) -> dict:
    """In a child process with the server's environment: migrate, collect static files, build the
    event with round 1 started. The only place the app's code is imported."""
    import django

    django.setup()
    from django.core.management import call_command

    from tournament.formats.progressive.simulation import create_progressive
    from tournament.play.rounds import start_round

    call_command("migrate", verbosity=0)
    call_command("collectstatic", verbosity=0, interactive=False)
    tournament = create_progressive(couples=2 * tables, rounds=8, seed=1, partners="split")
    round_ = tournament.rounds.get(number=1)
    start_round(round_=round_)
    tokens = list(round_.games.order_by("table__number").values_list("table__token", flat=True))
    return {"tournament": tournament.pk, "tokens": tokens}


class Tally:
    """Latencies and failures by kind of request."""

    def __init__(self) -> None:
        self.seconds: dict[str, list[float]] = collections.defaultdict(list)
        self.errors: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
        self.bodies: list[str] = []

    def add(self, kind: str, seconds: float | None, status: int | str, body: str) -> bool:
        if seconds is not None:  # None: never sent
            self.seconds[kind].append(seconds)
        ok = isinstance(status, int) and (200 <= status < 300 or (status == 409 and kind == "save"))
        if not ok:
            self.errors[kind][status] += 1
            if len(self.bodies) < 3:
                self.bodies.append(f"{kind} {status}: {' '.join(body.split())[:300]}")
        return ok

    def row(self, label: str, kinds: list[str], target: float | None = None) -> tuple[str, bool]:
        values = sorted(s for kind in kinds for s in self.seconds[kind])
        errors = sum(sum(self.errors[kind].values()) for kind in kinds)
        if not values:
            return f"    {label:<22} none", True
        p50, p95, p99 = (values[min(len(values) - 1, math.ceil(q * len(values)) - 1)] for q in (0.50, 0.95, 0.99))
        met = target is None or (p95 <= target and errors == 0)
        verdict = f"  target p95 <= {target * 1000:.0f} ms, 0 errors: {'met' if met else 'MISSED'}" if target else ""
        return (
            f"    {label:<22} {len(values):>6}  p50 {p50 * 1000:>7.0f} ms  p95 {p95 * 1000:>7.0f} ms"
            f"  p99 {p99 * 1000:>7.0f} ms  errors {errors:>5}{verdict}",
            met,
        )


class Venue:
    """The phones and viewers of one evening, as clients of the server at ``base``."""

    def __init__(self, session, base: str, event: dict, server_cpu) -> None:
        self.session, self.base, self.tally, self.server_cpu = session, base, Tally(), server_cpu
        self.standings, self.projector = f"/s/{event['tournament']}/", f"/s/{event['tournament']}/projector/"
        self.tokens = event["tokens"]
        self.phones: dict[str, dict] = {}  # token -> what its page gave: cookie, CSRF token, form

    async def request(self, kind: str, method: str, path: str, timeout: float, **kwargs) -> tuple[bool, str, object]:
        start = time.perf_counter()
        try:
            async with self.session.request(
                method, self.base + path, timeout=aiohttp.ClientTimeout(total=timeout), **kwargs
            ) as response:
                body, status, cookies = await response.text(), response.status, response.cookies
        except (TimeoutError, aiohttp.ClientError) as error:
            body, status, cookies = repr(error), "timeout" if isinstance(error, TimeoutError) else "no answer", {}
        return self.tally.add(kind, time.perf_counter() - start, status, body), body, cookies

    async def open_table(self, token: str) -> None:
        ok, page, cookies = await self.request("table page", "GET", f"/table/{token}/", OTHER_TIMEOUT)
        if not ok:
            return
        form = page[page.index('<form id="hand-form"') :]
        form = form[: form.index("</form>")]
        # What FormData sends: every input's value and the empty bid selects; table.js drops the CSRF field.
        fields = dict(re.findall(r'<input [^>]*name="(\w+)"[^>]*value="([^"]*)"', form))
        fields.update({name: "" for name in re.findall(r'<select name="(\w+)"', form)})
        fields.pop("csrfmiddlewaretoken", None)
        action = re.search(r'action="([^"]+)"', form).group(1)
        token_in_page = re.search(r'"X-CSRFToken": "([^"]+)"', page).group(1)
        self.phones[token] = {"cookie": cookies["csrftoken"].value, "csrf": token_in_page, "fields": fields,
                              "action": action, "report": f"/table/{token}/report/"}  # fmt: skip

    def phone_headers(self, phone: dict) -> dict[str, str]:
        return {"Content-Type": "application/x-www-form-urlencoded", "X-CSRFToken": phone["csrf"],
                "Cookie": f"csrftoken={phone['cookie']}", "Origin": self.base}  # fmt: skip

    async def save(self, phone: dict, rng: random.Random) -> None:
        cuts = sorted(rng.randint(0, 13) for _ in range(3))
        tricks = [b - a for a, b in zip([0, *cuts], [*cuts, 13], strict=True)]
        data = dict(phone["fields"], entry_key=secrets.token_hex(16))
        for seat, took in zip(("north", "east", "south", "west"), tricks, strict=True):
            data[f"{seat}_bid"], data[f"{seat}_tricks"] = str(min(max(1, took), 12)), str(took)  # a side bids <= 13
        headers = {**self.phone_headers(phone), "HX-Request": "true", "X-Next-Hand": "client"}
        await self.request("save", "POST", phone["action"], SAVE_TIMEOUT, data=data, headers=headers)

    async def ping(self, phone: dict) -> None:
        await self.request("ping", "POST", phone["report"], OTHER_TIMEOUT, data={"waiting": "0"},
                           headers=self.phone_headers(phone))  # fmt: skip

    async def poll(self, kind: str, page: str, path: str) -> str:
        """The partial htmx asks for (the element's id is ``kind``); the path of the next poll."""
        headers = {"HX-Request": "true", "HX-Target": kind, "HX-Trigger": kind, "HX-Current-URL": self.base + page}
        ok, body, _ = await self.request(kind, "GET", path, OTHER_TIMEOUT, headers=headers)
        following = re.search(rf'id="{kind}" hx-get="([^"]+)"', body) if ok else None
        return following.group(1) if following else path

    async def viewer(self, kind: str, page: str, first: float, end: float) -> None:
        """One viewer's polling of one page, 15 s after each answer, until ``end``."""
        moment, path = first, page
        while moment < end:
            await asyncio.sleep(max(0.0, moment - time.monotonic()))
            path = await self.poll(kind, page, path)
            moment = time.monotonic() + POLL_EVERY

    async def run(self) -> None:
        rng = random.Random(1)
        opening, gate = time.monotonic(), asyncio.Semaphore(OPENING_AT_ONCE)

        async def open_table(token: str) -> None:
            async with gate:
                await self.open_table(token)

        await asyncio.gather(*(at(opening + rng.uniform(0, OPENING), open_table(t)) for t in self.tokens))
        for kind, page in (("standings", self.standings), ("projector", self.projector)):
            for _ in range(3):  # one at a time: what a page costs on an idle server
                await self.poll(kind, page, page)
            self.tally.seconds[f"{kind} alone"] = self.tally.seconds.pop(kind)
        start, cpu = time.monotonic(), (self.server_cpu(), time.process_time())
        end = start + WINDOW
        jobs = []
        for token in self.tokens:
            if phone := self.phones.get(token):
                jobs.append(at(start + rng.uniform(0, WINDOW), self.save(phone, random.Random(token))))
                phase = rng.uniform(0, PING_EVERY)
                jobs += [at(start + moment, self.ping(phone)) for moment in frange(phase, WINDOW, PING_EVERY)]
            else:
                self.tally.add("save", None, "no page", "its table page did not open")
        for _ in range(VIEWERS):
            jobs.append(self.viewer("standings", self.standings, start + rng.uniform(0, POLL_EVERY), end))
            jobs.append(self.viewer("projector", self.projector, start + rng.uniform(0, POLL_EVERY), end))
        await asyncio.gather(*jobs)
        self.window_seconds = time.monotonic() - start
        self.cpu = (self.server_cpu() - cpu[0], time.process_time() - cpu[1])  # server's, load generator's


async def at(moment: float, job) -> None:
    await asyncio.sleep(max(0.0, moment - time.monotonic()))
    await job


def frange(first: float, stop: float, step: float) -> list[float]:
    return [first + step * i for i in range(math.ceil((stop - first) / step))]


async def load(port: int, event: dict, server: subprocess.Popen) -> Venue:
    # Gunicorn's sync workers close every connection: so does each request here, and none waits for a slot.
    connector = aiohttp.TCPConnector(limit=0, force_close=True)
    async with aiohttp.ClientSession(connector=connector, cookie_jar=aiohttp.DummyCookieJar()) as session:
        venue = Venue(session, f"http://127.0.0.1:{port}", event, lambda: server_cpu(server))
        await venue.run()
    return venue


def server_cpu(server: subprocess.Popen) -> float:
    """CPU seconds used so far by the server's workers (Linux /proc)."""
    ticks = 0
    for pid in Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split():
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def measure(label: str, database_url: str, scratch: Path) -> bool:
    """Build, serve and load one database's evening; print its figures; True when every target is met."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tournament.settings", "DJANGO_DEBUG": "false",
           "DJANGO_SECRET_KEY": secrets.token_urlsafe(50), "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
           "DJANGO_HTTPS": "false", "DATABASE_URL": database_url, "DATABASE_CONN_MAX_AGE": "60"}  # fmt: skip
    started = time.perf_counter()
    built = subprocess.run([sys.executable, "-m", "bench.venue_load", "--build"], env=env, cwd=ROOT,
                           capture_output=True, text=True, check=True)  # fmt: skip
    event = json.loads(built.stdout.strip().splitlines()[-1])
    print(f"  {label}: built {len(event['tokens']):,} tables in {time.perf_counter() - started:.0f} s")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = scratch / f"gunicorn-{label}.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            [str(Path(sys.executable).with_name("gunicorn")), "tournament.wsgi", "--bind", f"127.0.0.1:{port}",
             "--workers", "2", "--access-logfile", "-", "--error-logfile", "-"],
            env=env, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        busy = os.getloadavg()[0]  # on a shared machine, other work takes the cores too
        venue = asyncio.run(load(port, event, server))
    finally:
        server.terminate()
        server.wait()
    tally = venue.tally
    print(f"  {label}: {len(event['tokens']):,} tables, {VIEWERS} viewers; gunicorn 2 workers"
          f" (load average {busy:.1f} as the load began)")  # fmt: skip
    print(f"   before the window (table pages over {OPENING:.0f} s; polls one at a time; not against the targets)")
    for kind in ("table page", "standings alone", "projector alone"):
        print(tally.row(kind, [kind])[0])
    print(f"   the window ({WINDOW:.0f} s; {venue.window_seconds:.0f} s until the last answer)")
    rows = [tally.row("save", ["save"], TARGETS["save"]), tally.row("ping", ["ping"]),
            tally.row("standings poll", ["standings"]), tally.row("projector poll", ["projector"]),
            tally.row("pages (both polls)", ["standings", "projector"], TARGETS["pages"])]  # fmt: skip
    for text, _ in rows:
        print(text)
    print(f"   CPU in the window: server {venue.cpu[0]:.0f} s, load generator {venue.cpu[1]:.0f} s, of the box's"
          f" {2 * venue.window_seconds:.0f} core-seconds (other work on the box takes the rest)")  # fmt: skip
    if any(tally.errors.values()):
        print(f"   errors by kind and status: { {k: dict(v) for k, v in tally.errors.items() if v} }")
        for body in tally.bodies:
            print(f"     {body}")
        server_log = log.read_text().splitlines()
        first = next((i for i, line in enumerate(server_log) if "Traceback" in line), None)
        if first is not None:
            print("   the server's first traceback:\n" + "\n".join("     " + line for line in server_log[first:][:25]))
    return all(met for _, met in rows) and not any(tally.errors.values())


def pg_admin(*statements: str) -> None:
    with psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True, connect_timeout=2) as admin:
        for statement in statements:
            admin.execute(statement)


def main() -> int:
    print(f"venue load: a national evening on {os.cpu_count()} cores (Python {sys.version.split()[0]})")
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # a connection per request in flight
    scratch = Path(tempfile.mkdtemp(prefix="spades-venue-"))
    met = []
    try:
        met.append(measure("SQLite", f"sqlite:///{scratch / 'venue.sqlite3'}", scratch))
        drop = f'DROP DATABASE IF EXISTS "{PG_DATABASE}" WITH (FORCE)'
        try:
            pg_admin(drop, f'CREATE DATABASE "{PG_DATABASE}"')
        except psycopg.OperationalError:
            print("  PostgreSQL: no server at 127.0.0.1:5432; skipped")
        else:
            try:
                met.append(measure("PostgreSQL", f"{PG_SERVER}/{PG_DATABASE}", scratch))
            finally:
                pg_admin(drop)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if not all(met):
        print("venue load: TARGET MISSED (p95 save <= 300 ms, p95 page <= 500 ms, 0 errors)")
        return 1
    print("venue load: every target met")
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--build"]:
        print(json.dumps(build_event(TABLES)))
    else:
        sys.exit(main())
