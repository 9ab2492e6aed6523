"""The projector's themes: chosen in its address, the same on every format's projector, kept when
the address goes to the format's own projector, offered on the projector and the links page."""

import re

import pytest
from django.urls import reverse

from tests.conftest import make_tournament
from tests.events import knockout_under_way, league_in_season, swiss_under_way
from tournament.play.rounds import start_play, start_round
from tournament.standings.themes import chosen_theme

pytestmark = pytest.mark.django_db


def progressive_running():
    tournament = make_tournament()
    start_round(round_=start_play(tournament=tournament))
    return tournament


def progressive_seated():
    tournament = make_tournament()
    start_play(tournament=tournament)
    return tournament


EVENTS = {
    "progressive-running": (progressive_running, "public:projector"),
    "progressive-seated": (progressive_seated, "public:projector"),
    "knockout": (knockout_under_way, "public:bracket_projector"),
    "league": (league_in_season, "public:league_projector"),
    "swiss": (swiss_under_way, "public:swiss_projector"),
}


def body_class(html: str) -> str:
    return re.search(r'<body[^>]* class="([^"]*)"', html).group(1)


@pytest.mark.parametrize(
    ("value", "theme"),
    [(None, "dark"), ("", "dark"), ("dark", "dark"), ("light", "light"), ("contrast", "contrast"),
     ("Light", "dark"), ("neon", "dark"), ('"><script>', "dark")],
)  # fmt: skip
def test_the_address_chooses_a_known_theme_else_dark(value, theme):
    assert chosen_theme(value) == theme


@pytest.mark.parametrize("event", EVENTS)
def test_every_formats_projector_wears_the_theme_its_address_names(client, event):
    build, page = EVENTS[event]
    url = reverse(page, args=[build().pk])
    for query, theme in (("", "dark"), ("?theme=light", "light"), ("?theme=contrast", "contrast")):
        response = client.get(url + query)
        assert response.status_code == 200
        assert body_class(response.content.decode()) == f"projector theme-{theme}", query


def test_a_mistyped_theme_shows_the_dark_projector_and_repeats_nothing_of_it(client, tournament):
    response = client.get(reverse("public:projector", args=[tournament.pk]), {"theme": "<b>neon</b>"})
    html = response.content.decode()
    assert response.status_code == 200 and body_class(html) == "projector theme-dark"
    assert "neon" not in html


@pytest.mark.parametrize("event", ["knockout", "league", "swiss"])
def test_the_projector_address_keeps_its_theme_on_the_way_to_the_formats_own(client, event):
    build, page = EVENTS[event]
    tournament = build()
    response = client.get(reverse("public:projector", args=[tournament.pk]) + "?theme=contrast")
    assert response.status_code == 302
    assert response["Location"] == reverse(page, args=[tournament.pk]) + "?theme=contrast"


def test_the_projector_address_without_a_query_goes_to_the_formats_own_plainly(client):
    tournament = knockout_under_way()
    response = client.get(reverse("public:projector", args=[tournament.pk]))
    assert response["Location"] == reverse("public:bracket_projector", args=[tournament.pk])


def test_the_projector_offers_the_three_themes_marking_the_one_shown(client, tournament):
    url = reverse("public:projector", args=[tournament.pk])
    html = client.get(url, {"theme": "light", "page": "2"}).content.decode()
    nav = re.search(r'<nav class="projector-themes" aria-label="Projector theme">(.*?)</nav>', html, re.S).group(1)
    assert re.findall(r'<a href="([^"]+)"( aria-current="true")?>([^<]+)</a>', nav) == [
        ("?theme=dark", "", "Dark"), ("?theme=light", ' aria-current="true"', "Light"),
        ("?theme=contrast", "", "High contrast"),
    ]  # fmt: skip


def test_a_refresh_swaps_the_projector_alone_leaving_the_pages_theme(client, tournament):
    start_round(round_=start_play(tournament=tournament))
    url = reverse("public:projector", args=[tournament.pk])
    fragment = client.get(url, {"page": "2", "theme": "light"}, HTTP_HX_REQUEST="true").content.decode()
    assert fragment.lstrip().startswith('<div id="projector"') and "<body" not in fragment
    assert f'hx-get="{url}?page=' in fragment  # the next page, asked of the same page: the body keeps its class


def test_the_links_page_offers_the_projector_in_each_theme(director_client, running_round):
    tournament = running_round.tournament
    html = director_client.get(reverse("director:round_links", args=[tournament.pk, 1])).content.decode()
    projector = reverse("public:projector", args=[tournament.pk])
    assert re.findall(r'<a class="button" href="([^"]+)">([^<]+)</a>', html) == [
        (f"{projector}?theme=dark", "Dark"), (f"{projector}?theme=light", "Light"),
        (f"{projector}?theme=contrast", "High contrast"),
    ]  # fmt: skip
