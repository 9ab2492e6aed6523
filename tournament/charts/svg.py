"""A line chart as a complete ``<svg>`` element, as pure code: plain values in, a string out, no
Django (tests/test_charts_svg.py checks the imports).

The output is deterministic (the same chart gives the same bytes, so a snapshot or a PDF cache can
compare it) and safe to put in a page as it is: every text in it is XML-escaped here. It carries
no ``style`` attribute (the CSP forbids inline style): colours come from classes the app's
stylesheet colours (``chart-series-N``, through ``currentColor``), everything else is presentation
attributes, so a renderer without the stylesheet (svglib, for the printed sheet) draws it in
the near-black its root's ``color`` attribute gives (the stylesheet's classes override it).
Series are told apart without colour by dash pattern *and* marker shape.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from xml.sax.saxutils import escape

FONT = 13  # user units; the page scales the whole drawing, labels with it
STROKE = 2.5
MARKER = 4.5
COLOURS = 10  # chart-series-1 … chart-series-10, then the colours repeat (dash and marker do not)
DASHES = ("", "9 4", "2 4", "12 4 2 4", "18 6")
MARKERS = ("circle", "square", "triangle", "diamond", "triangle-down", "cross")
LEGEND_NAME = 28  # characters of a series' name in the legend; the table below the chart has it whole


@dataclass(frozen=True)
class Series:
    name: str  # in the legend and the text alternative
    values: tuple[float | None, ...]  # one per x label; None: no point there (a gap)


@dataclass(frozen=True)
class Chart:
    title: str  # <title> of the SVG
    description: str  # one or two sentences for screen readers (<desc>), our words
    x_labels: tuple[str, ...]  # "H1", "H2"… / "R1"… / dates
    series: tuple[Series, ...]
    x_title: str = ""
    y_title: str = ""
    positions: bool = False  # a chart of places: 1 at the top, whole numbers only


def line_chart(chart: Chart, *, width: int = 640, height: int = 300) -> str:
    """The chart as a complete <svg> element (role="img", aria-labelledby its <title>/<desc>),
    series told apart in black and white by dash pattern AND marker shape, styled by classes
    (class="chart-series chart-series-N") and presentation attributes only (no style attribute).

    ``width`` × ``height`` is the plot with its axes; the legend (a row per few series) adds to
    the height. ``N`` counts the series from 1 and wraps after 10. A chart with no value at all
    draws its axes only."""
    values = [v for s in chart.series for v in s.values if v is not None]
    ticks = _position_ticks(values) if chart.positions else _value_ticks(values, height)
    low, high = ticks[0], ticks[-1]
    tick_width = max(_text_width(_number(t)) for t in ticks)
    left = 8 + tick_width + 8 + (FONT + 8 if chart.y_title else 0)
    top, right = FONT, 16
    bottom = height - (FONT + 10) - (FONT + 10 if chart.x_title else 0)
    plot = _Plot(left=left, right=width - right, top=top, bottom=bottom, low=low, high=high, positions=chart.positions)
    xs = plot.xs(len(chart.x_labels))

    legend, legend_height = _legend(chart.series, width, height)
    key = hashlib.sha256(repr((chart, width, height)).encode()).hexdigest()[:10]  # ids apart on one page
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart-svg" viewBox="0 0 {width} {height + legend_height}" '
        f'width="{width}" height="{height + legend_height}" role="img" color="#111" '
        f'aria-labelledby="chart-{key}-title chart-{key}-desc" font-family="DejaVu Sans, sans-serif" '
        f'font-size="{FONT}">',
        f'<title id="chart-{key}-title">{escape(chart.title)}</title>',
        f'<desc id="chart-{key}-desc">{escape(chart.description)}</desc>',
    ]
    parts += _axes(chart, plot, ticks, xs, height)
    for index, series in enumerate(chart.series):
        parts.append(_series(index, series, plot, xs))
    parts += legend
    parts.append("</svg>")
    return "\n".join(parts)


@dataclass(frozen=True)
class _Plot:
    """The plot area in user units and the values its bottom and top edges stand for."""

    left: float
    right: float
    top: float
    bottom: float
    low: float
    high: float
    positions: bool

    def y(self, value: float) -> float:
        """Higher values higher up; on a chart of places 1 (``low``) at the top."""
        share = (value - self.low) / (self.high - self.low)
        return (
            self.top + share * (self.bottom - self.top)
            if self.positions
            else self.bottom - share * (self.bottom - self.top)
        )

    def xs(self, count: int) -> list[float]:
        """The x of each label, evenly spread with a little room at both ends; one label in the middle."""
        inset = 10
        if count == 1:
            return [(self.left + self.right) / 2]
        step = (self.right - self.left - 2 * inset) / max(count - 1, 1)
        return [self.left + inset + i * step for i in range(count)]


def _value_ticks(values: list[float], height: int) -> list[float]:
    """Round-number ticks (steps of 1, 2 or 5 times a power of ten) covering the values, and 0
    when the values come nearer to it than their spread (scores: yes; ratings near 1500: no)."""
    low, high = min(values, default=0.0), max(values, default=0.0)
    if 0 < low <= high - low:
        low = 0.0
    elif low <= high < 0 and -high <= high - low:
        high = 0.0
    if high == low:  # one value: from it to 0
        low, high = (min(low, 0.0), max(high, 0.0)) if low else (0.0, 1.0)
    most = max(4, int(height // (FONT * 4)))
    step = _nice_step((high - low) / most)
    first, last = math.floor(low / step), math.ceil(high / step)
    return [k * step for k in range(first, last + 1)]


def _position_ticks(values: list[float]) -> list[float]:
    """Places 1 … the lowest shown (at least 2): every place up to 10, else 1 and round steps."""
    worst = max(2, math.ceil(max(values, default=2)))
    if worst <= 10:
        return [float(p) for p in range(1, worst + 1)]
    step = _nice_step(worst / 8)
    return [1.0] + [k * step for k in range(1, math.ceil(worst / step) + 1)]


def _nice_step(raw: float) -> float:
    """The smallest of 1, 2, 5 × 10^k (k ≥ 0 for whole numbers' sake) not below ``raw``."""
    power = 10.0 ** max(0, math.floor(math.log10(raw))) if raw > 0 else 1.0
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return factor * power
    return 10 * power


def _axes(chart: Chart, plot: _Plot, ticks: list[float], xs: list[float], height: int) -> list[str]:
    """Grid lines and y labels at the ticks, thinned x labels under the plot, the axis titles."""
    parts = ['<g class="chart-axes" fill="currentColor" stroke="none">']
    for tick in ticks:
        y = _n(plot.y(tick))
        parts.append(
            f'<line class="chart-grid" x1="{_n(plot.left)}" x2="{_n(plot.right)}" y1="{y}" y2="{y}" '
            'stroke="currentColor" stroke-opacity="0.25" stroke-width="1"/>'
        )
        parts.append(
            f'<text class="chart-label" x="{_n(plot.left - 8)}" y="{_n(plot.y(tick) + FONT * 0.35)}" '
            f'text-anchor="end">{_number(tick)}</text>'
        )
    parts.append(
        f'<line class="chart-axis" x1="{_n(plot.left)}" x2="{_n(plot.left)}" y1="{_n(plot.top)}" '
        f'y2="{_n(plot.bottom)}" stroke="currentColor" stroke-width="1.5"/>'
    )
    every = _label_every(chart.x_labels, xs)
    label_y = _n(plot.bottom + FONT + 6)
    for index, (label, x) in enumerate(zip(chart.x_labels, xs, strict=True)):
        if index % every == 0:
            parts.append(
                f'<text class="chart-label" x="{_n(x)}" y="{label_y}" text-anchor="middle">{escape(label)}</text>'
            )
    if chart.x_title:
        x = _n((plot.left + plot.right) / 2)
        parts.append(
            f'<text class="chart-title" x="{x}" y="{_n(height - 6)}" text-anchor="middle">'
            f"{escape(chart.x_title)}</text>"
        )
    if chart.y_title:
        y = _n((plot.top + plot.bottom) / 2)
        parts.append(
            f'<text class="chart-title" x="0" y="0" text-anchor="middle" '
            f'transform="translate({FONT} {y}) rotate(-90)">{escape(chart.y_title)}</text>'
        )
    parts.append("</g>")
    return parts


def _label_every(labels: tuple[str, ...], xs: list[float]) -> int:
    """Every how many x labels one is printed so that printed ones do not touch."""
    if len(xs) < 2:
        return 1
    room = xs[1] - xs[0]
    widest = max(_text_width(label) for label in labels) + FONT
    return max(1, math.ceil(widest / room))


def _series(index: int, series: Series, plot: _Plot, xs: list[float]) -> str:
    """One series: its line (a new segment after each gap) and a marker at each point."""
    segments: list[str] = []
    run: list[str] = []
    points: list[tuple[float, float]] = []
    for value, x in zip(series.values, xs, strict=False):
        if value is None:
            if run:
                segments.append("M" + " L".join(run))
            run = []
            continue
        points.append((x, plot.y(value)))
        run.append(f"{_n(x)} {_n(plot.y(value))}")
    if run:
        segments.append("M" + " L".join(run))
    line = _line(index, " ".join(segments)) if segments else ""
    return _series_group(index, f"<title>{escape(series.name)}</title>{line}{_markers(index, points)}")


def _series_group(index: int, content: str) -> str:
    """Series ``index``'s group around ``content``: its colour's class and its stroke."""
    return (
        f'<g class="chart-series chart-series-{index % COLOURS + 1}" fill="none" stroke="currentColor" '
        f'stroke-width="{STROKE}" stroke-linejoin="round">{content}</g>'
    )


def _line(index: int, d: str) -> str:
    """Series ``index``'s line along path data ``d``, in its dash pattern."""
    dash = DASHES[index % len(DASHES)]
    dash_attribute = f' stroke-dasharray="{dash}"' if dash else ""
    return f'<path class="chart-line" d="{d}"{dash_attribute}/>'


def _markers(index: int, points: list[tuple[float, float]]) -> str:
    """Series ``index``'s marker shape at each of ``points``."""
    shape = MARKERS[index % len(MARKERS)]
    drawn = "".join(_marker(shape, x, y) for x, y in points)
    return f'<g class="chart-markers" fill="currentColor" stroke-width="1.5">{drawn}</g>'


def _marker(shape: str, x: float, y: float, size: float = MARKER) -> str:
    """A marker of ``shape`` centred on (x, y); the cross is drawn by its stroke alone."""
    r = size
    if shape == "circle":
        return f'<circle class="marker-circle" cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}"/>'
    if shape == "square":
        return f'<rect class="marker-square" x="{_n(x - r)}" y="{_n(y - r)}" width="{_n(2 * r)}" height="{_n(2 * r)}"/>'
    if shape == "triangle":
        points = ((x, y - r * 1.2), (x + r * 1.1, y + r * 0.8), (x - r * 1.1, y + r * 0.8))
    elif shape == "triangle-down":
        points = ((x, y + r * 1.2), (x + r * 1.1, y - r * 0.8), (x - r * 1.1, y - r * 0.8))
    elif shape == "diamond":
        points = ((x, y - r * 1.3), (x + r * 1.1, y), (x, y + r * 1.3), (x - r * 1.1, y))
    else:
        return (
            f'<path class="marker-cross" d="M{_n(x - r)} {_n(y - r)} L{_n(x + r)} {_n(y + r)} M{_n(x - r)} {_n(y + r)} '
            f'L{_n(x + r)} {_n(y - r)}" fill="none" stroke-width="2.5"/>'
        )
    return f'<path class="marker-{shape}" d="M{" L".join(f"{_n(px)} {_n(py)}" for px, py in points)} Z"/>'


def _legend(series: tuple[Series, ...], width: int, top: float) -> tuple[list[str], float]:
    """The legend under the plot: each series' line sample with its marker, then its name, in as
    many columns as fit; and the height it takes."""
    if not series:
        return [], 0
    names = [_shorten(s.name) for s in series]
    column = min(width - 16, max(_text_width(name) for name in names) + 48)
    columns = max(1, int((width - 16) // column))
    row = FONT + 10
    rows = math.ceil(len(series) / columns)
    parts = ['<g class="chart-legend">']
    for index, name in enumerate(names):
        x = 8 + (index % columns) * column
        y = top + 4 + (index // columns) * row + row / 2
        label = (
            f'<text class="chart-label" x="{_n(x + 42)}" y="{_n(y + FONT * 0.35)}" fill="currentColor" stroke="none">'
        )
        sample = _line(index, f"M{_n(x)} {_n(y)} L{_n(x + 34)} {_n(y)}") + _markers(index, [(x + 17, y)])
        parts.append(_series_group(index, f"{sample}{label}{escape(name)}</text>"))
    parts.append("</g>")
    return parts, rows * row + 8


def _shorten(name: str) -> str:
    return name if len(name) <= LEGEND_NAME else name[: LEGEND_NAME - 1].rstrip() + "…"


def _text_width(text: str) -> float:
    """About how wide ``text`` prints at the chart's font size (DejaVu Sans averages 0.6 em)."""
    return len(text) * FONT * 0.6


def _number(value: float) -> str:
    """A tick's label: whole numbers without a decimal point, a minus sign for negatives."""
    text = str(int(value)) if float(value).is_integer() else f"{value:g}"
    return text.replace("-", "\u2212")


def _n(value: float) -> str:
    """A coordinate to one decimal, without a trailing ``.0``: short, and the same on every machine."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text
