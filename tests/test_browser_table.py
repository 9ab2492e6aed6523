"""A scorekeeper enters a round on a phone (360×740, headless Chromium) through the table link."""

import pytest
from playwright.sync_api import expect

from scoring import Seat
from tests.conftest import DESKTOP, finish_game, make_tournament
from tests.test_browser_director import _log_in
from tournament.models import Game, HandRevision
from tournament.play.games import flag_dispute, resolve_dispute
from tournament.play.rounds import start_play, start_round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table_game(db):
    """Round 1 running under four-hand progressive rules with nil and blind nil added."""
    tournament = make_tournament(couples=2)
    tournament.rule_overrides = {"nil_points": 100, "blind_nil_points": 200, "blind_nil_min_deficit": 100}
    tournament.save()
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    return round_.games.get()


def enter(page, bids: dict, tricks: dict, *, reneges_ns: int = 0) -> None:
    for seat, bid in bids.items():
        page.select_option(f"#id_{seat}_bid", bid)
    for seat, took in tricks.items():
        page.fill(f"#id_{seat}_tricks", str(took))
    if reneges_ns:
        set_reneges(page, reneges_ns)


def set_reneges(page, count: int) -> None:
    if not page.locator("details.penalties").evaluate("details => details.open"):
        page.click("details.penalties summary")  # headed by the rules' penalties: here "Reneg"
    page.fill("#id_ns_reneges", str(count))


def save(page, number: int) -> None:
    page.get_by_role("button", name=f"Save hand {number}").click()


def test_scorekeeper_scores_a_round_with_nil_blind_nil_misdeal_reneg_and_a_correction(
    phone_page, table_game, screenshot, browser, live_server, director
):
    page = phone_page
    page.goto(f"/table/{table_game.table.token}/")
    assert "Ada" in page.inner_text("fieldset.seat.ns >> nth=0")

    # Hand 1: North bids nil and makes it; the preview explains the score before saving.
    enter(
        page, {"north": "nil", "south": "4", "east": "4", "west": "4"}, {"north": 0, "south": 5, "east": 4, "west": 4}
    )
    page.wait_for_selector("#preview >> text=Nil made: +100")
    screenshot(page, "table-preview")
    save(page, 1)
    page.wait_for_selector("text=Hand 1 saved.")
    assert page.inner_text(".totals .ns strong") == "141"

    # Hand 2: East tries blind nil only 61 behind: refused, next to the field.
    enter(
        page,
        {"north": "5", "south": "4", "east": "blind_nil", "west": "1"},
        {"north": 6, "south": 4, "east": 2, "west": 1},
    )
    save(page, 2)
    # The preview says it too; wait for the refusal of East's bid, listed above the seats by the saved form.
    refusal = "trail by at least 100 points (it trails by 61)"
    page.wait_for_selector(f".field-errors p.error[data-for=east_bid]:has-text('{refusal}')")
    screenshot(page, "table-blind-nil-refused")
    page.select_option("#id_east_bid", "2")
    save(page, 2)
    page.wait_for_selector("text=Hand 2 saved.")

    # Hand 3: now 122 behind, East's blind nil is allowed and made.
    enter(
        page,
        {"north": "4", "south": "4", "east": "blind_nil", "west": "4"},
        {"north": 5, "south": 4, "east": 0, "west": 4},
    )
    save(page, 3)
    page.wait_for_selector("text=Hand 3 saved.")
    assert page.inner_text(".totals .ew strong") == "350"

    # A misdeal: no score; the same dealer deals hand 4 again, as the paper sheet counts it.
    page.click("summary:has-text('Misdeal')")
    page.select_option("#misdeal-reason", "no_spades")
    page.once("dialog", lambda dialog: dialog.accept())  # "Record a misdeal for hand 4?"
    page.get_by_role("button", name="Record misdeal").click()
    page.wait_for_selector("text=Hand 4: misdeal, dealt again by the same dealer.")
    fourth = Seat(table_game.first_dealer).after(3).label  # dealt the misdealt hand 4 and deals it again
    assert f"dealer: {fourth}" in page.inner_text(".entry h2") and "Hand 4" in page.inner_text(".entry h2")
    assert "Misdeal: a player was dealt no spades; dealt again" in page.inner_text("#hand-4")

    # Hand 4, dealt again: North–South renege once; three of their tricks go to East–West and they are set.
    enter(page, {"north": "3", "south": "3", "east": "3", "west": "3"}, {"north": 4, "south": 3, "east": 3, "west": 3},
          reneges_ns=1)  # fmt: skip
    save(page, 4)
    page.wait_for_selector("text=Game over")
    assert (page.inner_text(".totals .ns strong"), page.inner_text(".totals .ew strong")) == ("253", "413")

    # The reneg was a mistake: correct the last hand.
    page.get_by_role("link", name="Correct").click()
    page.wait_for_selector("text=Correct hand 4")
    set_reneges(page, 0)
    save(page, 4)
    page.wait_for_selector("text=Hand 4 saved.")
    assert (page.inner_text(".totals .ns strong"), page.inner_text(".totals .ew strong")) == ("374", "410")
    assert [(h.number, h.deal, h.misdeal) for h in table_game.hands.all()][3:] == [(4, 1, "no_spades"), (4, 2, "")]
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, "table-finished")
    assert HandRevision.objects.filter(before__isnull=False).count() == 1

    director_page = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=live_server.url).new_page()
    director_page.goto("/login/")
    director_page.fill("#id_username", director.username)
    director_page.fill("#id_password", "correct-horse-battery")
    director_page.get_by_role("button", name="Log in").click()
    director_page.wait_for_url(lambda url: "/login/" not in url)
    director_page.goto(f"/t/{table_game.round.tournament_id}/rounds/1/")
    assert "Finished: won by Cleo & Dan (East–West)" in director_page.inner_text("#board")
    screenshot(director_page, "director-board-finished")
    assert Game.objects.get().status == Game.Status.FINISHED


def test_a_disputed_hand_shows_on_the_directors_board(phone_page, table_game, screenshot):
    page = phone_page
    page.goto(f"/table/{table_game.table.token}/")
    enter(page, {"north": "3", "south": "3", "east": "3", "west": "3"}, {"north": 4, "south": 3, "east": 3, "west": 3})
    save(page, 1)
    page.wait_for_selector("text=Hand 1 saved.")
    page.click(".hand-list summary:has-text('Dispute')")
    page.fill("input[name=note]", "West says she took 4")
    page.get_by_role("button", name="Flag hand 1").click()
    page.wait_for_selector("text=the director will come over")
    assert table_game.hands.get().disputed
    screenshot(page, "table-disputed")


def test_the_hand_list_shows_bids_and_tricks_and_an_earlier_hands_mistake_goes_to_the_director(
    phone_page, table_game, screenshot, browser, live_server, director
):
    finish_game(table_game, hands=1)
    page = phone_page
    page.goto(f"/table/{table_game.table.token}/")
    bids = {"north": "nil", "south": "4", "east": "4", "west": "2"}
    enter(page, bids, {"north": 0, "south": 5, "east": 3, "west": 5})
    save(page, 2)
    page.wait_for_selector("text=Hand 2 saved.")
    second = page.locator("#hand-2")
    assert second.locator("table.hand-seats").inner_text().split() == [
        "Bids", "N", "Nil", "E", "4", "S", "4", "W", "2", "Tricks", "N", "0", "E", "3", "S", "5", "W", "5",
    ]  # fmt: skip
    # Hand 1 is an earlier hand now: no Correct, no Dispute; its mistakes go to the director.
    first = page.locator("#hand-1")
    expect(first.get_by_role("link", name="Correct")).to_have_count(0)
    expect(first.locator("summary", has_text="Dispute")).to_have_count(0)
    first.locator("summary", has_text="Report a mistake").click()
    page.get_by_label("What is wrong with hand 1?").fill("East bid 4, not 3")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, "table-report-a-mistake")
    page.get_by_role("button", name="Send hand 1 to the director").click()
    page.wait_for_selector("text=Hand 1 is reported; the director will come over.")
    expect(page.locator("#hand-1")).to_contain_text("Disputed: East bid 4, not 3")
    screenshot(page, "table-mistake-reported")
    assert table_game.hands.get(number=1).disputed and not table_game.hands.get(number=2).disputed

    desk = browser.new_context(viewport=DESKTOP, base_url=live_server.url).new_page()
    _log_in(desk, director)
    desk.goto(f"/t/{table_game.round.tournament_id}/rounds/1/")
    expect(desk.locator("#board tr.disputed")).to_contain_text("Disputed (1)")
    screenshot(desk, "director-board-reported-mistake")
    desk.locator("#board tr.disputed .table-no a").click()
    expect(desk.locator(".disputed-card")).to_contain_text("Hand 1 is disputed")
    expect(desk.locator(".disputed-card")).to_contain_text("East bid 4, not 3")
    screenshot(desk, "director-game-reported-mistake")
    desk.context.close()


def test_the_phone_waits_for_the_director_instead_of_game_over_while_a_hand_is_disputed(
    phone_page, table_game, screenshot, director
):
    finish_game(table_game, hands=3)
    flag_dispute(hand=table_game.hands.get(number=2), note="EW say they took 6")
    page = phone_page
    page.goto(f"/table/{table_game.table.token}/")
    enter(page, {"north": "3", "south": "3", "east": "3", "west": "3"}, {"north": 4, "south": 3, "east": 3, "west": 3})
    save(page, 4)  # the last hand of the round's four
    page.wait_for_selector("#director-wait")
    expect(page.locator("#entry")).to_contain_text("Waiting for the director.")
    expect(page.locator("#entry")).not_to_contain_text("Game over")
    screenshot(page, "table-waiting-for-the-director")
    resolve_dispute(hand=table_game.hands.get(number=2), resolution="Counted again: 7 stands", by=director)
    # The page asks every 15 seconds, and shows the result once the director has settled it.
    page.wait_for_selector("text=Game over", timeout=30_000)
    assert page.locator("#director-wait").count() == 0
    screenshot(page, "table-game-over-after-the-director")


def test_with_confirmation_asked_the_opponent_sees_the_score_before_typing_initials(phone_page, table_game, screenshot):
    tournament = table_game.round.tournament
    tournament.require_confirmation = True
    tournament.save()
    page = phone_page
    page.goto(f"/table/{table_game.table.token}/")
    page.wait_for_selector("#preview >> text=The score appears here as you enter the hand.")
    enter(page, {"north": "3", "south": "3", "east": "3", "west": "3"}, {"north": 4, "south": 3, "east": 3, "west": 3})
    page.wait_for_selector("#preview >> text=NS +61")  # no initials yet: the score shows all the same
    screenshot(page, "table-confirm-preview")
    page.fill("#id_confirmed_by", "RC")
    save(page, 1)
    page.wait_for_selector("text=Hand 1 saved.")
    assert table_game.hands.get().confirmed_by == "RC"


def _one_set_of_cells(page) -> None:
    """The hand form shows one tap cell per bid and trick count, the plain fields hidden under them."""
    expect(page.locator("#hand-form .cell-wrap")).to_have_count(8)
    expect(page.locator("#hand-form.padded")).to_have_count(1)
    hidden = page.eval_on_selector_all("#hand-form .cell-wrap select, #hand-form .cell-wrap input",
                                       "fields => fields.map(f => getComputedStyle(f).opacity)")  # fmt: skip
    assert hidden == ["0"] * 8


def test_the_saved_notice_with_the_score_stays_in_view_above_the_next_hand(phone_page, table_game, screenshot):
    page = phone_page
    page.goto(f"/table/{table_game.table.token}/")
    enter(page, {"north": "3", "south": "3", "east": "3", "west": "3"}, {"north": 5, "south": 3, "east": 3, "west": 2})
    save(page, 1)
    notice = page.locator(".message.success:has-text('Hand 1 saved.')")
    notice.wait_for()
    assert "North–South 62, East–West −60" in notice.inner_text()  # East–West set: a true minus sign
    # The page's script scrolls to the next hand as it swaps the save in, and again if it must
    # when a swap settles: with no swap settling, the page is where it stays.
    expect(page.locator(".htmx-settling")).to_have_count(0)
    box = notice.bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"], box
    screenshot(page, "table-saved-in-view")


def test_the_form_keeps_one_set_of_tap_cells_after_a_correction_a_dealer_change_and_a_dispute(phone_page, table_game):
    page = phone_page
    page.goto(f"/table/{table_game.table.token}/")
    _one_set_of_cells(page)
    page.click("summary:has-text('Another dealer for hand 1?')")
    page.select_option(".first-dealer select", "E")
    page.locator(".first-dealer button[type=submit]").click()
    page.wait_for_selector("text=East deals hand 1.")
    _one_set_of_cells(page)
    enter(page, {"north": "3", "south": "3", "east": "3", "west": "3"}, {"north": 4, "south": 3, "east": 3, "west": 3})
    save(page, 1)
    page.wait_for_selector("text=Hand 1 saved.")
    page.get_by_role("link", name="Correct").click()
    page.wait_for_selector("text=Correct hand 1")
    _one_set_of_cells(page)
    page.reload()
    page.click(".hand-list summary:has-text('Dispute')")
    page.fill("input[name=note]", "West says she took 4")
    page.get_by_role("button", name="Flag hand 1").click()
    page.wait_for_selector("text=the director will come over")
    _one_set_of_cells(page)


def test_tricks_past_13_are_named_as_the_total_not_as_a_seat_to_fill_in(phone_page, table_game, screenshot):
    page = phone_page
    page.goto(f"/table/{table_game.table.token}/")
    enter(page, {"north": "3", "east": "3", "south": "3", "west": "3"}, {"north": 5, "east": 5, "south": 4})
    save(page, 1)
    page.wait_for_selector("p.error:has-text('The tricks add up to 14; they must make 13.')")
    # The live preview, once the last keystroke's answer is in, says the same.
    page.wait_for_selector("#preview >> text=The tricks add up to 14")
    assert "Enter West's number of tricks" not in page.inner_text("#hand-form")
    screenshot(page, "table-tricks-past-13")
    assert not table_game.hands.exists()


def test_a_misdeal_entered_offline_keeps_the_hand_number_and_the_dealer(phone_page, table_game, screenshot):
    page = phone_page
    page.goto(f"/table/{table_game.table.token}/")
    first = Seat(table_game.first_dealer).label
    page.context.set_offline(True)
    page.click("summary:has-text('Misdeal')")
    page.select_option("#misdeal-reason", "no_spades")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Record misdeal").click()
    page.wait_for_selector("button:has-text('Save hand 1')")
    assert f"dealer: {first}" in page.inner_text(".entry h2")
    enter(page, {"north": "3", "south": "3", "east": "3", "west": "4"}, {"north": 3, "south": 3, "east": 3, "west": 4})
    save(page, 1)
    page.wait_for_selector("button:has-text('Save hand 2')")
    assert f"dealer: {Seat(table_game.first_dealer).after(1).label}" in page.inner_text(".entry h2")
    screenshot(page, "table-offline-misdeal-keeps-number")
    page.context.set_offline(False)
    page.wait_for_function("() => !document.querySelector('.waiting-list li')", timeout=20_000)
    page.wait_for_selector("#hand-1-deal-2")
    assert [(h.number, h.deal, h.misdeal) for h in table_game.hands.all()] == [(1, 1, "no_spades"), (1, 2, "")]
