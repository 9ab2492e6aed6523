"""A director runs a 6-team league season in a real browser (headless Chromium): the schedule,
a postponement, nights with table links and the clock, a phone at a table, the league table,
the championship under its own rules, and the payout sheet (issue 12)."""

import io
import re

import pytest
from pypdf import PdfReader

from scoring import HandEntry
from tests.conftest import COUPLES, PHONE
from tests.test_league import make_league
from tournament.clocks.services import start_round_clock
from tournament.formats.league.models import LeagueSettings
from tournament.formats.league.standings import league_matches
from tournament.formats.registry import format_of
from tournament.models import HandRevision, Match, Team, Tournament
from tournament.play.hands import enter_hand
from tournament.play.rounds import start_round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# A side bidding 5 + 5 takes ten tricks: "10 for 200" pays 120 in a game to 300 and 200 in a game
# to 500 (rule text 004), so three such hands end any game; the other side bids the minimum 4.
BIDS = {"north": "5", "south": "5", "east": "2", "west": "2"}
TRICKS = {"north": 5, "south": 5, "east": 2, "west": 1}


def _flipped(values: dict) -> dict:
    swap = {"north": "east", "south": "west", "east": "north", "west": "south"}
    return {swap[seat]: value for seat, value in values.items()}


def _win(match: Match) -> None:
    """The lower-numbered team wins every match (so the table ranks team 1 first, team 6 last)."""
    home_wins = match.home.number < match.away.number
    bids, tricks = (BIDS, TRICKS) if home_wins else (_flipped(BIDS), _flipped(TRICKS))
    values = {f"{seat}_bid": bid for seat, bid in bids.items()} | {f"{seat}_tricks": n for seat, n in tricks.items()}
    game = match.games.get()
    number = 0
    while game.status != game.Status.FINISHED:
        number += 1
        enter_hand(game=game, number=number, entry=HandEntry.from_fields(values), source=HandRevision.Source.TABLE)
        game.refresh_from_db()


def _log_in(page, director) -> None:
    page.goto("/login/")
    page.fill("#id_username", director.username)
    page.fill("#id_password", "correct-horse-battery")
    page.click("button[type=submit]")
    page.wait_for_url(lambda url: "/login/" not in url)


def _phone_scores(browser, live_server, match: Match, screenshot) -> None:
    """A scorekeeper's phone at the match's table enters the hands until the game is over."""
    context = browser.new_context(viewport=PHONE, base_url=live_server.url, has_touch=True, is_mobile=True)
    phone = context.new_page()
    phone.goto(f"/table/{match.table.token}/")
    phone.wait_for_selector(".table-clock .clock")  # the director started the night's clock
    home_wins = match.home.number < match.away.number
    bids, tricks = (BIDS, TRICKS) if home_wins else (_flipped(BIDS), _flipped(TRICKS))
    for number in (1, 2, 3):
        for seat, bid in bids.items():
            phone.select_option(f"#id_{seat}_bid", bid)
        for seat, took in tricks.items():
            phone.fill(f"#id_{seat}_tricks", str(took))
        if number == 1:
            screenshot(phone, "league-table-phone")
        phone.get_by_role("button", name=f"Save hand {number}").click()
        phone.wait_for_selector(f"text=Hand {number} saved.")
    context.close()


def _public_pages(browser, live_server, tournament: Tournament, screenshot) -> None:
    """Everyone's league table and the projector show tonight's pairings, tables and clocks."""
    context = browser.new_context(viewport={"width": 1280, "height": 720}, base_url=live_server.url)
    page = context.new_page()
    page.goto(f"/s/{tournament.pk}/league/")
    tonight = page.inner_text(".tonight")
    assert "Table 1" in tonight and "Table 3" in tonight and "Ada & Ben v Kara & Leo" in tonight
    assert page.locator(".tonight .clock").count() == 2  # the two matches still playing
    screenshot(page, "league-public")
    page.goto(f"/s/{tournament.pk}/league/projector/")
    assert "Table 2" in page.inner_text("#projector")
    screenshot(page, "league-projector")
    context.close()


def test_a_director_runs_a_six_team_league_to_the_championship_payouts(
    browser, live_server, desktop_page, director, screenshot
):
    page = desktop_page
    page.on("dialog", lambda dialog: dialog.accept())  # "Close night N?"
    _log_in(page, director)
    page.click("text=New tournament")
    page.fill("#id_name", "Tuesday League")
    page.fill("#id_date", "2026-11-24")
    page.select_option("#id_preset", "league-300")
    page.select_option("#id_format", "round_robin")
    page.select_option("#id_league-final_preset", "championship-500")
    page.fill("#id_entry_fee", "10")
    page.select_option("#id_league-fee_per", LeagueSettings.FeePer.NIGHT)
    page.select_option("#id_league-championship_teams", "2")
    page.get_by_role("button", name="Save").click()
    page.wait_for_selector("text=Registration open")
    tournament = Tournament.objects.get(name="Tuesday League")

    page.click("nav >> text=Teams")
    for first, second in COUPLES[:6]:
        page.fill("#id_first", first)
        page.fill("#id_second", second)
        page.press("#id_second", "Enter")
        page.wait_for_selector(f"#team-list >> text={first}")

    # The schedule: 6 teams, 5 nights, every team every night; night 1 is seated at once.
    page.goto(f"/t/{tournament.pk}/")
    page.get_by_role("button", name="Make the schedule and seat night 1").click()
    page.wait_for_selector("h1:has-text('Night 1')")
    page.click('nav >> text="League"')
    assert page.locator(".card.night").count() == 5

    # A postponement: night 2's first match moves to a new night 6.
    moved = league_matches(tournament).get(round=2, number=1)
    page.fill(f"#postpone-{moved.pk}", "6")
    page.locator(f"form:has(#postpone-{moved.pk}) button").click()
    page.wait_for_selector("text=The match moved to night 6.")
    assert page.locator(".card.night").count() == 6
    assert "(postponed from night 2)" in page.inner_text("#night-6")
    screenshot(page, "league-schedule")

    for night in range(1, 7):
        page.click('nav >> text="League"')
        if night == 1:
            page.click("text=Night 1's board")
        else:
            page.get_by_role("button", name=f"Open night {night}: seat the tables").click()
        page.wait_for_selector(f"h1:has-text('Night {night}')")
        page.get_by_role("button", name=f"Start night {night}").click()
        page.wait_for_selector(f"text=Night {night} has started.")
        matches = list(league_matches(tournament).filter(round=night).select_related("home", "away", "table"))
        if night == 1:  # the night's clock started with it ("Start the 30-minute clock now" is ticked)
            page.get_by_role("button", name="Pause the clock").wait_for()
            _phone_scores(browser, live_server, matches[0], screenshot)
            _public_pages(browser, live_server, tournament, screenshot)
            matches = matches[1:]
        for match in matches:
            _win(match)
        page.reload()
        if night == 1:
            screenshot(page, "league-night")
        page.get_by_role("button", name=f"Close night {night}").click()
        page.wait_for_selector(f"text=Night {night} closed.")

    # The league table: team 1 won all five, team 6 none; everyone paid for the nights they played.
    page.click("nav >> text=Standings")
    rows = page.locator("table.league-table tbody tr")
    assert rows.count() == 6
    first, last = rows.nth(0).inner_text(), rows.nth(5).inner_text()
    assert "Ada & Ben" in first and re.search(r"\b5\s+5\s+0\b", first)
    assert "Kara & Leo" in last and re.search(r"\b5\s+0\s+5\b", last)
    screenshot(page, "league-table")
    page.goto(f"/t/{tournament.pk}/fees/")
    assert "$300.00" in page.inner_text(".ledger")  # 15 matches, two teams a match, $10 a night

    # The championship: 1st v 2nd, a game to 500 under championship-500.
    page.click('nav >> text="League"')
    page.get_by_role("button", name="Start the championship").click()
    page.wait_for_selector("text=The championship has started")
    final = Match.objects.get(tournament=tournament, stage=Match.Stage.FINAL)
    assert {final.home.number, final.away.number} == {1, 2}
    _win(final)
    final.refresh_from_db()
    game = final.games.get()
    assert max(game.ns_score, game.ew_score) >= 500 and final.winner.number == 1
    page.reload()
    assert "Ada & Ben" in page.inner_text("main")
    # The Standings tab and everyone's page name the champion above the season's table.
    page.click("nav >> text=Standings")
    assert page.inner_text(".champion h2") == "Champion: Ada & Ben"
    public = page.context.new_page()
    public.goto(f"/s/{tournament.pk}/league/")
    assert public.inner_text(".champion h2") == "Champion: Ada & Ben"
    assert "2nd Cleo & Dan" in public.inner_text(".champion")
    screenshot(public, "league-public-champion")
    public.close()

    # Prizes from the championship into payouts, and the payout sheet.
    page.click("nav >> text=Prizes")
    for place, amount in ((1, "40"), (2, "20")):
        page.select_option("#id_kind", "place")
        page.fill("#id_place", str(place))
        page.fill("#id_amount", amount)
        page.get_by_role("button", name="Add prize").click()
        page.wait_for_selector(f"text={amount}.00")
    page.get_by_role("button", name="Work out the winners from the standings").click()
    page.wait_for_selector("text=Mark paid")
    payouts = page.inner_text("main")
    assert re.search(r"1st place\s+Ada & Ben\s+\$40\.00", payouts)
    assert re.search(r"2nd place\s+Cleo & Dan\s+\$20\.00", payouts)
    screenshot(page, "league-prizes")
    pdf = page.request.get(f"/t/{tournament.pk}/print/payouts/").body()
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(pdf)).pages)
    assert "Ada & Ben" in text and "$40.00" in text and "Cleo & Dan" in text and "$20.00" in text
    assert Team.objects.get(tournament=tournament, number=1).payouts.get().amount == 40


UPRIGHT = {"width": 390, "height": 844}


def test_a_league_night_fits_a_phone_held_upright(browser, live_server, director, screenshot):
    tournament = make_league(couples=6)
    round_ = format_of(tournament).start(tournament=tournament)
    start_round(round_=round_)
    start_round_clock(round_=round_)
    context = browser.new_context(viewport=UPRIGHT, base_url=live_server.url, has_touch=True, is_mobile=True)
    page = context.new_page()
    _log_in(page, director)
    page.goto(f"/t/{tournament.pk}/league/nights/1/")
    assert page.evaluate("document.documentElement.scrollWidth") <= UPRIGHT["width"]
    assert page.locator("#board .scroll-x").evaluate("box => box.scrollWidth - box.clientWidth") == 0
    rows = page.locator("#board tbody tr")
    assert rows.count() == 3
    for part in (rows.locator(".clock"), rows.get_by_role("button", name="+5 min"), rows.locator("td.ew")):
        for box in [part.nth(i).bounding_box() for i in range(part.count())]:
            assert box["x"] >= 0 and box["x"] + box["width"] <= UPRIGHT["width"]
    assert page.locator("#board td.deals").first.is_hidden()  # who deals is the table's business
    cards = page.locator(".night-matches .card")
    assert cards.count() == 3 and cards.first.inner_text().startswith("Night 1, match 1")
    screenshot(page, "league-night-phone")
    context.close()


def test_the_season_schedule_fits_a_phone_held_upright(browser, live_server, director, screenshot):
    """Each match stacks its teams, table and result in one block; nothing is one letter a line."""
    tournament = make_league(couples=5)
    format_of(tournament).start(tournament=tournament)  # night 1 seated, not started
    context = browser.new_context(viewport=UPRIGHT, base_url=live_server.url, has_touch=True, is_mobile=True)
    page = context.new_page()
    _log_in(page, director)
    page.goto(f"/t/{tournament.pk}/league/")
    assert page.evaluate("document.documentElement.scrollWidth") <= UPRIGHT["width"]
    night_3 = page.locator("#night-3 tbody tr")
    assert night_3.count() == 2
    for row in night_3.all():
        for part in (row.locator("td.home"), row.locator("td.away"), row.locator("td.result")):
            box = part.bounding_box()
            assert box["width"] >= UPRIGHT["width"] / 2 and box["x"] + box["width"] <= UPRIGHT["width"]
        button = row.get_by_role("button", name="Postpone").bounding_box()
        assert button["x"] >= 0 and button["x"] + button["width"] <= UPRIGHT["width"]
    home = night_3.first.locator("td.home").evaluate("td => getComputedStyle(td, '::before').content")
    assert home == '"Home "'  # the column heads are hidden: each cell says what it is
    assert "Seated" in page.inner_text("#night-1") and "Open night 2" not in page.inner_text("main")
    screenshot(page, "league-schedule-phone")
    page.goto(f"/t/{tournament.pk}/league/nights/1/")  # seated, not started: a match can still move
    assert page.evaluate("document.documentElement.scrollWidth") <= UPRIGHT["width"]
    for button in page.get_by_role("button", name="Postpone").all():
        box = button.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= UPRIGHT["width"]
    assert "Seated" in page.inner_text("#board") and "Playing" not in page.inner_text("main")
    screenshot(page, "league-night-seated-phone")
    context.close()


def test_choosing_the_league_preset_sets_the_finals_rule_set(desktop_page, director):
    page = desktop_page
    _log_in(page, director)
    page.goto("/t/new/")
    page.select_option("#id_format", "round_robin")
    page.select_option("#id_preset", "league-300")
    assert page.input_value("#id_league-final_preset") == "championship-500"
    page.select_option("#id_preset", "classic")
    assert page.input_value("#id_league-final_preset") == ""
    page.select_option("#id_league-final_preset", "progressive-500")  # the director's own choice stays
    page.select_option("#id_preset", "league-300")
    assert page.input_value("#id_league-final_preset") == "progressive-500"
