"""A club's owner invites a director through a real browser; the invitee opens the link in a
browser of their own, makes an account and lands on the club's events."""

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.conftest import DESKTOP, PHONE, make_tournament
from tournament.clubs.services import create_club, grant
from tournament.models import ClubMember

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _both_sizes(page, screenshot, name: str) -> None:
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(viewport)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), f"{name} scrolls sideways"
        screenshot(page, f"{name}-{size}")


def test_an_owner_invites_a_director_who_signs_up_and_sees_the_clubs_events(browser, live_server, screenshot):
    olive = get_user_model().objects.create_user("olive", password="river-bend-42x")
    club = create_club(name="Riverside Spades", owner=olive)
    make_tournament(club=club, name="Thursday pairs", couples=4)
    grant(club=club, user=get_user_model().objects.create_user("dan"), role=ClubMember.Role.DIRECTOR)
    grant(club=club, user=get_user_model().objects.create_user("ann"), role=ClubMember.Role.ASSISTANT)
    owner = browser.new_context(viewport=DESKTOP, base_url=live_server.url)
    page = owner.new_page()
    page.goto("/login/")
    page.fill("#id_username", "olive")
    page.fill("#id_password", "river-bend-42x")
    page.click("button[type=submit]")
    page.goto(f"/clubs/{club.pk}/")
    assert page.locator("h1").inner_text() == "Riverside Spades"
    _both_sizes(page, screenshot, "club")
    page.select_option("#id_role", "director")
    page.click("text=Make the link")
    link = page.input_value("#one-use-link")
    assert link.startswith(live_server.url + "/join/")
    page.click("button[data-copy]")
    # The button says so once the clipboard has answered (a promise): wait for it, not a fixed time.
    expect(page.locator("button[data-copy]")).to_have_text(re.compile(r"^(Copied|Selected: copy it)$"))
    _both_sizes(page, screenshot, "club-invitation")
    owner.close()

    invitee = browser.new_context(viewport=PHONE, base_url=live_server.url, has_touch=True, is_mobile=True)
    phone = invitee.new_page()
    phone.goto(link)
    assert "Riverside Spades" in phone.locator("h1").inner_text()
    _both_sizes(phone, screenshot, "club-join")
    phone.set_viewport_size(PHONE)
    phone.fill("#id_username", "nina")
    phone.fill("#id_password1", "moonlit-spade-19")
    phone.fill("#id_password2", "moonlit-spade-19")
    phone.click("text=Make my account and join")
    phone.wait_for_url(live_server.url + "/")
    assert phone.locator("text=Thursday pairs").is_visible()
    assert "Welcome to Riverside Spades" in phone.locator("#messages").inner_text()
    phone.goto(link)
    assert "was used" in phone.locator("h1").inner_text()
    invitee.close()
