"""A round's score sheets as one PDF at 10, 100 and 1,000 tables: seconds, pages a second and
peak memory, beside the figures of the hand-written PDF engine it replaced.

The sheets are made as a print job makes them (``score_sheets``, ``pdf.render_html_chunks``,
``pdf.pdf_from_chunks``): each table's text drawn with ReportLab over a background WeasyPrint lays
out once a chunk, laid over it with pikepdf, the chunks one after another in one process.

Each figure is cold (no cached PDF or QR code) and runs in a process of its own, forked from this
one: from the request (reading the round) to the finished PDF. The libraries are loaded first, as
a worker that has printed before has them (what loading them costs a new worker is printed once).
Peak memory is that process's (``resource.getrusage``, its high-water mark reset when it starts).
The machine is shared, so the load average is printed beside the figures and each size runs
``--repeat`` times (the range is printed).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import resource
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
django.setup()
from django.db import connections  # noqa: E402
from sheet_figures import HAND_WRITTEN, HAND_WRITTEN_WHEN, TARGETS  # noqa: E402

from tournament.formats.progressive.simulation import create_progressive  # noqa: E402
from tournament.models import Round, Tournament  # noqa: E402
from tournament.play.rounds import start_round  # noqa: E402
from tournament.printing import pdf  # noqa: E402
from tournament.printing.sheets import blank_sheet, score_sheets  # noqa: E402
from tournament.simulation.play import play_game  # noqa: E402
from tournament.simulation.scratch import throwaway_database  # noqa: E402


def played_round(tables: int) -> Round:
    """Round 1 of an event with ``tables`` tables, every game played to its end."""
    tournament = create_progressive(couples=2 * tables, rounds=2, seed=1)
    round_ = tournament.rounds.get(number=1)
    start_round(round_=round_)
    rng = random.Random(1)
    for game in round_.games.select_related("round__tournament", "table"):
        play_game(game, rng)
    return round_


def peak_mb() -> float:
    """This process's peak resident memory in MB (Linux counts ``ru_maxrss`` in KB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def load_libraries() -> float:
    """Seconds to load what printing needs, by making a blank score sheet (a drawn page)."""
    start = time.perf_counter()
    import segno  # noqa: F401 (what makes the QR codes, which a blank sheet has none of)

    document = blank_sheet(Tournament.objects.order_by("pk").first())
    pdf.pdf_from_chunks(pdf.render_html_chunks(document.template, document.contexts))
    return time.perf_counter() - start


def measure(round_: Round) -> dict[str, float]:
    """One figure, in the process forked for it (:func:`in_new_process`), the libraries loaded and
    its peak memory reset, so that the figure is the sheets' alone."""
    load_libraries()
    Path("/proc/self/clear_refs").write_text("5")  # the high-water mark starts again from here
    cpu = time.process_time()
    start = time.perf_counter()
    steps: list[float] = []
    document = score_sheets(round_)
    chunks = pdf.render_html_chunks(document.template, document.contexts)
    html = time.perf_counter() - start
    data = pdf.pdf_from_chunks(chunks, on_progress=lambda done: steps.append(time.perf_counter() - start))
    seconds = time.perf_counter() - start
    return {"s": seconds, "cpu": time.process_time() - cpu, "html": html, "first": steps[0], "steps": len(steps),
            "kb": len(data) / 1024, "peak": peak_mb()}  # fmt: skip


def in_new_process(work: object, *args: object) -> object:
    """``work(*args)`` in a new process, forked from this one for it alone. The database
    connections are closed first, so that each process opens its own (SQLite's in-memory database
    stays open, and the new process has a copy of it)."""
    connections.close_all()
    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("fork")) as one:
        return one.submit(work, *args).result()


def spread(values: list[float], fmt: str) -> str:
    low, high = min(values), max(values)
    return format(low, fmt) if f"{low:{fmt}}" == f"{high:{fmt}}" else f"{low:{fmt}}–{high:{fmt}}"


def report(tables: int, runs: list[dict[str, float]]) -> None:
    seconds = [r["s"] for r in runs]
    print(
        f"  {tables:>5} tables: {spread(seconds, '.2f')} s, CPU {spread([r['cpu'] for r in runs], '.2f')} s "
        f"({spread([tables / s for s in seconds], '.0f')} pages/s; HTML {spread([r['html'] for r in runs], '.2f')} s; "
        f"{runs[0]['steps']:.0f} progress steps, first at {spread([r['first'] for r in runs], '.1f')} s), "
        f"{runs[0]['kb']:,.0f} KB; peak memory {spread([r['peak'] for r in runs], ',.0f')} MB"
    )
    if tables in TARGETS:
        met = "met" if max(seconds) <= TARGETS[tables] else "MISSED"
        if met == "MISSED" and os.getloadavg()[0] > (os.cpu_count() or 1):
            met += " on a busy machine (others' work is in the wall time: see CPU)"
        print(f"         target ≤ {TARGETS[tables]:.0f} s: {met}")
    if tables in HAND_WRITTEN:
        print(f"         {HAND_WRITTEN_WHEN}: {HAND_WRITTEN[tables]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[10, 100, 1000])
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    load = os.getloadavg()[0]
    print(f"printing: score sheets, a page a table, drawn with ReportLab over WeasyPrint's background"
          f" (Python {sys.version.split()[0]}, {os.cpu_count()} cores, load average {load:.1f})")  # fmt: skip
    with throwaway_database():
        for index, tables in enumerate(args.tables):
            round_ = played_round(tables)
            if index == 0:
                print(f"  a new worker's first PDF loads the libraries: {in_new_process(load_libraries):.2f} s once")
            report(tables, [in_new_process(measure, round_) for _ in range(args.repeat)])
    print(f"  (load average at the end {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
