"""Keying paper sheets in headless Chromium, with the keyboard alone (typing, Tab and Enter; no
clicks): a whole 4-hand sheet, a wrong row put right; then, with the club keying sheets twice, a
second person keys the same sheet with one hand different, the mismatch is caught, and a third
keying settles it."""

import os

import pytest
from django.urls import reverse

from tests.conftest import DESKTOP, PHONE, a_club, make_tournament
from tournament.clubs.services import grant
from tournament.keying import services
from tournament.models import Club, ClubMember, Game
from tournament.play.rounds import start_play, start_round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = "/tmp/shots-keying"
PASSWORD = "correct-horse-battery"


def _shot(page, name: str) -> None:
    os.makedirs(SHOTS, exist_ok=True)
    page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=True)


@pytest.fixture
def evening(django_user_model):
    """A progressive evening's first round under way (four hands a game) and three directors."""
    tournament = make_tournament(couples=4)
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    people = {}
    for name in ("ann", "bob", "cy"):
        people[name] = django_user_model.objects.create_user(name, password=PASSWORD)
        grant(club=a_club(), user=people[name], role=ClubMember.Role.DIRECTOR)
    return round_.games.get(table__number=1), people


def _open(browser, live_server, user, game, viewport=DESKTOP, context=None):
    """``user``'s browser (a new one, or ``context``) on the game's keying page, logged in with the keyboard."""
    page = (context or browser.new_context(viewport=viewport, base_url=live_server.url)).new_page()
    page.goto("/login/")
    page.focus("#id_username")
    page.keyboard.type(user.username)
    page.keyboard.press("Tab")
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_url(lambda url: "/login/" not in url)
    page.goto(reverse("director:keying", args=[game.round.tournament_id, game.pk]))
    return page


def _type_row(page, bids: str, tricks: str) -> None:
    """Type a row from where the cursor is (its first box): bids then tricks, Tab between, Enter."""
    boxes = bids.split() + tricks.split()
    for index, value in enumerate(boxes):
        page.keyboard.type(value)
        page.keyboard.press("Enter" if index == len(boxes) - 1 else "Tab")


def _cursor_in(page, number: int, name: str = "north_bid") -> None:
    """Wait until the cursor is in box ``name`` of hand ``number``'s row (the grid came back)."""
    page.wait_for_function(
        "([row, name]) => document.activeElement && document.activeElement.getAttribute('form') === row"
        " && document.activeElement.name === name",
        arg=[f"key-{number}-1", name],
    )


def test_a_whole_sheet_keyed_with_the_keyboard_alone(browser, live_server, evening):
    game, people = evening
    page = _open(browser, live_server, people["ann"], game)
    _cursor_in(page, 1)  # the page opens with the cursor in hand 1's first box
    for number in (1, 2):
        _type_row(page, "3 3 3 3", "4 3 3 3")
        _cursor_in(page, number + 1)
    _type_row(page, "3 3 3 3", "4 3 4 3")  # 14 tricks: refused, the cursor in the first trick box
    _cursor_in(page, 3, "north_tricks")
    assert "Hand 3: The tricks add up to 14; they must make 13." in page.inner_text("#row-3-1 + tr")
    assert page.evaluate("document.activeElement.selectionEnd - document.activeElement.selectionStart") == 1
    _shot(page, "desktop-keying-error")
    _type_row(page, "", "4 3 3 3")
    _cursor_in(page, 4)
    _type_row(page, "2 4 3 4", "3 4 3 3")  # NS bid 5 took 6: 51; EW bid 8 took 7: set, −80
    page.wait_for_selector("text=Saved hand 4.")
    totals = page.eval_on_selector_all(
        "tr.keying-row", "rows => rows.map(r => [...r.querySelectorAll('td.num')].map(c => c.textContent.trim()))"
    )
    assert totals == [["61", "60"], ["122", "120"], ["183", "180"], ["234", "100"]]
    game.refresh_from_db()
    assert (game.status, game.hands.count(), game.ns_score, game.ew_score) == (Game.Status.FINISHED, 4, 234, 100)
    assert page.locator("input.key").count() == 0  # the game is over: no row left to key
    _shot(page, "desktop-keying-sheet-done")
    page.context.close()


def test_a_sheet_keyed_twice_with_one_mismatch_caught_and_settled(browser, live_server, evening):
    game, people = evening
    Club.objects.filter(pk=a_club().pk).update(double_keying=True)
    first = _open(browser, live_server, people["ann"], game)
    for number in (1, 2, 3, 4):
        _cursor_in(first, number)
        _type_row(first, "3 3 3 3", "4 3 3 3")
    first.wait_for_selector("text=Hand 4 is keyed once")
    assert not game.hands.exists()
    assert first.locator("input.key").count() == 0  # her four hands end the game as she keyed them
    _shot(first, "desktop-keying-first-keying")
    first.context.close()

    second = _open(browser, live_server, people["bob"], game)
    assert "4 hands waiting for a second keying" in second.inner_text("#keying-sheet")
    for number, tricks in ((1, "4 3 3 3"), (2, "5 2 3 3"), (3, "4 3 3 3"), (4, "4 3 3 3")):
        _cursor_in(second, number)
        _type_row(second, "3 3 3 3", tricks)
        if number == 2:
            second.wait_for_selector("text=Hand 2 does not match its first keying")
    second.wait_for_selector("text=Hand 4 matches its first keying: it counts once hand 2 is entered.")
    assert "1 mismatch" in second.inner_text(".keying-waiting")
    differing = second.eval_on_selector_all("td.differs", "cells => cells.map(c => c.textContent)")
    assert differing == ["4", "3", "5", "2"]  # North's and East's tricks, as each person keyed them
    assert list(game.hands.values_list("number", flat=True)) == [1]
    words = "Table 1, hand 2: its two keyings differ (North's tricks 4 or 5; East's tricks 3 or 2)."
    assert [m.words for m in services.mismatches(game.round)] == [words]
    _shot(second, "desktop-keying-mismatch")
    second.goto(reverse("director:round_board", args=[game.round.tournament_id, 1]))
    # Named once, among the round's flags; the keying line counts it.
    assert second.inner_text("body").count(words) == 1 and "1 mismatch" in second.inner_text(".keying-status")
    _shot(second, "desktop-board-mismatch")
    second.context.close()

    third = _open(browser, live_server, people["cy"], game)
    _cursor_in(third, 2)  # the mismatch is the first row to key
    _type_row(third, "3 3 3 3", "4 3 3 3")
    third.wait_for_selector("text=Hand 2 matches its first keying and is entered. Hands 3, 4, keyed alike")
    game.refresh_from_db()
    assert (game.status, game.hands.count(), game.ns_score, game.ew_score) == (Game.Status.FINISHED, 4, 244, 240)
    assert services.mismatches(game.round) == []
    _shot(third, "desktop-keying-settled")
    third.context.close()


def test_the_keying_page_at_phone_width_scrolls_its_grid_not_the_page(browser, live_server, evening):
    game, people = evening
    page = _open(browser, live_server, people["ann"], game, viewport=PHONE)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    _shot(page, "phone-keying")
    page.context.close()


def test_without_javascript_enter_posts_the_row_and_the_page_comes_back_at_the_next_row(browser, live_server, evening):
    game, people = evening
    context = browser.new_context(viewport=DESKTOP, base_url=live_server.url, java_script_enabled=False)
    page = _open(browser, live_server, people["ann"], game, context=context)
    _cursor_in(page, 1)
    with page.expect_navigation():
        _type_row(page, "3 3 3 3", "4 3 3 3")
    _cursor_in(page, 2)
    assert "Saved hand 1." in page.inner_text("#messages")
    assert game.hands.get().north_tricks == 4
    context.close()


def test_a_hand_entered_at_the_table_meanwhile_is_told_on_the_sheet(browser, live_server, evening):
    from scoring import HandEntry
    from tests.conftest import even_hand
    from tournament.models import HandRevision
    from tournament.play.hands import enter_hand

    game, people = evening
    Club.objects.filter(pk=a_club().pk).update(double_keying=True)
    page = _open(browser, live_server, people["ann"], game)
    _cursor_in(page, 1)
    _type_row(page, "3 3 3 3", "4 3 3 3")
    page.wait_for_selector("text=Hand 1 is keyed once")
    enter_hand(game=game, number=1, entry=HandEntry.from_fields(even_hand(8)), source=HandRevision.Source.TABLE)
    page.reload()
    _cursor_in(page, 2)  # hand 1 is in as the table sent it; the cursor waits in hand 2
    assert "Hand 1 was entered at the table or on the game page meanwhile" in page.inner_text("#keying-sheet .warn")
    assert "Keyed otherwise by ann (North's tricks 4; East's tricks 3)" in page.inner_text("#row-1-1")
    _shot(page, "desktop-keying-entered-elsewhere")
    page.context.close()
