"""A director logs in through a real browser, at phone and desktop sizes."""

import pytest
from django.core.management import call_command

from tournament.simulation.demo import DEMO_PASSWORD, DEMO_USERNAME

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("page_fixture", ["phone_page", "desktop_page"])
def test_director_logs_in_and_opens_the_demo_tournament(request, page_fixture, screenshot):
    call_command("demo")
    page = request.getfixturevalue(page_fixture)
    page.goto("/")
    assert "/login/" in page.url
    page.fill("#id_username", DEMO_USERNAME)
    page.fill("#id_password", DEMO_PASSWORD + "x")
    page.click("button[type=submit]")
    assert page.locator(".error").is_visible()  # a wrong password is refused, in words
    page.fill("#id_password", DEMO_PASSWORD)
    page.click("button[type=submit]")
    page.click("text=Friday Night Progressive (demo)")
    assert page.locator("h1").inner_text() == "Friday Night Progressive (demo)"
    assert page.evaluate("typeof htmx") == "object"  # htmx loaded from the app itself
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, f"dashboard-{page_fixture}")
