"""A round's score sheets as one PDF, for 10 and for 100 tables: seconds and peak memory.

Measured cold (no cached PDF): HTML rendering in this process, PDF layout in the worker pool,
joining. Peak memory is this process's and the largest worker's resident size.
"""

from __future__ import annotations

import os
import resource
import sys
import time

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
django.setup()

from tournament import pdf, printing  # noqa: E402
from tournament.scratch import throwaway_database  # noqa: E402
from tournament.simulation import create_event  # noqa: E402


def measure(tables: int) -> None:
    tournament = create_event(couples=2 * tables, rounds=2, seed=1)
    round_ = tournament.rounds.get(number=1)
    start = time.perf_counter()
    document = printing.score_sheets(round_)
    chunks = pdf.render_html_chunks(document.template, document.contexts)
    html_seconds = time.perf_counter() - start
    data = pdf.pdf_from_chunks(chunks)
    seconds = time.perf_counter() - start
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"  {tables:>3} tables: {seconds:5.2f} s ({tables / seconds:4.1f} pages/s; HTML {html_seconds:.2f} s), "
          f"{len(data) / 1024:,.0f} KB; peak memory {own:,.0f} MB here, {workers:,.0f} MB in a worker")  # fmt: skip


def main() -> None:
    print(f"printing: score sheets, one page a table (Python {sys.version.split()[0]}, {os.cpu_count()} cores)")
    with throwaway_database():
        # A running server has rendered before: warm this process and the worker pool.
        pdf.html_to_pdf("<p>warm</p>")
        pdf.pdf_from_chunks(["<p>warm</p>", "<p>up</p>"])
        for tables in (10, 100):
            measure(tables)


if __name__ == "__main__":
    main()
