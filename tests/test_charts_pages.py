"""The charts in the pages: the include (its SVG and its text alternative), the game chart on the
director's game page and the phone, standings over rounds on the public page and projector, a
league's positions by night."""

import re

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from scoring import HandEntry
from tests.conftest import even_hand
from tournament.charts.svg import Chart, Series
from tournament.models import Game
from tournament.play.hands import enter_hand


def test_the_include_draws_the_chart_and_lists_its_values_in_a_table():
    chart = Chart(
        title="Table 1 & 2",
        description="Each side's score after each hand.",
        x_labels=("H1", "H2"),
        series=(Series("Ann & Bo", (120, -30)), Series("Cy <Di>", (50.0, None))),
        x_title="Hand",
    )
    html = render_to_string("charts/_chart.html", {"chart": chart})
    assert html.count("<svg") == 1 and "style=" not in html
    hidden = html.split('<table class="visually-hidden">')[1].split("</table>")[0]
    assert "<caption>Table 1 &amp; 2</caption>" in hidden
    assert '<th scope="col">Ann &amp; Bo</th><th scope="col">Cy &lt;Di&gt;</th>' in hidden
    assert '<th scope="row">H1</th><td class="num">120</td><td class="num">50</td>' in hidden
    assert '<th scope="row">H2</th><td class="num">\u221230</td><td class="num">–</td>' in hidden
    assert "Show as a table" in html


# --- a game's chart ------------------------------------------------------------------------------


def play_hands(game, *tricks: int | str) -> None:
    """Hands at ``game`` in order: North–South taking that many tricks on bids of 3 each side
    (tests.conftest.even_hand), or a misdeal ("misdeal"), which the same hand number is dealt again after."""
    for taken in tricks:
        fields = {"misdeal": "no_spades"} if taken == "misdeal" else even_hand(taken)
        number = Game.next_number(game.hands.order_by("number", "deal").last())
        enter_hand(game=game, number=number, entry=HandEntry.from_fields(fields), source="table")


def values_table(html: str) -> list[list[str]]:
    """The rows of the chart's text alternative: the hand, then each side's score."""
    hidden = html.split('<table class="visually-hidden">')[1].split("</table>")[0]
    body = hidden.split("<tbody>")[1]
    return [re.findall(r">([^<]*)</t[hd]>", row) for row in body.split("</tr>") if "<th" in row]


@pytest.fixture
def game(running_round) -> Game:
    return running_round.games.get(table__number=1)


# NS 3+3 taking 7: 61 (a bag) to EW's 60; taking 6: 60 to EW's 61 (a bag). The misdeal scores nothing.
SCORES = [["H1", "61", "60"], ["H2", "121", "121"], ["H3", "182", "181"], ["H4", "243", "241"]]


def test_the_directors_game_page_charts_the_score_hand_by_hand(director_client, tournament, game):
    play_hands(game, 7, "misdeal", 6)
    page = director_client.get(reverse("director:game", args=[tournament.pk, game.pk])).content.decode()
    assert page.count("<svg") == 1 and 'role="img"' in page
    assert values_table(page) == SCORES[:2]
    assert "<caption>Table 1: the score after each hand</caption>" in page
    svg = page.split("<svg")[1].split("</svg>")[0]
    assert "style=" not in svg and "North–South: " in svg and "East–West: " in svg


def test_a_game_without_a_hand_has_no_chart(director_client, tournament, game):
    page = director_client.get(reverse("director:game", args=[tournament.pk, game.pk])).content.decode()
    assert "<svg" not in page and "The score hand by hand" not in page


def test_the_phone_shows_the_chart_once_the_game_is_over_and_not_before(client, game):
    url = reverse("table:page", args=[game.table.token])
    play_hands(game, 7, "misdeal", 6)
    assert "<svg" not in client.get(url).content.decode()
    play_hands(game, 7, 7)
    page = client.get(url).content.decode()
    assert "Game over" in page and page.count('<svg xmlns="http://www.w3.org/2000/svg" class="chart-svg"') == 1
    assert values_table(page) == SCORES
