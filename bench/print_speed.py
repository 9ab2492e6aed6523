"""A round's score sheets as one PDF at 10, 100 and 1,000 tables: seconds, pages a second and
peak memory, the naive render beside the one in use, in the same run.

- naive: the sheet as the app first drew it, an HTML table laid out on every page
  (``bench/naive_score_sheets.html``, with its inline SVG QR code), in one chunk a worker;
- layered: the app's sheet, its background (lines, shading, labels) laid out by WeasyPrint once a
  chunk and each table's text drawn straight over it, not laid out (``tournament/printing/draw.py``,
  ``templates/print/score_sheets.html``), in the app's chunks.

Each figure is cold (no cached PDF or QR code) and runs in a process of its own, forked from this
one: the sheets' data and HTML in that process, PDF layout in its worker pool (the app keeps one
for the life of a process, so a new process has a new pool, and its peak memory is that figure's),
joining. CPU is that process's and its workers' together: on two idle cores the wall time would
be about the HTML time plus half the rest. The machine is shared, so the load average is printed
beside the figures and each size runs ``--repeat`` times (the range is printed). The naive render
of 1,000 tables is left out: it takes minutes (the 100-table rate tells what it would be).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
django.setup()
from django.db import connections  # noqa: E402
from django.template import engines  # noqa: E402

from tournament.formats.progressive.simulation import create_progressive  # noqa: E402
from tournament.models import Round  # noqa: E402
from tournament.play.links import qr_svg  # noqa: E402
from tournament.play.rounds import start_round  # noqa: E402
from tournament.printing import pdf  # noqa: E402
from tournament.printing.documents import Document  # noqa: E402
from tournament.printing.sheets import score_sheets  # noqa: E402
from tournament.simulation.play import play_game  # noqa: E402
from tournament.simulation.scratch import throwaway_database  # noqa: E402

NAIVE = Path(__file__).with_name("naive_score_sheets.html")


def played_round(tables: int) -> Round:
    """Round 1 of an event with ``tables`` tables, every game played to its end."""
    tournament = create_progressive(couples=2 * tables, rounds=2, seed=1)
    round_ = tournament.rounds.get(number=1)
    start_round(round_=round_)
    rng = random.Random(1)
    for game in round_.games.select_related("round__tournament", "table"):
        play_game(game, rng)
    return round_


def peak_mb(pid: int | str = "self") -> float:
    """The process's peak resident memory (VmHWM) in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def pdf_workers() -> list[int]:
    """The process ids of the PDF worker pool: every process this one started (the app starts its
    pool when it first lays out a PDF in several chunks)."""
    return [worker.pid for worker in multiprocessing.active_children()]


def workers_peak_mb() -> float:
    return max((peak_mb(pid) for pid in pdf_workers()), default=0.0)


def cpu_seconds() -> float:
    """CPU time used so far by this process and the worker pool's processes."""
    ticks = os.sysconf("SC_CLK_TCK")
    workers = sum(
        sum(map(int, Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[11:13])) for pid in pdf_workers()
    )
    return time.process_time() + workers / ticks


def naive_chunks(document: Document) -> list[str]:
    """The same sheets through the naive template, a chunk a worker (as the app first did)."""
    template = engines["django"].from_string(NAIVE.read_text())
    sheets = [
        {**sheet, "qr": qr_svg(sheet["url"], scale=3) if sheet["url"] else ""}
        for context in document.contexts
        for sheet in context["sheets"]
    ]
    size = max(1, -(-len(sheets) // pdf.WORKERS)) if len(sheets) > pdf.SMALL_BATCH else len(sheets)
    base = document.contexts[0]
    return [template.render({**base, "sheets": sheets[i : i + size]}) for i in range(0, len(sheets), size)]


def measure(round_: Round, *, naive: bool) -> dict[str, float]:
    """One figure, in the process forked for it (:func:`measure_cold`): its worker pool started and
    warmed first (a running server's pool has rendered before), and its peak memory reset, so that
    both peaks belong to the figure alone. Its workers are ended after, so that it can exit: the
    app keeps its pool for the life of the process, and a process waits for its children."""
    try:
        pdf.pdf_from_chunks(["<p>warm</p>", "<p>up</p>"])
        Path("/proc/self/clear_refs").write_text("5")
        cpu = cpu_seconds()
        start = time.perf_counter()
        steps: list[float] = []
        document = score_sheets(round_)
        chunks = naive_chunks(document) if naive else pdf.render_html_chunks(document.template, document.contexts)
        html = time.perf_counter() - start
        data = pdf.pdf_from_chunks(chunks, on_progress=lambda done: steps.append(time.perf_counter() - start))
        seconds = time.perf_counter() - start
        return {"s": seconds, "cpu": cpu_seconds() - cpu, "html": html, "first": steps[0], "steps": len(steps),
                "kb": len(data) / 1024, "here": peak_mb(), "worker": workers_peak_mb()}  # fmt: skip
    finally:
        for worker in multiprocessing.active_children():
            worker.terminate()


def measure_cold(round_: Round, *, naive: bool) -> dict[str, float]:
    """:func:`measure` in a new process, forked from this one for the figure alone. The database
    connections are closed first, so that each process opens its own (SQLite's in-memory database
    stays open, and the new process has a copy of it)."""
    connections.close_all()
    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("fork")) as one:
        return one.submit(measure, round_, naive=naive).result()


def spread(values: list[float], fmt: str) -> str:
    low, high = min(values), max(values)
    return format(low, fmt) if f"{low:{fmt}}" == f"{high:{fmt}}" else f"{low:{fmt}}–{high:{fmt}}"


def report(tables: int, name: str, runs: list[dict[str, float]]) -> None:
    seconds = [r["s"] for r in runs]
    print(
        f"  {tables:>5} tables, {name:7}: {spread(seconds, '.2f')} s, CPU {spread([r['cpu'] for r in runs], '.2f')} s "
        f"({spread([tables / s for s in seconds], '.0f')} pages/s; HTML {spread([r['html'] for r in runs], '.2f')} s; "
        f"{runs[0]['steps']:.0f} progress steps, first at {spread([r['first'] for r in runs], '.1f')} s), "
        f"{runs[0]['kb']:,.0f} KB; peak memory {spread([r['here'] for r in runs], ',.0f')} MB here, "
        f"{spread([r['worker'] for r in runs], ',.0f')} MB in a worker"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[10, 100, 1000])
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    print(f"printing: score sheets, a page a table (Python {sys.version.split()[0]}, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f})")  # fmt: skip
    with throwaway_database():
        for tables in args.tables:
            round_ = played_round(tables)
            kinds = ("layered",) if tables > 100 else ("naive", "layered")
            results: dict[str, list[dict[str, float]]] = {kind: [] for kind in kinds}
            for _ in range(args.repeat):
                for kind in kinds:  # interleaved, so that a burst of load falls on both
                    results[kind].append(measure_cold(round_, naive=kind == "naive"))
            for kind in kinds:
                report(tables, kind, results[kind])
            if "naive" in results:
                ratio = min(r["s"] for r in results["naive"]) / min(r["s"] for r in results["layered"])
                print(f"  {tables:>5} tables: the layered sheets take 1/{ratio:.1f} of the naive time")
    print(f"  (load average at the end {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
