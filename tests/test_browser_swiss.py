"""A director runs a 9-team, 4-round Swiss in a real browser (headless Chromium), every game
scored on phones through the tables' links: a swap before round 1 starts, a late team joining
before round 2, a withdrawal before round 3, and each round's tables in rank order (issue 26)."""

import pytest

from tests.conftest import PHONE
from tests.test_browser_league import BIDS, TRICKS, _flipped, _log_in
from tests.test_swiss import make_swiss
from tournament.formats.swiss.standings import swiss_matches, swiss_standings
from tournament.models import Match, Team, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDE = {"width": 1920, "height": 1080}


def _tables_in_rank_order(tournament: Tournament, number: int) -> list[tuple[int, int]]:
    """Round ``number``'s pairings by team number, table 1 first; each table's better-ranked team
    (the standings the round was paired from) ranks below the one at the table before it."""
    rank = {line.row.team: place for place, line in enumerate(swiss_standings(tournament).lines)}
    matches = list(swiss_matches(tournament).filter(round=number).exclude(status=Match.Status.BYE).order_by("number"))
    assert [m.table.number for m in matches] == list(range(1, len(matches) + 1))
    tops = [min(rank[m.home_id], rank[m.away_id]) for m in matches]
    assert tops == sorted(tops), tops
    return [(m.home.number, m.away.number) for m in matches]


def _phone_plays(phones: dict, browser, live_server, match: Match) -> None:
    """The phone at the match's table (its link is the table's for the whole event) enters hands
    until the game is over; the lower-numbered team wins."""
    table = match.table.number
    if table not in phones:
        context = browser.new_context(viewport=PHONE, base_url=live_server.url, has_touch=True, is_mobile=True)
        phones[table] = context.new_page()
    phone = phones[table]
    phone.goto(f"/table/{match.table.token}/")
    home_wins = match.home.number < match.away.number
    bids, tricks = (BIDS, TRICKS) if home_wins else (_flipped(BIDS), _flipped(TRICKS))
    for number in (1, 2, 3):
        for seat, bid in bids.items():
            phone.select_option(f"#id_{seat}_bid", bid)
        for seat, took in tricks.items():
            phone.fill(f"#id_{seat}_tricks", str(took))
        phone.get_by_role("button", name=f"Save hand {number}").click()
        phone.wait_for_selector(f"text=Hand {number} saved.")


def _play_round(page, phones, browser, live_server, tournament: Tournament, number: int) -> None:
    page.goto(f"/t/{tournament.pk}/swiss/")
    page.get_by_role("button", name=f"Start round {number}").click()
    page.wait_for_selector(f"text=Round {number} has started.")
    playing = swiss_matches(tournament).filter(round=number, status=Match.Status.PLAYING)
    for match in playing.select_related("home", "away", "table"):
        _phone_plays(phones, browser, live_server, match)
    page.goto(f"/t/{tournament.pk}/swiss/")
    page.get_by_role("button", name=f"Close round {number}").click()
    page.wait_for_selector(f"text=Round {number} closed")


def test_a_nine_team_four_round_swiss_played_on_phones(browser, live_server, desktop_page, director, screenshot):
    tournament = make_swiss(9, rounds=4, bye_points_for=200)
    page = desktop_page
    page.on("dialog", lambda dialog: dialog.accept())  # "Close round N?", "Withdraw team N?"
    _log_in(page, director)
    page.goto(f"/t/{tournament.pk}/")
    page.get_by_role("button", name="Pair and seat round 1").click()
    page.goto(f"/t/{tournament.pk}/swiss/")
    assert _tables_in_rank_order(tournament, 1) == [(1, 2), (3, 4), (5, 6), (7, 8)]
    assert page.inner_text(".bye").startswith("Bye: Ada 2 & Ben 2")

    # A swap before round 1 starts: teams 2 and 3 exchange places; the seats follow.
    team = {t.number: t.pk for t in tournament.teams.all()}
    page.click("#swap summary")
    page.select_option("#id_swap-first", str(team[2]))
    page.select_option("#id_swap-second", str(team[3]))
    page.get_by_role("button", name="Swap the teams").click()
    page.wait_for_selector("text=Teams 2 and 3 swapped places: team 2 to table 2, team 3 to table 1.")
    cards = page.locator(".swiss-pairings .card")
    assert cards.first.inner_text().startswith("Table 1") and "Ada & Ben v Eve & Finn" in cards.first.inner_text()
    screenshot(page, "swiss-round-seated")

    phones: dict = {}
    _play_round(page, phones, browser, live_server, tournament, 1)

    # A late team registers before round 2 starts: round 2 is paired again with it (ten teams, no bye).
    page.click("nav >> text=Teams")
    page.fill("#id_first", "Zoe")
    page.fill("#id_second", "Yan")
    page.press("#id_second", "Enter")
    page.wait_for_selector("#team-list >> text=Zoe")
    late = Team.objects.get(tournament=tournament, number=10)
    page.goto(f"/t/{tournament.pk}/swiss/")
    assert "Zoe & Yan" in page.inner_text(".swiss-pairings") and "joined at round 2" in page.inner_text(".late-teams")
    assert page.locator(".swiss-pairings .card").count() == 5
    _tables_in_rank_order(tournament, 2)
    screenshot(page, "swiss-round-2-with-late-team")
    _play_round(page, phones, browser, live_server, tournament, 2)

    # A withdrawal before round 3 starts: team 9 is paired no more (nine teams: a bye again).
    page.click("nav >> text=Teams")
    page.locator("#team-9").get_by_role("button", name="Withdraw").click()
    page.wait_for_selector("#team-9.withdrawn")
    page.goto(f"/t/{tournament.pk}/swiss/")
    paired = [n for pair in _tables_in_rank_order(tournament, 3) for n in pair]
    assert 9 not in paired and len(paired) == 8
    _play_round(page, phones, browser, live_server, tournament, 3)
    _tables_in_rank_order(tournament, 4)
    page.goto(f"/t/{tournament.pk}/swiss/")
    screenshot(page, "swiss-dashboard")
    _play_round(page, phones, browser, live_server, tournament, 4)
    for phone in phones.values():
        phone.context.close()

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    lines = swiss_standings(tournament).lines
    assert len(lines) == 10 and lines[0].name == "Ada & Ben" and lines[0].row.won == 4
    assert next(line for line in lines if line.row.team == late.pk).row.played == 4  # a loss for round 1
    page.click("nav >> text=Standings")
    page.wait_for_selector("h1:has-text('Swiss standings')")
    assert page.locator("table.swiss-standings tbody tr").count() == 10
    screenshot(page, "swiss-standings")

    for name, viewport in (("phone", {"width": 360, "height": 740}), ("wide", WIDE)):
        context = browser.new_context(viewport=viewport, base_url=live_server.url)
        public = context.new_page()
        public.goto(f"/s/{tournament.pk}/")
        public.wait_for_selector("table.swiss-standings")
        assert public.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        screenshot(public, f"swiss-public-{name}")
        public.goto(f"/s/{tournament.pk}/projector/")
        public.wait_for_selector("#projector")
        assert "Ada & Ben" in public.inner_text("#projector")
        screenshot(public, f"swiss-projector-{name}")
        context.close()


def test_the_projector_shows_the_next_rounds_pairings_in_rank_order(browser, live_server, director, screenshot):
    from tests.test_swiss import play
    from tournament.play.rounds import close_round, start_play

    tournament = make_swiss(9, rounds=4)
    play(start_play(tournament=tournament))
    close_round(round_=tournament.rounds.get(number=1))
    for name, viewport in (("phone", {"width": 360, "height": 740}), ("wide", WIDE)):
        context = browser.new_context(viewport=viewport, base_url=live_server.url)
        page = context.new_page()
        page.goto(f"/s/{tournament.pk}/projector/")
        text = page.inner_text("#projector")
        assert "Round 2 pairings" in text and text.index("Table 1") < text.index("Table 2") < text.index("Table 4")
        screenshot(page, f"swiss-projector-next-round-{name}")
        page.goto(f"/s/{tournament.pk}/")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        screenshot(page, f"swiss-public-next-round-{name}")
        _log_in(page, director)
        page.goto(f"/t/{tournament.pk}/swiss/")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        assert page.locator(".swiss-pairings .card").first.inner_text().startswith("Table 1")
        screenshot(page, f"swiss-board-{name}")
        context.close()
