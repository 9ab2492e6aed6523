"""A round change as the players see it (headless Chromium): the projector shows the new
seating, a player finds their seat on a phone, and the table's same link opens the new game."""

import pytest

from tests.conftest import PHONE, finish_game, make_tournament
from tournament.models import Seating
from tournament.play import phone
from tournament.play.rounds import close_round, start_play, start_round
from tournament.standings import views as public

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PROJECTOR = {"width": 1920, "height": 1080}


@pytest.fixture
def fast_pages(monkeypatch):
    """Refresh and page every second instead of every 10-15 s, so the test sees it happen."""
    monkeypatch.setattr(public, "PROJECTOR_REFRESH_SECONDS", 1)
    monkeypatch.setattr(phone, "WAITING_REFRESH_SECONDS", 1)


def test_a_round_change_as_the_players_see_it(browser, live_server, screenshot, fast_pages):
    tournament = make_tournament(couples=13)  # 26 players: an odd couple sits out, the seating pages
    first = start_play(tournament=tournament)
    start_round(round_=first)
    phone = browser.new_context(viewport=PHONE, base_url=live_server.url, has_touch=True, is_mobile=True).new_page()
    link = f"/table/{tournament.tables.get(number=2).token}/"
    phone.goto(link)
    assert "round 1" in phone.inner_text("header")

    for game in first.games.all():
        finish_game(game)
    following = close_round(round_=first)

    # The projector shows round 2's seating by itself, a page at a time.
    projector = browser.new_context(viewport=PROJECTOR, base_url=live_server.url).new_page()
    projector.goto(f"/s/{tournament.pk}/projector/")
    projector.wait_for_selector("text=Round 2: find your seat")
    assert "page 1 of 2" in projector.inner_text("h2")
    screenshot(projector, "projector-seating-1920")
    assert projector.evaluate("document.documentElement.scrollHeight <= window.innerHeight")
    projector.wait_for_selector("text=page 2 of 2")
    screenshot(projector, "projector-seating-1920-page2")

    # A player types part of her name on her phone and is told where to sit.
    seat = Seating.objects.select_related("table").get(round=following, player__name="Gina 2")
    finder = browser.new_context(viewport=PHONE, base_url=live_server.url, has_touch=True, is_mobile=True).new_page()
    finder.goto(f"/s/{tournament.pk}/")
    finder.fill("#seat-query", "gina 2")
    card = finder.wait_for_selector(".seat-card")
    assert f"Table {seat.table.number} · {seat.get_seat_display()}" in card.inner_text()
    assert finder.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(finder, "phone-find-my-seat")

    # The table's phone, on the same link, waits for round 2 and then opens its game by itself.
    phone.goto(link)
    phone.wait_for_selector("text=Round 2 is next")
    names = list(following.seatings.filter(table__number=2).values_list("player__name", flat=True))
    assert all(name in phone.inner_text(".seat-list") for name in names)
    screenshot(phone, "phone-table-waiting")
    start_round(round_=following)
    phone.wait_for_selector("header >> text=round 2", timeout=10_000)
    assert phone.url.endswith(link) and all(name in phone.content() for name in names)
    screenshot(phone, "phone-table-round-2")

    # Once round 2 is playing, the projector is back to the standings, paging through everyone.
    projector.wait_for_selector("h2 >> text=Standings", timeout=10_000)
    screenshot(projector, "projector-standings-1920")
    for page in (phone, finder, projector):
        page.context.close()
