"""A knockout's documents: the bracket on one page, a score sheet for each match to play, and the
record of the matches played."""

from __future__ import annotations

from dataclasses import dataclass

from scoring.describe import summary
from tournament.formats.knockout.reports import bracket_view
from tournament.formats.knockout.services import BRACKET_STAGES, DOUBLE, knockout_round
from tournament.models import Game, Match, Tournament
from tournament.play.links import qr_svg, table_url
from tournament.printing import draw
from tournament.printing.documents import Document, base_context
from tournament.printing.sheets import game_sheets, sheets_document


def played_match_sheets(tournament: Tournament, base: str | None = None) -> Document:
    """The record of a knockout's finished matches: each game's score sheet filled in, in the
    order the matches finished (home North–South, away East–West, as the table's phone seats them)."""
    games = Game.objects.filter(
        match__tournament=tournament, match__status=Match.Status.FINISHED, match__stage__in=BRACKET_STAGES
    )
    games = games.select_related("match__home", "match__away").prefetch_related("match__home__players",
                                                                                "match__away__players")  # fmt: skip
    games = games.order_by("match__finished_order", "match_game")
    # No QR code: the table's link reaches the match now at that table, not this one.
    sheets = game_sheets(tournament, games, lambda game: game.match.seat_names(), None, linked=False)
    title = "Played matches"
    return sheets_document(tournament, "played-match-sheets", title, knockout_round(tournament), sheets)


BRACKET_PARTS = (("", ("winners", "third-place", "final")), ("Losers' bracket", ("losers",)))


# The bracket page's sizes at scale 1 (mm, or pt for fonts): what fits 32 teams of a double
# elimination on one page. A smaller field is drawn larger, up to BRACKET_MAX_SCALE.
BRACKET_MAX_SCALE = 2.0
BRACKET_PAGE = {"A4": (297.0, 210.0), "LETTER": (279.4, 215.9)}  # landscape: width, height
BRACKET_MARGINS = (16.0, 16.0)  # left and right, top and bottom (knockout/print_bracket.html)
BRACKET_HEADING = 13.0  # the event's name and the line under it
BRACKET_PART_TITLE = 5.0  # "Losers' bracket"
BRACKET_SIZES = {"font": 6.3, "title_font": 7.0, "key_font": 5.5, "score_font": 6.0, "row": 2.55, "pad": 0.2,
                 "key_room": 7.0, "gap": 1.2, "title_pad": 0.8}  # fmt: skip
BRACKET_BOX = 48.0  # a match's box's width
BRACKET_MIN_MARGIN = 0.25  # above and below a match's box: 0.5 mm between two


@dataclass(frozen=True)
class BracketLayout:
    """The bracket's sizes on the page for a given scale: each size of :data:`BRACKET_SIZES` times
    ``scale``, the boxes' width, and the height each part's columns share out."""

    scale: float
    box: float

    @property
    def sizes(self) -> dict[str, str]:
        return {name: f"{value * self.scale:.2f}" for name, value in BRACKET_SIZES.items()}

    @property
    def card(self) -> float:
        """A match's box's height: two lines and their padding, and room for the borders."""
        return 2 * (BRACKET_SIZES["row"] + 2 * BRACKET_SIZES["pad"]) * self.scale + 0.45

    @property
    def column_title(self) -> float:
        return BRACKET_SIZES["title_font"] * self.scale * 1.25 / draw.PT + BRACKET_SIZES["title_pad"] * self.scale

    def margin(self, cards: int, height: float) -> float:
        """The space above and below each of ``cards`` boxes spread evenly over ``height`` mm: each
        box midway between the two it follows from, as a bracket is drawn."""
        return max(BRACKET_MIN_MARGIN, (height / cards - self.card) / 2)


def bracket_layout(paper: str, parts: list[list[int]]) -> tuple[BracketLayout, list[float]]:
    """The largest layout (up to :data:`BRACKET_MAX_SCALE`, at least 1) in which ``parts`` (each
    its columns' numbers of matches) fit one landscape page of ``paper``, and each part's height."""
    if not parts:  # a league before its championship is drawn: no bracket yet
        return BracketLayout(1.0, BRACKET_BOX), []
    width, height = BRACKET_PAGE["A4" if paper == "A4" else "LETTER"]
    width, height = width - BRACKET_MARGINS[0], height - BRACKET_MARGINS[1] - BRACKET_HEADING
    widest = max((len(columns) for columns in parts), default=1)
    tallest = [max(columns, default=1) for columns in parts]
    titles = BRACKET_PART_TITLE * (len(parts) - 1)
    # 0.92: the heights above are estimates of WeasyPrint's line boxes; keep a little to spare
    room = (height - titles) * 0.92
    one = BracketLayout(1.0, BRACKET_BOX)
    by_height = room / sum(n * (one.card + 2 * BRACKET_MIN_MARGIN) + one.column_title for n in tallest)
    by_width = width / (widest * (BRACKET_BOX + 2 * BRACKET_SIZES["gap"]))
    scale = round(min(BRACKET_MAX_SCALE, max(1.0, min(by_height, by_width))), 2)
    box = min(BRACKET_BOX * scale, width / widest - 2 * BRACKET_SIZES["gap"] * scale - 1)
    layout = BracketLayout(scale, round(box, 1))
    cards = room - sum(layout.column_title for _ in parts)
    return layout, [cards * n / sum(tallest) for n in tallest]


def bracket_sheet(tournament: Tournament) -> Document:
    """The bracket on one landscape page (up to 32 teams): winners' side with the finals, then
    the losers' bracket of a double elimination, drawn as large as the page allows."""
    view = bracket_view(tournament)
    parts = []
    for title, stages in BRACKET_PARTS:
        columns = [c for c in view.columns if c.cards and c.cards[0].match.stage in stages]
        if columns:
            parts.append({"title": title if view.double else "", "columns": columns})
    layout, heights = bracket_layout(tournament.paper_size, [[len(c.cards) for c in p["columns"]] for p in parts])
    for part, height in zip(parts, heights, strict=True):
        part["columns"] = [{"column": c, "margin": f"{layout.margin(len(c.cards), height):.2f}"}
                           for c in part["columns"]]  # fmt: skip
    title = "Bracket"
    kind = "Double" if tournament.format == DOUBLE else "Single"  # a league's championship is a single one
    context = {**base_context(tournament, title), "view": view, "parts": parts, "box_mm": layout.box,
               "bracket_title": f"{kind}-elimination bracket",
               "card_mm": f"{layout.card:.2f}", "size": layout.sizes}  # fmt: skip
    return Document("bracket", title, "knockout/print_bracket.html", [context])


def match_sheets(tournament: Tournament, base: str | None = None) -> Document:
    """A score sheet for every match whose teams are known and that is not over, with its table's
    QR code and the time-limit rule."""
    view = bracket_view(tournament)
    sheets = []
    for card in [*view.playing, *view.ready]:
        card.match.tournament = tournament
        rules = card.match.rules
        table = card.match.table
        sheets.append({
            "match": card.match, "home": card.home, "away": card.away, "rules_line": summary(rules),
            "clock_rule": time_rule(rules.time_limit_minutes, card.match.best_of),
            "qr": qr_svg(table_url(table, base)) if table else "",
        })  # fmt: skip
    title = "Match score sheets"
    context = {**base_context(tournament, title), "sheets": sheets, "rows": range(1, 19), "cells": range(11)}
    return Document("match-sheets", title, "knockout/print_match_sheets.html", [context])


def time_rule(minutes: int | None, best_of: int) -> str:
    """The clock rule in our words (rule text 004, as settled), or "" without a time limit."""
    if not minutes:
        return ""
    text = (
        f"The match has {minutes} minutes. When the director calls time, the hand being played is finished; "
        "then the game ends and the higher score wins it. If the scores are equal, one more hand is played, "
        "and again until one side is ahead."
    )
    if best_of > 1:
        text += (
            " Games not yet started when time is called are not played: more games won takes the match, "
            "then more points."
        )
    return text
