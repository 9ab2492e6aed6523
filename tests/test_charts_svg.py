"""The line chart as pure code (tournament/charts/svg.py): coordinates follow the values, a gap
splits a line, texts are escaped, a chart of places has 1 at the top, the output is the same
every time and carries no inline style."""

import ast
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tournament.charts import svg as svg_module
from tournament.charts.svg import Chart, Series, line_chart

NS = {"s": "http://www.w3.org/2000/svg"}


def game_chart(*series: Series, **options) -> Chart:
    labels = tuple(f"H{n}" for n in range(1, max(len(s.values) for s in series) + 1))
    return Chart(
        title="Table 3", description="Each side's score after each hand.", x_labels=labels, series=series, **options
    )


def points(svg: str, index: int = 0) -> list[list[tuple[float, float]]]:
    """The segments of series ``index``'s line, each a list of (x, y)."""
    root = ET.fromstring(svg)
    groups = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if "chart-series" in g.get("class", "")]
    path = groups[index].find("s:path", NS)
    assert path is not None
    return [
        [tuple(map(float, pair.split())) for pair in segment.strip().split(" L")]
        for segment in path.get("d").split("M")[1:]
    ]


def y_label_at(svg: str, text: str) -> float:
    """The y of the y axis's tick label ``text``."""
    match = re.search(rf'<text class="chart-label" x="[\d.]+" y="([\d.]+)" text-anchor="end">{text}</text>', svg)
    assert match, text
    return float(match.group(1))


def test_the_module_imports_only_the_standard_library():
    tree = ast.parse(Path(svg_module.__file__).read_text())
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert imported <= {"__future__", "hashlib", "math", "dataclasses", "xml.sax.saxutils"}


def test_higher_scores_are_drawn_higher_and_later_hands_further_right():
    svg = line_chart(game_chart(Series("North–South", (50, 120, 90, 300))))
    [segment] = points(svg)
    xs, ys = [x for x, _ in segment], [y for _, y in segment]
    assert xs == sorted(xs) and len(set(xs)) == 4
    # 50 < 120 > 90 < 300: SVG's y grows downwards
    assert ys[0] > ys[1] < ys[2] > ys[3]
    assert ys[3] == min(ys)


def test_a_value_sits_at_its_tick_label_height():
    svg = line_chart(game_chart(Series("North–South", (0, 100, 200))))
    [segment] = points(svg)
    # the tick label's baseline sits a third of the font below its grid line
    expected = [y_label_at(svg, str(v)) - 13 * 0.35 for v in (0, 100, 200)]
    assert [y for _, y in segment] == pytest.approx(expected, abs=0.2)


def test_a_missing_value_leaves_a_gap_between_two_segments():
    svg = line_chart(game_chart(Series("North–South", (10, 20, None, 40, 50))))
    segments = points(svg)
    assert [len(s) for s in segments] == [2, 2]
    assert segments[0][-1][0] < segments[1][0][0]
    assert svg.count("<circle") == 4 + 1  # a marker per point, and one in the legend


@pytest.mark.parametrize("positions", [False, True])
def test_names_and_titles_are_escaped(positions):
    chart = Chart(
        title="Tom <b> & Jerry",
        description='"Scores" <script>',
        x_labels=("<R1>",),
        series=(Series("A&B <i>", (1.0,)),),
        x_title="x & y",
        y_title="<y>",
        positions=positions,
    )
    svg = line_chart(chart)
    ET.fromstring(svg)  # well-formed XML
    assert "<b>" not in svg and "<script>" not in svg and "<i>" not in svg and "<R1>" not in svg
    assert "Tom &lt;b&gt; &amp; Jerry" in svg and "A&amp;B &lt;i&gt;" in svg


def test_a_chart_of_places_has_first_at_the_top_and_a_tick_for_every_place():
    chart = Chart(
        title="Places",
        description="Places after each round.",
        x_labels=("R1", "R2", "R3"),
        series=(Series("Team 1", (3, 1, 2)), Series("Team 2", (1, 2, 4))),
        positions=True,
    )
    svg = line_chart(chart)
    [team_1] = points(svg, 0)
    assert team_1[1][1] < team_1[2][1] < team_1[0][1]  # 1st above 2nd above 3rd
    assert y_label_at(svg, "1") < y_label_at(svg, "2") < y_label_at(svg, "3") < y_label_at(svg, "4")
    assert not re.search(r'text-anchor="end">\d+\.\d', svg)  # whole places only


@pytest.mark.parametrize(
    ("values", "ticks"),
    [
        ((50, 120, 310), ["0", "100", "200", "300", "400"]),
        ((-120, 480), ["−200", "0", "200", "400", "600"]),
        ((3, 7), ["0", "2", "4", "6", "8"]),
        ((0, 0), ["0", "1"]),
        ((-60,), ["−60", "−40", "−20", "0"]),
        ((1480, 1530, 1455), ["1440", "1460", "1480", "1500", "1520", "1540"]),  # ratings: far from 0
    ],
)
def test_the_value_axis_is_marked_at_round_numbers_and_reaches_zero_when_near(values, ticks):
    svg = line_chart(game_chart(Series("North–South", values)), height=300)
    labels = re.findall(r'text-anchor="end">([^<]+)</text>', svg)
    assert labels == ticks


def test_many_hand_labels_are_thinned_so_they_do_not_touch():
    chart = game_chart(Series("North–South", tuple(range(0, 400, 10))))  # 40 hands
    svg = line_chart(chart, width=360, height=240)
    printed = re.findall(r'text-anchor="middle">(H\d+)</text>', svg)
    assert printed[0] == "H1" and 4 <= len(printed) < 40


def test_series_differ_by_dash_and_by_marker_shape():
    chart = game_chart(*(Series(f"Team {n}", (n, n + 1)) for n in range(1, 11)))
    svg = line_chart(chart)
    root = ET.fromstring(svg)
    lines = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class", "").startswith("chart-series ")][
        :10
    ]
    looks = set()
    for group in lines:
        path = group.find("s:path", NS)
        marker = group.find("s:g", NS)[0]
        looks.add((path.get("stroke-dasharray"), marker.get("class")))
    assert len(looks) == 10
    assert {g.get("class") for g in lines} == {f"chart-series chart-series-{n}" for n in range(1, 11)}


def test_the_svg_is_an_accessible_image_without_inline_style():
    chart = game_chart(Series("North–South", (10, 20)), Series("East–West", (5, None)))
    svg = line_chart(chart)
    root = ET.fromstring(svg)
    assert root.get("role") == "img"
    title_id, desc_id = root.get("aria-labelledby").split()
    assert root.find("s:title", NS).get("id") == title_id and root.find("s:title", NS).text == "Table 3"
    assert root.find("s:desc", NS).get("id") == desc_id
    assert "style=" not in svg and "<style" not in svg


def test_the_same_chart_draws_the_same_bytes_and_another_chart_other_ids():
    chart = game_chart(Series("North–South", (10, 20)))
    assert line_chart(chart) == line_chart(chart)
    other = game_chart(Series("North–South", (10, 30)))
    assert re.search(r'id="([^"]+)"', line_chart(chart)).group(1) != re.search(
        r'id="([^"]+)"', line_chart(other)
    ).group(1)


def test_a_chart_without_values_draws_its_axes():
    chart = Chart(title="Places", description="No round has finished.", x_labels=(), series=(), positions=True)
    ET.fromstring(line_chart(chart))
