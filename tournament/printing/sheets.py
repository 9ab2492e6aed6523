"""Score sheets: a page per table, its grid of hands drawn once as a background and each
table's text laid over it (see :mod:`.pdf`), filled in with what was played or blank to fill in."""

from __future__ import annotations

import base64
import functools
import math
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from scoring import RuleSet, Seat, Side
from scoring.describe import bid_name
from tournament.charts.games import game_chart
from tournament.charts.svg import line_chart
from tournament.formats.registry import format_of
from tournament.models import Dispute, Game, Hand, Round, Tournament, playing_name
from tournament.play.links import table_url
from tournament.printing import draw, pdf
from tournament.printing.documents import Document, base_context
from tournament.templatetags.wording import score, score_to


@dataclass(frozen=True)
class SheetRow:
    """A line of the grid: the hand's number and its 14 cells, or the misdeal that took its place."""

    number: int
    cells: list[str]
    misdeal: str = ""


@dataclass(frozen=True)
class Note:
    """An entry in one of the boxes under the grid: a penalty, a misdeal, a dispute."""

    hand: int
    side: str
    what: str

    @property
    def text(self) -> str:
        return f"Hand {self.hand}: {self.side}, {self.what}" if self.side else f"Hand {self.hand}: {self.what}"


@dataclass(frozen=True)
class DisputeNote:
    """A disputed hand: what the table said, and how the director settled it (blank while open)."""

    hand: int
    note: str
    resolution: str

    @property
    def text(self) -> str:
        settled = f"settled: {self.resolution}" if self.resolution else "not settled yet"
        return f"Hand {self.hand}: {self.note or 'disputed'} — {settled}"


# The grid is the same on every sheet: it is drawn once, as an SVG per number of rows, in the
# background every sheet of a document shares, and each sheet's own text sits over it as a line
# a hand. Laying it out as an HTML table cost ~60% of a page's render. Sizes in millimetres; the
# width fits inside the margins of both A4 and Letter.
HAND_WIDTH = 15.2
CELL_WIDTH = 12.2
GRID_FONT = 8.5  # points
TOTALS = (6, 13)  # the cells of each side's running total
GRID_WIDTH = HAND_WIDTH + 14 * CELL_WIDTH
HEAD_HEIGHT = 6.0
ROOM_FOR_ROWS = 126  # mm of a Letter page left for the rows beside the heading, boxes and signatures
BOXES_HEIGHT = 22.0  # the penalty and misdeal boxes: room for four lines, taller when they need more
DISPUTES_HEIGHT = 16.0  # the disputes box: two lines
RESULT_HEIGHT = 8.0  # a finished game's result line, under the disputes box
# A finished game's chart of the score by hand, under its result line: its box (mm) and the size of
# the chart's plot (SVG units; the legend adds a row). Its labels print at about 9 points.
CHART_HEIGHT, CHART_PLOT = 46.0, (760, 150)
NOTES_TOP = 4.8  # where a box's first line starts, under its title
NOTE_FONT = 8  # points
NOTE_LINE = NOTE_FONT * 1.35 / draw.PT  # mm
COLUMN_TITLES = ["bid", "bid", "took", "took", "Points", "Bags", "Total"]
# What print/score_sheets.html sets the sheet's own text in (a drawn sheet draws it the same).
TITLE_FONT, ROUND_FONT, TITLE_LINE = 28, 14, 1.1  # points, points, times the font size
NAME_FONT, NAME_LINE, NAMES_BOX = 10.5, 6.5, (55.0, 13.0)  # points, mm, mm
QR_SIZE = 30.0
NOTES_WIDTH = {3: 59.0, 2: 90.0}  # mm, a box's text by how many boxes there are
DISPUTES_WIDTH = GRID_WIDTH - 2.8
MISDEAL_BORDER = 0.5  # points
FOLIO_FONT, PAGE_MARGIN = 7, (12.0, 14.0)  # points; the right and bottom page margins (print/base.html)
LINE = 'stroke="#444" stroke-width="0.18"'


@dataclass(frozen=True)
class Grid:
    """The drawn grid for ``rows`` hands with ``room`` mm for them: its CSS class, height and
    background image. Rows close up as a long game needs more of them (or the boxes under the
    grid more room), so that the sheet stays one page."""

    rows: int
    room: float = ROOM_FOR_ROWS

    @property
    def row_height(self) -> float:
        return min(8.5 if self.rows <= 12 else 7.0, round(self.room / self.rows, 2))

    @property
    def name(self) -> str:
        return f"grid-{self.rows}-{round(self.row_height * 100)}"

    @property
    def top(self) -> float:
        """Where the first hand's row starts."""
        return 2 * HEAD_HEIGHT

    @property
    def height(self) -> float:
        return self.top + self.rows * self.row_height

    def row_top(self, index: int) -> float:
        return self.top + index * self.row_height

    @property
    def image(self) -> str:
        return _grid_image(self.rows, self.row_height)


def column_left(index: int) -> float:
    """The left edge of column ``index`` (0 is the hand's number)."""
    return 0.0 if index == 0 else HAND_WIDTH + (index - 1) * CELL_WIDTH


def grid_css() -> str:
    """The grid's width and font, and where a misdeal covers a row."""
    return (
        f".grid {{ width: {GRID_WIDTH:.3f}mm; font-size: {GRID_FONT}pt; }}\n"
        f".grid .rows {{ left: 0; }}\n"
        f".grid .misdeal {{ left: {HAND_WIDTH}mm; width: {14 * CELL_WIDTH:.3f}mm; }}"
    )


@functools.cache
def _grid_image(rows: int, row_height: float) -> str:
    """The grid's lines, shading and column titles as an SVG ``data:`` URL (made once a size)."""
    grid = Grid(rows, room=rows * row_height)
    width, height, top = GRID_WIDTH, grid.height, grid.top
    side = 7 * CELL_WIDTH
    parts = [
        f'<rect x="0" y="0" width="{HAND_WIDTH}" height="{top}" fill="#eee"/>',
        f'<rect x="{HAND_WIDTH}" y="0" width="{side}" height="{top}" fill="#eef3ff"/>',
        f'<rect x="{HAND_WIDTH + side}" y="0" width="{side}" height="{top}" fill="#eefaf3"/>',
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="none" {LINE}/>',
        f'<line x1="{HAND_WIDTH}" y1="{HEAD_HEIGHT}" x2="{width}" y2="{HEAD_HEIGHT}" {LINE}/>',
    ]
    parts += [f'<line x1="0" y1="{grid.row_top(i)}" x2="{width}" y2="{grid.row_top(i)}" {LINE}/>' for i in range(rows)]
    for i in range(1, 15):
        y1 = 0 if i in (1, 8) else HEAD_HEIGHT
        parts.append(f'<line x1="{column_left(i):.2f}" y1="{y1}" x2="{column_left(i):.2f}" y2="{height}" {LINE}/>')
    text = 'font-family="Spades Sans" font-weight="bold" text-anchor="middle"'
    parts.append(f'<text x="{HAND_WIDTH / 2}" y="{top / 2 + 1}" font-size="2.8" {text}>Hand</text>')
    for first, title, seats in ((1, "North–South", "NS"), (8, "East–West", "EW")):
        middle = column_left(first) + side / 2
        parts.append(f'<text x="{middle:.2f}" y="{HEAD_HEIGHT / 2 + 1}" font-size="2.8" {text}>{title}</text>')
        for j, word in enumerate(COLUMN_TITLES):
            label = f"{seats[j % 2]} {word}" if j < 4 else word
            x = column_left(first + j) + CELL_WIDTH / 2
            parts.append(f'<text x="{x:.2f}" y="{HEAD_HEIGHT * 1.5 + 1}" font-size="2.6" {text}>{label}</text>')
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}mm" height="{height}mm" '
        f'viewBox="0 0 {width} {height}">{"".join(parts)}</svg>'
    )
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()


def _rows_needed(tournament: Tournament, entered: int) -> int:
    rules = tournament.rules
    if rules.hands_per_round:
        return max(entered + 1, rules.hands_per_round + 2)  # room for a misdeal and a tie-break hand
    return max(entered + 2, 18)


def _sheet(
    tournament: Tournament,
    game: Any,
    seats: dict[str, str],
    hands: list[Any],
    base: str | None = None,
    disputed: dict[int, list[Any]] | None = None,
    *,
    linked: bool = True,
) -> dict[str, Any]:
    """A table's sheet; ``disputed`` holds the disputes of ``hands`` by the hand's id; ``linked``
    puts the table's QR code on it."""
    rules = tournament.rules
    rows, reneges, table_talk, misdeals, disputes = [], [], [], [], []
    results = _results(game, hands)
    for hand, result in results:
        if result is None:
            rows.append(SheetRow(hand.number, [""] * 14, misdeal=hand.get_misdeal_display()))
            misdeals.append(Note(hand.number, "", hand.get_misdeal_display()))
        else:
            cells = [*_side_cells(rules, hand, "north", "south", result.teams[0]),
                     *_side_cells(rules, hand, "east", "west", result.teams[1])]  # fmt: skip
            rows.append(SheetRow(hand.number, [str(c) for c in cells]))
        reneges += _penalty_notes(hand, "reneges", "reneg")
        table_talk += _penalty_notes(hand, "table_talk", "table talk")
        disputes += [DisputeNote(hand.number, d.note, d.resolution) for d in (disputed or {}).get(hand.pk, ())]
    # A game played to its end prints the chart of its score, in the room of the rows that would
    # be left blank for hands to come.
    charted = game is not None and game.is_finished and bool(game.winner) and any(r for _, r in results)
    upcoming = Game.next_number(hands[-1] if hands else None)  # a misdeal's hand is dealt again
    for offset in range(0 if charted else _rows_needed(tournament, len(hands)) - len(hands)):
        rows.append(SheetRow(upcoming + offset, [""] * 14))
    # A closed round's sheet is a record: its table link now leads to another game, so no QR code.
    closed = _closed_caption(tournament, game) if game is not None and game.round.is_closed else ""
    url = table_url(game.table, base) if game and linked and not closed else ""
    show_table_talk = bool(rules.table_talk_tricks) or bool(table_talk)
    box_width = NOTES_WIDTH[3 if show_table_talk else 2]
    boxes = max(BOXES_HEIGHT, _notes_height(max(_lines(n, box_width) for n in (reneges, table_talk, misdeals))))
    dispute_box = max(DISPUTES_HEIGHT, _notes_height(_lines(disputes, DISPUTES_WIDTH)))
    names = {s.label: seats.get(s, "") for s in Seat}
    result = _result(game, names, hands)
    chart = _chart(game, names, results) if charted else ""
    room = ROOM_FOR_ROWS - (boxes - BOXES_HEIGHT) - (dispute_box - DISPUTES_HEIGHT) - (RESULT_HEIGHT if result else 0)
    room -= CHART_HEIGHT if chart else 0
    grid = Grid(len(rows), room=room)
    closed_layer = f"-closed-{closed.split()[0].lower()}" if closed else ""  # a background per caption
    return {
        "layer": f"{grid.name}-{round(boxes * 10)}-{round(dispute_box * 10)}"
        f"{'-talk' if show_table_talk else ''}{'-qr' if url else ''}{closed_layer}"
        f"{'-result' if result else ''}{'-chart' if chart else ''}",
        "boxes_height": boxes,
        "disputes_height": dispute_box,
        "table": game.table.number if game else None,
        "heading": game.label if game else "",
        "first_dealer": Seat(game.first_dealer).label if game else "",
        "seats": names,
        "result": result,
        "chart": chart,
        "rows": rows,
        "grid": grid,
        "misdeal_rows": [(grid.row_top(i), row.misdeal) for i, row in enumerate(rows) if row.misdeal],
        "reneges": reneges,
        "table_talk": table_talk,
        "misdeals": misdeals,
        "disputes": disputes,
        "url": url,
        "qr": pdf.qr_image(url) if url else "",
        "closed": closed,
        "show_table_talk": show_table_talk,
    }


def _chart(game: Game, names: dict[str, str], results: list[tuple[Any, Any]]) -> str:
    """The chart of a played game's score after each hand, as SVG."""
    sides = [" & ".join(filter(None, (names[seat.label] for seat in side.seats))) for side in Side]
    scored = [(hand.number, result.teams[0].score, result.teams[1].score) for hand, result in results if result]
    chart = game_chart(scored, ns=sides[0], ew=sides[1], table=game.table.number)
    return line_chart(chart, width=CHART_PLOT[0], height=CHART_PLOT[1]) if chart else ""


def _closed_caption(tournament: Tournament, game: Game) -> str:
    """What a closed round's sheet says where the QR code was, by what was played: a knockout
    match (a league's championship too), or a round (of a progressive event, a league night, a
    Swiss round)."""
    if game.match is not None and not game.match.in_round:
        return "Match over: scores are final"
    return f"{format_of(tournament).round_name} closed: scores are final"


def _result(game: Any, names: dict[str, str], hands: list[Any]) -> str:
    """A finished game's result line: the winning side and its players, the final score, how a
    tie was settled, and that the clock ended it after its last hand (of ``hands``, the game's);
    "" while the game is on (or without a game)."""
    if game is None or not game.is_finished or not game.winner:
        return ""
    side = Side(game.winner)
    players = " & ".join(name for name in (names[seat.label] for seat in side.seats) if name)
    text = f"Won by {side.label}" + (f" ({players})" if players else "")
    text += f", {score_to(game.ns_score, game.ew_score)}"
    if game.ended_on_time:
        last = max((hand.number for hand in hands if not hand.misdeal), default=game.time_up_hand)
        text += f"; ended on time after hand {last}"
    return text + (f"; {game.decided_by}" if game.decided_by else "")


def _penalty_notes(hand: Hand, kind: str, noun: str) -> list[Note]:
    """The hand's infractions of ``kind``: by player where the rules charge the player who
    committed them (the seat counts are set), else by side."""
    entry = hand.entry
    by_seat = zip((seat.label for seat in Seat), getattr(entry, f"seat_{kind}"), strict=True)
    by_side = zip((side.label for side in Side), getattr(entry, kind), strict=True)
    counts = list(by_seat) if any(getattr(entry, f"seat_{kind}")) else list(by_side)
    return [Note(hand.number, who, _times(count, noun)) for who, count in counts if count]


def _results(game: Any, hands: list[Any]) -> list[tuple[Any, Any]]:
    """Each stored hand with the engine's result for it (None for a misdeal): the one place
    the sheet reads the replay."""
    return list(zip(hands, game.replay(hands).results, strict=True)) if game else []


def _grid_lines(rows: list[SheetRow]) -> tuple[str, str]:
    """The grid's text as two blocks with a line a row, each cell's text centred in its column:
    everything but the totals, and the totals (in bold). A line is one run of text, so that
    WeasyPrint lays it out as one box."""
    plain, totals = [], []
    for row in rows:
        cells = _row_texts(row)
        plain.append(pdf.spaced_line([_placed(c, text) for c, text, bold in cells if not bold], GRID_FONT))
        totals.append(pdf.spaced_line([_placed(c, text, bold=True) for c, text, bold in cells if bold], GRID_FONT,
                                      bold=True))  # fmt: skip
    return "\n".join(plain), "\n".join(totals)


def _row_texts(row: SheetRow) -> list[tuple[int, str, bool]]:
    """A row's texts: (column, text, in bold) for the hand's number and each filled cell, a text
    too wide for its column (such as "Blind nil") with its spaces closed up."""
    cells = [(0, str(row.number), False)]
    cells += [(i + 1, cell, i in TOTALS) for i, cell in enumerate(row.cells) if cell]
    return [(c, _fitted(c, text, bold), bold) for c, text, bold in cells]


def _column_width(column: int) -> float:
    return HAND_WIDTH if column == 0 else CELL_WIDTH


def _fitted(column: int, text: str, bold: bool) -> str:
    too_wide = " " in text and pdf.text_width(text, GRID_FONT, bold=bold) > _column_width(column) - 1
    return text.replace(" ", "\u200a") if too_wide else text


def _placed(column: int, text: str, *, bold: bool = False) -> tuple[float, str]:
    """Where ``text`` starts, centred in ``column``."""
    return column_left(column) + (_column_width(column) - pdf.text_width(text, GRID_FONT, bold=bold)) / 2, text


def _wrapped(text: str, width: float) -> list[str]:
    """``text`` in a box under the grid, in lines at most ``width`` mm wide."""
    return draw.font().wrap(text, width, NOTE_FONT)


def _lines(notes: list[Note] | list[DisputeNote], width: float) -> int:
    """How many lines ``notes`` take in a box ``width`` mm wide, a note starting each line."""
    return sum(len(_wrapped(note.text, width)) for note in notes)


SHEET_STYLES = {
    "title": draw.Style(TITLE_FONT, "bold"),
    "round": draw.Style(ROUND_FONT, color="#444", strut=TITLE_FONT),
    "name": draw.Style(NAME_FONT, clip=(0, 0, *NAMES_BOX)),
    "cell": draw.Style(GRID_FONT, align="center", kern=False),
    "total": draw.Style(GRID_FONT, "bold", align="center", kern=False),
    "misdeal": draw.Style(GRID_FONT, "italic", align="center"),
    "note": draw.Style(NOTE_FONT),
    "result": draw.Style(NAME_FONT, "bold"),
    "folio": draw.Style(FOLIO_FONT, align="right", color="#666"),
}


def _drawing(sheet: dict[str, Any], round_: Round | None) -> list[list[Any]] | None:
    """The sheet's own text as items to draw over its background (in :data:`SHEET_STYLES`, see
    :mod:`tournament.printing.draw`), placed as print/score_sheets.html lays it out; None when a text
    needs laying out."""
    title = f"Table {sheet['table']}" if sheet["table"] else "Table ____"
    heading = ""
    if round_:
        title += " "
        heading = sheet["heading"] + (f" · first deal: {sheet['first_dealer']}" if sheet["first_dealer"] else "")
    boxes = [sheet["reneges"], sheet["table_talk"], sheet["misdeals"]] if sheet["show_table_talk"] else \
        [sheet["reneges"], sheet["misdeals"]]  # fmt: skip
    notes = [(f"box-{i}", NOTES_WIDTH[len(boxes)], box) for i, box in enumerate(boxes, start=1)]
    notes.append(("disputes", DISPUTES_WIDTH, sheet["disputes"]))
    texts = [title, heading, sheet["folio"], sheet["result"], *sheet["seats"].values(),
             *(r.misdeal for r in sheet["rows"]), *(note.text for _, _, box in notes for note in box)]  # fmt: skip
    if not draw.can_set(texts):
        return None
    text = draw.text
    title_line = TITLE_FONT * TITLE_LINE / draw.PT
    items = [text("table", 0, title_line, "title", (0, title))]
    if heading:
        items.append(text("table", 0, title_line, "round", (pdf.text_width(title, TITLE_FONT, bold=True, kern=True),
                                                             heading)))  # fmt: skip
    if sheet["url"]:
        items.append(draw.qr("qr", 0, 0, QR_SIZE, sheet["url"]))
    for slot, seats in (("first", ("North", "East")), ("second", ("South", "West"))):
        items += [
            text(slot, i * NAME_LINE, NAME_LINE, "name", (0, sheet["seats"][seat])) for i, seat in enumerate(seats)
        ]
    grid = sheet["grid"]
    for index, row in enumerate(sheet["rows"]):
        top = grid.row_top(index)
        cells = [(bold, (column_left(c) + _column_width(c) / 2, content)) for c, content, bold in _row_texts(row)]
        items.append(text("grid", top, grid.row_height, "cell", *(placed for bold, placed in cells if not bold)))
        items.append(text("grid", top, grid.row_height, "total", *(placed for bold, placed in cells if bold)))
        if row.misdeal:
            items.append(draw.box("grid", HAND_WIDTH, top, 14 * CELL_WIDTH, grid.row_height, border=MISDEAL_BORDER,
                                      color="#444"))  # fmt: skip
            items.append(text("grid", top + MISDEAL_BORDER / draw.PT, grid.row_height, "misdeal",
                              (HAND_WIDTH + 7 * CELL_WIDTH, f"Misdeal: {row.misdeal}")))  # fmt: skip
    for slot, width, box in notes:
        lines = [line for note in box for line in _wrapped(note.text, width)]
        items += [text(slot, i * NOTE_LINE, NOTE_LINE, "note", (0, line)) for i, line in enumerate(lines)]
    if sheet["result"]:
        items.append(text("result", 0, RESULT_HEIGHT, "result", (0, sheet["result"])))
    if sheet["chart"]:
        items.append(draw.chart("chart", 0, 1, GRID_WIDTH, CHART_HEIGHT - 2, sheet["chart"]))
    if sheet["folio"]:
        right, bottom = PAGE_MARGIN
        items.append(text("page-end", -bottom, bottom, "folio", (-right, sheet["folio"])))
    return [item for item in items if item[0] != "text" or any(content for _, content in item[-1])]


def _notes_height(lines: int) -> float:
    """The height of a box under the grid holding ``lines`` lines under its title."""
    return round(NOTES_TOP + lines * NOTE_FONT * 1.35 * 25.4 / 72 + 1.5, 1)


def _times(count: int, what: str) -> str:
    return what if count == 1 else f"{what} ×{count}"


def _side_cells(rules: RuleSet, hand: Any, first: str, second: str, side: Any) -> list[object]:
    """A side's cells on the sheet: both bids (as the rules name them), both players' tricks,
    points, bags, total."""
    bids = [bid_name(rules, getattr(hand, f"{seat}_bid")) for seat in (first, second)]
    tricks = [getattr(hand, f"{seat}_tricks") for seat in (first, second)]
    return [*bids, *tricks, score(side.points), side.bags, score(side.score)]


def score_sheets(round_: Round, base: str | None = None) -> Document:
    seats: dict[int, dict[str, str]] = defaultdict(dict)
    for table_id, seat, name in round_.seatings.annotate(name=playing_name()).values_list("table_id", "seat", "name"):
        seats[table_id][seat] = name
    games = round_.games.order_by("table__number")
    sheets = game_sheets(round_.tournament, games, lambda game: seats[game.table_id], base)
    title = f"Score sheets, {format_of(round_.tournament).round_words(round_)}"
    return sheets_document(round_.tournament, f"score-sheets-round-{round_.number}", title, round_, sheets)


def game_sheets(
    tournament: Tournament,
    games: Any,
    seats_of: Callable[[Game], dict[str, str]],
    base: str | None,
    *,
    linked: bool = True,
) -> list[dict[str, Any]]:
    """A filled-in sheet for each of ``games`` (a queryset, in page order), its players'
    names from ``seats_of``; the pages numbered through."""
    ids = games.order_by().values("pk")  # a subquery, not a list of every game's id
    hands: dict[int, list[Any]] = defaultdict(list)
    for hand in Hand.objects.filter(game__in=ids).order_by("game_id", "number", "deal"):
        hands[hand.game_id].append(hand)
    disputed: dict[int, list[Any]] = defaultdict(list)
    for dispute in Dispute.objects.filter(hand__game__in=ids):
        disputed[dispute.hand_id].append(dispute)
    games = list(games.select_related("table", "round__tournament", "match"))
    for game in games:
        if game.match:
            game.match.tournament = tournament  # one tournament, whose bracket names every match
    sheets = [_sheet(tournament, g, seats_of(g), hands[g.pk], base, disputed, linked=linked) for g in games]
    for number, sheet in enumerate(sheets, start=1):
        sheet["folio"] = f"page {number} of {len(sheets)}"  # across all the chunks
    return sheets


def sheets_document(
    tournament: Tournament, name: str, title: str, round_: Round | None, sheets: list[dict[str, Any]]
) -> Document:
    """Filled-in score sheets as a document in chunks of pages; ``round_`` (the knockout's one
    round for its matches) puts each game's heading beside its table number."""
    base = {**base_context(tournament, title), "round": round_}
    size = pdf.chunk_size(len(sheets))
    chunks = [sheets[i : i + size] for i in range(0, len(sheets), size)] or [[]]
    return Document(name, title, "print/score_sheets.html", [_sheets_context(base, chunk) for chunk in chunks])


def _sheets_context(base: dict[str, Any], sheets: list[dict[str, Any]]) -> dict[str, Any]:
    """A chunk of score sheets, and the backgrounds (one per size of grid, with or without a table
    talk box and a QR code) its pages lay their text over."""
    backgrounds = {
        sheet["layer"]: {"layer": sheet["layer"], "grid": sheet["grid"], "show_table_talk": sheet["show_table_talk"],
                         "qr": bool(sheet["qr"]), "closed": sheet["closed"], "result": bool(sheet["result"]),
                         "chart": bool(sheet["chart"]),
                         "boxes_height": sheet["boxes_height"],
                         # the drawn boxes' own heights, inside the title margin and the padding
                         "cells_height": round(sheet["boxes_height"] - 1, 1),
                         "disputes_height": round(sheet["disputes_height"] - 2, 1)}
        for sheet in sheets
    }  # fmt: skip
    grids = sorted({sheet["grid"] for sheet in sheets}, key=lambda grid: grid.rows)
    laid_out, drawn = [], []
    for n, sheet in enumerate(sheets, start=1):
        items = _drawing(sheet, base["round"])
        if items is None:
            chart = "data:image/svg+xml;base64," + base64.b64encode(sheet["chart"].encode()).decode() \
                if sheet["chart"] else ""  # fmt: skip
            laid_out.append({**sheet, "n": n, "lines": _grid_lines(sheet["rows"]), "chart_src": chart})
        else:
            drawn.append({"over": sheet["layer"], "n": n, "items": items})
    overlay = draw.overlay(SHEET_STYLES, drawn) if drawn else None
    return {**base, "sheets": sheets, "laid_out": laid_out, "overlay": overlay,
            "backgrounds": list(backgrounds.values()), "grids": grids, "grid_css": grid_css(),
            "grid_width": f"{GRID_WIDTH:.2f}", "head_height": _head_height(base),
            "result_height": RESULT_HEIGHT, "chart_height": CHART_HEIGHT,
            "chart_image_height": CHART_HEIGHT - 2}  # fmt: skip


def _head_height(base: dict[str, Any]) -> str:
    """The height in mm of a sheet's heading (the same in both layers, so it is worked out here):
    room for the event's name and the rules line however many lines they take beside the QR code."""
    width = GRID_WIDTH - 38 - 2  # the titles' width, and a little to spare
    name = math.ceil(pdf.text_width(base["tournament"].name, 13, bold=True) / width)
    rules = math.ceil(pdf.text_width(base["rules_line"], 9.5) / width)
    return f"{max(36.0, 12.5 + 5.5 * name + 1 + 2 * 6.1 + 4.5 * (rules - 1) + 2):.1f}"


def blank_sheet(tournament: Tournament) -> Document:
    title = "Score sheet (blank)"
    sheet = {**_sheet(tournament, None, {}, []), "folio": ""}
    return Document("score-sheet-blank", title, "print/score_sheets.html",
                    [_sheets_context({**base_context(tournament, title), "round": None}, [sheet])])  # fmt: skip
