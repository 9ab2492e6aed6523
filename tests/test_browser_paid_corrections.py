"""A director corrects a hand after the prizes are paid, in a real browser (headless Chromium)."""

import pytest

from tests.conftest import DESKTOP, PHONE
from tests.test_browser_director import _log_in
from tests.test_paid_corrections import paid  # noqa: F401 (the event whose first prize is paid)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_correction_moving_a_paid_prize_is_confirmed_then_listed_to_review(desktop_page, director, paid, screenshot):  # noqa: F811
    page = desktop_page
    _log_in(page, director)
    game = paid.rounds.get(number=1).games.get(table__number=2)
    page.goto(f"/t/{paid.pk}/games/{game.pk}/?hand=1")
    page.fill("#id_north_tricks", "6")
    page.fill("#id_east_tricks", "1")
    page.get_by_role("button", name="Save hand").click()
    warning = page.locator("#paid-moves")
    warning.wait_for()
    assert "This correction moves prizes already paid" in warning.inner_text()
    assert warning.locator("tbody tr").count() == 2
    screenshot(page, "paid-correction-warning-desktop")
    page.set_viewport_size(PHONE)
    screenshot(page, "paid-correction-warning-phone")
    page.set_viewport_size(DESKTOP)

    page.get_by_role("button", name="Save the correction anyway").click()
    page.wait_for_selector(".message.warning")
    assert "2 payouts already paid belong to someone else" in page.inner_text(".message.warning")
    assert game.hands.get(number=1).north_tricks == 6

    page.click("nav >> text=Prizes")
    review = page.locator("#to-review")
    review.wait_for()
    assert review.locator("tbody tr").count() == 2
    screenshot(page, "paid-correction-review-desktop")
    page.set_viewport_size(PHONE)
    screenshot(page, "paid-correction-review-phone")
