"""A played game's chart on its printed score sheet (drawn with svglib over the sheet's
background, or laid out by WeasyPrint when the sheet is), and none on a sheet of a game not played."""

import io

import pytest
from pypdf import PdfReader

from tests.test_charts_pages import play_hands
from tests.test_printing import pages_text, produce
from tournament.printing import draw
from tournament.printing.sheets import score_sheets

pytestmark = pytest.mark.django_db


def chart_words(text: str) -> bool:
    """Whether a page's text has the chart's axis titles and legend."""
    return all(word in text for word in ("Hand", "Score", "North–South: ", "East–West: ", "H4"))


def test_a_played_games_sheet_carries_its_chart_and_an_unplayed_ones_none(running_round, tournament):
    first = running_round.games.get(table__number=1)
    play_hands(first, 7, "misdeal", 6, 7, 7)  # 243 to 241 after hand 4
    data = produce(tournament, score_sheets(running_round))
    pages = pages_text(data)
    assert chart_words(pages[0]) and "Won by North–South" in pages[0]
    assert "North–South: Ada & " in pages[0]
    assert not any(chart_words(page) for page in pages[1:])
    # the chart's y axis: round steps of 100 from 0 to 300
    assert "300 200 100 0" in pages[0] or all(tick in pages[0] for tick in ("100", "200", "300"))


def test_a_laid_out_sheet_carries_the_chart_as_an_image(running_round, tournament, monkeypatch):
    play_hands(running_round.games.get(table__number=1), 7, 6, 7, 7)
    monkeypatch.setattr(draw, "can_set", lambda texts: False)
    document = score_sheets(running_round)
    assert document.contexts[0]["laid_out"][0]["chart_src"].startswith("data:image/svg+xml;base64,")
    data = produce(tournament, document)
    first = PdfReader(io.BytesIO(data)).pages[0]
    assert chart_words(" ".join(first.extract_text().split()))


def test_the_chart_takes_the_room_of_the_blank_rows(running_round):
    play_hands(running_round.games.get(table__number=1), 7, "misdeal", 6, 7, 7)
    played, planned = score_sheets(running_round).contexts[0]["sheets"][:2]
    assert [row.number for row in played["rows"]] == [1, 2, 2, 3, 4]  # the misdeal's hand dealt again
    assert played["chart"] and not planned["chart"]
    assert len(planned["rows"]) == 6  # 4 hands and room for a misdeal and a tie-break hand
