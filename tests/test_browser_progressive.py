"""Issue 23 in a browser: a 13-couple evening's standings, on the page and as printed, say what a
sitter-out was credited with and which round a tie-breaking hand decided."""

import io
import os

import pytest
from pypdf import PdfReader

from tests.conftest import ARTIFACTS, PHONE, finish_game, make_tournament, tie_then_break
from tournament.play.rounds import close_round, start_play, start_round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
FULL_HD = {"width": 1920, "height": 1080}


@pytest.fixture
def thirteen_couples():
    """Two rounds of a 13-couple evening (six tables, a couple sitting out each round): table 1's
    round 1 tied after four hands and North–South won the fifth; North–South win every other table."""
    tournament = make_tournament(couples=13, rounds_planned=2)
    round_ = start_play(tournament=tournament)
    for number in (1, 2):
        start_round(round_=round_)
        for game in round_.games.order_by("table__number"):
            if number == 1 and game.table.number == 1:
                tie_then_break(game)
            else:
                finish_game(game)
        round_ = close_round(round_=round_)
    return tournament


def test_the_standings_show_the_sit_out_credit_and_the_tie_breaking_hand(
    browser, live_server, director, thirteen_couples, screenshot
):
    tournament = thirteen_couples
    context = browser.new_context(viewport=FULL_HD, base_url=live_server.url)
    page = context.new_page()
    page.goto("/login/")
    page.fill("#id_username", director.username)
    page.fill("#id_password", "correct-horse-battery")
    page.click("button[type=submit]")
    page.wait_for_url(lambda url: "/login/" not in url)

    page.goto(f"/t/{tournament.pk}/standings/")
    notes = page.locator(".standing-notes li").all_inner_texts()
    # Round 1: Iris 2 and Jack 2 (the 13th couple) sat out; round 2: table 1's losers of round 1.
    assert notes == [
        "* Round 1: sat out: +242, average",
        "\u2020 Round 1: tie broken by hand 5, not counted",
        "* Round 2: sat out: +242, average",
    ]
    tied = page.locator("td.round-col[title='tie broken by hand 5, not counted']")
    assert tied.count() == 4 and tied.first.inner_text() == "242\u2020"
    assert page.locator("td.round-col[title='sat out: +242, average']").count() == 4
    assert "A player sitting out a round is credited with the round's average side score" in page.inner_text("main")
    screenshot(page, "progressive-13-couples-standings-desktop")

    page.set_viewport_size(PHONE)
    page.goto(f"/s/{tournament.pk}/")
    assert page.locator(".standing-notes").is_visible()
    assert page.locator(".standing-notes li").all_inner_texts() == notes
    screenshot(page, "progressive-13-couples-standings-phone")

    printed = page.request.get(f"/t/{tournament.pk}/print/standings/")
    assert printed.headers["content-type"] == "application/pdf"
    os.makedirs(ARTIFACTS, exist_ok=True)
    with open(os.path.join(ARTIFACTS, "progressive-13-couples-standings.pdf"), "wb") as file:
        file.write(printed.body())
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(printed.body())).pages)
    for note in notes:
        assert note in text
    assert "242\u2020" in text and "242*" in text
    context.close()
