"""A round's score sheets printed as a director prints them, cold, with the print worker: from
the request for the PDF to the finished PDF, at 100 and 1,000 tables.

Each figure has a fresh ``manage.py db_worker`` process of its own (started, and waited for until
it says it is polling, before the request: nothing rendered or imported for rendering yet) and a
tournament of its own (no PDF kept from before). The request is the app's own view through
Django's test client in this process; it renders the sheets' HTML and queues the job. The clock
stops when the job's row says done. Both processes share one SQLite file in a temporary folder
(or ``--database-url``). Targets: 100 tables within 3 s, 1,000 within 30 s; each figure says
whether it met its target (``make bench`` goes on either way: the venue load, last, is the one
that fails the run). The machine is shared, so the load average is printed beside them.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[100, 1000])
    parser.add_argument("--database-url", default="")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        os.environ["DATABASE_URL"] = args.database_url or f"sqlite:///{folder}/bench.sqlite3"
        run(args.tables)


def run(sizes: list[int]) -> None:
    import django

    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    print(f"print worker: score sheets, a page a table, cold, request to finished PDF ({os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f})")  # fmt: skip
    from sheet_figures import HAND_WRITTEN, HAND_WRITTEN_WHEN, TARGETS

    for tables in sizes:
        figures = measure(tables)
        target = TARGETS.get(tables)
        verdict = "" if target is None else f" (target {target:.0f} s: {'met' if figures['s'] <= target else 'MISSED'})"
        print(f"  {tables:>5} tables: {figures['s']:.2f} s{verdict}; request {figures['request']:.2f} s "
              f"(HTML, queued), rendering began at {figures['began']:.2f} s; {figures['pages']} pages, "
              f"{figures['kb']:,.0f} KB; worker started in {figures['worker']:.1f} s")  # fmt: skip
        if tables in HAND_WRITTEN:
            print(f"         {HAND_WRITTEN_WHEN} (in the request's process, warm): {HAND_WRITTEN[tables]}")
    print(f"  (load average at the end {os.getloadavg()[0]:.1f})")


def played_round(tables: int):
    """Round 1 of an event with ``tables`` tables, every game played to its end."""
    from tournament.formats.progressive.simulation import create_progressive
    from tournament.play.rounds import start_round
    from tournament.simulation.play import play_game

    tournament = create_progressive(couples=2 * tables, rounds=2, seed=1)
    round_ = tournament.rounds.get(number=1)
    start_round(round_=round_)
    rng = random.Random(1)
    for game in round_.games.select_related("round__tournament", "table"):
        play_game(game, rng)
    return round_


def measure(tables: int) -> dict[str, float]:
    import io

    from django.contrib.auth.models import User
    from django.test import Client
    from django.urls import reverse
    from pypdf import PdfReader

    from tournament.models import ClubMember, PrintJob

    round_ = played_round(tables)
    director = User.objects.filter(username="bench").first() or User.objects.create_user("bench", is_superuser=True,
                                                                                          is_staff=True)  # fmt: skip
    ClubMember.objects.get_or_create(club=round_.tournament.club, user=director, defaults={"role": "owner"})
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(director)
    started = time.perf_counter()
    worker = subprocess.Popen([sys.executable, "manage.py", "db_worker", "--no-reload", "--no-startup-delay",
                               "--interval", "0.1"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True)  # fmt: skip
    try:
        while "Starting worker" not in (worker.stdout.readline() or "Starting worker"):
            pass
        ready = time.perf_counter() - started
        url = reverse("director:print_document", args=[round_.tournament_id, "score-sheets"]) + "?round=1"
        start = time.perf_counter()
        response = client.get(url)
        request = time.perf_counter() - start
        assert response.status_code == 202, response.status_code
        job = PrintJob.objects.get(tournament=round_.tournament)
        began = None
        while True:
            status = PrintJob.objects.values_list("status", flat=True).get(pk=job.pk)
            if began is None and status != PrintJob.Status.QUEUED:
                began = time.perf_counter() - start
            if status in (PrintJob.Status.DONE, PrintJob.Status.FAILED):
                break
            time.sleep(0.02)
        seconds = time.perf_counter() - start
        job.refresh_from_db()
        assert job.status == PrintJob.Status.DONE, job.error
    finally:
        worker.terminate()
        worker.wait()
    data = bytes(job.pdf)
    return {"s": seconds, "request": request, "began": began, "worker": ready,
            "pages": len(PdfReader(io.BytesIO(data)).pages), "kb": len(data) / 1024}  # fmt: skip


if __name__ == "__main__":
    main()
