"""The print worker as it runs: the app and ``manage.py db_worker`` in processes of their own on
one database, spoken to over HTTP only.

- With only the web server running, a print stays queued and the page says to start the worker;
  once a worker runs, it completes.
- A worker killed (SIGKILL) mid-render leaves a job whose lease runs out; the next status poll
  queues it again and a second worker finishes it.
- Two app servers and a worker on one PostgreSQL: a round played through both servers' table
  links, its score sheets printed on one and opened on the other.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from pypdf import PdfReader

from tests.conftest import even_hand
from tests.live_http import Answer, Director, Phone

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "correct-horse-battery"
# The database, the director's login (a superuser owning the tests' club) and, for EVENT, a
# tournament of COUPLES couples with round 1 running: its id and how many tables it seats.
PREPARE = """
import json, django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from django.contrib.auth.models import User
from tests.conftest import a_club, make_tournament
from tournament.play.rounds import start_play, start_round
user = User.objects.create_user("dee", password="correct-horse-battery", is_staff=True, is_superuser=True)
a_club().members.create(user=user, role="owner")
print(json.dumps(None))
"""
EVENT = (
    PREPARE.removesuffix("print(json.dumps(None))\n")
    + """
tournament = make_tournament(couples={couples})
start_round(round_=start_play(tournament=tournament))
print(json.dumps([tournament.pk, tournament.tables.count()]))
"""
)
# A worker whose render of a print waits first, long enough to be killed while it holds the lease.
SLOW_WORKER = """
import sys, time, django
django.setup()
from django.core.management import call_command
from tournament.printing import pdf
real = pdf.pdf_from_chunks
def slow(chunks, on_progress=None):
    time.sleep(60)
    return real(chunks, on_progress=on_progress)
pdf.pdf_from_chunks = slow
call_command("db_worker", "--no-reload", "--no-startup-delay", "--interval", "0.2")
"""
WORKER = [sys.executable, "manage.py", "db_worker", "--no-reload", "--no-startup-delay", "--interval", "0.2"]


class Processes:
    """The app's processes of a test, on one database; all killed at the end."""

    def __init__(self, database_url: str, **env: str) -> None:
        self.env = {**os.environ, "DATABASE_URL": database_url, "DJANGO_DEBUG": "true", **env}
        self.running: list[subprocess.Popen] = []

    def run(self, script: str) -> object:
        done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=self.env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout.strip().splitlines()[-1])

    def start(self, command: list[str]) -> subprocess.Popen:
        # A session of its own: killing it kills what it started too (a PDF renderer's helpers).
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "start_new_session": True}
        process = subprocess.Popen(command, cwd=ROOT, env=self.env, **quiet)
        self.running.append(process)
        return process

    def server(self) -> str:
        """A web server (``runserver``, no worker) on a free port: its address, once it answers."""
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.start([sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"])
        url = f"http://127.0.0.1:{port}"
        for _ in range(400):
            try:
                urllib.request.urlopen(url + "/table/sw.js", timeout=1).read()
                return url
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the app did not start")

    @staticmethod
    def kill(process: subprocess.Popen) -> None:
        """SIGKILL to the process and every process it started."""
        with contextlib.suppress(ProcessLookupError):  # gone already, with its group
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()

    def stop(self) -> None:
        for process in self.running:
            self.kill(process)


@pytest.fixture
def processes() -> Iterator[list[Processes]]:
    made: list[Processes] = []
    yield made
    for group in made:
        group.stop()


def _until(check, seconds: float = 90) -> object:
    """``check()``'s first true answer, asked every 0.2 s for up to ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if answer := check():
            return answer
        time.sleep(0.2)
    raise AssertionError(f"nothing after {seconds} s")


def _ready(director: Director, status_path: str) -> str | None:
    """The PDF's address once the status page sends there (the job is done), else None."""
    answer = director.get(status_path, "status")
    assert answer.status in (200, 302), answer
    return answer.location or None


def _pdf_pages(director: Director, path: str) -> list[str]:
    request = urllib.request.Request(director.url + path)
    with director.opener.open(request, timeout=60) as response:
        assert response.headers["Content-Type"] == "application/pdf"
        data = response.read()
    return [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]


def _print(director: Director, path: str) -> tuple[Answer, str]:
    """Ask for a document: the answer (202: queued) and its status page's path."""
    answer = director.get(path, "print")
    assert answer.status == 202, answer
    return answer, re.search(r'hx-get="([^"]+)"', answer.text).group(1)


def test_a_print_stays_queued_with_only_the_web_server_and_completes_once_a_worker_runs(processes, tmp_path):
    app = Processes(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    processes.append(app)
    tournament_id, _ = app.run(EVENT.format(couples=4))
    director = Director(app.server(), "dee", PASSWORD, [])
    queued, status = _print(director, f"/t/{tournament_id}/print/standings/")
    assert "Waiting for the print worker" in queued.words and "No print worker" not in queued.words
    time.sleep(6)  # longer than a free worker takes to pick a job up
    waiting = director.get(status, "status")
    assert "Waiting for the print worker" in waiting.words
    assert "No print worker has been seen yet: start it with manage.py db_worker" in waiting.words
    assert "No print worker has been seen yet" in director.get(f"/t/{tournament_id}/print/").words
    app.start(WORKER)
    pdf_path = _until(lambda: _ready(director, status))
    assert any("Standings" in text for text in _pdf_pages(director, pdf_path))


def test_a_job_whose_worker_was_killed_mid_render_is_finished_by_another_worker(processes, tmp_path):
    app = Processes(f"sqlite:///{tmp_path / 'db.sqlite3'}", SPADES_PRINT_LEASE_SECONDS="3")
    processes.append(app)
    tournament_id, tables = app.run(EVENT.format(couples=40))
    director = Director(app.server(), "dee", PASSWORD, [])
    first = app.start([sys.executable, "-c", SLOW_WORKER])
    _, status = _print(director, f"/t/{tournament_id}/print/score-sheets/?round=1")
    _until(lambda: "Rendering the PDF" in director.get(status, "status").words)
    app.kill(first)
    time.sleep(3.5)  # the lease runs out; the first poll after it queues the job again
    assert "Waiting for the print worker" in director.get(status, "status").words
    app.start(WORKER)
    pdf_path = _until(lambda: _ready(director, status))
    pages = _pdf_pages(director, pdf_path)
    assert len(pages) == tables and all("Table" in text for text in pages)


POSTGRES = os.environ.get("SPADES_TEST_POSTGRES", "postgres://postgres@127.0.0.1:5432")


@pytest.fixture
def postgres_database() -> Iterator[str]:
    """A PostgreSQL database of the test's own, dropped at the end (skipped without a server)."""
    psycopg = pytest.importorskip("psycopg")
    name = f"spades_print_{uuid.uuid4().hex[:8]}"
    try:
        admin = psycopg.connect(f"{POSTGRES}/postgres", autocommit=True, connect_timeout=3)
    except psycopg.OperationalError as error:
        pytest.skip(f"no PostgreSQL at {POSTGRES}: {error}")
    admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"{POSTGRES}/{name}"
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


def test_two_app_servers_and_a_worker_on_one_postgresql_play_a_round_and_print_it(processes, postgres_database):
    app = Processes(postgres_database, DATABASE_CONN_MAX_AGE="60")
    processes.append(app)
    app.run(PREPARE)  # the database, and the director's login
    one, two = app.server(), app.server()
    app.start(WORKER)
    answers: list[Answer] = []
    desk_one, desk_two = Director(one, "dee", PASSWORD, answers), Director(two, "dee", PASSWORD, answers)
    tournament_id = desk_one.new_event(teams=8, preset="progressive", format="progressive_split",
                                       seating_order="registration")  # fmt: skip
    tokens = [phone.token for phone in desk_two.phones(tournament_id)]
    assert len(tokens) == 4
    phones = [Phone(one if n % 2 else two, token, n, answers) for n, token in enumerate(tokens, start=1)]
    for _hand in range(4):
        for phone in phones:
            assert phone.save(phone.load(), even_hand(7)).status == 200
    assert all(phone.load() is None for phone in phones)  # every game played out, on either server
    _, status = _print(desk_one, f"/t/{tournament_id}/print/score-sheets/?round=1")
    pdf_path = _until(lambda: _ready(desk_two, status))
    pages = _pdf_pages(desk_two, pdf_path)
    assert len(pages) == 4 and all("Table" in text for text in pages)
    assert [a for a in answers if a.status >= 500] == []
