"""Pages drawn straight into a PDF over a background WeasyPrint laid out once (see
:func:`tournament.printing.pdf.html_to_pdf`): lines of text in the app's font, boxes and QR codes, each
at a place measured from a *slot* (an element of the background page, found by its id).

Laying out a page of text in WeasyPrint costs tens of milliseconds; drawing its lines here costs
well under one. The text is set as WeasyPrint sets it (the font's own advance widths and
kerning, its ascent and descent placing the baseline in a line box), so a drawn page looks like a
laid-out one. It sets only what needs no shaping: :meth:`Font.can_set` says whether a text is
such (every character in the font, none right-to-left or combining); a page with other text is
left to WeasyPrint.

Measures are millimetres from the slot's top-left corner, sizes in points.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import struct
import unicodedata
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pydyf
from django.contrib.staticfiles import finders

# The app's font, shipped with it (static/fonts/, the CSS family "Spades Sans" of print/base.html):
# the same file wherever the app runs, and small enough to subset in milliseconds per PDF.
FONT_FILES = {"regular": "fonts/DejaVuSans.ttf", "bold": "fonts/DejaVuSans-Bold.ttf",
              "italic": "fonts/DejaVuSans-Oblique.ttf"}  # fmt: skip
STYLES = tuple(FONT_FILES)
PT = 72 / 25.4  # points a millimetre
PX = 0.75  # points a CSS pixel
TEXT_COLOR = "#111"  # the documents' text colour (print/base.html)
MISSING_EM = 0.6  # the width counted for a character the font does not have
SIMPLE_BIDI = {"L", "EN", "ES", "ET", "CS", "ON", "WS", "B", "S", "BN"}


@dataclass(frozen=True)
class Font:
    """A TrueType font's measures: glyphs by character, advance widths, kerning pairs."""

    path: str
    glyphs: dict[str, int]
    advances: Sequence[int]
    kerning: dict[tuple[int, int], int]
    units: int
    ascent: float  # em, as Pango has it (the hhea table's)
    descent: float  # em, positive
    bbox: tuple[int, int, int, int]
    italic_angle: float
    postscript_name: str

    def can_set(self, text: str) -> bool:
        """Whether ``text`` draws as it would lay out: every character in the font, and none that
        needs shaping (right-to-left text, combining marks)."""
        return all(
            c in self.glyphs and not unicodedata.combining(c) and unicodedata.bidirectional(c) in SIMPLE_BIDI
            for c in text
        )

    def advance(self, c: str) -> float:
        """The advance width of ``c`` in em (:data:`MISSING_EM` for a character not in the font)."""
        glyph = self.glyphs.get(c)
        return self.advances[glyph] / self.units if glyph is not None else MISSING_EM

    def width(self, text: str, size: float, *, kern: bool = True) -> float:
        """The advance width of ``text`` at ``size`` points, in millimetres."""
        em = sum(self.advance(c) for c in text)
        if kern:
            glyphs = [self.glyphs.get(c) for c in text]
            pairs = itertools.pairwise(glyphs)
            em += sum(self.kerning.get((a, b), 0) for a, b in pairs if a is not None and b is not None) / self.units
        return em * size / PT

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
    """The app's font in ``style`` (regular, bold, italic)."""
    from fontTools.ttLib import TTFont

    path = finders.find(FONT_FILES[style])
    tt = TTFont(path, lazy=True)
    order = {name: gid for gid, name in enumerate(tt.getGlyphOrder())}
    glyphs = {chr(code): order[name] for code, name in tt.getBestCmap().items()}
    metrics = tt["hmtx"].metrics
    advances = [metrics[name][0] for name in tt.getGlyphOrder()]
    kerning: dict[tuple[int, int], int] = {}
    if "kern" in tt:
        for table in tt["kern"].kernTables:
            kerning.update({(order[a], order[b]): value for (a, b), value in table.kernTable.items()})
    head, hhea = tt["head"], tt["hhea"]
    return Font(
        path=path, glyphs=glyphs, advances=advances, kerning=kerning, units=head.unitsPerEm,
        ascent=hhea.ascent / head.unitsPerEm, descent=-hhea.descent / head.unitsPerEm,
        bbox=(head.xMin, head.yMin, head.xMax, head.yMax), italic_angle=tt["post"].italicAngle,
        postscript_name=tt["name"].getDebugName(6) or "Font",
    )  # fmt: skip


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


def overlay(styles: dict[str, Style], pages: list[dict[str, Any]]) -> dict[str, Any]:
    """What :func:`tournament.printing.pdf.html_to_pdf` draws: ``pages`` (``{"over": KEY, "n": N,
    "items": [...]}``) in ``styles``."""
    return {"styles": {name: vars(style) for name, style in styles.items()}, "pages": pages}


# --- drawing them into a PDF ------------------------------------------------------------------------


def _number(value: float) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".")


def _rgb(color: str) -> str:
    hex_ = color.lstrip("#")
    if len(hex_) == 3:
        hex_ = "".join(c * 2 for c in hex_)
    return " ".join(_number(int(hex_[i : i + 2], 16) / 255) for i in (0, 2, 4))


@dataclass
class Drawing:
    """The drawn pages of one PDF: their content streams, and the fonts and images they share
    (added to the PDF by :meth:`resources`)."""

    page_height: float  # points
    styles: dict[str, Style]
    used: dict[str, dict[int, str]] = field(default_factory=dict)  # font: glyph id -> its text
    images: dict[str, str] = field(default_factory=dict)  # url: resource name

    def page(self, items: Sequence[list[Any]], slots: dict[str, tuple[float, float]]) -> bytes:
        """The content stream drawing ``items``; ``slots`` are in points from the page's top-left."""
        ops: list[str] = []
        for kind, at, *rest in items:
            getattr(self, "_" + kind)(ops, slots[at], *rest)
        return "\n".join(ops).encode()

    def _text(self, ops: list[str], slot: tuple[float, float], y: float, line: float, style_name: str,
              placed: list[tuple[float, str]]) -> None:  # fmt: skip
        style = self.styles[style_name]
        face = font(style.font)
        assert face is not None  # the document asked can_set()
        left, top = slot[0], slot[1] + y * PT
        strut = style.strut or style.size
        baseline = top + (line * PT - (face.ascent + face.descent) * strut) / 2 + face.ascent * strut
        if style.clip:
            x, y, width, height = (value * PT for value in style.clip)
            ops.append(f"q {_number(slot[0] + x)} {_number(self.page_height - slot[1] - y - height)} "
                       f"{_number(width)} {_number(height)} re W n")  # fmt: skip
        ops.append(f"BT {_rgb(style.color)} rg /sd-{style.font} {_number(style.size)} Tf")
        used = self.used.setdefault(style.font, {})
        at = (0.0, 0.0)
        for x, content in placed:
            x = left + x * PT
            if style.align != "left":
                x -= face.width(content, style.size, kern=style.kern) * PT / (2 if style.align == "center" else 1)
            runs, run, previous = [], [], None
            for c in content:
                glyph = face.glyphs[c]
                used.setdefault(glyph, c)
                adjust = face.kerning.get((previous, glyph), 0) if style.kern and previous is not None else 0
                if adjust:
                    runs += [f"<{''.join(run)}>", _number(-adjust * 1000 / face.units)]
                    run = []
                run.append(f"{glyph:04x}")
                previous = glyph
            runs.append(f"<{''.join(run)}>")
            move = (x, self.page_height - baseline)
            ops.append(f"{_number(move[0] - at[0])} {_number(move[1] - at[1])} Td [{' '.join(runs)}] TJ")
            at = move
        ops.append("ET Q" if style.clip else "ET")

    def _box(self, ops: list[str], slot: tuple[float, float], x: float, y: float, width: float, height: float,
             border: float, color: str) -> None:  # fmt: skip
        x, top, width, height = slot[0] + x * PT, slot[1] + y * PT, width * PT, height * PT
        bottom = self.page_height - top - height
        inset = [x + border / 2, bottom + border / 2, width - border, height - border]  # the border inside the box
        ops.append(f"q 1 1 1 rg {_number(x)} {_number(bottom)} {_number(width)} {_number(height)} re f "
                   f"{_rgb(color)} RG {_number(border)} w {' '.join(map(_number, inset))} re S Q")  # fmt: skip

    def _qr(self, ops: list[str], slot: tuple[float, float], x: float, y: float, size: float, url: str) -> None:
        name = self.images.setdefault(url, f"sd-qr{len(self.images)}")
        x, top, size = slot[0] + x * PT, slot[1] + y * PT, size * PT
        ops.append(f"q {_number(size)} 0 0 {_number(size)} {_number(x)} {_number(self.page_height - top - size)} "
                   f"cm /{name} Do Q")  # fmt: skip

    def resources(self, pdf: Any, shared: Any) -> Any:
        """A resources dictionary for the drawn pages: ``shared`` (the laid-out pages', which the
        background draws with) and the drawn pages' fonts and QR codes, added to ``pdf``."""
        fonts = pydyf.Dictionary(resolve(pdf, shared.get("Font")) or {})
        for style, glyphs in self.used.items():
            fonts[f"sd-{style}"] = _embed_font(pdf, font(style), glyphs)
        images = pydyf.Dictionary(resolve(pdf, shared.get("XObject")) or {})
        for url, name in self.images.items():
            images[name] = _qr_image(pdf, url)
        resources = pydyf.Dictionary({**shared, "Font": fonts, "XObject": images})
        pdf.add_object(resources)
        return resources.reference


def resolve(pdf: Any, value: Any) -> Any:
    """``value``, or the object it refers to (pydyf's references are ``b"N 0 R"``)."""
    if isinstance(value, bytes) and value.endswith(b" R"):
        return pdf.objects[int(value.split()[0])]
    return value


def _embed_font(pdf: Any, face: Font, glyphs: dict[int, str]) -> bytes:
    """``face`` cut down to ``glyphs`` (keeping their ids, which the pages' text uses) as a
    Type 0 font with a ToUnicode map, so that the text can be searched and copied."""
    data = _subset(face.path, {0, *glyphs})
    tag = "".join(chr(65 + b % 26) for b in hashlib.sha256(repr(sorted(glyphs)).encode()).digest()[:6])
    name = f"/{tag}+{face.postscript_name}"
    file = pydyf.Stream([data], {"Length1": len(data)}, compress=True)
    pdf.add_object(file)
    scale = 1000 / face.units
    descriptor = pydyf.Dictionary({
        "Type": "/FontDescriptor", "FontName": name, "Flags": 32 + (64 if face.italic_angle else 0),
        "FontBBox": pydyf.Array([round(v * scale) for v in face.bbox]), "ItalicAngle": face.italic_angle,
        "Ascent": round(face.ascent * 1000), "Descent": -round(face.descent * 1000),
        "CapHeight": round(face.ascent * 1000), "StemV": 80, "FontFile2": file.reference,
    })  # fmt: skip
    pdf.add_object(descriptor)
    widths = pydyf.Array()
    for glyph in sorted(glyphs):
        widths += [glyph, pydyf.Array([round(face.advances[glyph] * scale)])]
    cid = pydyf.Dictionary({
        "Type": "/Font", "Subtype": "/CIDFontType2", "BaseFont": name,
        "CIDSystemInfo": pydyf.Dictionary({"Registry": pydyf.String("Adobe"),
                                           "Ordering": pydyf.String("Identity"), "Supplement": 0}),
        "FontDescriptor": descriptor.reference, "W": widths, "CIDToGIDMap": "/Identity",
    })  # fmt: skip
    pdf.add_object(cid)
    to_unicode = pydyf.Stream([_to_unicode(glyphs).encode()], compress=True)
    pdf.add_object(to_unicode)
    type0 = pydyf.Dictionary({
        "Type": "/Font", "Subtype": "/Type0", "BaseFont": name, "Encoding": "/Identity-H",
        "DescendantFonts": pydyf.Array([cid.reference]), "ToUnicode": to_unicode.reference,
    })  # fmt: skip
    pdf.add_object(type0)
    return type0.reference


KEPT_TABLES = (b"OS/2", b"cvt ", b"fpgm", b"head", b"hhea", b"hmtx", b"maxp", b"prep")  # and glyf, loca


@functools.cache
def _tables(path: str) -> dict[bytes, bytes]:
    """The tables of the TrueType font at ``path``, by tag."""
    data = Path(path).read_bytes()
    (count,) = struct.unpack_from(">H", data, 4)
    tables = {}
    for i in range(count):
        tag, _, offset, length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        tables[tag] = data[offset : offset + length]
    return tables


def _subset(path: str, glyphs: set[int]) -> bytes:
    """The font at ``path`` with the outlines of ``glyphs`` only (and of the glyphs they are
    made of), every glyph keeping its id: what a PDF needs to draw them, in a few milliseconds
    (fontTools' subsetter takes a hundred or so, most of it reading tables not kept)."""
    tables = _tables(path)
    head, glyf = bytearray(tables[b"head"]), tables[b"glyf"]
    (count,) = struct.unpack_from(">H", tables[b"maxp"], 4)
    long_offsets = struct.unpack_from(">h", head, 50)[0] == 1
    loca = struct.unpack(
        f">{count + 1}{'I' if long_offsets else 'H'}", tables[b"loca"][: (count + 1) * (4 if long_offsets else 2)]
    )
    if not long_offsets:
        loca = tuple(2 * offset for offset in loca)
    wanted, todo = set(), list(glyphs)
    while todo:  # a composite glyph needs its components' outlines too
        glyph = todo.pop()
        if glyph in wanted or glyph >= count:
            continue
        wanted.add(glyph)
        outline = glyf[loca[glyph] : loca[glyph + 1]]
        if len(outline) < 10 or struct.unpack_from(">h", outline, 0)[0] >= 0:
            continue
        at, more = 10, True
        while more:
            flags, component = struct.unpack_from(">HH", outline, at)
            todo.append(component)
            at += (
                4 + (4 if flags & 0x1 else 2) + (2 if flags & 0x8 else 4 if flags & 0x40 else 8 if flags & 0x80 else 0)
            )
            more = bool(flags & 0x20)
    parts, offsets, at = [], [], 0
    for glyph in range(count):
        offsets.append(at)
        if glyph in wanted:
            outline = glyf[loca[glyph] : loca[glyph + 1]]
            outline += b"\0" * (-len(outline) % 4)
            parts.append(outline)
            at += len(outline)
    offsets.append(at)
    struct.pack_into(">I", head, 8, 0)  # checkSumAdjustment, set below
    struct.pack_into(">h", head, 50, 1)  # long offsets in loca
    kept = {tag: tables[tag] for tag in KEPT_TABLES if tag in tables}
    kept |= {b"head": bytes(head), b"glyf": b"".join(parts), b"loca": struct.pack(f">{count + 1}I", *offsets)}
    font = _sfnt(kept)
    adjustment = (0xB1B0AFBA - _checksum(font)) % 2**32
    head_at = font.index(b"head") + 8
    (offset,) = struct.unpack_from(">I", font, head_at)
    return font[: offset + 8] + struct.pack(">I", adjustment) + font[offset + 12 :]


def _checksum(data: bytes) -> int:
    data += b"\0" * (-len(data) % 4)
    return sum(struct.unpack(f">{len(data) // 4}I", data)) % 2**32


def _sfnt(tables: dict[bytes, bytes]) -> bytes:
    """A TrueType font file of ``tables``."""
    tags = sorted(tables)
    power = 1 << (len(tags).bit_length() - 1)
    header = struct.pack(">IHHHH", 0x00010000, len(tags), power * 16, power.bit_length() - 1, (len(tags) - power) * 16)
    offset = len(header) + 16 * len(tags)
    records, bodies = [], []
    for tag in tags:
        body = tables[tag]
        records.append(struct.pack(">4sIII", tag, _checksum(body), offset, len(body)))
        body += b"\0" * (-len(body) % 4)
        bodies.append(body)
        offset += len(body)
    return header + b"".join(records) + b"".join(bodies)


def _to_unicode(glyphs: dict[int, str]) -> str:
    pairs = [f"<{glyph:04x}> <{text.encode('utf-16-be').hex()}>" for glyph, text in sorted(glyphs.items())]
    blocks = [
        f"{len(pairs[i : i + 100])} beginbfchar\n" + "\n".join(pairs[i : i + 100]) + "\nendbfchar"
        for i in range(0, len(pairs), 100)
    ]
    return "\n".join([
        "/CIDInit /ProcSet findresource begin", "12 dict begin", "begincmap",
        "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
        "/CMapName /Adobe-Identity-UCS def", "/CMapType 2 def",
        "1 begincodespacerange", "<0000> <ffff>", "endcodespacerange", *blocks,
        "endcmap", "CMapName currentdict /CMap defineresource pop", "end", "end",
    ])  # fmt: skip


@functools.lru_cache(maxsize=2048)
def _qr_pixels(url: str) -> tuple[int, bytes]:
    """``url``'s QR code as grey pixels, a pixel a module, with a quiet zone of two modules
    (made once a worker: a table's link does not change between rounds)."""
    import segno

    code = segno.make(url, error="m")
    rows = [[0 if dark else 255 for dark in row] for row in code.matrix_iter(scale=1, border=2)]
    return len(rows), bytes(value for row in rows for value in row)


def _qr_image(pdf: Any, url: str) -> bytes:
    size, pixels = _qr_pixels(url)
    image = pydyf.Stream([zlib.compress(pixels)], {
        "Type": "/XObject", "Subtype": "/Image", "Width": size, "Height": size, "ColorSpace": "/DeviceGray",
        "BitsPerComponent": 8, "Interpolate": "false", "Filter": "/FlateDecode",
    })  # fmt: skip
    pdf.add_object(image)
    return image.reference
