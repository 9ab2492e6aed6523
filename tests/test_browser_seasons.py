"""A season in a real browser (headless Chromium): three simulated events (two of split partners,
one of fixed), the director makes them a season, and the season's standings and a player's page
show what each event's own standings give, worked out here by hand (issue 27)."""

from __future__ import annotations

import io
import random
import subprocess
from collections import defaultdict
from fractions import Fraction

import pytest
from pypdf import PdfReader

from tests.conftest import DESKTOP, PHONE
from tournament.formats.progressive.simulation import create_progressive
from tournament.formats.registry import format_of
from tournament.models import RosterPlayer
from tournament.play.rounds import close_round, start_round
from tournament.simulation.play import play_round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TABLE = [5, 3, 1]
SHOTS = "/tmp/shots-seasons"
VULGAR = {"½": Fraction(1, 2), "⅓": Fraction(1, 3), "⅔": Fraction(2, 3), "¼": Fraction(1, 4), "¾": Fraction(3, 4)}


def _played(seed: int, partners: str):
    """A progressive event of 4 couples, two rounds, played with random hands (the simulation's)."""
    rng = random.Random(seed)
    tournament = create_progressive(couples=4, rounds=2, seed=seed, partners=partners)
    round_ = tournament.rounds.get(number=1)
    while round_ is not None:
        start_round(round_=round_)
        play_round(round_, rng)
        round_ = close_round(round_=round_)
    return tournament


def _by_hand(tournaments) -> dict[str, Fraction]:
    """Each name's season points from the events' own standings: places sharing a rank split the
    points of the places they cover (ranks 2, 2 with 5/3/1: (3 + 1) / 2 = 2 each)."""
    season: dict[str, Fraction] = defaultdict(Fraction)
    for tournament in tournaments:
        rows = format_of(tournament).standings(tournament)
        for row in rows:
            sharing = sum(1 for other in rows if other.standing.rank == row.standing.rank)
            covered = [*TABLE, 0, 0, 0, 0, 0, 0, 0, 0][row.standing.rank - 1 : row.standing.rank - 1 + sharing]
            season[row.name] += Fraction(sum(covered), sharing)
    return dict(season)


def _number(text: str) -> Fraction:
    text = text.strip()
    tail = VULGAR.get(text[-1:]) if text else None
    return Fraction(text[:-1] or 0) + tail if tail is not None else Fraction(text)


def _log_in(page, director) -> None:
    page.goto("/login/")
    page.fill("#id_username", director.username)
    page.fill("#id_password", "correct-horse-battery")
    page.click("button[type=submit]")
    page.wait_for_url(lambda url: "/login/" not in url)


def test_a_season_of_three_simulated_events_ranks_as_their_standings_say(browser, live_server, director, screenshot):
    first, second, fixed = _played(1, "split"), _played(2, "split"), _played(3, "fixed")
    club = first.club
    expected_players, expected_teams = _by_hand([first, second]), _by_hand([fixed])

    context = browser.new_context(viewport=DESKTOP, base_url=live_server.url)
    page = context.new_page()
    _log_in(page, director)
    page.goto(f"/clubs/{club.pk}/seasons/")
    page.get_by_role("link", name="New season").click()
    page.fill("#id_name", "Winter Fridays")
    page.fill("#id_points_table", "5, 3, 1")
    for event in (first, second, fixed):
        page.check(f"input[name=events][value='{event.pk}']")
    page.screenshot(path=f"{SHOTS}/season-form.png", full_page=True)
    page.get_by_role("button", name="Save the season").click()
    page.wait_for_selector("text=Season Winter Fridays saved.")
    screenshot(page, "season-director")
    page.screenshot(path=f"{SHOTS}/season-desktop.png", full_page=True)

    tables = page.locator(".season-table")
    for table, expected in ((tables.nth(0), expected_players), (tables.nth(1), expected_teams)):
        rows = table.locator("tbody tr")
        shown = {}
        for n in range(rows.count()):
            cells = rows.nth(n).locator("td")
            name = cells.nth(1).locator("a").all_inner_texts()
            shown[" & ".join(name)] = _number(cells.nth(2).inner_text())
        if table == tables.nth(1):  # a team's people are listed in roster order, the event's name in its own
            expected = {" & ".join(sorted(k.split(" & "))): v for k, v in expected.items()}
            shown = {" & ".join(sorted(k.split(" & "))): v for k, v in shown.items()}
        assert shown == expected
        points = list(shown.values())
        assert points == sorted(points, reverse=True)  # best first

    # The season's PDF, as the director prints it.
    pdf = page.request.get(f"/clubs/{club.pk}/seasons/{page.url.rstrip('/').split('/')[-1]}/print/")
    assert pdf.headers["content-type"] == "application/pdf"
    with open(f"{SHOTS}/season.pdf", "wb") as out:
        out.write(pdf.body())
    text = PdfReader(io.BytesIO(pdf.body())).pages[0].extract_text()
    assert "Winter Fridays: season standings" in text
    subprocess.run(["pdftoppm", "-png", "-r", "80", f"{SHOTS}/season.pdf", f"{SHOTS}/season-pdf"], check=False)
    season_url = page.url
    context.close()

    # Everyone's pages: the season on a phone, the projector, a player's page.
    season_id = season_url.rstrip("/").split("/")[-1]
    phone = browser.new_context(viewport=PHONE, base_url=live_server.url, has_touch=True, is_mobile=True)
    public = phone.new_page()
    public.goto(f"/c/{club.pk}/seasons/{season_id}/")
    public.screenshot(path=f"{SHOTS}/season-phone.png", full_page=True)
    leader = public.locator(".season-table").first.locator("tbody tr").first.locator("td a").first
    name = leader.inner_text()
    leader.click()
    public.wait_for_selector(f"h1:has-text('{name}')")
    public.screenshot(path=f"{SHOTS}/player-phone.png", full_page=True)
    person = RosterPlayer.objects.get(club=club, name=name)
    history = public.locator("table.history:not(.rating-history) tbody tr")  # the events, not the ratings
    played = [e for e in (first, second, fixed) if e.teams.filter(players__roster=person).exists()]
    assert history.count() == len(played)
    for row, event in zip(
        range(history.count()), sorted(played, key=lambda e: (e.date, e.pk), reverse=True), strict=True
    ):
        rows = format_of(event).standings(event)
        mine = next(r for r in rows if r.name == name or name in r.name.split(" & "))
        cells = history.nth(row).locator("td")
        assert cells.nth(1).inner_text().startswith(event.name)
        assert cells.nth(3).inner_text().endswith(f"of {len(rows)}")
        assert int(cells.nth(3).inner_text().split()[0].rstrip("stndrh")) == mine.standing.rank
    phone.close()

    projector = browser.new_context(viewport={"width": 1920, "height": 1080}, base_url=live_server.url)
    screen = projector.new_page()
    screen.goto(f"/c/{club.pk}/seasons/{season_id}/projector/")
    screen.wait_for_selector(".projector-table")
    screen.screenshot(path=f"{SHOTS}/season-projector.png")
    assert screen.locator(".projector-table tbody tr td.name").first.inner_text() in expected_players
    projector.close()
