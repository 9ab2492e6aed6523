"""Standings for everyone, the projector and "Find my seat": no login, live, a fixed number of queries."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.conftest import finish_game, make_tournament
from tests.events import swiss_under_way
from tests.test_knockout import knockout_event
from tests.test_league import make_league
from tournament.models import Player, Prize, Seating
from tournament.play.rounds import close_round, start_play, start_round
from tournament.standings.places import page_of

pytestmark = pytest.mark.django_db


def test_anyone_sees_live_standings_without_logging_in(client, finished_round, tournament):
    response = client.get(reverse("public:standings", args=[tournament.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Ranked by total points; then by rounds won" in html
    assert html.index("Ada") < html.index("Cleo")  # NS won at every table


def test_a_score_below_zero_has_a_true_minus_sign(client, running_round, tournament):
    for game in running_round.games.all():
        finish_game(game, ns_tricks=10)  # East–West bid 6 and take 3, four times
    html = client.get(reverse("public:standings", args=[tournament.pk])).content.decode()
    assert ">−" in html and not re.search(r">-\d", html)


@pytest.mark.parametrize(
    ("prize_division", "shown"), [("newcomer", True), ("", False)], ids=["a prize names it", "no prize names it"]
)
def test_standings_name_a_division_only_when_a_division_prize_names_it(
    client, finished_round, tournament, prize_division, shown
):
    Player.objects.filter(team__tournament=tournament, name="Ada").update(division="newcomer")
    Player.objects.filter(team__tournament=tournament, name="Ben").update(division="female")
    if prize_division:
        Prize.objects.create(tournament=tournament, kind=Prize.Kind.DIVISION, division=prize_division, amount=5)
    html = client.get(reverse("public:standings", args=[tournament.pk])).content.decode()
    assert ('<small class="muted">newcomer</small>' in html) is shown
    assert "female" not in html


def test_the_projector_standings_have_a_true_minus_sign(client, running_round, tournament):
    for game in running_round.games.all():
        finish_game(game, ns_tricks=10)
    html = client.get(reverse("public:projector", args=[tournament.pk])).content.decode()
    assert '<td class="pts">−' in html and not re.search(r">-\d", html)


def test_standings_fragment_polls_for_updates(client, running_round, tournament):
    response = client.get(reverse("public:standings", args=[tournament.pk]), HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert 'hx-trigger="every 10s"' in html and "<html" not in html


@pytest.mark.parametrize(
    "make_event", [make_tournament, knockout_event, make_league], ids=["progressive", "knockout", "league"]
)
def test_every_formats_projector_is_the_same_page_around_its_own_view(client, make_event):
    tournament = make_event()
    page = client.get(reverse("public:projector", args=[tournament.pk]), follow=True)
    html = page.content.decode()
    assert "public/_projector_page.html" in [t.name for t in page.templates]
    assert 'class="projector theme-dark"' in html and html.count(f"<h1>&spades; {tournament.name}</h1>") == 1
    assert html.count('id="projector"') == 1  # the format's own view, once, under the name


@pytest.mark.parametrize(
    "make_event",
    [make_tournament, knockout_event, make_league, swiss_under_way],
    ids=["progressive", "knockout", "league", "swiss"],
)
def test_every_formats_public_standings_link_to_the_clubs_seasons(client, make_event):
    tournament = make_event()
    html = client.get(reverse("public:standings", args=[tournament.pk]), follow=True).content.decode()
    seasons = reverse("public:seasons", args=[tournament.club_id])
    link = f"<a href=\"{seasons}\">The club's seasons and players' pages</a>"
    assert html.count(link) == 1


def test_projector_shows_the_top_and_the_tables_still_playing(client, running_round, tournament):
    finish_game(running_round.games.get(table__number=1))
    html = client.get(reverse("public:projector", args=[tournament.pk])).content.decode()
    assert "Table 1 · done" in html and "Table 2 · hand 1" in html


def test_projector_lists_each_table_done_tied_or_at_its_hand_in_table_order(client, running_round, tournament):
    games = {game.table.number: game for game in running_round.games.select_related("table")}
    finish_game(games[1])
    finish_game(games[2], hands=2, ns_tricks=7)
    finish_game(games[2], hands=2, ns_tricks=6)  # 71+71+60+60 v 60+60+71+71: level
    finish_game(games[3], hands=2)
    html = client.get(reverse("public:projector", args=[tournament.pk])).content.decode()
    assert re.findall(r'<li class="state-(\w+)">([^<]*)</li>', html) == [
        ("finished", "Table 1 · done"),
        ("tied", "Table 2 · tied"),
        ("playing", "Table 3 · hand 3"),
        ("playing", "Table 4 · hand 1"),
    ]


def test_projector_shows_the_rounds_clock_once_the_director_starts_it(client, running_round, tournament):
    from tournament.clocks.services import start_round_clock

    tournament.rule_overrides = {"time_limit_minutes": 20}
    tournament.save()
    url = reverse("public:projector", args=[tournament.pk])
    assert "data-clock" not in client.get(url).content.decode()
    start_round_clock(round_=running_round)
    html = client.get(url).content.decode()
    assert 'class="projector-clock"' in html and 'data-remaining="1' in html and "data-clock" in html


def test_projector_shows_the_next_rounds_seating_as_soon_as_it_is_seated(client, finished_round, tournament):
    following = close_round(round_=finished_round)
    html = client.get(reverse("public:projector", args=[tournament.pk])).content.decode()
    assert "Round 2: find your seat" in html
    ada = Seating.objects.select_related("table").get(round=following, player__name="Ada")
    partner = {"N": "S", "S": "N", "E": "W", "W": "E"}[ada.seat]
    partner_name = Seating.objects.get(round=following, table=ada.table, seat=partner).player.name
    row = html[html.index('<span class="name">Ada</span>') :].split("</li>")[0]
    assert f"Table {ada.table.number}" in row and ada.get_seat_display() in row and f"with {partner_name}" in row
    start_round(round_=following)
    html = client.get(reverse("public:projector", args=[tournament.pk])).content.decode()
    assert "find your seat" not in html and "Standings" in html


def test_projector_pages_through_every_entrant_by_itself(client, db):
    tournament = make_tournament(couples=12)  # 24 players: two pages of standings
    start_round(round_=start_play(tournament=tournament))
    url = reverse("public:projector", args=[tournament.pk])
    first = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert "page 1 of 2" in first and f'{url}?page=2"' in first and 'hx-trigger="every 10s"' in first
    second = client.get(url, {"page": 2}, HTTP_HX_REQUEST="true").content.decode()
    assert "page 2 of 2" in second and f'{url}?page=1"' in second
    names = {n for html in (first, second) for n in re.findall(r'<td class="name">([^<]+)</td>', html)}
    assert len(names) == 24
    assert "page 1 of 2" in client.get(url, {"page": "x"}).content.decode()


@pytest.mark.parametrize(
    ("count", "number", "expected", "pages", "following"),
    [(0, 1, [], 1, 1), (5, 1, [0, 1], 3, 2), (5, 3, [4], 3, 1), (5, 4, [0, 1], 3, 2), (4, 0, [0, 1], 2, 2)],
)
def test_pages_wrap_round_and_never_come_out_empty(count, number, expected, pages, following):
    page = page_of(list(range(count)), number, 2)
    assert (list(page.items), page.count, page.next_number) == (expected, pages, following)


def test_find_my_seat_gives_table_seat_partner_and_opponents(client, running_round, tournament):
    ada = Seating.objects.select_related("table").get(round=running_round, player__name="Ada")
    others = {s.seat: s.player.name for s in Seating.objects.filter(round=running_round, table=ada.table)}
    url = reverse("public:find_seat", args=[tournament.pk])
    html = client.get(url, {"q": " ad "}, HTTP_HX_REQUEST="true").content.decode()
    assert f"Table {ada.table.number} · {ada.get_seat_display()}" in html
    partner, opponents = {"N": ("S", "EW"), "E": ("W", "NS"), "S": ("N", "EW"), "W": ("E", "NS")}[ada.seat]
    assert f"Partner: <strong>{others[partner]}</strong>" in html
    assert f"Opponents: {others[opponents[0]]} &amp; {others[opponents[1]]}" in html
    assert "<html" not in html


def test_find_my_seat_matches_any_part_of_a_name_in_any_case(client, running_round, tournament):
    url = reverse("public:find_seat", args=[tournament.pk])
    html = client.get(url, {"q": "A"}).content.decode()  # a whole page without htmx
    assert "<html" in html and all(f"<h3>{n}</h3>" in html for n in ("Ada", "Dan", "Gina", "Kara", "Noah", "Paul"))
    assert "<h3>Ben</h3>" not in html
    missing = client.get(url, {"q": "Zed"}, HTTP_HX_REQUEST="true").content.decode()
    assert "No player in round 1 has “Zed” in their name" in missing


def test_find_my_seat_tells_a_player_who_sits_out(client, db):
    tournament = make_tournament(couples=5)
    round_ = start_play(tournament=tournament)
    resting = round_.sit_outs.select_related("player").first().player.name
    html = client.get(reverse("public:find_seat", args=[tournament.pk]), {"q": resting}).content.decode()
    assert "Sits out round 1" in html


def test_find_my_seat_before_seating_and_after_the_event(client, tournament):
    url = reverse("public:find_seat", args=[tournament.pk])
    assert "Round 1 is not seated yet" in client.get(url, {"q": "Ada"}).content.decode()
    assert "Find my seat" not in client.get(reverse("public:standings", args=[tournament.pk])).content.decode()


def test_the_standings_page_has_the_find_my_seat_box_while_a_round_is_on(client, running_round, tournament):
    html = client.get(reverse("public:standings", args=[tournament.pk])).content.decode()
    assert "Find my seat for round 1" in html and 'name="q"' in html
    assert 'hx-get="/s/' in html and 'action="/s/' in html


def test_public_pages_never_show_director_links(client, finished_round, tournament):
    html = client.get(reverse("public:standings", args=[tournament.pk])).content.decode()
    assert "/t/" not in html and "/admin/" not in html


def test_unknown_tournament_is_404(client, db):
    assert client.get(reverse("public:standings", args=[4242])).status_code == 404


def _queries(client, name: str, tournament) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(reverse(name, args=[tournament.pk])).status_code == 200
    return len(captured)


@pytest.mark.parametrize("name", ["public:standings", "public:projector", "public:find_seat"])
def test_standings_queries_do_not_grow_with_the_number_of_tables(client, name, db):
    counts = []
    for couples in (4, 12):
        tournament = make_tournament(couples=couples)
        round_ = start_play(tournament=tournament)
        start_round(round_=round_)
        for game in round_.games.all():
            finish_game(game, hands=1)
        counts.append(_queries(client, name, tournament))
    assert counts[0] == counts[1]
