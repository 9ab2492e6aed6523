"""Results checked before they go up, in a real browser (headless Chromium): every kind of flag
raised by a crafted case on a round's board and cleared there, by marking it checked or by fixing
it; the club's setting holding an unchecked round off the public page and the projector; and a
phone's hands entered offline keeping the phone's own times of entry."""

import datetime
import os

import pytest
from django.urls import reverse
from django.utils import timezone

from scoring import HandEntry
from tests.conftest import DESKTOP, PHONE, finish_game, make_tournament
from tests.test_browser_offline import HANDS, Thumb, url, wait_for_kept_page
from tournament.models import Club, Game, Hand, HandRevision, Round, Table
from tournament.play.hands import enter_hand
from tournament.play.rounds import close_round, start_play, start_round
from tournament.review.flags import round_flags

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = "/tmp/shots-review"


def _shot(page, name: str) -> None:
    os.makedirs(SHOTS, exist_ok=True)
    page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=True)


def _log_in(page, director) -> None:
    page.goto("/login/")
    page.fill("#id_username", director.username)
    page.fill("#id_password", "correct-horse-battery")
    page.click("button[type=submit]")
    page.wait_for_url(lambda address: "/login/" not in address)


def _flags(page) -> list[tuple[str, str]]:
    """(kind, "checked"/"unchecked") of each flag listed on the page."""
    found = page.eval_on_selector_all(
        "#review-flags li.flag", "(items) => items.map((li) => [li.dataset.kind, li.classList[1]])"
    )
    return [tuple(item) for item in found]


def _check(page, kind: str, note: str = "") -> None:
    flag = page.locator(f"#review-flags li.flag.unchecked[data-kind='{kind}']").first
    if note:
        flag.locator("input[name=note]").fill(note)
    flag.get_by_role("button", name="Checked").click()
    page.wait_for_selector(f"#review-flags li.flag.checked[data-kind='{kind}']")


@pytest.fixture
def crafted(db) -> Round:
    """Round 1 of a four-table evening, closed, with something wrong at every table: table 1's
    stored total (10 too many), table 2's bags (3 too many), table 3's hand 3 entered on the phone
    20 seconds after hand 2, table 4's phone still holding a hand at the close, and table 4's game
    won by far more than 99 in 100 of the club's hundred earlier games."""
    tournament = make_tournament(name="Thursday Progressive")
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    for game in round_.games.order_by("table__number"):
        finish_game(game, ns_tricks=9 if game.table.number == 4 else 7)
    game3 = round_.games.get(table__number=3)
    start = timezone.now() - datetime.timedelta(minutes=30)
    for number, seconds in ((1, 0), (2, 400), (3, 420), (4, 900)):
        Hand.objects.filter(game=game3, number=number).update(keyed_at=start + datetime.timedelta(seconds=seconds))
    Table.objects.filter(tournament=tournament, number=4).update(phone_waiting=1)
    close_round(round_=round_)
    g1, g2 = round_.games.get(table__number=1), round_.games.get(table__number=2)
    Game.objects.filter(pk=g1.pk).update(ns_score=g1.ns_score + 10)
    Game.objects.filter(pk=g2.pk).update(ew_bags=g2.ew_bags + 3)
    # A hundred earlier games of the club, won by 0 to 9 points: the 99th percentile is 9.
    earlier = make_tournament(couples=2, name="Last month")
    past = Round.objects.create(tournament=earlier, number=1, status=Round.Status.CLOSED,
                                closed_at=timezone.now() - datetime.timedelta(days=30))  # fmt: skip
    tables = Table.objects.bulk_create([Table(tournament=earlier, number=n) for n in range(1, 101)])
    Game.objects.bulk_create([Game(round=past, table=t, status=Game.Status.FINISHED, ns_score=100 + t.number % 10,
                                   ew_score=100) for t in tables])  # fmt: skip
    return Round.objects.get(pk=round_.pk)


def test_each_flag_is_shown_on_the_board_and_cleared_by_a_check_or_a_fix(browser, live_server, director, crafted):
    round_ = crafted
    board = reverse("director:round", args=[round_.tournament_id, round_.number])
    context = browser.new_context(viewport=DESKTOP, base_url=live_server.url)
    page = context.new_page()
    _log_in(page, director)
    page.goto(board)
    assert sorted(_flags(page)) == sorted([("total", "unchecked"), ("bags", "unchecked"), ("quick", "unchecked"),
                                           ("waiting", "unchecked"), ("margin", "unchecked")])  # fmt: skip
    text = page.inner_text("#review-flags")
    assert "5 to check" in text
    assert "Table 1, after hand 4: North–South's stored total is 254 but its hands add up to 244." in text
    assert "Table 2, after hand 4: East–West's stored bags are 3 but its hands leave 0." in text
    assert "Table 3, hand 3: entered on the phone 20 seconds after hand 2." in text
    assert "Table 4: its phone still had 1 hand waiting to be sent when the round closed." in text
    assert "Table 4: the game was won by " in text and "won by 9 or less." in text
    _shot(page, "board-flags-desktop")
    phone = browser.new_context(viewport=PHONE, base_url=live_server.url, has_touch=True, is_mobile=True)
    small = phone.new_page()
    _log_in(small, director)
    small.goto(board)
    small.wait_for_selector("#review-flags li.flag")
    _shot(small, "board-flags-360")
    phone.close()

    # Marked checked on the board (htmx: the list answers in place), with a note for one.
    page.evaluate("window.__sameDocument = true")
    _check(page, "bags", note="Sheet shows 0 bags: a slip at the desk")
    for kind in ("quick", "waiting", "margin"):
        _check(page, kind)
    assert page.evaluate("window.__sameDocument") is True
    assert "“Sheet shows 0 bags: a slip at the desk”" in page.inner_text("#review-flags li.checked[data-kind=bags]")

    # Fixed: the stored total is put right by saving hand 4 again on the game's page; the flag goes,
    # and the correction made after the close is flagged in its place (a record, until checked).
    page.get_by_role("link", name="Open table 1, hand 4").click()
    page.get_by_role("button", name="Save hand").click()
    page.wait_for_selector(".message.success")
    page.goto(board)
    kinds = dict(_flags(page))
    assert "total" not in kinds and kinds["changed"] == "unchecked"
    assert "Table 1, hand 4: changed at the desk at " in page.inner_text("#review-flags")
    _check(page, "changed", note="Rescored")
    assert "all checked" in page.inner_text("#review-flags h2")
    _shot(page, "board-flags-all-checked")
    assert round_flags(round_).all_checked
    context.close()


def test_a_hand_worth_more_than_300_is_flagged_while_the_round_runs_and_checked(browser, live_server, director):
    tournament = make_tournament(preset="progressive-500", couples=4, name="Big hands")
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    game = round_.games.get(table__number=1)
    set_ = {"north_bid": "3", "north_tricks": 2, "south_bid": "3", "south_tricks": 1,
            "east_bid": "3", "east_tricks": 5, "west_bid": "3", "west_tricks": 5}  # fmt: skip
    blind = {"north_bid": "blind_nil", "north_tricks": 0, "south_bid": "12", "south_tricks": 13,
             "east_bid": "1", "east_tricks": 0, "west_bid": "1", "west_tricks": 0}  # fmt: skip
    for number, values in ((1, set_), (2, blind)):
        enter_hand(game=game, number=number, entry=HandEntry.from_fields(values), source=HandRevision.Source.TABLE)
    context = browser.new_context(viewport=DESKTOP, base_url=live_server.url)
    page = context.new_page()
    _log_in(page, director)
    page.goto(reverse("director:round", args=[tournament.pk, 1]))
    assert _flags(page) == [("big", "unchecked")]
    assert "Table 1, hand 2: worth +321 points to North–South" in page.inner_text("#review-flags")
    _check(page, "big", note="Blind nil and a boston: it happens")
    assert _flags(page) == [("big", "checked")]
    context.close()


def test_with_the_setting_on_an_unchecked_round_stays_off_the_public_page_and_projector(browser, live_server, director):
    tournament = make_tournament(name="Friday Progressive")
    Club.objects.filter(pk=tournament.club_id).update(publish_checked_only=True)
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    for game in round_.games.all():
        finish_game(game)
    close_round(round_=round_)
    start_round(round_=tournament.rounds.get(number=2))  # the projector shows the standings, not the seats
    g1 = round_.games.get(table__number=1)
    Game.objects.filter(pk=g1.pk).update(ns_score=g1.ns_score + 10)

    public = browser.new_context(viewport=PHONE, base_url=live_server.url)
    standings = public.new_page()
    standings.goto(reverse("public:standings", args=[tournament.pk]))
    assert "Round 1's results are being checked" in standings.inner_text("#standings")
    assert standings.locator("th.round-col").count() == 0 and "244" not in standings.inner_text("#standings")
    _shot(standings, "public-held-360")
    projector = browser.new_context(viewport={"width": 1920, "height": 1080}, base_url=live_server.url).new_page()
    projector.goto(reverse("public:projector", args=[tournament.pk]))
    assert "Round 1's results are being checked" in projector.inner_text("#projector")
    assert "244" not in projector.inner_text("#projector")
    _shot(projector, "projector-held-1920")

    director_context = browser.new_context(viewport=DESKTOP, base_url=live_server.url)
    page = director_context.new_page()
    _log_in(page, director)
    page.goto(reverse("director:round", args=[tournament.pk, 1]))
    _check(page, "total", note="Sheet agrees with the hands")

    # The public page asks for itself every 10 s and the projector every 10 s: round 1 shows.
    standings.wait_for_selector("th.round-col", state="attached", timeout=15_000)
    assert "being checked" not in standings.inner_text("#standings") and "244" in standings.inner_text("#standings")
    # The projector turns its pages every 10 s, the standings then the chart of places: the standings
    # may come round only on the second turn after the check.
    projector.wait_for_function("() => document.querySelector('#projector').innerText.includes('244')",
                                timeout=35_000)  # fmt: skip
    assert "Round 2 is being played" in projector.inner_text("#projector")
    _shot(projector, "projector-after-check-1920")
    director_context.close()
    public.close()


def test_hands_entered_offline_keep_the_phones_times_and_are_not_quick(phone_page, db):
    tournament = make_tournament(couples=2, name="Offline night")
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    game = round_.games.get()
    page = phone_page
    page.goto(url(game))
    wait_for_kept_page(page)
    entered = timezone.now().replace(microsecond=0) - datetime.timedelta(minutes=10)
    page.context.set_offline(True)
    thumb = Thumb(page)
    for number, minutes in ((1, 0), (2, 4)):
        # The phone's clock as each hand is saved: four minutes apart, the network down all along.
        page.clock.set_fixed_time(entered + datetime.timedelta(minutes=minutes))
        thumb.hand(*HANDS[number - 1], number=number)
        page.wait_for_selector(f"text=will send when the network is back ({number} waiting)")
    page.context.set_offline(False)
    page.wait_for_selector("text=Hand 2 sent", timeout=15_000)
    hands = list(game.hands.order_by("number"))
    assert [hand.keyed_at for hand in hands] == [entered, entered + datetime.timedelta(minutes=4)]
    assert hands[1].entered_at - hands[0].entered_at < datetime.timedelta(minutes=1)  # sent together
    assert round_flags(round_).shown == ()


def test_a_closed_rounds_flags_are_found_from_the_dashboard_and_the_next_rounds_board(browser, live_server, director):
    """Round 1 closed with a hand corrected after the close, round 2 under way: the dashboard and
    round 2's board lead to round 1's flag, which says what changed; a hand of round 1 opened for
    correction warns first; the public page, holding round 1, says there are no results yet."""
    tournament = make_tournament(name="Thursday Progressive")
    first = start_play(tournament=tournament)
    start_round(round_=first)
    for game in first.games.all():
        finish_game(game)
    close_round(round_=first)
    from tests.conftest import even_hand
    from tests.events import correct_hand

    game = first.games.get(table__number=1)
    correct_hand(game=game, number=2, entry=HandEntry.from_fields(even_hand(8)), by=director, expected_version=1)
    start_round(round_=tournament.rounds.get(number=2))
    Club.objects.filter(pk=tournament.club_id).update(publish_checked_only=True)
    shots = "/tmp/shots-reviewfix"
    os.makedirs(shots, exist_ok=True)
    for size, viewport in (("1280", DESKTOP), ("360", PHONE)):
        page = browser.new_context(viewport=viewport, base_url=live_server.url).new_page()
        _log_in(page, director)
        page.goto(reverse("director:dashboard", args=[tournament.pk]))
        page.screenshot(path=f"{shots}/dashboard-{size}.png", full_page=True)
        page.goto(reverse("director:round", args=[tournament.pk, 2]))
        assert page.locator(".earlier-flags").inner_text() == "Not checked yet: Round 1, 1 to check"
        assert page.locator("nav.tabs a[aria-current=page]").inner_text() == "Round 2"
        page.screenshot(path=f"{shots}/round2-{size}.png", full_page=True)
        page.goto(reverse("director:dashboard", args=[tournament.pk]))
        page.get_by_role("link", name="1 to check").click()
        page.wait_for_url(lambda address: "/rounds/1/" in address)
        assert page.locator("nav.tabs a[aria-current=page]").count() == 0
        words = page.locator("#review-flags li.flag").inner_text()
        assert "after the round closed (North's tricks 4 → 5; East's tricks 3 → 2)." in words
        page.screenshot(path=f"{shots}/round1-flags-{size}.png", full_page=True)
        page.get_by_role("link", name="Open table 1, hand 2").click()
        assert "Round 1 is closed: a change here moves the standings" in page.locator("#entry").inner_text()
        page.screenshot(path=f"{shots}/game1-correct-{size}.png", full_page=True)
        page.goto(reverse("public:standings", args=[tournament.pk]))
        assert "No results yet." in page.locator("#standings").inner_text()
        page.screenshot(path=f"{shots}/public-held-{size}.png", full_page=True)
        page.context.close()
