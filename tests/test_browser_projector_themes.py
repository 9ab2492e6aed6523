"""The projector's three themes in a real browser (headless Chromium at 1920x1080): axe-core finds
no accessibility violation, contrast included, on any format's projector in any theme; the theme
stays through the projector's own paging and its links switch it."""

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.conftest import make_tournament
from tests.events import knockout_under_way, league_in_season, swiss_under_way
from tests.test_projector_themes import progressive_running, progressive_seated
from tournament.play.rounds import start_play
from tournament.standings import views as public
from tournament.standings.themes import THEMES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PROJECTOR = {"width": 1920, "height": 1080}
EVENTS = {
    "progressive-running": progressive_running,
    "progressive-seated": progressive_seated,
    "knockout": knockout_under_way,
    "league": league_in_season,
    "swiss": swiss_under_way,
}
# The page's background in each theme (app.css), as the browser computes it.
BACKGROUNDS = {"dark": "rgb(11, 18, 32)", "light": "rgb(255, 255, 255)", "contrast": "rgb(0, 0, 0)"}


@pytest.fixture
def projector(browser, live_server):
    context = browser.new_context(viewport=PROJECTOR, base_url=live_server.url)
    yield context.new_page()
    context.close()


def _violations(page) -> list[str]:
    """axe-core's every rule (WCAG 2 A and AA, contrast among them, and its best practices), run on
    the page as shown: each violation as its rule, impact and first elements."""
    results = Axe().run(page).response
    assert "color-contrast" in {rule["id"] for rule in results["passes"]}  # contrast was checked
    return [f"{v['id']} ({v['impact']}): {[node['target'] for node in v['nodes'][:3]]}" for v in results["violations"]]


@pytest.mark.parametrize("event", EVENTS)
def test_axe_finds_no_violation_on_the_projector_in_any_theme(projector, screenshot, event):
    tournament = EVENTS[event]()
    found = {}
    for theme in THEMES:
        projector.goto(f"/s/{tournament.pk}/projector/?theme={theme.name}")
        projector.wait_for_load_state("networkidle")
        assert projector.evaluate("getComputedStyle(document.body).backgroundColor") == BACKGROUNDS[theme.name]
        assert projector.evaluate("document.documentElement.scrollHeight <= window.innerHeight")  # never scrolled
        screenshot(projector, f"projector-{event}-{theme.name}-1920")
        found[theme.name] = _violations(projector)
    assert found == {theme.name: [] for theme in THEMES}


def test_the_theme_stays_through_the_paging_and_the_projectors_links_switch_it(projector, monkeypatch):
    monkeypatch.setattr(public, "PROJECTOR_REFRESH_SECONDS", 1)
    tournament = make_tournament(couples=13)  # 26 players: the seating takes two pages
    start_play(tournament=tournament)
    projector.goto(f"/s/{tournament.pk}/projector/?theme=light")
    projector.wait_for_selector("text=page 2 of 2")
    projector.wait_for_selector("text=page 1 of 2")  # round again: two refreshes later
    assert projector.evaluate("document.body.className") == "projector theme-light"
    projector.click("nav.projector-themes >> text=High contrast")
    projector.wait_for_url(f"**/s/{tournament.pk}/projector/?theme=contrast")
    assert projector.evaluate("getComputedStyle(document.body).backgroundColor") == BACKGROUNDS["contrast"]
    assert projector.get_attribute("nav.projector-themes a[aria-current]", "href") == "?theme=contrast"
