"""The director's clock in a real browser (headless Chromium), upright on a phone and on a desktop:
starting a timed round starts its clock, the board reads true once time is up, one table's
minutes left are set, and the knockout board says when each phone was last heard from."""

import datetime

import pytest
from django.utils import timezone

from scoring import HandEntry
from tests.conftest import DESKTOP, PHONE, even_hand, make_tournament
from tests.test_browser_director import _log_in
from tests.test_knockout import knockout_event, match
from tests.test_league import make_league
from tournament.clocks.services import start_match_clocks
from tournament.formats.registry import format_of
from tournament.models import Clock, HandRevision
from tournament.play.games import record_phone_report
from tournament.play.hands import enter_hand
from tournament.play.rounds import start_play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize(("size", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_a_timed_round_starts_with_its_clock_and_its_board_reads_true_after_time_is_up(
    browser, live_server, director, screenshot, size, viewport
):
    tournament = make_tournament(couples=8, rule_overrides={"time_limit_minutes": 20})
    round_ = start_play(tournament=tournament)
    context = browser.new_context(viewport=viewport, base_url=live_server.url)
    page = context.new_page()
    _log_in(page, director)
    page.goto(f"/t/{tournament.pk}/rounds/1/")
    assert page.get_by_label("Start the 20-minute clock now").is_checked()
    screenshot(page, f"clock-round-start-{size}")
    page.get_by_role("button", name="Start round 1").click()
    page.wait_for_selector("text=Round 1 has started. Its clock is running.")
    page.get_by_role("button", name="Pause the clock").wait_for()

    typing = page.get_by_role("spinbutton", name="Minutes left at table 3")
    typing.fill("7")
    page.evaluate("() => new Promise(done => document.body.addEventListener('htmx:afterSettle', done, {once: true}))")
    assert typing.input_value() == "7"  # the board refreshed itself around the box, not over it
    page.get_by_role("spinbutton", name="Minutes left at table 2").fill("4")
    page.get_by_role("button", name="Set the minutes left at table 2").click()
    page.wait_for_selector("text=Table 2's clock now has 4 minutes left.")
    assert _fits(page)
    screenshot(page, f"clock-round-set-left-{size}")

    Clock.objects.filter(games__round=round_).update(started_at=timezone.now() - datetime.timedelta(minutes=30))
    first = round_.games.get(table__number=1)
    enter_hand(game=first, number=1, entry=HandEntry.from_fields(even_hand(7)), source=HandRevision.Source.TABLE)
    page.reload()
    page.wait_for_selector("text=Time is up")
    assert page.get_by_role("button", name="Start the 20-minute clock").count() == 0
    assert "ended on time" in page.locator("#board tbody tr").first.inner_text()
    assert _fits(page)
    screenshot(page, f"clock-round-time-up-{size}")
    context.close()


@pytest.mark.parametrize(("size", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_a_league_night_starts_with_its_clock_and_says_when_time_is_up(
    browser, live_server, director, screenshot, size, viewport
):
    tournament = make_league(6)
    night = format_of(tournament).start(tournament=tournament)
    context = browser.new_context(viewport=viewport, base_url=live_server.url)
    page = context.new_page()
    _log_in(page, director)
    page.goto(f"/t/{tournament.pk}/league/nights/1/")
    assert page.get_by_label("Start the 30-minute clock now").is_checked()
    screenshot(page, f"clock-night-start-{size}")
    page.get_by_role("button", name="Start night 1").click()
    page.get_by_role("button", name="Pause the clock").wait_for()
    Clock.objects.filter(games__round=night).update(started_at=timezone.now() - datetime.timedelta(minutes=31))
    page.reload()
    page.wait_for_selector("text=Time is up")
    assert _fits(page)
    screenshot(page, f"clock-night-time-up-{size}")
    context.close()


@pytest.mark.parametrize(("size", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_the_knockout_board_says_when_each_phone_was_last_heard_from(
    browser, live_server, director, screenshot, size, viewport
):
    tournament = knockout_event(teams=8)
    start_match_clocks(tournament=tournament)
    record_phone_report(table=match(tournament, "W1-1").table, waiting=2)
    record_phone_report(table=match(tournament, "W1-2").table, waiting=0)
    context = browser.new_context(viewport=viewport, base_url=live_server.url)
    page = context.new_page()
    _log_in(page, director)
    page.goto(f"/t/{tournament.pk}/bracket/")
    page.wait_for_selector("text=2 hands waiting on the phone")
    assert page.locator("td.phone.bad").count() == 2  # tables 3 and 4: not heard from yet
    assert page.locator("#bracket-board .scroll-x").first.evaluate("box => box.scrollWidth - box.clientWidth") == 0
    screenshot(page, f"clock-knockout-board-{size}")
    context.close()
