"""The director's desk pages this work changed, in headless Chromium at phone and desktop sizes:
registration with the roster's names offered as they are typed, check-in with the fee, the fee
ledger, a person's history, a substitute, and a game's disputes on both screens."""

from decimal import Decimal

import pytest
from django.urls import reverse

from scoring import HandEntry
from tests.conftest import DESKTOP, PHONE, even_hand, finish_game, make_tournament
from tests.test_browser_director import _log_in
from tests.test_roster import last_week  # noqa: F401 - a fixture
from tournament.models import HandRevision, Payment, RosterPlayer
from tournament.money.services import record_payment
from tournament.play.games import flag_dispute, resolve_dispute
from tournament.play.hands import enter_hand
from tournament.play.rounds import close_round, start_play, start_round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.fixture
def evening(last_week, director):  # noqa: F811 - the fixture imported above
    tonight = make_tournament(couples=6, name="Tonight")
    for number, method in ((1, "cash"), (2, "card")):
        team = tonight.teams.get(number=number)
        record_payment(team=team, amount=Decimal("20.00"), kind="payment", method=method, by=director)
    record_payment(team=tonight.teams.get(number=1), amount=Decimal("5.00"), kind=Payment.Kind.REFUND,
                            method="cash", note="student rate", by=director)  # fmt: skip
    return tonight


def test_the_desk_at_phone_and_desktop_sizes(browser, live_server, director, evening, screenshot):
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page = browser.new_context(viewport=viewport, base_url=live_server.url).new_page()
        _log_in(page, director)
        page.goto(f"/t/{evening.pk}/teams/")
        page.fill("#id_first", "Ad")
        page.wait_for_selector("#roster-first option", state="attached")
        assert page.get_attribute("#roster-first option", "value") == "Ada"
        page.fill("#id_first", "")
        assert _fits(page) or size == "desktop"
        screenshot(page, f"{size}-teams-desk")
        page.goto(f"/t/{evening.pk}/fees/")
        assert "student rate" in page.inner_text("table.money-list")
        screenshot(page, f"{size}-fees-ledger")
        ada = RosterPlayer.objects.get(name="Ada")
        page.goto(reverse("director:roster_player", args=[ada.club_id, ada.pk]))
        assert "Last week" in page.inner_text("table.history")
        assert _fits(page)
        screenshot(page, f"{size}-roster-history")
        page.context.close()


def test_check_in_with_the_fee_in_one_press(browser, live_server, director, evening, screenshot):
    page = browser.new_context(viewport=DESKTOP, base_url=live_server.url).new_page()
    _log_in(page, director)
    page.goto(f"/t/{evening.pk}/teams/")
    page.get_by_role("button", name="Team 3 is here and paid $20.00 cash").click()
    page.wait_for_selector("text=Team 3 is checked in, paid $20.00 cash.")
    team = evening.teams.get(number=3)
    assert team.payments.get().amount == Decimal("20.00")
    screenshot(page, "desktop-teams-after-check-in")
    page.context.close()


def test_checking_in_a_team_far_down_the_list_leaves_the_page_where_it_was(desktop_page, director):
    page = desktop_page
    tournament = make_tournament(couples=30)
    _log_in(page, director)
    page.goto(f"/t/{tournament.pk}/teams/")
    paid = page.get_by_role("button", name="Team 28 is here and paid $20.00 cash")
    paid.scroll_into_view_if_needed()
    scrolled = page.evaluate("window.scrollY")
    assert scrolled > 500
    paid.click()
    page.wait_for_selector("text=Team 28 is checked in, paid $20.00 cash.")
    assert page.evaluate("window.scrollY") >= scrolled  # not sent back up to the registration form
    assert page.evaluate("document.activeElement.id") != "id_first"


def test_a_substitute_and_the_disputes_of_a_game(browser, live_server, director, evening, screenshot):
    round_ = start_play(tournament=evening)
    start_round(round_=round_)
    game = round_.games.get(table__number=1)
    enter_hand(game=game, number=1, entry=HandEntry.from_fields(even_hand(7)), source=HandRevision.Source.TABLE)
    hand = game.hands.get()
    flag_dispute(hand=hand, note="EW say they took 7")
    resolve_dispute(hand=hand, resolution="Counted again: 6 stands", by=director)
    flag_dispute(hand=hand, note="North bid 4, not 3")

    phone = browser.new_context(viewport=PHONE, base_url=live_server.url).new_page()
    _log_in(phone, director)
    phone.goto(f"/t/{evening.pk}/teams/{evening.teams.get(number=2).pk}/substitute/")
    phone.check("input[name=player] >> nth=0")
    phone.fill("#id_substitute", "Zoe Park")
    screenshot(phone, "phone-substitute")
    phone.get_by_role("button", name="Substitute").click()
    phone.wait_for_selector("text=Zoe Park plays for Cleo from round 2")
    phone.goto(f"/table/{game.table.token}/")
    phone.wait_for_selector(".dispute-list")
    assert "Settled: “Counted again: 6 stands”" in phone.inner_text(".dispute-list")
    assert _fits(phone)
    screenshot(phone, "phone-table-disputes")

    desk = browser.new_context(viewport=DESKTOP, base_url=live_server.url).new_page()
    _log_in(desk, director)
    desk.goto(f"/t/{evening.pk}/games/{game.pk}/")
    text = desk.inner_text(".dispute-list")
    assert "by dee at" in text and "Waiting for the director" in text
    screenshot(desk, "desktop-game-disputes")
    for page in (phone, desk):
        page.context.close()


def test_a_rule_change_during_play_is_shown_before_it_is_made(browser, live_server, director, screenshot):
    tournament = make_tournament(couples=4)
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    for game in round_.games.all():
        finish_game(game)
    close_round(round_=round_)
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page = browser.new_context(viewport=viewport, base_url=live_server.url).new_page()
        _log_in(page, director)
        page.goto(f"/t/{tournament.pk}/edit/")
        page.fill("#id_rule_overrides", '{"overtrick_points": 0}')
        page.get_by_role("button", name="Save").click()
        page.wait_for_selector("text=Change the rules during play?")
        assert "Closed round 1 is among them" in page.inner_text("main")
        screenshot(page, f"{size}-rule-change-preview")
        page.context.close()
    tournament.refresh_from_db()
    assert tournament.rule_overrides == {}
