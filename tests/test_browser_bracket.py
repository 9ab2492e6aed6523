"""The bracket on a phone: the public tables keep their words whole; the director's matches playing
fit a phone held upright, clocks and their buttons in sight."""

import pytest

from tests.test_browser_director import _log_in
from tests.test_knockout import knockout_event, match, win_game
from tournament.clocks.services import start_match_clocks

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Line boxes per header cell: a word broken inside ("Clo" / "ck") makes more lines than words.
LINES_NOT_MORE_THAN_WORDS = """() => [...document.querySelectorAll('table.board th')].filter(th => {
  const range = document.createRange(); range.selectNodeContents(th);
  return range.getClientRects().length > th.textContent.trim().split(/[\\s–-]+/).length;
}).map(th => th.textContent.trim())"""


def test_the_matches_playing_keep_their_words_whole_on_a_phone(phone_page):
    tournament = knockout_event(teams=5)
    phone_page.goto(f"/s/{tournament.pk}/bracket/")
    assert phone_page.locator("table.board").count() == 1
    assert phone_page.evaluate(LINES_NOT_MORE_THAN_WORDS) == []


UPRIGHT = {"width": 390, "height": 844}


def test_the_directors_matches_playing_fit_a_phone_held_upright_with_their_clocks(
    browser, live_server, director, screenshot
):
    tournament = knockout_event(teams=8, best_of=3)
    win_game(match(tournament, "W1-1"))
    start_match_clocks(tournament=tournament)
    context = browser.new_context(viewport=UPRIGHT, base_url=live_server.url, has_touch=True, is_mobile=True)
    page = context.new_page()
    _log_in(page, director)
    page.goto(f"/t/{tournament.pk}/bracket/")
    rows = page.locator("#bracket-board table.playing tbody tr")
    assert rows.count() == 4
    assert page.evaluate("document.documentElement.scrollWidth") <= UPRIGHT["width"]
    assert page.locator("#bracket-board .scroll-x").evaluate("box => box.scrollWidth - box.clientWidth") == 0
    for row in rows.all():
        for part in (row.locator(".clock").first, row.get_by_role("button", name="Pause"), row.locator("td.side")):
            for box in [part.nth(i).bounding_box() for i in range(part.count())]:
                assert box["x"] >= 0 and box["x"] + box["width"] <= UPRIGHT["width"]
    assert "Quarter-final, match 1" in rows.first.inner_text()
    side = rows.first.locator("td.side").first.evaluate("td => getComputedStyle(td, '::before').content")
    assert side == '"N–S "'  # the column heads are hidden: each team says its side
    screenshot(page, "knockout-board-phone")
    context.close()
