"""A director runs round 1 of an event in a real browser (headless Chromium)."""

import pytest

from tests.conftest import COUPLES, DESKTOP, PHONE, make_tournament
from tournament.models import Round, Team, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE_SIDEWAYS = {"width": 740, "height": 360}


def _log_in(page, director) -> None:
    page.goto("/login/")
    page.fill("#id_username", director.username)
    page.fill("#id_password", "correct-horse-battery")
    page.click("button[type=submit]")
    page.wait_for_url(lambda url: "/login/" not in url)


def _enter_hand(page, north_south_tricks: int) -> None:
    for seat in ("north", "east", "south", "west"):
        page.select_option(f"#id_{seat}_bid", "3")
    page.fill("#id_north_tricks", str(north_south_tricks - 3))
    page.fill("#id_south_tricks", "3")
    page.fill("#id_east_tricks", str(13 - north_south_tricks - 3))
    page.fill("#id_west_tricks", "3")
    page.get_by_role("button", name="Save hand").click()
    page.wait_for_selector(".message.success")


def test_director_runs_round_one_from_registration_to_the_next_movement(desktop_page, director, screenshot):
    page = desktop_page
    _log_in(page, director)
    page.click("text=New tournament")
    page.fill("#id_name", "Thursday Progressive")
    page.fill("#id_date", "2026-11-26")
    page.select_option("#id_preset", "progressive")
    page.select_option("#id_seating_order", "registration")
    page.fill("#id_entry_fee", "20")
    page.get_by_role("button", name="Save").click()
    page.wait_for_selector("text=Registration open")
    tournament = Tournament.objects.get(name="Thursday Progressive")

    page.click("nav >> text=Teams")
    page.evaluate("window.__sameDocument = true")
    for first, second in COUPLES:
        page.fill("#id_first", first)
        page.fill("#id_second", second)
        page.press("#id_second", "Enter")
        page.wait_for_selector(f"#team-list >> text={first}")
    assert page.evaluate("window.__sameDocument") is True  # htmx: no page reload
    assert page.locator("#team-list tbody tr").count() == 8
    page.fill("#id_first", "Solo")
    page.press("#id_first", "Enter")
    page.wait_for_selector("#id_second-error")
    assert "required" in page.inner_text("#id_second-error")
    screenshot(page, "director-teams")

    for number in (1, 2):
        team = tournament.teams.get(number=number)
        page.goto(f"/t/{tournament.pk}/teams/{team.pk}/payments/")
        page.get_by_role("button", name="Record").click()
        page.wait_for_selector(".message.success")
    page.goto(f"/t/{tournament.pk}/fees/")
    assert "$40.00" in page.inner_text(".ledger")

    page.goto(f"/t/{tournament.pk}/")
    page.get_by_role("button", name="Seat round 1").click()
    page.wait_for_selector(".table-card")
    assert page.locator(".table-card").count() == 4
    page.get_by_role("button", name="Start round 1").click()
    page.wait_for_selector("text=Round 1 has started.")
    for table in range(1, 5):
        page.click(f"#board >> a >> text='{table}'")
        for _ in range(4):
            _enter_hand(page, 7)
        if table == 1:
            screenshot(page, "director-game")
        page.click("text=Back to round 1")
    assert Round.objects.get(tournament=tournament).games.filter(status="finished").count() == 4

    page.once("dialog", lambda dialog: dialog.accept())  # "Close round 1 and seat the next one?"
    page.get_by_role("button", name="Close round 1").click()
    page.wait_for_selector("text=Here is round 2's movement.")
    assert "from table 2" in page.inner_text(".movement")
    screenshot(page, "director-round-2-movement")
    page.click("nav >> text=Standings")
    page.wait_for_selector("table.standings")
    first_row = page.locator("table.standings tbody tr").first.inner_text()
    assert "Ada" in first_row or "Ben" in first_row or "Eve" in first_row
    assert Team.objects.filter(tournament=tournament).count() == 8
    screenshot(page, "director-standings")


# After a save, the script below acts at +5 ms (a director, or a card reader, already at the next
# couple) and reads where the cursor is at +60 ms, after htmx's default settle (20 ms) would have come.
# window.__read settles once the cursor has been read, for the test to wait on.
_TYPE_ON_AT_ONCE = """(submit) => {
  window.__seen = [];
  let read;
  window.__read = new Promise((resolve) => { read = resolve; });
  document.addEventListener("htmx:afterSwap", function act(event) {
    if (event.detail.target.id !== "registration") {
      return;  // a roster list's answer, not the save's
    }
    document.removeEventListener("htmx:afterSwap", act);
    setTimeout(() => {
      const first = document.getElementById("id_first"), second = document.getElementById("id_second");
      if (submit) {
        first.value = "Cleo";
        second.value = "Dan";
        first.form.requestSubmit();
      } else {
        second.focus();
        setTimeout(() => read(window.__seen.push(document.activeElement.id)), 55);
      }
    }, 5);
  });
}"""


def test_the_next_couple_typed_straight_after_a_save_keeps_its_field_and_is_sent_in_place(desktop_page, director):
    page = desktop_page
    tournament = make_tournament(couples=0)
    _log_in(page, director)
    page.goto(f"/t/{tournament.pk}/teams/")
    assert page.evaluate("document.activeElement.id") == "id_first"  # the page opens ready to type
    page.evaluate("window.__sameDocument = true")

    page.evaluate(_TYPE_ON_AT_ONCE, False)
    page.fill("#id_first", "Ada")
    page.fill("#id_second", "Ben")
    page.press("#id_second", "Enter")
    page.wait_for_selector("#team-list >> text=Ada")
    page.evaluate("window.__read")
    assert page.evaluate("window.__seen") == ["id_second"]  # the cursor stayed where the typing went

    page.evaluate(_TYPE_ON_AT_ONCE, True)
    page.fill("#id_first", "Eve")
    page.fill("#id_second", "Finn")
    page.press("#id_second", "Enter")
    page.wait_for_selector("#team-list >> text=Cleo")
    assert page.evaluate("window.__sameDocument") is True  # sent by htmx, not as a plain page
    assert [team.names for team in tournament.teams.order_by("number")] == ["Ada & Ben", "Eve & Finn", "Cleo & Dan"]


def test_registration_and_standings_fit_a_phone(phone_page, director, screenshot):
    from tests.conftest import finish_game, make_tournament
    from tournament.play.rounds import start_play, start_round

    tournament = make_tournament()
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    finish_game(round_.games.first())
    page = phone_page
    _log_in(page, director)
    for path, name in ((f"/t/{tournament.pk}/teams/", "phone-teams"), (f"/s/{tournament.pk}/", "phone-standings")):
        page.goto(path)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), path
        screenshot(page, name)
    page.goto(f"/s/{tournament.pk}/projector/")
    screenshot(page, "phone-projector")
    page.goto(f"/t/{tournament.pk}/rounds/1/")
    # Its hands were entered without a phone: the board says so rather than missing one.
    assert page.locator("#board tr.state-finished td.muted", has_text="no phone used").count() == 1
    screenshot(page, "phone-round-board")
    page.set_viewport_size(DESKTOP)
    screenshot(page, "desktop-round-board")


def test_a_closed_rounds_score_sheets_open_from_the_print_tab(desktop_page, director, screenshot):
    from tests.conftest import finish_game, make_tournament
    from tournament.play.rounds import close_round, start_play, start_round

    tournament = make_tournament()
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    for game in round_.games.all():
        finish_game(game)
    close_round(round_=round_)
    page = desktop_page
    _log_in(page, director)
    page.goto(f"/t/{tournament.pk}/print/")
    finished = page.locator("section.card", has_text="Finished rounds")
    assert "Round 1" in finished.inner_text()
    screenshot(page, "director-print-finished-round")
    with page.expect_response(lambda response: "score-sheets" in response.url) as sheets:
        finished.get_by_role("link", name="score sheets").click()
    assert sheets.value.status == 200 and sheets.value.headers["content-type"] == "application/pdf"


def test_the_standings_on_a_phone_show_what_fits_and_each_round_when_turned(browser, live_server, screenshot):
    from tournament.formats.progressive.simulation import simulate

    simulate(couples=8, rounds=6, seed=3, partners="fixed")
    tournament = Tournament.objects.get()
    standings = f"/s/{tournament.pk}/"
    for viewport, name in ((PHONE, "phone-standings-6-rounds"), (PHONE_SIDEWAYS, "phone-sideways-standings-6-rounds")):
        context = browser.new_context(viewport=viewport, base_url=live_server.url, has_touch=True, is_mobile=True)
        page = context.new_page()
        page.goto(standings)
        box = page.locator("#standings .scroll-x")
        hidden = box.evaluate("box => box.scrollWidth - box.clientWidth")
        screenshot(page, name)
        if viewport is PHONE:  # nothing hidden off to the side: the columns are those that fit
            assert hidden <= 0 and not page.locator("th.round-col").first.is_visible()
            assert page.get_by_text("turn your phone sideways").is_visible()
        else:
            assert page.locator("th.round-col").count() == 6 and page.locator("th.round-col").last.is_visible()
            assert not page.get_by_text("turn your phone sideways").is_visible()
        context.close()


# Each format and the fields the tournament form shows for it, and some it hides.
FORMAT_FIELDS = [
    (
        "progressive_split",
        ["rounds_planned", "seating_order", "prize_ties"],
        ["knockout-best_of", "knockout-tables_available", "league-legs"],
    ),
    (
        "single_elimination",
        ["seating_order", "knockout-best_of", "knockout-tables_available"],
        ["rounds_planned", "league-legs", "league-best_of"],
    ),
    (
        "round_robin",
        ["league-legs", "league-tiebreaker_1", "league-best_of", "prize_ties"],
        ["rounds_planned", "seating_order", "knockout-best_of"],
    ),
]


def test_the_tournament_form_shows_the_chosen_formats_fields(desktop_page, director, screenshot):
    page = desktop_page
    _log_in(page, director)
    page.goto("/t/new/")
    for event_format, shown, hidden in FORMAT_FIELDS:
        page.select_option("#id_format", event_format)
        for name in ("name", "preset", "entry_fee", *shown):
            assert page.locator(f"#id_{name}").is_visible(), (event_format, name)
        for name in hidden:
            assert not page.locator(f"#id_{name}").is_visible(), (event_format, name)
        screenshot(page, f"tournament-form-{event_format}")
    # A field in error stays in sight whatever the format: the server checks every field.
    page.fill("#id_name", "Spring Open")
    page.select_option("#id_league-tiebreaker_1", index=1)
    page.select_option("#id_league-tiebreaker_2", index=1)
    page.select_option("#id_format", "progressive_fixed")
    page.get_by_role("button", name="Save").click()
    page.wait_for_selector("#id_league-tiebreaker_1-error")
    assert page.locator("#id_league-tiebreaker_1-error").is_visible()
    assert not page.locator("#id_knockout-best_of").is_visible()


def test_without_javascript_the_tournament_form_shows_every_field_grouped_by_format(browser, live_server, director):
    context = browser.new_context(viewport=DESKTOP, base_url=live_server.url, java_script_enabled=False)
    page = context.new_page()
    _log_in(page, director)
    page.goto("/t/new/")
    legends = page.locator("fieldset.format-group > legend").all_inner_texts()
    assert legends[0] == "Every format" and "Knockout" in legends and "League" in legends
    assert all(page.locator(f"#id_{name}").is_visible() for _, shown, _ in FORMAT_FIELDS for name in shown)
    context.close()
