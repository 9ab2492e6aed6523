"""The roster's rating column and a player's rating with its chart, at a phone's width and a
desktop's, as a director sees them."""

import pytest
from django.contrib.auth import get_user_model

from tests.conftest import DESKTOP, PHONE
from tests.test_ratings import _night, _play
from tournament.clubs.services import grant
from tournament.models import RosterPlayer

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

COUPLES = [("Ada", "Ben"), ("Cleo", "Dan"), ("Eve", "Finn"), ("Gina", "Hugo")]


def test_a_director_reads_ratings_on_the_roster_and_a_players_page(browser, live_server, screenshot):
    for week in range(5):  # five evenings, the couples' order turned so each meets the others
        night = _night(f"Week {week + 1}", 2 + 7 * week, COUPLES[week % 4 :] + COUPLES[: week % 4])
        _play(night, ns_tricks={1: 7 if week % 2 else 4, 2: 7})
    club = night.club
    grant(club=club, user=get_user_model().objects.create_user("olive", password="river-bend-42x"), role="owner")
    context = browser.new_context(viewport=DESKTOP, base_url=live_server.url)
    page = context.new_page()
    page.goto("/login/")
    page.fill("#id_username", "olive")
    page.fill("#id_password", "river-bend-42x")
    page.click("button[type=submit]")
    ada = RosterPlayer.objects.get(club=club, name="Ada")
    for name, url in (("ratings-roster", f"/clubs/{club.pk}/roster/"),
                      ("ratings-player", f"/clubs/{club.pk}/roster/{ada.pk}/")):  # fmt: skip
        page.goto(url)
        for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
            page.set_viewport_size(viewport)
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), f"{name} scrolls"
            screenshot(page, f"{name}-{size}")
    assert page.locator(".rating svg:visible").count() == 1  # the wide chart or the phone's, never both
    assert page.locator(".rating-history tbody tr").count() == 5
    page.set_viewport_size(PHONE)
    page.click("text=How ratings work")
    assert page.locator("h1").inner_text() == "How ratings work"
    screenshot(page, "ratings-about-phone")
    page.goto(f"/clubs/{club.pk}/")
    page.uncheck("#id_ratings_public")
    page.click("text=Save settings")
    assert page.locator("text=The club's settings are saved.").is_visible()
    assert not page.is_checked("#id_ratings_public")
    screenshot(page, "ratings-club-settings-phone")
    context.close()
    club.refresh_from_db()
    assert club.ratings_public is False
