"""A director runs an 8-team double elimination in a real browser (headless Chromium), with the
clock counting down on a phone at the table, to the champion and the payout sheet."""

import io
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from tests.conftest import COUPLES
from tests.test_browser_director import _log_in
from tests.test_browser_table import enter, save
from tests.test_knockout import win_game
from tournament.models import Match, Prize, Tournament
from tournament.money.services import record_payment
from tournament.teams.services import register_team

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HOME_WINS = ({"north": "5", "east": "2", "south": "5", "west": "2"}, {"north": 5, "east": 2, "south": 5, "west": 1})


def test_director_runs_an_eight_team_double_elimination_to_the_champion_and_the_payouts(
    desktop_page, phone_page, director, screenshot
):
    page = desktop_page
    _log_in(page, director)
    page.click("text=New tournament")
    page.fill("#id_name", "Friday Knockout")
    page.fill("#id_date", "2026-11-27")
    page.select_option("#id_preset", "league-300")
    page.select_option("#id_format", "double_elimination")
    page.select_option("#id_seating_order", "registration")
    page.fill("#id_entry_fee", "20")
    page.get_by_role("button", name="Save").click()
    page.wait_for_selector("text=Registration open")
    tournament = Tournament.objects.get(name="Friday Knockout")
    for first, second in COUPLES:
        team = register_team(tournament=tournament, names=[first, second])
        record_payment(team=team, amount=Decimal("20.00"), kind="payment", method="cash")
    Prize.objects.create(tournament=tournament, place=1, amount=Decimal("100.00"))
    Prize.objects.create(tournament=tournament, place=2, amount=Decimal("50.00"))

    page.reload()
    page.get_by_role("button", name="Draw the bracket and start").click()
    page.wait_for_selector("text=Now playing")
    assert page.locator("#bracket-board table.board tbody tr").count() == 4
    seventh, eighth = (tournament.teams.get(number=n) for n in (7, 8))
    page.locator("#swaps summary").click()  # before play: two teams exchange their places
    page.select_option("#id_swap-first", str(eighth.pk))
    page.select_option("#id_swap-second", str(seventh.pk))
    page.get_by_role("button", name="Swap the teams").click()
    page.wait_for_selector(f"text={eighth.names} and {seventh.names} swapped places in the bracket.")
    assert tournament.matches.get(key="W1-1").away == seventh
    page.locator("#bracket-board tr", has_text="Ada & Ben").get_by_role("button", name="Start clock").click()
    page.wait_for_selector("#bracket-board .clock-running")
    screenshot(page, "knockout-bracket-start")

    first = tournament.matches.get(key="W1-1")
    phone = phone_page
    phone.goto(f"/table/{first.table.token}/")
    clock = phone.locator(".table-clock .clock")
    before = clock.inner_text()
    expect(clock).not_to_have_text(before)  # the next tick
    assert before.startswith(("30:00", "29:5")) and clock.inner_text() < before  # it counts down
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(phone, "knockout-phone-clock")
    for number in (1, 2, 3):
        enter(phone, *HOME_WINS)
        save(phone, number)
        phone.wait_for_selector(f"text=Hand {number} saved.")
    phone.wait_for_selector("text=Game over")
    home = " & ".join(player.name for player in first.home.players.all())
    assert f"Game over: {home} win." in phone.inner_text("#entry")  # the names stay after each save

    while match := Match.objects.filter(tournament=tournament, status=Match.Status.PLAYING).first():
        win_game(match, home=match.home.number < match.away.number)

    page.reload()
    page.wait_for_selector("text=Champion:")
    champion = tournament.matches.filter(stage="final", status="finished").order_by("-round").first().winner
    assert champion.names in page.inner_text(".message.success")
    screenshot(page, "knockout-bracket-champion")

    page.click("nav >> text=Prizes")
    page.get_by_role("button", name="Work out the winners from the standings").click()
    page.wait_for_selector("text=Worked out 2 payouts")
    assert "$100.00" in page.inner_text("main")
    screenshot(page, "knockout-prizes")
    response = page.request.get(f"/t/{tournament.pk}/print/payouts/")
    from pypdf import PdfReader

    text = PdfReader(io.BytesIO(response.body())).pages[0].extract_text()
    assert champion.names in text and "$100.00" in text and "$50.00" in text
