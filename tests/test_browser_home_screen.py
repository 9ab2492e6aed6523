"""In a real browser (headless Chromium): the table page's web app manifest parses without an
error, and Chromium reads from it the name, start page and icons a home-screen icon gets."""

import pytest

from tests.conftest import PHONE
from tournament.play.rounds import start_play, start_round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _manifest(page) -> dict:
    """What Chromium's own parser made of the page's manifest (the DevTools protocol's)."""
    return page.context.new_cdp_session(page).send("Page.getAppManifest")


@pytest.mark.parametrize("running", [True, False], ids=["round-running", "between-rounds"])
def test_chromium_parses_the_table_manifest_without_an_error(browser, live_server, tournament, screenshot, running):
    round_ = start_play(tournament=tournament)
    if running:
        start_round(round_=round_)
    token = tournament.tables.get(number=3).token
    context = browser.new_context(viewport=PHONE, base_url=live_server.url, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(f"/table/{token}/")
    page.wait_for_load_state("networkidle")
    manifest = _manifest(page)
    assert manifest["url"] == f"{live_server.url}/table/{token}/manifest.webmanifest"
    assert manifest["errors"] == []
    parsed, link = manifest["manifest"], f"{live_server.url}/table/{token}/"
    assert (parsed["name"], parsed["startUrl"], parsed["id"], parsed["scope"], parsed["display"]) == (
        "Table 3 · Club night", link, link, link, "kStandalone"
    )  # fmt: skip
    assert sorted(icon["sizes"] for icon in parsed["icons"]) == ["192x192", "512x512", "512x512"]
    screenshot(page, f"table-{'running' if running else 'waiting'}-360")  # the manifest changes nothing on it
    context.close()
