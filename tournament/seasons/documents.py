"""A season's printed standings and its CSV.

A print job belongs to a tournament (:class:`~tournament.models.PrintJob`), and a season is the
club's: the season's PDF is printed through the same worker as a job of the season's latest
event, named ``season-<id>`` (so it never supersedes, nor is superseded by, that event's own
documents), which shows among that event's recent prints too.
"""

from __future__ import annotations

import io
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from tournament.printing.documents import Document, css_string
from tournament.seasons.points import TIEBREAK_TEXT
from tournament.seasons.standings import SeasonTables, Table
from tournament.transfer import csvsafe

PAPERS = ("Letter", "A4")


def season_document(tables: SeasonTables, paper: str) -> Document:
    """Both tables of the season, on ``paper`` (Letter or A4)."""
    season = tables.season
    title = "Season standings"
    base = {
        "tournament": {"name": f"{season.club.name} · {season.name}"},
        "season": season,
        "title": title,
        "paper": paper,
        "footer": css_string(f"{season.club.name} · {season.name} · {title}"),
        "tiebreak": TIEBREAK_TEXT,
        "tables": [(word, table) for word, table in (("Players", tables.players), ("Teams", tables.teams))
                   if table.events],
    }  # fmt: skip
    # One part: a club's season has some hundreds of lines at most, which lay out in one run.
    return Document(f"season-{season.pk}", title, "seasons/print.html", [{**base, "part": 1, "parts": 1}])


def exact(value: Fraction) -> Decimal:
    """Season points in a CSV cell, every one to two decimals (half up), so a column reads the same
    whole or shared ("9.00", "5.50"); the pages show it exactly."""
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(Decimal("0.01"), ROUND_HALF_UP)


def season_csv(tables: SeasonTables) -> str:
    """Both tables as CSV, the players' first: a line an entrant, a place and a points column an
    event of its table, and the events best N left out."""
    out = io.StringIO()
    writer = csvsafe.writer(out)
    for word, table in (("players", tables.players), ("teams", tables.teams)):
        if table.events:
            _write_table(writer, word, table)
    return out.getvalue()


def _write_table(writer, word: str, table: Table) -> None:
    heads = [f"{e.date.isoformat()} {e.name}" for e in table.events]
    writer.writerow(
        ["table", "rank", "name", "season points", "events", *[f"{h}: {c}" for h in heads for c in ("place", "points")],
         "not counted"]
    )  # fmt: skip
    for line in table.lines:
        cells = []
        for cell in line.cells:
            cells += ["", ""] if cell is None else [cell.place, exact(cell.points)]
        dropped = [heads[c.event] for c in line.cells if c is not None and not c.counted]
        writer.writerow(
            [word, line.standing.rank, line.name, exact(line.standing.points), len(line.standing.events), *cells,
             "; ".join(dropped)]
        )  # fmt: skip
