"""Pages fit their screens: on a phone held upright (390x844) no page is wider than the phone, no
word is split across lines, and the columns that matter are in sight without scrolling sideways;
on the projector (1920x1080) no name is cut short."""

import random
from decimal import Decimal

import pytest

from tournament.formats.knockout.simulation import create_knockout
from tournament.formats.league.simulation import create_league
from tournament.formats.progressive.simulation import create_progressive
from tournament.formats.registry import format_of
from tournament.models import Player, Prize, Tournament
from tournament.money.services import award_prizes
from tournament.play.rounds import close_round, start_round
from tournament.simulation.play import play_game, play_round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
UPRIGHT = {"width": 390, "height": 844}
PROJECTOR = {"width": 1920, "height": 1080}
SURNAMES = ["Brooks-Hamilton", "Carter", "Montgomery-Smythe", "Evans-Whitfield", "Foster", "Garcia"]
# How many lines each of an element's text nodes takes, against its words: a word split across
# lines ("Hig h fe ma le") gives more lines than words (a hyphenated name counts as two).
LINES_AND_WORDS = """element => {
  let lines = 0, words = 0;
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const text = walker.currentNode.textContent.trim();
    if (!text) continue;
    const range = document.createRange();
    range.selectNodeContents(walker.currentNode);
    lines += new Set([...range.getClientRects()].map(r => Math.round(r.top))).size;
    words += text.split(/[\\s-]+/).length;  // a hyphen may end a line
  }
  return [lines, words];
}"""


def _long_names(tournament: Tournament) -> None:
    for index, player in enumerate(Player.objects.filter(team__tournament=tournament).order_by("pk")):
        player.name = f"{player.name} {SURNAMES[index % len(SURNAMES)]}"
        player.save(update_fields=["name"])


def _page(browser, live_server, viewport, director=None):
    context = browser.new_context(viewport=viewport, base_url=live_server.url, is_mobile=viewport == UPRIGHT)
    page = context.new_page()
    if director is not None:
        page.goto("/login/")
        page.fill("#id_username", director.username)
        page.fill("#id_password", "correct-horse-battery")
        page.click("button[type=submit]")
        page.wait_for_url(lambda url: "/login/" not in url)
    return page


def _fits_the_phone(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= UPRIGHT["width"]


def _in_sight(page, selector: str) -> None:
    """Every element ``selector`` finds ends inside the page's content box (16 px margins)."""
    boxes = [page.locator(selector).nth(i).bounding_box() for i in range(page.locator(selector).count())]
    assert boxes
    for box in boxes:
        assert box["x"] >= 0 and box["x"] + box["width"] <= UPRIGHT["width"] - 15, selector


def _no_word_split(page, selector: str) -> None:
    cells = page.locator(selector)
    assert cells.count()
    for i in range(cells.count()):
        lines, words = cells.nth(i).evaluate(LINES_AND_WORDS)
        assert lines <= words, cells.nth(i).inner_text()


def test_the_public_league_table_shows_every_column_on_a_phone(browser, live_server, screenshot):
    tournament = create_league(teams=5, seed=4)
    _long_names(tournament)
    round_ = format_of(tournament).start(tournament=tournament)
    start_round(round_=round_)
    play_round(round_, random.Random(4))
    page = _page(browser, live_server, UPRIGHT)
    page.goto(f"/s/{tournament.pk}/league/")
    _fits_the_phone(page)
    _in_sight(page, "table.league-table thead th:last-child")  # Bags
    _no_word_split(page, "table.league-table tbody td:nth-child(2)")
    assert "P played, W won" in page.inner_text("#league")
    screenshot(page, "layout-league-public-phone")


def test_the_payouts_keep_prize_and_winner_names_whole_on_a_phone(browser, live_server, director, screenshot):
    tournament = create_progressive(couples=4, rounds=1, seed=3)
    _long_names(tournament)
    Prize.objects.create(tournament=tournament, place=1, amount=Decimal("30"))
    Player.objects.filter(team__tournament=tournament).update(division="newcomer")
    Prize.objects.create(tournament=tournament, kind=Prize.Kind.DIVISION, division="newcomer", amount=Decimal("10"))
    round_ = tournament.rounds.get(number=1)
    start_round(round_=round_)
    for game in round_.games.all():
        play_game(game, random.Random(3))
    close_round(round_=round_)
    award_prizes(tournament=tournament)
    page = _page(browser, live_server, UPRIGHT, director)
    page.goto(f"/t/{tournament.pk}/prizes/")
    _fits_the_phone(page)
    _no_word_split(page, "table.payouts tbody td:nth-child(-n+2)")
    _in_sight(page, "table.payouts tbody button")  # Mark paid
    screenshot(page, "layout-payouts-phone")


def test_the_teams_table_shows_paid_and_owes_on_a_phone(browser, live_server, director, screenshot):
    tournament = create_knockout(teams=6, seed=3, format="single-elimination")
    _long_names(tournament)
    Tournament.objects.filter(pk=tournament.pk).update(entry_fee=Decimal("20.00"))
    page = _page(browser, live_server, UPRIGHT, director)
    page.goto(f"/t/{tournament.pk}/teams/")
    page.wait_for_selector("#team-list .arrive")  # the arrival buttons: the widest cells
    _fits_the_phone(page)
    _in_sight(page, "#team-list thead th:nth-child(5)")  # Owes
    _no_word_split(page, "#team-list thead th")
    screenshot(page, "layout-teams-phone")


def _not_cut_short(page, selector: str) -> None:
    names = page.locator(selector)
    assert names.count()
    for i in range(names.count()):
        assert names.nth(i).evaluate("e => e.scrollWidth <= e.clientWidth"), names.nth(i).inner_text()
        box = names.nth(i).bounding_box()
        assert box["x"] + box["width"] <= PROJECTOR["width"] and box["y"] + box["height"] <= PROJECTOR["height"]


def test_the_projector_seating_shows_whole_names_and_fits_the_screen(browser, live_server):
    tournament = create_progressive(couples=11, rounds=3, seed=7)  # 22 players: a full projector page
    _long_names(tournament)
    page = _page(browser, live_server, PROJECTOR)
    page.goto(f"/s/{tournament.pk}/projector/")
    assert page.locator(".seating-list li").count() == 22
    _not_cut_short(page, ".seating-list .name")
    _not_cut_short(page, ".seating-list .partner")
    assert "with " + Player.objects.filter(team__tournament=tournament).first().name in page.inner_text(".seating")


def test_the_knockout_projector_shows_whole_team_names(browser, live_server):
    tournament = create_knockout(teams=6, seed=3, format="single-elimination")
    _long_names(tournament)
    format_of(tournament).start(tournament=tournament)
    page = _page(browser, live_server, PROJECTOR)
    page.goto(f"/s/{tournament.pk}/bracket/projector/")
    _not_cut_short(page, ".playing-now .teams > span")


WALL = {"width": 1366, "height": 768}  # a hall's projector at its common native size
# Two 20-character player names a team: the longest a projector is asked to show whole.
LONG_FIRST = ["Alexandrina", "Bartholomew", "Christopher", "Maximiliana"]
LONG_LAST = ["Montague", "Ashcroft", "Hartwell", "Kingsley", "Thornton", "Whitaker", "Lockhart", "Blakeney"]


def _twenty_character_names(tournament: Tournament) -> None:
    players = Player.objects.filter(team__tournament=tournament).order_by("pk")
    for index, player in enumerate(players):
        player.name = f"{LONG_FIRST[index // len(LONG_LAST)]} {LONG_LAST[index % len(LONG_LAST)]}"
        assert len(player.name) == 20
        player.save(update_fields=["name"])


def _whole_and_on_screen(page, selector: str, viewport: dict) -> None:
    """Every element ``selector`` finds shows its whole text (neither cut short nor clipped by its
    card) inside the screen."""
    names = page.locator(selector)
    assert names.count()
    for i in range(names.count()):
        name = names.nth(i)
        assert name.evaluate(
            "e => e.scrollWidth <= e.clientWidth && e.scrollHeight <= e.clientHeight"
            " && getComputedStyle(e).textOverflow !== 'ellipsis'"
        ), name.inner_text()
        box = name.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], name.inner_text()
        assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], name.inner_text()


@pytest.mark.parametrize("teams", [8, 16])
@pytest.mark.parametrize("viewport", [WALL, PROJECTOR], ids=["1366", "1920"])
def test_the_bracket_projector_shows_long_team_names_whole(browser, live_server, screenshot, teams, viewport):
    tournament = create_knockout(teams=teams, seed=3, format="single-elimination", third_place=True)
    _twenty_character_names(tournament)
    format_of(tournament).start(tournament=tournament)
    page = _page(browser, live_server, viewport)
    page.goto(f"/s/{tournament.pk}/bracket/projector/")
    screenshot(page, f"layout-bracket-projector-{teams}-{viewport['width']}")
    assert "Alexandrina Montague" in page.inner_text(".bracket")
    _whole_and_on_screen(page, ".bracket-match .team", viewport)
    _whole_and_on_screen(page, ".playing-now .teams > span", viewport)
    # Read across a hall: a page holds few enough matches that the bracket's type stays near full
    # size (app.js shrinks a section's type, --fit, until it fits the screen).
    fit = page.eval_on_selector("section:has(.bracket)", "e => Number(e.style.getPropertyValue('--fit') || 1)")
    assert fit >= 0.9


def test_the_projector_keeps_each_tables_progress_on_one_line(browser, live_server, screenshot):
    tournament = create_progressive(couples=8, rounds=3, seed=5)
    round_ = tournament.rounds.get(number=1)
    start_round(round_=round_)
    page = _page(browser, live_server, {"width": 1366, "height": 900})  # taller type than 1366x768
    page.goto(f"/s/{tournament.pk}/projector/")
    screenshot(page, "layout-projector-tables-1366")
    labels = page.locator(".tables-left li")
    assert labels.count() == 4
    for i in range(labels.count()):
        assert labels.nth(i).inner_text() == f"Table {i + 1} · hand 1"
        lines = labels.nth(i).evaluate(
            "e => { const r = document.createRange(); r.selectNodeContents(e);"
            " return new Set([...r.getClientRects()].map(b => Math.round(b.top))).size; }"
        )
        assert lines == 1, labels.nth(i).inner_text()


@pytest.mark.parametrize("tab", ["prizes", "fees"])
def test_the_ledger_cards_are_as_wide_as_their_tables(browser, live_server, director, screenshot, tab):
    tournament = create_progressive(couples=4, rounds=1, seed=3)
    Tournament.objects.filter(pk=tournament.pk).update(entry_fee=Decimal("20.00"))
    Prize.objects.create(tournament=tournament, place=1, amount=Decimal("30"))
    page = _page(browser, live_server, {"width": 1366, "height": 900}, director)
    page.goto(f"/t/{tournament.pk}/{tab}/")
    screenshot(page, f"layout-ledger-{tab}")
    ledgers = page.locator(".scroll-x > table.ledger")
    assert ledgers.count()
    for i in range(ledgers.count()):
        table = ledgers.nth(i).bounding_box()
        card = ledgers.nth(i).locator("xpath=..").bounding_box()
        assert abs(card["width"] - table["width"]) <= 1
        assert 480 <= table["width"] < 1366 / 2  # a narrow table, not the page's width


PHONE = {"width": 360, "height": 740}  # the narrowest phone the public pages are read on


@pytest.mark.parametrize(
    "name", ["Friday Night Progressive (demo)", "Riverside Community Centre Friday Night Progressive"]
)
def test_the_public_standings_fit_a_360_pixel_phone_whatever_the_events_name(browser, live_server, screenshot, name):
    tournament = create_progressive(couples=4, rounds=2, seed=3)
    Tournament.objects.filter(pk=tournament.pk).update(name=name)
    _long_names(tournament)
    Player.objects.filter(team__tournament=tournament, team__number__lte=2).update(division="newcomer")
    Prize.objects.create(tournament=tournament, kind=Prize.Kind.DIVISION, division="newcomer", amount=Decimal("10"))
    round_ = tournament.rounds.get(number=1)
    start_round(round_=round_)
    play_round(round_, random.Random(3))
    page = _page(browser, live_server, PHONE)
    page.goto(f"/s/{tournament.pk}/")
    screenshot(page, f"layout-public-standings-360-{len(name)}")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    standings = page.locator(".scroll-x:has(> table.standings)")
    assert standings.evaluate("box => box.scrollWidth <= box.clientWidth")  # no column out of sight
    _no_word_split(page, "table.standings tbody td:nth-child(2)")  # "Ada Brooks-Hamilton newcomer", whole words
    brand = page.locator(".topbar .brand").bounding_box()
    assert brand["x"] + brand["width"] <= PHONE["width"] - 16  # inside the bar's margin, not over it
    assert page.locator(".topbar .brand").inner_text() == f"\u2660 {name}"


MORE_TO_THE_RIGHT = "e => getComputedStyle(e, '::after').opacity"


def test_a_bracket_wider_than_the_screen_shows_there_is_more_to_the_right(browser, live_server, screenshot):
    tournament = create_knockout(teams=16, seed=3, format="double-elimination")
    format_of(tournament).start(tournament=tournament)
    page = _page(browser, live_server, WALL)
    page.goto(f"/s/{tournament.pk}/bracket/")
    bracket = page.locator(".bracket")
    assert bracket.evaluate("e => e.scrollWidth > e.clientWidth")  # a double elimination's columns
    bracket.scroll_into_view_if_needed()
    screenshot(page, "layout-bracket-double-1366")
    assert bracket.evaluate(MORE_TO_THE_RIGHT) == "1"
    shade = bracket.evaluate(
        "e => { const s = getComputedStyle(e, '::after'); return [s.content, s.position, s.right]; }"
    )
    assert shade == ['""', "sticky", "0px"]  # held at the box's right edge while the columns scroll under it
    bracket.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
    page.wait_for_function("() => getComputedStyle(document.querySelector('.bracket'), '::after').opacity === '0'")


def test_a_bracket_that_fits_the_screen_shows_no_shade(browser, live_server):
    tournament = create_knockout(teams=4, seed=3, format="single-elimination")
    format_of(tournament).start(tournament=tournament)
    page = _page(browser, live_server, WALL)
    page.goto(f"/s/{tournament.pk}/bracket/")
    bracket = page.locator(".bracket")
    assert bracket.evaluate("e => e.scrollWidth <= e.clientWidth")
    assert bracket.evaluate(MORE_TO_THE_RIGHT) == "0"
