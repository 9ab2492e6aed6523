"""PDF rendering with WeasyPrint. Every PDF comes from :func:`html_to_pdf`.

``render_pdf(template_name, context)`` is the whole path for one document. The print jobs of
:mod:`tournament.printing` split it in two so they can hash the HTML first (to serve an unchanged
document again): :func:`render_html_chunks`, then :func:`pdf_from_chunks`, which converts a large
batch (a round's score sheets for 100 tables) in a pool of worker processes, one per core, and
joins the parts: WeasyPrint's layout is single-threaded.

What makes a page cheap (``bench/print_speed.py`` measures it): what every page shares is laid
out and drawn once (:func:`_lay_over_backgrounds`), and a page that differs from the others only
in its text is not laid out at all: a document may carry its pages' text as drawing items
(:mod:`tournament.printing.draw`, in a ``<script id="pdf-overlay">`` WeasyPrint does not show), which
are drawn straight over the shared background.
"""

from __future__ import annotations

import functools
import io
import json
import multiprocessing
import os
import re
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

import pydyf
from django.conf import settings
from django.template.loader import render_to_string

from tournament.printing import draw

_pool: ProcessPoolExecutor | None = None


OVERLAY = re.compile(r'<script id="pdf-overlay" type="application/json">(.*?)</script>', re.DOTALL)


def html_to_pdf(html: str) -> bytes:
    """Lay out ``html`` (static files resolved from the project folder) as PDF bytes.

    Pages can share a drawn background, and pages can be drawn over it rather than laid out (see
    :func:`_lay_over_backgrounds`).
    """
    # WeasyPrint is imported where a PDF is made: loading it takes a second or two, which a server
    # process that never prints should not pay at start-up.
    from weasyprint import HTML

    found = OVERLAY.search(html)
    drawn = json.loads(found.group(1)) if found else None
    return HTML(string=html, base_url=str(settings.BASE_DIR), url_fetcher=_fetcher()).write_pdf(
        finisher=functools.partial(_lay_over_backgrounds, drawn=drawn)
    )


QR = "qr:"


def qr_image(url: str) -> str:
    """The ``src`` of an image of ``url``'s QR code. The code is made while the PDF is laid out
    (in a worker, for a large batch) rather than while its HTML is written: a round of 1,000
    tables has 1,000 to make."""
    return QR + url


@functools.lru_cache(maxsize=2048)
def qr_png(url: str) -> str:
    """The QR code of ``url`` (error correction M, as :func:`tournament.play.links.qr_svg`) as a
    ``data:`` URL of a PNG of a pixel a module; the page prints it with ``image-rendering:
    pixelated``. It draws far faster than the SVG; a table's link does not change, so a worker
    printing the next round's sheets has it already."""
    import segno

    return segno.make(url, error="m").png_data_uri(scale=1, border=2)


def _fetcher() -> Any:
    """What WeasyPrint may read (the app's static files and ``data:`` URLs), and QR codes: a
    fetcher a document, since a fetcher keeps state while it fetches."""
    return _fetcher_class()()


@functools.cache
def _fetcher_class() -> type:
    from tournament.printing.fetch import AppFilesOnly

    class Fetcher(AppFilesOnly):
        def fetch(self, url: str, headers: dict | None = None) -> object:
            if url.startswith(QR):
                return super().fetch(qr_png(url.removeprefix(QR)), headers)
            return super().fetch(url, headers)

    return Fetcher


BACKGROUND = "background-"
OVER = "over-"
SLOT = "slot-"


def _lay_over_backgrounds(document: Any, pdf: Any, drawn: dict[str, Any] | None = None) -> None:
    """Draw each background once and under every page that asks for it.

    A page holding an element ``id="background-KEY"`` is not printed: its drawing becomes a
    content stream shared by every page holding an element ``id="over-KEY-N"``, drawn under that
    page's own. A document of many pages that differ only in their text (score sheets) lays out
    and draws its lines, shading and labels once instead of on every page.

    ``drawn`` holds more such pages, not laid out but drawn (``{"over": KEY, "n": N, "items":
    [...]}``, see :func:`tournament.printing.draw.overlay`): their items are placed from the
    background's elements ``id="slot-KEY-NAME"``, and from ``page-end``, the page's bottom-right
    corner. The pages are put in the order of their N.
    """
    numbers = pdf.pages["Kids"][0::3]  # the page tree lists its kids as "N 0 R" triples
    pages = [pdf.objects[number] for number in numbers]
    backgrounds: dict[str, tuple[Any, Any]] = {}
    over: list[tuple[Any, str]] = []
    kept: list[tuple[int, int]] = []  # (place, page object number)
    for index, (number, page, laid_out) in enumerate(zip(numbers, pages, document.pages, strict=True)):
        names = list(laid_out.anchors)
        if key := next((n.removeprefix(BACKGROUND) for n in names if n.startswith(BACKGROUND)), None):
            backgrounds[key] = (page, laid_out)
            continue
        place = index
        if name := next((n.removeprefix(OVER) for n in names if n.startswith(OVER)), None):
            key, place = name.rsplit("-", 1)
            over.append((page, key))
        kept.append((int(place), number))
    if not backgrounds:
        return
    save, restore = pydyf.Stream([b"q"]), pydyf.Stream([b"Q"])
    pdf.add_object(save)
    pdf.add_object(restore)
    for page, key in over:
        page["Contents"] = pydyf.Array([save.reference, backgrounds[key][0]["Contents"], restore.reference,
                                        page["Contents"]])  # fmt: skip
    if drawn:
        kept += _draw_pages(pdf, backgrounds, drawn, (save, restore))
    kept.sort()
    pdf.pages["Kids"] = pydyf.Array([part for _, number in kept for part in (number, 0, "R")])
    pdf.pages["Count"] = len(kept)
    names = pdf.catalog.get("Names", {}).get("Dests", {}).get("Names")
    if names is not None:  # the layers' ids are not places a reader would go to
        pairs = zip(names[0::2], names[1::2], strict=True)
        names[:] = [part for name, dest in pairs if not _is_layer(name) for part in (name, dest)]


def _draw_pages(
    pdf: Any, backgrounds: dict[str, tuple[Any, Any]], drawn: dict[str, Any], brackets: tuple[Any, Any]
) -> list[tuple[int, int]]:
    """Add the ``drawn`` pages to ``pdf`` (not yet to its page tree): (place, object number) each."""
    save, restore = brackets
    first = backgrounds[drawn["pages"][0]["over"]][0]
    styles = {name: draw.Style(**style) for name, style in drawn["styles"].items()}
    drawing = draw.Drawing(page_height=float(first["MediaBox"][3]), styles=styles)
    slots: dict[str, dict[str, tuple[float, float]]] = {}
    for key, (_, laid_out) in backgrounds.items():
        prefix = f"{SLOT}{key}-"
        slots[key] = {name.removeprefix(prefix): (x * draw.PX, y * draw.PX)
                      for name, (x, y, *_) in laid_out.anchors.items() if name.startswith(prefix)}  # fmt: skip
        slots[key]["page-end"] = (laid_out.width * draw.PX, laid_out.height * draw.PX)
    made = []
    for spec in drawn["pages"]:
        background = backgrounds[spec["over"]][0]
        content = pydyf.Stream([drawing.page(spec["items"], slots[spec["over"]])], compress=True)
        pdf.add_object(content)
        page = pydyf.Dictionary({key: value for key, value in background.items() if key != "Contents"})
        page["Contents"] = pydyf.Array([save.reference, background["Contents"], restore.reference, content.reference])
        pdf.add_object(page)
        made.append((spec["n"], page))
    resources = drawing.resources(pdf, draw.resolve(pdf, first["Resources"]))
    for _, page in made:
        page["Resources"] = resources
    return [(place, page.number) for place, page in made]


def _is_layer(name: Any) -> bool:
    text = getattr(name, "string", "")
    return text.startswith((BACKGROUND, OVER, SLOT))


def render_pdf(template_name: str, context: dict[str, Any]) -> bytes:
    """The PDF of ``template_name`` rendered with ``context``."""
    return html_to_pdf(render_to_string(template_name, context))


def render_html_chunks(template_name: str, contexts: Sequence[dict[str, Any]]) -> list[str]:
    """Each context rendered to a complete HTML document (a chunk of the final PDF)."""
    return [render_to_string(template_name, context) for context in contexts]


WORKERS = max(1, min(os.cpu_count() or 1, 4))
SMALL_BATCH = 12
CHUNK_PAGES = 100


def chunk_size(pages: int) -> int:
    """Pages per chunk: a small batch in one piece (no pool overhead); a large one in at least
    one chunk a worker and at most ``CHUNK_PAGES`` a chunk, so that a worker's memory stays
    bounded and the progress bar moves (it moves a chunk at a time)."""
    if pages <= SMALL_BATCH:
        return max(1, pages)
    chunks = max(WORKERS, -(-pages // CHUNK_PAGES))
    return -(-pages // chunks)


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
        context.set_forkserver_preload(["weasyprint", "fontTools.subset"])
        _pool = ProcessPoolExecutor(max_workers=WORKERS, mp_context=context)
    return _pool


# --- placing text in fixed columns ---------------------------------------------------------------
# A line of text lays out many times faster in WeasyPrint than a box per cell. Its texts are put
# in their columns by the spaces between them, whose widths (and the texts') come from the font
# file itself. Set such a line with ``white-space: pre; font-kerning: none`` so that the font's
# advance widths are the whole story. (Tab stops would be simpler, but WeasyPrint's come out
# about 2% wider than the tab size asked for.) A page that is drawn rather than laid out
# (:mod:`tournament.printing.draw`) puts each text at its place itself.

SPACES = "\u2007\u2002\u0020\u2009\u2006\u200a"  # figure, en, space, thin, six-per-em, hair


def text_width(text: str, size: float, *, bold: bool = False, kern: bool = False) -> float:
    """The width of ``text`` in the font at ``size`` points, in millimetres; with ``kern``, as it
    is set with the font's kerning."""
    return draw.font("bold" if bold else "regular").width(text, size, kern=kern)


def spaced_line(texts: Sequence[tuple[float, str]], size: float, *, bold: bool = False) -> str:
    """One line holding each ``(x, text)``'s text ``x`` millimetres from the line's start (to
    within a twentieth of an em), in order, with spaces between; a text that would overlap the
    one before it follows it after a space."""
    em = size * 25.4 / 72
    face = draw.font("bold" if bold else "regular")
    at, out = 0.0, []
    for x, text in texts:
        gap = max((x - at) / em, face.advance(" ") if out else 0.0)
        for space in SPACES:
            width = face.advance(space)
            count = int(gap / width + (0.5 if space == SPACES[-1] else 0))
            out.append(space * count)
            gap -= count * width
            at += count * width * em
        out.append(text)
        at += text_width(text, size, bold=bold)
    return "".join(out)
