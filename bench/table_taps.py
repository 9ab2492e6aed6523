"""Taps and seconds to enter an ordinary hand at the table, on a 360×740 phone screen.

Runs the app (``manage.py runserver`` on a fresh SQLite file) and drives Debian's Chromium
through Playwright as a scorekeeper would: every tap is a touch on the number pad, a seat's box or
Save. Reported per hand: the taps, and the seconds from the first tap until the saved hand shows
(the machine's own time: the browser, the preview requests and the save; a person adds their
thinking). Screenshots of the phone's screen go to test-artifacts/.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# An ordinary hand: four bids, West's tricks filled in as 13 minus the others'.
BIDS = {"north": "3", "east": "4", "south": "3", "west": "2"}
TRICKS = {"north": 4, "east": 3, "south": 3}
HANDS = 3


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def prepare(env: dict[str, str]) -> str:
    code = """
import json, django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from tournament.formats.progressive.simulation import create_progressive
from tournament.play.rounds import start_round
t = create_progressive(couples=2, rounds=1, seed=1, partners="split")
r = t.rounds.get(number=1)
start_round(round_=r)
print(json.dumps(r.games.get().table.token))
"""
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def wait_for(url: str) -> None:
    for _ in range(100):
        try:
            urllib.request.urlopen(url, timeout=1).read()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"the server did not answer at {url}")


def enter_hand(page, number: int) -> tuple[int, float]:
    taps = 0
    start = time.perf_counter()
    for seat, bid in BIDS.items():
        assert page.get_attribute(f"#id_{seat}_bid + .cell", "class").endswith("active")  # the pad moves on by itself
        page.tap(f".pad .key[data-value='{bid}']")
        taps += 1
    for took in TRICKS.values():
        page.tap(f".pad .key[data-value='{took}']")
        taps += 1
    assert page.input_value("#id_west_tricks") == str(13 - sum(TRICKS.values()))
    page.get_by_role("button", name=f"Save hand {number}").tap()
    taps += 1
    page.wait_for_selector(f"text=Hand {number} saved.")
    return taps, time.perf_counter() - start


def main() -> None:
    from playwright.sync_api import sync_playwright

    folder = tempfile.mkdtemp()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{folder}/bench.sqlite3", "DJANGO_DEBUG": "true",
           "DJANGO_SETTINGS_MODULE": "tournament.settings"}  # fmt: skip
    token = prepare(env)
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        url = f"http://127.0.0.1:{port}/table/{token}/"
        wait_for(url)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
            context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True)
            page = context.new_page()
            page.goto(url)
            results = []
            for number in range(1, HANDS + 1):
                if number == 2:
                    ARTIFACTS.mkdir(exist_ok=True)
                    page.screenshot(path=ARTIFACTS / "table-after-save.png")
                results.append(enter_hand(page, number))
            page.screenshot(path=ARTIFACTS / "table-phone-screen.png")
            browser.close()
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(folder, ignore_errors=True)
    taps = [t for t, _ in results]
    seconds = [s for _, s in results]
    print(
        f"ordinary hand on a 360×740 phone: {max(taps)} taps (before the number pad: 17), "
        f"{statistics.median(seconds):.2f} s median of {HANDS} hands (machine time, save included)"
    )


if __name__ == "__main__":
    main()
