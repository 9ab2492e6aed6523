"""PDF rendering with WeasyPrint. Every PDF comes from :func:`html_to_pdf`.

``render_pdf(template_name, context)`` is the whole path for one document. The print jobs of
:mod:`tournament.printing` split it in two so they can hash the HTML first (to serve an unchanged
document again): :func:`render_html_chunks`, then :func:`pdf_from_chunks`, which converts a large
batch (a round's score sheets for 100 tables) in a pool of worker processes, one per core, and
joins the parts: WeasyPrint's layout is single-threaded and costs ~0.1 s a page here.
"""

from __future__ import annotations

import io
import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string

_pool: ProcessPoolExecutor | None = None


def html_to_pdf(html: str) -> bytes:
    """Lay out ``html`` (static files resolved from the project folder) as PDF bytes."""
    from weasyprint import HTML

    from tournament.pdf_fetch import AppFilesOnly

    return HTML(string=html, base_url=str(settings.BASE_DIR), url_fetcher=AppFilesOnly()).write_pdf()


def render_pdf(template_name: str, context: dict[str, Any]) -> bytes:
    """The PDF of ``template_name`` rendered with ``context``."""
    return html_to_pdf(render_to_string(template_name, context))


def render_html_chunks(template_name: str, contexts: Sequence[dict[str, Any]]) -> list[str]:
    """Each context rendered to a complete HTML document (a chunk of the final PDF)."""
    return [render_to_string(template_name, context) for context in contexts]


WORKERS = max(1, min(os.cpu_count() or 1, 4))
SMALL_BATCH = 12


def chunk_size(pages: int) -> int:
    """Pages per chunk: a small batch in one piece (no pool overhead); a large one in one chunk
    a worker, since each chunk pays again for styles and fonts. Measured on two cores: 100
    sheets in 2, 4 and 10 chunks took 8.3, 9.3 and 11.3 s. The progress bar moves a chunk at
    a time."""
    if pages <= SMALL_BATCH:
        return max(1, pages)
    return -(-pages // WORKERS)


def pdf_from_chunks(chunks: Sequence[str], on_progress: Callable[[int], None] | None = None) -> bytes:
    """Convert HTML chunks to one PDF, in worker processes when there is more than one chunk.

    ``on_progress(done)`` is called as chunks finish, with how many are done so far.
    """
    if len(chunks) == 1:
        pdf = html_to_pdf(chunks[0])
        if on_progress:
            on_progress(1)
        return pdf
    futures = {_workers().submit(html_to_pdf, chunk): index for index, chunk in enumerate(chunks)}
    parts: dict[int, bytes] = {}
    for future in as_completed(futures):
        parts[futures[future]] = future.result()
        if on_progress:
            on_progress(len(parts))
    return join_pdfs([parts[i] for i in range(len(chunks))])


def join_pdfs(parts: Sequence[bytes]) -> bytes:
    from pypdf import PdfWriter

    writer = PdfWriter()
    for part in parts:
        writer.append(io.BytesIO(part))
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _workers() -> ProcessPoolExecutor:
    """A pool kept for the life of the process; its workers are forked from a server that has
    WeasyPrint loaded already, so a batch does not pay for importing it."""
    global _pool
    if _pool is None:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["weasyprint"])
        _pool = ProcessPoolExecutor(max_workers=WORKERS, mp_context=context)
    return _pool
