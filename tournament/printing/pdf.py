"""PDF rendering: WeasyPrint lays out HTML, ReportLab draws what needs no layout, pikepdf puts
them together. Every PDF comes from :func:`html_to_pdf`.

``render_pdf(template_name, context)`` is the whole path for one document. The print jobs of
:mod:`tournament.printing` split it in two so they can hash the HTML first (to serve an unchanged
document again): :func:`render_html_chunks`, then :func:`pdf_from_chunks`, which converts a large
batch (a round's score sheets for 100 tables) a chunk at a time, reporting progress, and joins
the parts.

What makes a page cheap (``bench/print_speed.py`` measures it): what every page shares is laid
out and drawn once (:func:`_lay_over_backgrounds`), and a page that differs from the others only
in its text is not laid out at all: a document may carry its pages' text as drawing items
(:mod:`tournament.printing.draw`, in a ``<script id="pdf-overlay">`` WeasyPrint does not show), which
ReportLab draws and pikepdf lays over the shared background.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import io
import json
import re
from collections.abc import Callable, Sequence
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string

from tournament.printing import draw

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
    document = HTML(string=html, base_url=str(settings.BASE_DIR), url_fetcher=_fetcher()).render()
    return _lay_over_backgrounds(document.write_pdf(), document.pages, drawn)


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


def _lay_over_backgrounds(data: bytes, laid_out: Sequence[Any], drawn: dict[str, Any] | None) -> bytes:
    """``data`` (the PDF of the laid-out pages ``laid_out``) with each background drawn once and
    under every page that asks for it.

    A page holding an element ``id="background-KEY"`` is not printed: it becomes a form (drawn
    once, kept once in the PDF) under every page holding an element ``id="over-KEY-N"``. A
    document of many pages that differ only in their text (score sheets) lays out and draws its
    lines, shading and labels once instead of on every page.

    ``drawn`` holds more such pages, not laid out but drawn with ReportLab (``{"over": KEY, "n": N,
    "items": [...]}``, see :func:`tournament.printing.draw.overlay`): their items are placed from the
    background's elements ``id="slot-KEY-NAME"``, and from ``page-end``, the page's bottom-right
    corner. The pages are put in the order of their N.

    Raises ``ValueError`` if a page, laid out or drawn, is over a background no page of ``data`` is.
    """
    import pikepdf

    backgrounds: dict[str, int] = {}  # key: the background's page
    kept: list[tuple[int, int, str | None]] = []  # (place, page, the background under it)
    for index, page in enumerate(laid_out):
        names = list(page.anchors)
        if key := next((n.removeprefix(BACKGROUND) for n in names if n.startswith(BACKGROUND)), None):
            backgrounds[key] = index
            continue
        place, key = index, None
        if name := next((n.removeprefix(OVER) for n in names if n.startswith(OVER)), None):
            key, place = name.rsplit("-", 1)
        kept.append((int(place), index, key))
    wanted = {key for *_, key in kept if key is not None} | {spec["over"] for spec in (drawn["pages"] if drawn else ())}
    if missing := sorted(wanted - backgrounds.keys()):
        # A page over a background that is not there has no size and no slots to be drawn from:
        # printing the rest would lose it without a word.
        raise ValueError(f"The document puts pages over the background {missing[0]!r}, but none of its pages is "
                         f'that background (id="{BACKGROUND}{missing[0]}").')  # fmt: skip
    if not backgrounds:
        return data
    # The PDFs stay open until the result is written: qpdf reads a copied page's streams then.
    with contextlib.ExitStack() as opened:
        source = opened.enter_context(pikepdf.open(io.BytesIO(data)))
        pages = [(place, source.pages[index], key) for place, index, key in kept]
        if drawn:
            layers = opened.enter_context(pikepdf.open(io.BytesIO(_draw_pages(laid_out, backgrounds, drawn))))
            pages += [(spec["n"], page, spec["over"]) for spec, page in zip(drawn["pages"], layers.pages, strict=True)]
        out = opened.enter_context(pikepdf.new())
        out.docinfo = out.copy_foreign(source.docinfo)
        # Copied once: qpdf copies an object of another PDF once however often it is asked for.
        forms = {key: source.make_indirect(source.pages[index].as_form_xobject()) for key, index in backgrounds.items()}
        for _, page, key in sorted(pages, key=lambda placed: placed[0]):
            out.pages.append(page)
            if key is not None:
                out.pages[-1].add_underlay(out.copy_foreign(forms[key]))
        written = io.BytesIO()
        out.save(written)
    return written.getvalue()


SUBSET_TAG = re.compile(r"/[A-Z]{6}\+")
FONT_FILES = ("/FontFile2", "/FontFile3", "/FontFile")  # TrueType, CFF/OpenType, Type 1


def _tag_subsets(pdf: Any) -> None:
    """Give each embedded font subset in ``pdf`` (a simple font's, and a Type 0 font's through
    its descendant) a tag made from its glyphs, so that PDFs joined into one never hold two
    different subsets of one name, which a printer may take for one another. Neither writer's
    tags say which glyphs a subset holds: ReportLab tags its subsets AAAAAA+, AAAAAB+ in every PDF
    it writes, WeasyPrint tags a font's subset by the font alone, whatever text it sets."""
    import pikepdf

    for font in pdf.objects:
        if not isinstance(font, pikepdf.Dictionary) or font.get("/Type") != "/Font":
            continue
        composite = font.get("/Subtype") == "/Type0"
        descriptor = (font.DescendantFonts[0] if composite else font).get("/FontDescriptor")
        file = next((descriptor[key] for key in FONT_FILES if key in descriptor), None) if descriptor else None
        if file is None or not SUBSET_TAG.match(str(font.BaseFont)):
            continue  # not embedded, or the whole font
        digest = hashlib.sha256(file.read_bytes()).digest()
        name = pikepdf.Name("/" + "".join(chr(65 + b % 26) for b in digest[:6]) + str(font.BaseFont)[7:])
        font.BaseFont = name
        if not composite:  # the descendant names its descriptor (a Type 0 name may add an encoding)
            descriptor.FontName = name


def _draw_pages(laid_out: Sequence[Any], backgrounds: dict[str, int], drawn: dict[str, Any]) -> bytes:
    """The ``drawn`` pages, each the size of its background, as a PDF of their own."""
    styles = {name: draw.Style(**style) for name, style in drawn["styles"].items()}
    slots: dict[str, draw.Slots] = {}
    sizes: dict[str, tuple[float, float]] = {}
    for key, index in backgrounds.items():
        page, prefix = laid_out[index], f"{SLOT}{key}-"
        slots[key] = {name.removeprefix(prefix): (x * draw.PX, y * draw.PX)
                      for name, (x, y, *_) in page.anchors.items() if name.startswith(prefix)}  # fmt: skip
        sizes[key] = (page.width * draw.PX, page.height * draw.PX)
        slots[key]["page-end"] = sizes[key]
    return draw.draw_pages([(sizes[spec["over"]], spec["items"], slots[spec["over"]]) for spec in drawn["pages"]],
                           styles)  # fmt: skip


def render_pdf(template_name: str, context: dict[str, Any]) -> bytes:
    """The PDF of ``template_name`` rendered with ``context``."""
    return html_to_pdf(render_to_string(template_name, context))


def render_html_chunks(template_name: str, contexts: Sequence[dict[str, Any]]) -> list[str]:
    """Each context rendered to a complete HTML document (a chunk of the final PDF)."""
    return [render_to_string(template_name, context) for context in contexts]


SMALL_BATCH = 12
CHUNK_PAGES = 100
LEAST_CHUNKS = 2  # so that a large batch's progress bar moves before it is done


def chunk_size(pages: int) -> int:
    """Pages per chunk: a small batch in one piece; a large one in at least ``LEAST_CHUNKS``
    chunks and at most ``CHUNK_PAGES`` a chunk, so that the memory a chunk takes stays bounded
    and the progress bar moves (it moves a chunk at a time)."""
    if pages <= SMALL_BATCH:
        return max(1, pages)
    chunks = max(LEAST_CHUNKS, -(-pages // CHUNK_PAGES))
    return -(-pages // chunks)


CHUNK_ITEMS = 100  # lines of a document printed in a run (slips, standings): at most this many a chunk


def split(items: Sequence[Any], most: int) -> list[list[Any]]:
    """``items`` in as few chunks of at most ``most`` as will do, of sizes differing by one at
    most (so the last chunk is not a stub); one empty chunk for no items (the document still
    prints its heading)."""
    if not items:
        return [[]]
    count = -(-len(items) // max(1, most))
    size, longer = divmod(len(items), count)  # the first ``longer`` chunks take one item more
    ends = [(n + 1) * size + min(n + 1, longer) for n in range(count)]
    return [list(items[end - size - (n < longer) : end]) for n, end in enumerate(ends)]


def pdf_from_chunks(chunks: Sequence[str], on_progress: Callable[[int], None] | None = None) -> bytes:
    """Convert HTML chunks to one PDF, a chunk after another.

    ``on_progress(done)`` is called as chunks finish, with how many are done so far.
    """
    parts = []
    for chunk in chunks:
        parts.append(html_to_pdf(chunk))
        if on_progress:
            on_progress(len(parts))
    return parts[0] if len(parts) == 1 else join_pdfs(parts)


def join_pdfs(parts: Sequence[bytes]) -> bytes:
    """One PDF of the pages of ``parts`` in order (with the first part's title and author), each
    font subset in it named by its glyphs (see :func:`_tag_subsets`)."""
    import pikepdf

    with contextlib.ExitStack() as opened:
        out = opened.enter_context(pikepdf.new())
        for part in parts:
            source = opened.enter_context(pikepdf.open(io.BytesIO(part)))
            _tag_subsets(source)
            if not out.pages:
                out.docinfo = out.copy_foreign(source.docinfo)
            out.pages.extend(source.pages)
        written = io.BytesIO()
        out.save(written)
    return written.getvalue()


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
