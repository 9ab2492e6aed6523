"""The server dies while a phone is sending: after a restart the waiting hands land exactly once.

The app runs in a subprocess (``manage.py runserver`` on a SQLite file) so that the test can
freeze it mid-request (SIGSTOP), kill it (SIGKILL) and start it again on the same address, while
headless Chromium keeps the table page open as a scorekeeper's phone would.
"""

import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import PHONE
from tests.test_browser_offline import HANDS, Thumb

# Slow as well: each test runs the app in processes of its own.
pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parent.parent
PREPARE = """
import json, django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from tests.conftest import make_tournament
from tournament.play.rounds import start_play, start_round
round_ = start_play(tournament=make_tournament(couples=2))
start_round(round_=round_)
print(json.dumps(round_.games.get().table.token))
"""


class Server:
    """``manage.py runserver`` on a fixed port, to kill and start again."""

    def __init__(self, database: Path) -> None:
        self.env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "DJANGO_DEBUG": "true"}
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None

    def prepare(self) -> str:
        done = subprocess.run(
            [sys.executable, "-c", PREPARE], cwd=ROOT, env=self.env, capture_output=True, text=True, check=True
        )
        return json.loads(done.stdout.strip().splitlines()[-1])

    def start(self) -> None:
        command = [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{self.port}"]
        self.process = subprocess.Popen(
            command, cwd=ROOT, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        for _ in range(200):
            try:
                urllib.request.urlopen(self.url + "/table/sw.js", timeout=1).read()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the app did not start")

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def freeze(self) -> None:
        self.process.send_signal(signal.SIGSTOP)


@pytest.fixture
def server(tmp_path):
    server = Server(tmp_path / "restart.sqlite3")
    yield server
    if server.process and server.process.poll() is None:
        server.process.send_signal(signal.SIGCONT)
        server.kill()


def stored_hands(database: Path) -> list[tuple[int, int]]:
    with sqlite3.connect(database) as db:
        numbers = db.execute("SELECT number FROM tournament_hand ORDER BY number").fetchall()
        revisions = db.execute("SELECT COUNT(*) FROM tournament_handrevision").fetchone()[0]
    return [n for (n,) in numbers], revisions


def test_hands_sent_while_the_server_dies_land_once_after_it_restarts(browser, server, tmp_path, screenshot):
    token = server.prepare()
    server.start()
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, base_url=server.url)
    page = context.new_page()
    page.goto(f"/table/{token}/")
    thumb = Thumb(page)
    thumb.hand(*HANDS[0], number=1)
    page.wait_for_selector("text=Hand 1 saved.")

    server.freeze()  # hand 2 is sent to a server that takes the connection and never answers
    thumb.hand(*HANDS[1], number=2)
    page.wait_for_selector("text=will send when the network is back (1 waiting)", timeout=15_000)
    server.kill()  # and dies
    thumb.hand(*HANDS[2], number=3)
    page.wait_for_selector("text=(2 waiting)")
    screenshot(page, "table-server-down")
    assert stored_hands(tmp_path / "restart.sqlite3") == ([1], 1)

    server.start()
    page.wait_for_selector("text=Hand 3 sent", timeout=20_000)
    assert stored_hands(tmp_path / "restart.sqlite3") == ([1, 2, 3], 3)
    context.close()


def test_a_hand_stored_just_before_the_server_died_is_not_stored_again(server, tmp_path):
    """The phone's view: its send got no answer, so it sends the same entry again after the restart."""
    token = server.prepare()
    server.start()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    page = opener.open(f"{server.url}/table/{token}/").read().decode()
    csrf = re.search(r'"X-CSRFToken": "([^"]+)"', page).group(1)
    action = re.search(r'id="hand-form" data-hand method="post" action="([^"]+)"', page).group(1)
    bids, tricks = HANDS[0]
    values = {f"{seat}_bid": bid for seat, bid in bids.items()}
    values |= {f"{seat}_tricks": took for seat, took in tricks.items()} | {"west_tricks": 3}
    body = urllib.parse.urlencode({"number": 1, "entry_key": "sent-before-the-crash", **values}).encode()
    headers = {"X-CSRFToken": csrf, "HX-Request": "true"}

    def send() -> str:
        request = urllib.request.Request(server.url + action, data=body, headers=headers)
        return opener.open(request, timeout=10).read().decode()

    assert "Hand 1 saved." in send()
    server.kill()
    server.start()
    assert "Hand 1 saved." in send()
    assert stored_hands(tmp_path / "restart.sqlite3") == ([1], 1)
