"""Issue 9 in a phone's browser: the table says who deals first before hand 1."""

import pytest

from scoring import Seat
from tests.conftest import make_tournament
from tournament.play.rounds import start_play, start_round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def league_game():
    """Round 1 running under the league's rules (high card deals first, no table-talk penalty)."""
    tournament = make_tournament(couples=2, preset="league-300", split=False)
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    return round_.games.get()


def test_the_scorekeeper_enters_who_drew_the_high_card_before_hand_1(phone_page, league_game, screenshot):
    page = phone_page
    page.goto(f"/table/{league_game.table.token}/")
    drawn = Seat(league_game.first_dealer)
    assert page.inner_text("[data-dealer]") == f"dealer: {drawn.label}"
    assert page.inner_text(".penalties summary") == "Reneg"
    page.click("summary:has-text('Another dealer for hand 1?')")
    assert "the player who draws the high card" in page.inner_text(".first-dealer")
    screenshot(page, "table-first-dealer")
    chosen = drawn.after(2)
    page.select_option("#first-dealer", chosen.value)
    page.get_by_role("button", name="Change dealer").click()
    page.wait_for_selector(f"text={chosen.label} deals hand 1.")
    assert page.inner_text("[data-dealer]") == f"dealer: {chosen.label}"
    league_game.refresh_from_db()
    assert league_game.first_dealer == chosen
