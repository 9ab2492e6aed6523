"""Pages drawn with ReportLab over a background WeasyPrint laid out once (see
:func:`tournament.printing.pdf.html_to_pdf`): lines of text in the app's font, boxes and QR codes, each
at a place measured from a *slot* (an element of the background page, found by its id).

Laying out a page of text in WeasyPrint costs tens of milliseconds; drawing its lines with ReportLab
costs a few. The text is set as WeasyPrint sets it (the font's advance widths and kerning, its
ascent and descent placing the baseline in a line box), so a drawn page looks like a laid-out one,
and it is measured (:meth:`Font.width`, :meth:`Font.wrap`) as it is drawn. It sets only what needs
no shaping: :meth:`Font.can_set` says whether a text is such (every character in the font, none
right-to-left or combining); a page with other text is left to WeasyPrint.

Measures are millimetres from the slot's top-left corner, sizes in points.
"""

from __future__ import annotations

import functools
import io
import itertools
import threading
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.staticfiles import finders

# The app's font, shipped with it (static/fonts/, the CSS family "Spades Sans" of print/base.html):
# the same file wherever the app runs. ReportLab embeds the glyphs a PDF uses, and no others.
FONT_FILES = {"regular": "fonts/DejaVuSans.ttf", "bold": "fonts/DejaVuSans-Bold.ttf",
              "italic": "fonts/DejaVuSans-Oblique.ttf"}  # fmt: skip
STYLES = tuple(FONT_FILES)
PT = 72 / 25.4  # points a millimetre
PX = 0.75  # points a CSS pixel
TEXT_COLOR = "#111"  # the documents' text colour (print/base.html)
SIMPLE_BIDI = {"L", "EN", "ES", "ET", "CS", "ON", "WS", "B", "S", "BN"}


@dataclass(frozen=True)
class Font:
    """The app's font in one style, registered with ReportLab as ``name``: its characters, its
    kerning pairs (em) and its ascent and descent (em, as Pango takes them from the hhea table)."""

    name: str
    characters: frozenset[str]
    kerning: dict[tuple[str, str], float]
    ascent: float
    descent: float  # positive

    def can_set(self, text: str) -> bool:
        """Whether ``text`` draws as it would lay out: every character in the font, and none that
        needs shaping (right-to-left text, combining marks)."""
        return all(
            c in self.characters and not unicodedata.combining(c) and unicodedata.bidirectional(c) in SIMPLE_BIDI
            for c in text
        )

    def advance(self, c: str) -> float:
        """The advance width of ``c`` in em (ReportLab's default width for one not in the font)."""
        from reportlab.pdfbase.pdfmetrics import stringWidth

        return stringWidth(c, self.name, 1)

    def runs(self, text: str, size: float, *, kern: bool = True) -> Iterator[tuple[float, str]]:
        """``text`` in runs that ReportLab draws as they are, each with where it starts (points from
        the text's start): a run ends where a kerning pair moves the next character."""
        from reportlab.pdfbase.pdfmetrics import stringWidth

        start, at = 0, 0.0
        for i, pair in enumerate(itertools.pairwise(text), start=1):
            adjust = self.kerning.get(pair, 0.0) if kern else 0.0
            if adjust:
                yield at, text[start:i]
                at += stringWidth(text[start:i], self.name, size) + adjust * size
                start = i
        yield at, text[start:]

    def width(self, text: str, size: float, *, kern: bool = True) -> float:
        """The advance width of ``text`` at ``size`` points as it is drawn, in millimetres."""
        from reportlab.pdfbase.pdfmetrics import stringWidth

        points = stringWidth(text, self.name, size)
        if kern:
            points += sum(self.kerning.get(pair, 0.0) for pair in itertools.pairwise(text)) * size
        return points / PT

    def wrap(self, text: str, width: float, size: float) -> list[str]:
        """``text`` broken at spaces into lines at most ``width`` mm wide (a word wider than that
        has a line of its own)."""
        lines: list[str] = []
        line = ""
        for word in text.split(" "):
            candidate = f"{line} {word}" if line else word
            if line and self.width(candidate, size) > width:
                lines.append(line)
                candidate = word
            line = candidate
        return [*lines, line]


@functools.cache
def font(style: str = "regular") -> Font:
    """The app's font in ``style`` (regular, bold, italic), registered with ReportLab."""
    from fontTools.ttLib import TTFont as FontFile
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    path = finders.find(FONT_FILES[style])
    name = f"SpadesSans-{style}"
    pdfmetrics.registerFont(TTFont(name, path))
    # ReportLab neither kerns nor reads the hhea table's ascent (Pango's): fontTools reads both.
    file = FontFile(path, lazy=True)
    units = file["head"].unitsPerEm
    cmap = file.getBestCmap()
    by_glyph: dict[str, list[str]] = {}
    for code, glyph in cmap.items():
        by_glyph.setdefault(glyph, []).append(chr(code))
    kerning: dict[tuple[str, str], float] = {}
    if "kern" in file:
        for table in file["kern"].kernTables:
            for (a, b), value in table.kernTable.items():
                kerning.update({pair: value / units for pair in itertools.product(by_glyph.get(a, ()),
                                                                                   by_glyph.get(b, ()))})  # fmt: skip
    hhea = file["hhea"]
    return Font(name=name, characters=frozenset(map(chr, cmap)), kerning=kerning, ascent=hhea.ascent / units,
                descent=-hhea.descent / units)  # fmt: skip


def can_set(texts: Iterable[str], styles: Iterable[str] = STYLES) -> bool:
    """Whether every one of ``texts`` can be drawn in each of ``styles``."""
    fonts = [font(style) for style in styles]
    return all(f.can_set(t) for f in fonts for t in texts)


# --- what a page holds: JSON-ready items ----------------------------------------------------------


@dataclass(frozen=True)
class Style:
    """How a line of text is set: ``size`` points in ``font`` (regular, bold, italic), each text
    of the line starting, centred or ending at its x (``align``). Its baseline is where a line of
    ``strut`` points (``size`` unless given) has it: smaller text within a line. ``clip`` (x, y,
    width, height from the slot) hides what overflows, as ``overflow: hidden`` does."""

    size: float
    font: str = "regular"
    align: str = "left"
    color: str = TEXT_COLOR
    kern: bool = True
    strut: float | None = None
    clip: tuple[float, float, float, float] | None = None


def text(at: str, y: float, line: float, style: str, *placed: tuple[float, str]) -> list[Any]:
    """A line of text in a line box ``line`` mm high whose top is ``y`` mm below the slot ``at``:
    each ``(x, text)`` at ``x`` mm from the slot, in the document's style named ``style``."""
    return ["text", at, round(y, 3), round(line, 3), style, [[round(x, 3), content] for x, content in placed]]


def box(at: str, x: float, y: float, width: float, height: float, *, border: float, color: str) -> list[Any]:
    """A white box with a ``border`` pt border of ``color`` (inside its width and height)."""
    return ["box", at, round(x, 3), round(y, 3), round(width, 3), round(height, 3), border, color]


def qr(at: str, x: float, y: float, size: float, url: str) -> list[Any]:
    """``url``'s QR code (error correction M, a quiet zone of two modules), ``size`` mm square,
    its modules sharp (as ``image-rendering: pixelated``)."""
    return ["qr", at, x, y, size, url]


def chart(at: str, x: float, y: float, width: float, height: float, svg: str) -> list[Any]:
    """A chart (an ``<svg>`` of :func:`tournament.charts.svg.line_chart`) scaled to fit ``width`` ×
    ``height`` mm, its top-left corner at (x, y)."""
    return ["chart", at, round(x, 3), round(y, 3), round(width, 3), round(height, 3), svg]


def overlay(styles: dict[str, Style], pages: list[dict[str, Any]]) -> dict[str, Any]:
    """What :func:`tournament.printing.pdf.html_to_pdf` draws: ``pages`` (``{"over": KEY, "n": N,
    "items": [...]}``) in ``styles``."""
    return {"styles": {name: vars(style) for name, style in styles.items()}, "pages": pages}


# --- drawing them with ReportLab ----------------------------------------------------------------------


def color(value: str) -> Any:
    """A CSS colour ``#rgb`` or ``#rrggbb`` as ReportLab's (which reads ``#111`` as ``#000111``)."""
    from reportlab.lib.colors import HexColor

    hex_ = value.lstrip("#")
    return HexColor("#" + ("".join(c * 2 for c in hex_) if len(hex_) == 3 else hex_))


# ReportLab cuts a font's subsets from its file when a canvas is saved, reading the file at a position
# the font keeps (one font object a process, :func:`font`): two canvases saved at once in one process
# (renders on two threads) move each other's position and embed broken glyphs. One save at a time.
SUBSETTING = threading.Lock()

Slots = dict[str, tuple[float, float]]  # points from the page's top-left, by slot name


def draw_pages(pages: Sequence[tuple[tuple[float, float], Sequence[list[Any]], Slots]],
               styles: dict[str, Style]) -> bytes:  # fmt: skip
    """A PDF of a page for each ``(size, items, slots)`` (``size`` in points), drawing ``items``.
    Threads of one process may draw at once."""
    from reportlab.pdfgen.canvas import Canvas

    out = io.BytesIO()
    canvas = Canvas(out, pageCompression=1, initialFontName=font().name)  # not Helvetica, unused
    for size, items, slots in pages:
        canvas.setPageSize(size)
        page = _Page(canvas, size[1], styles)
        for kind, at, *rest in items:
            getattr(page, kind)(slots[at], *rest)
        canvas.showPage()
    with SUBSETTING:
        canvas.save()
    return out.getvalue()


@dataclass
class _Page:
    """A page being drawn on ``canvas``: a method for each kind of item, taking the item's slot
    and the item's own values."""

    canvas: Any
    height: float  # points
    styles: dict[str, Style]

    def text(self, slot: tuple[float, float], y: float, line: float, style_name: str,
             placed: list[tuple[float, str]]) -> None:  # fmt: skip
        if not placed:
            return
        style = self.styles[style_name]
        face = font(style.font)
        strut = style.strut or style.size
        top = slot[1] + y * PT
        baseline = self.height - (top + (line * PT - (face.ascent + face.descent) * strut) / 2 + face.ascent * strut)
        self.canvas.saveState()
        if style.clip:
            x, y, width, height = (value * PT for value in style.clip)
            path = self.canvas.beginPath()
            path.rect(slot[0] + x, self.height - slot[1] - y - height, width, height)
            self.canvas.clipPath(path, stroke=0, fill=0)
        runs = []
        for x, content in placed:
            x = slot[0] + x * PT
            if style.align != "left":
                x -= face.width(content, style.size, kern=style.kern) * PT / (2 if style.align == "center" else 1)
            runs += [(x + offset, run) for offset, run in face.runs(content, style.size, kern=style.kern)]
        # Started at its first run, not at the page's corner: a reader copying the text would take
        # a move from the corner for a new line.
        lines = self.canvas.beginText(runs[0][0], baseline)
        lines.setFont(face.name, style.size)
        lines.setFillColor(color(style.color))
        for x, run in runs:
            lines.setTextOrigin(x, baseline)
            lines.textOut(run)
        self.canvas.drawText(lines)
        self.canvas.restoreState()

    def box(self, slot: tuple[float, float], x: float, y: float, width: float, height: float, border: float,
            border_color: str) -> None:  # fmt: skip
        x, width, height = slot[0] + x * PT, width * PT, height * PT
        bottom = self.height - slot[1] - y * PT - height
        canvas = self.canvas
        canvas.saveState()
        canvas.setFillColor(color("#fff"))
        canvas.rect(x, bottom, width, height, stroke=0, fill=1)
        canvas.setStrokeColor(color(border_color))
        canvas.setLineWidth(border)
        canvas.rect(x + border / 2, bottom + border / 2, width - border, height - border, stroke=1, fill=0)  # inside
        canvas.restoreState()

    def qr(self, slot: tuple[float, float], x: float, y: float, size: float, url: str) -> None:
        x, size = slot[0] + x * PT, size * PT
        self.canvas.drawImage(_qr_image(url), x, self.height - slot[1] - y * PT - size, size, size)

    def chart(self, slot: tuple[float, float], x: float, y: float, width: float, height: float, svg: str) -> None:
        from reportlab.graphics import renderPDF

        drawing = _chart_drawing(svg)
        scale = min(width * PT / drawing.width, height * PT / drawing.height)
        canvas = self.canvas
        canvas.saveState()
        canvas.translate(slot[0] + x * PT, self.height - slot[1] - y * PT - drawing.height * scale)
        canvas.scale(scale, scale)
        renderPDF.draw(drawing, canvas, 0, 0)
        canvas.restoreState()


def _chart_drawing(svg: str) -> Any:
    """``svg`` as a ReportLab drawing (svglib), its text in the app's font. A chart carries no
    colour of its own (its classes colour it on a page): it prints in black, ``currentColor``."""
    from svglib.svglib import svg2rlg

    _chart_font()
    return svg2rlg(io.BytesIO(svg.encode()))


@functools.cache
def _chart_font() -> None:
    """Name the app's font to svglib as the family the charts ask for (svglib registers it from its
    file, under a name of its own: :func:`font`'s registration stays as it is)."""
    from svglib.fonts import register_font

    register_font("DejaVu Sans", finders.find(FONT_FILES["regular"]), rlgFontName="SpadesSans-chart")


@functools.lru_cache(maxsize=2048)
def _qr_image(url: str) -> Any:
    """``url``'s QR code as an image of a pixel a module, with a quiet zone of two modules (made
    once a process: a table's link does not change between rounds). A viewer draws its pixels
    sharp: a PDF image is not smoothed unless it asks to be."""
    import segno
    from reportlab.lib.utils import ImageReader

    buffer = io.BytesIO()
    segno.make(url, error="m").save(buffer, kind="png", scale=1, border=2)
    return ImageReader(buffer)
