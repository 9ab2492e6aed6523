"""Standings for everyone and the projector: no login, live, a fixed number of queries."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.conftest import finish_game, make_tournament
from tournament import services

pytestmark = pytest.mark.django_db


def test_anyone_sees_live_standings_without_logging_in(client, finished_round, tournament):
    response = client.get(reverse("public:standings", args=[tournament.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Ranked by total points; then by rounds won" in html
    assert html.index("Ada") < html.index("Cleo")  # NS won at every table


def test_standings_fragment_polls_for_updates(client, running_round, tournament):
    response = client.get(reverse("public:standings", args=[tournament.pk]), HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert 'hx-trigger="every 10s"' in html and "<html" not in html


def test_projector_shows_the_top_and_the_tables_still_playing(client, running_round, tournament):
    finish_game(running_round.games.get(table__number=1))
    html = client.get(reverse("public:projector", args=[tournament.pk])).content.decode()
    assert "Table 1 · done" in html and "Table 2 · hand 1" in html


def test_public_pages_never_show_director_links(client, finished_round, tournament):
    html = client.get(reverse("public:standings", args=[tournament.pk])).content.decode()
    assert "/t/" not in html and "/admin/" not in html


def test_unknown_tournament_is_404(client, db):
    assert client.get(reverse("public:standings", args=[4242])).status_code == 404


def _queries(client, name: str, tournament) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(reverse(name, args=[tournament.pk])).status_code == 200
    return len(captured)


@pytest.mark.parametrize("name", ["public:standings", "public:projector"])
def test_standings_queries_do_not_grow_with_the_number_of_tables(client, name, db):
    counts = []
    for couples in (4, 12):
        tournament = make_tournament(couples=couples)
        round_ = services.seat_first_round(tournament=tournament)
        services.start_round(round_=round_)
        for game in round_.games.all():
            finish_game(game, hands=1)
        counts.append(_queries(client, name, tournament))
    assert counts[0] == counts[1]
