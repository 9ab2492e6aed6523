"""The charts in a real browser: each page with a chart runs under the CSP without a violation,
at a phone's width, a desktop's and the projector's 1920×1080; the screenshots are saved under
/tmp/shots-charts/ for a person to look at."""

import os
import random

import pytest

from tests.conftest import make_tournament
from tests.test_charts_pages import play_hands
from tests.test_standings_after import play_rounds
from tournament.formats.league.simulation import create_league
from tournament.play.rounds import start_play, start_round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = "/tmp/shots-charts"
SIZES = {"phone": (360, 740), "desktop": (1280, 800), "projector": (1920, 1080)}


def csp_violations(page) -> list[str]:
    """Collects, as the page runs, every message the browser logs about the CSP."""
    found: list[str] = []
    page.on("console", lambda m: found.append(m.text) if "Content Security Policy" in m.text
            or "Content-Security-Policy" in m.text else None)  # fmt: skip
    return found


def shoot(page, name: str, size: str) -> None:
    width, height = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_load_state("networkidle")
    os.makedirs(SHOTS, exist_ok=True)
    page.screenshot(path=f"{SHOTS}/{name}-{size}.png", full_page=size != "projector")


def test_the_charts_show_under_the_csp_at_every_size(desktop_page, director):
    page = desktop_page
    violations = csp_violations(page)
    tournament = make_tournament(couples=12, preset="progressive-500", split=False, rounds_planned=4)
    play_rounds(tournament, 3, seed=5)
    round_4 = tournament.rounds.get(number=4)
    start_round(round_=round_4)
    game = round_4.games.get(table__number=1)
    rng = random.Random(3)
    play_hands(game, *(rng.choice((5, 6, 7, 8)) for _ in range(3)), "misdeal", 9, 4, 8, 7)
    page.goto("/login/")
    page.fill("#id_username", director.username)
    page.fill("#id_password", "correct-horse-battery")
    page.click("button[type=submit]")
    page.wait_for_url(lambda url: "/login/" not in url)

    page.goto(f"/t/{tournament.pk}/games/{game.pk}/")
    for size in ("phone", "desktop"):
        shoot(page, "game-director", size)
        assert page.locator("figure.chart svg[role=img] >> visible=true").count() == 1
    page.goto(f"/s/{tournament.pk}/")
    for size in ("phone", "desktop"):
        shoot(page, "places-public", size)
        # one drawing shown: the one for the screen's width
        assert page.locator("figure.chart svg >> visible=true").count() == 1
    page.click("text=Show as a table")
    shoot(page, "places-public-table", "desktop")
    page.goto(f"/s/{tournament.pk}/projector/?page=2")
    shoot(page, "places-projector", "projector")
    assert violations == []


def test_the_phone_shows_the_finished_games_chart(phone_page):
    page = phone_page
    violations = csp_violations(page)
    tournament = make_tournament(couples=4, preset="progressive-500", split=False)
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    game = round_.games.get(table__number=1)
    play_hands(game, 7, 8, "misdeal", 5, 9, 6, 7, 8, 7, 6, 8, 9, 7)
    game.refresh_from_db()
    assert game.is_finished
    page.goto(f"/table/{game.table.token}/")
    assert page.locator("figure.chart svg").count() == 1
    shoot(page, "game-phone", "phone")
    assert violations == []


def test_a_leagues_chart_of_places_by_night(desktop_page, director):
    page = desktop_page
    violations = csp_violations(page)
    tournament = create_league(teams=6, seed=9, championship=2)
    play_rounds(tournament, 4, seed=9)
    page.goto("/login/")
    page.fill("#id_username", director.username)
    page.fill("#id_password", "correct-horse-battery")
    page.click("button[type=submit]")
    page.wait_for_url(lambda url: "/login/" not in url)
    page.goto(f"/t/{tournament.pk}/league/table/")
    shoot(page, "league-director", "desktop")
    assert page.locator("figure.chart svg >> visible=true").count() == 1
    page.goto(f"/s/{tournament.pk}/league/")
    for size in ("phone", "desktop"):
        shoot(page, "league-public", size)
    assert violations == []
