"""The charts in the pages: the include (its SVG and its text alternative), the game chart on the
director's game page and the phone, standings over rounds on the public page and projector, a
league's positions by night."""

import re

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from scoring import HandEntry
from tests.conftest import even_hand
from tests.test_standings_after import play_rounds
from tournament.charts.svg import Chart, Series
from tournament.formats.league.simulation import create_league
from tournament.formats.progressive.simulation import create_progressive
from tournament.formats.swiss.simulation import create_swiss
from tournament.models import Game
from tournament.play.hands import enter_hand
from tournament.review.publish import Hold
from tournament.standings import views as standings_views


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
    assert page.count("<svg") == 2 and 'role="img"' in page  # drawn for a desktop and for a phone
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


# --- standings over rounds -----------------------------------------------------------------------


@pytest.fixture
def two_rounds_played(db):
    """A progressive evening of 12 players (split partners), its two rounds played and closed; the
    standings as they were when each round closed."""
    tournament = create_progressive(couples=6, rounds=2, seed=11)
    seen = play_rounds(tournament, 2, seed=11)
    tournament.refresh_from_db()
    return tournament, seen


def expected_places(seen: list) -> list[list[str]]:
    """The chart's table as the standings at each close give it: a row a round, a column for each
    of the top 10 after the last round, each their place then."""
    top = seen[-1][:10]
    places = [{row.standing.entrant: row.standing.rank for row in rows} for rows in seen]
    return [[f"R{n}", *(str(at[row.standing.entrant]) for row in top)] for n, at in enumerate(places, start=1)]


def test_the_public_standings_chart_the_top_10s_places_after_each_round(client, two_rounds_played):
    tournament, seen = two_rounds_played
    page = client.get(reverse("public:standings", args=[tournament.pk])).content.decode()
    assert "Places after each round" in page
    assert values_table(page) == expected_places(seen)
    heads = page.split('<table class="visually-hidden">')[1].split("</thead>")[0]
    assert heads.count('scope="col"') == 11  # the round, then the top 10 of 12
    assert "style=" not in page.split("<svg")[1].split("</svg>")[0]


def test_before_a_round_closes_there_is_no_chart_of_places(client, tournament, running_round):
    page = client.get(reverse("public:standings", args=[tournament.pk])).content.decode()
    assert "Places after each round" not in page and "<svg" not in page


def test_the_projector_shows_the_chart_as_a_page_after_the_standings(client, two_rounds_played):
    tournament, seen = two_rounds_played
    url = reverse("public:projector", args=[tournament.pk])
    first = client.get(url).content.decode()
    assert "<svg" not in first and "?page=2" in first  # 12 players: the standings fit one page
    chart = client.get(url + "?page=2", headers={"HX-Request": "true"}).content.decode()
    assert values_table(chart) == expected_places(seen) and "?page=1" in chart


# --- a league's places by night -----------------------------------------------------------------


@pytest.fixture
def league_three_nights(db):
    """A league of 5 with nights 1 to 3 closed; the league table as it was when each closed."""
    tournament = create_league(teams=5, seed=12, championship=2)
    return tournament, play_rounds(tournament, 3, seed=12)


def test_a_leagues_pages_chart_every_teams_place_after_each_night(director_client, client, league_three_nights):
    tournament, seen = league_three_nights
    places = [{row.standing.entrant: row.standing.rank for row in rows} for rows in seen]
    expected = [[f"N{n}", *(str(at[row.standing.entrant]) for row in seen[-1])] for n, at in enumerate(places, 1)]
    for page in (
        director_client.get(reverse("director:league_table", args=[tournament.pk])),
        client.get(reverse("public:league", args=[tournament.pk])),
    ):
        html = page.content.decode()
        assert "Places after each night" in html
        assert values_table(html) == expected  # all 5 teams


def test_a_swiss_public_page_charts_the_top_10s_places_after_each_round(client, db):
    tournament = create_swiss(teams=12, rounds=3, seed=13)
    seen = play_rounds(tournament, 2, seed=13)
    page = client.get(reverse("public:swiss", args=[tournament.pk])).content.decode()
    assert "Places after each round" in page
    assert values_table(page) == expected_places(seen)


def test_the_chart_kept_in_the_snapshot_is_served_as_drawn(client, settings, two_rounds_played):
    settings.SPADES_SNAPSHOT_SECONDS = 60  # the second visit is served the kept chart
    tournament, seen = two_rounds_played
    url = reverse("public:standings", args=[tournament.pk])
    first, second = (client.get(url).content.decode() for _ in range(2))
    assert second.count('<svg xmlns="http://www.w3.org/2000/svg"') == 2  # the wide and the narrow drawing
    assert "&lt;svg" not in second and values_table(second) == values_table(first) == expected_places(seen)


def test_a_public_chart_leaves_out_the_rounds_held_back_for_checking(client, two_rounds_played, monkeypatch):
    tournament, seen = two_rounds_played
    # round 2 held back (its flags not checked yet, see tournament.review.publish)
    monkeypatch.setattr(standings_views, "public_hold", lambda t: Hold(1, "Round 2's results are being checked."))
    page = client.get(reverse("public:standings", args=[tournament.pk])).content.decode()
    assert values_table(page) == expected_places(seen[:1])
