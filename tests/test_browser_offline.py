"""The table page through a dropped network (headless Chromium, 360×740, Playwright's offline mode).

The live server runs on localhost, where the browser allows the service worker: the page reopens
with no network, from the first visit on. A venue's plain HTTP is reached by another host name
(Chromium counts every 127.x address as secure). Hands saved offline wait on the phone and arrive
once each, in order.
"""

import time
from urllib.parse import urlparse

import pytest

from scoring import HandEntry, Seat
from tests.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE, make_tournament
from tournament.models import Hand, HandRevision, Table
from tournament.play.hands import enter_hand
from tournament.play.rounds import start_play, start_round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Ordinary hands: four bids, then three trick counts (West's fills in as 13 minus the others).
HANDS = [
    ({"north": "3", "east": "4", "south": "3", "west": "2"}, {"north": 4, "east": 3, "south": 3}),
    ({"north": "4", "east": "3", "south": "2", "west": "3"}, {"north": 4, "east": 3, "south": 2}),
    ({"north": "2", "east": "2", "south": "4", "west": "4"}, {"north": 2, "east": 3, "south": 4}),
]


@pytest.fixture
def table_game(db):
    tournament = make_tournament(couples=2)
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    return round_.games.get()


def url(game) -> str:
    return f"/table/{game.table.token}/"


class Thumb:
    """Taps the page as a scorekeeper's thumb would, and counts the taps."""

    def __init__(self, page) -> None:
        self.page, self.taps = page, 0

    def tap(self, selector: str) -> None:
        self.page.tap(selector)
        self.taps += 1

    def key(self, value: object) -> None:
        self.tap(f".pad .key[data-value='{value}']")

    def hand(self, bids: dict, tricks: dict, number: int) -> None:
        for seat in ("north", "east", "south", "west"):
            self.key(bids[seat])
        for seat in ("north", "east", "south"):
            self.key(tricks[seat])
        self.tap(f"button:has-text('Save hand {number}')")


def stored(game) -> list[tuple]:
    return list(
        Hand.objects.filter(game=game)
        .order_by("number")
        .values_list("number", "north_bid", "east_bid", "north_tricks", "west_tricks")
    )


def expected(first: int, hands: list) -> list[tuple]:
    return [
        (first + i, bids["north"], bids["east"], tricks["north"], 13 - sum(tricks.values()))
        for i, (bids, tricks) in enumerate(hands)
    ]


def wait_for_worker(page) -> None:
    # A function, not a bare expression: Playwright evaluates a function's text once, which the
    # app's Content-Security-Policy allows (1.55 on); a bare expression again at every check.
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def wait_for_kept_page(page, seconds: float = 15) -> None:
    """Until the service worker keeps this very page (it was loaded before the worker ran). Polled
    here: wait_for_function does not wait for a promise's answer."""
    deadline = time.monotonic() + seconds
    while not page.evaluate("() => caches.match(location.href).then((hit) => hit !== undefined)"):
        assert time.monotonic() < deadline, "the service worker did not keep the page"
        page.wait_for_timeout(100)


def hand_rows(page) -> list[str]:
    return page.eval_on_selector_all("#hand-list > li", "(rows) => rows.map((row) => row.id)")


def test_a_table_link_opened_once_reopens_with_no_network_and_takes_hands(phone_page, table_game, screenshot):
    page = phone_page
    page.goto(url(table_game))
    assert page.locator("#keep-open").is_hidden()  # the worker keeps the page: no need to keep it open
    wait_for_kept_page(page)
    page.context.set_offline(True)
    page.reload()  # the first reload, with no network
    page.wait_for_selector("button:has-text('Save hand 1')")
    assert "not opened on this phone before" not in page.content()
    Thumb(page).hand(*HANDS[0], number=1)
    page.wait_for_selector("text=will send when the network is back (1 waiting)")
    assert Hand.objects.count() == 0

    page.context.set_offline(False)
    page.wait_for_selector("text=Hand 1 sent", timeout=15_000)
    assert stored(table_game) == expected(1, HANDS[:1])
    assert hand_rows(page) == ["hand-1"]


@pytest.fixture
def venue_page(browser, live_server, settings):
    """A phone reaching the live server as http://venue.test:<port>/, a plain-HTTP address that is
    not loopback: no secure context, so no service worker, as on a venue's network."""
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "venue.test"]
    args = [*CHROMIUM_ARGS, "--host-resolver-rules=MAP venue.test 127.0.0.1"]
    venue = browser.browser_type.launch(executable_path=CHROMIUM, args=args)
    base = f"http://venue.test:{urlparse(live_server.url).port}"
    context = venue.new_context(viewport=PHONE, base_url=base, has_touch=True, is_mobile=True)
    yield context.new_page()
    venue.close()


def test_over_plain_http_the_page_asks_to_stay_open_and_keeps_hands_offline(venue_page, table_game, screenshot):
    page = venue_page
    page.goto(url(table_game))
    assert page.evaluate("() => window.isSecureContext") is False
    notice = page.locator("#keep-open")
    notice.wait_for(state="visible")
    assert "Don't reload or close it" in notice.inner_text()
    screenshot(page, "table-plain-http-keep-open")
    page.context.set_offline(True)
    Thumb(page).hand(*HANDS[0], number=1)
    page.wait_for_selector("text=will send when the network is back (1 waiting)")
    page.wait_for_selector("button:has-text('Save hand 2')")
    assert notice.is_visible() and Hand.objects.count() == 0
    screenshot(page, "table-plain-http-offline-waiting")

    page.context.set_offline(False)
    page.wait_for_selector("text=Hand 1 sent", timeout=15_000)
    assert stored(table_game) == expected(1, HANDS[:1])


def test_hands_sent_on_reconnecting_are_listed_once_even_when_an_answer_was_lost(browser, live_server, table_game):
    # Playwright's routes do not see what a service worker fetches: this phone has none.
    context = browser.new_context(viewport=PHONE, base_url=live_server.url, has_touch=True, is_mobile=True,
                                  service_workers="block")  # fmt: skip
    page = context.new_page()
    page.goto(url(table_game))
    page.context.set_offline(True)
    thumb = Thumb(page)
    thumb.hand(*HANDS[0], number=1)
    thumb.hand(*HANDS[1], number=2)
    page.wait_for_selector("text=(2 waiting)")
    lost = []

    def lose_the_answers_to_hand_2(route) -> None:
        if route.request.method == "POST" and "number=2" in (route.request.post_data or ""):
            route.fetch()  # the server stores hand 2 (once: the same entry key each time) ...
            lost.append(route.request.url)
            route.abort()  # ... and the phone never hears so: hand 2 still waits on it
        else:
            route.continue_()

    page.route("**/hands/", lose_the_answers_to_hand_2)
    page.context.set_offline(False)
    page.wait_for_selector("text=Hand 1 sent", timeout=15_000)
    page.wait_for_selector("text=will send when the network is back (1 waiting)")
    assert lost and [h[0] for h in stored(table_game)] == [1, 2]
    page.unroute("**/hands/")

    page.reload()  # the server lists hand 2; the phone still has it waiting
    page.wait_for_selector("text=Hand 2 sent", timeout=15_000)
    assert hand_rows(page) == ["hand-2", "hand-1"]
    assert page.locator(".waiting-list li").count() == 0
    page.reload()
    assert hand_rows(page) == ["hand-2", "hand-1"]
    assert stored(table_game) == expected(1, HANDS[:2])
    assert HandRevision.objects.count() == 2
    context.close()


def test_hands_saved_offline_survive_a_reload_and_arrive_once_in_order(phone_page, table_game, screenshot):
    page = phone_page
    page.goto(url(table_game))
    wait_for_worker(page)
    page.reload()  # the worker keeps the page and its assets as it loads
    page.context.set_offline(True)
    thumb = Thumb(page)
    for number, (bids, tricks) in enumerate(HANDS, start=1):
        thumb.hand(bids, tricks, number)
        page.wait_for_selector(f"text=will send when the network is back ({number} waiting)")
        page.wait_for_selector(f"button:has-text('Save hand {number + 1}')")
    assert "No network" in page.inner_text("#phone-status")
    screenshot(page, "table-offline-three-waiting")
    assert Hand.objects.count() == 0

    page.reload()  # no network: the service worker opens the page as last seen
    page.wait_for_selector("text=(3 waiting)")
    assert "Save hand 4" in page.inner_text("#hand-form")
    fourth = Seat(table_game.first_dealer).after(3).label  # three seats dealt hands 1 to 3
    assert page.inner_text("[data-dealer]") == f"dealer: {fourth}"
    # On the phone, a hand that does not add up is still caught.
    for value in ("1", "1", "1", "1", "5", "5", "5"):
        thumb.key(value)
    page.fill("#id_west_tricks", "5")
    thumb.tap("button:has-text('Save hand 4')")
    page.wait_for_selector("p.error:has-text('The tricks add up to 20; they must make 13.')")

    page.context.set_offline(False)
    page.wait_for_selector("text=Hand 3 sent", timeout=15_000)
    assert stored(table_game) == expected(1, HANDS)
    assert HandRevision.objects.count() == 3
    assert not page.evaluate(f"JSON.parse(localStorage.getItem('spades.waiting.{table_game.table.token}'))").__len__()
    screenshot(page, "table-back-online")


def test_a_waiting_hand_another_phone_entered_stops_the_list_and_shows_both(phone_page, table_game, screenshot):
    page = phone_page
    page.clock.install()  # time runs as usual until the test moves it on
    page.goto(url(table_game))
    page.context.set_offline(True)
    thumb = Thumb(page)
    thumb.hand(*HANDS[0], number=1)
    thumb.hand(*HANDS[1], number=2)
    page.wait_for_selector("text=(2 waiting)")
    # Meanwhile another phone at the table enters hand 1 its own way.
    other = {"north_bid": "5", "east_bid": "3", "south_bid": "3", "west_bid": "2",
             "north_tricks": 6, "east_tricks": 3, "south_tricks": 2, "west_tricks": 2}  # fmt: skip
    enter_hand(game=table_game, number=1, entry=HandEntry.from_fields(other), source=HandRevision.Source.TABLE)

    page.context.set_offline(False)
    page.wait_for_selector("text=Hand 1 was not accepted")
    stored_card = page.inner_text(".stored")
    mine = page.inner_text(".card.mine")
    assert "bids N 5" in stored_card and "bids N 3 · E 4 · S 3 · W 2" in mine
    assert "Hand 2: bids N 4" in page.inner_text(".waiting-list")  # the hand after it waits
    screenshot(page, "table-waiting-conflict")
    sent = []
    page.on("request", lambda request: request.method == "POST" and "/hands/" in request.url and sent.append(request))
    page.clock.run_for(5000)  # a retry round passes: nothing more is sent
    assert sent == [] and Hand.objects.count() == 1

    page.get_by_role("button", name="Drop mine, keep the stored hand").click()
    page.wait_for_selector("text=Hand 2 sent")
    assert [h[0] for h in stored(table_game)] == [1, 2]
    assert stored(table_game)[1] == expected(2, HANDS[1:2])[0]


def test_the_preview_offline_says_so_and_never_carries_the_csrf_token(phone_page, table_game):
    page = phone_page
    previews = []
    page.on("request", lambda request: "/preview/" in request.url and previews.append(request.url))
    page.goto(url(table_game))
    with page.expect_request(lambda request: "/preview/" in request.url):
        Thumb(page).key("3")
    assert previews and not any("csrfmiddlewaretoken" in address for address in previews)
    page.context.set_offline(True)
    Thumb(page).key("4")
    page.wait_for_selector("#preview >> text=Score shown when online.")


def test_the_table_page_reports_in_and_says_how_many_hands_wait(phone_page, table_game):
    page = phone_page
    with page.expect_response(lambda response: response.url.endswith("/report/")):
        page.goto(url(table_game))
    table = Table.objects.get(pk=table_game.table_id)
    assert table.phone_heard_at is not None and table.phone_waiting == 0


# --- few taps at the table ------------------------------------------------------------------------


def test_an_ordinary_hand_takes_eight_taps_and_the_fourth_tricks_fill_in(phone_page, table_game):
    page = phone_page
    page.goto(url(table_game))
    thumb = Thumb(page)
    bids, tricks = HANDS[0]
    for seat in ("north", "east", "south", "west"):
        assert "active" in page.get_attribute(f"#id_{seat}_bid + .cell", "class")  # the pad moves on by itself
        thumb.key(bids[seat])
    for seat in ("north", "east", "south"):
        thumb.key(tricks[seat])
    assert page.inner_text("#id_west_tricks + .cell") == "3"
    # Still editable: West took 4, so South took 2.
    thumb.tap("#id_west_tricks + .cell")
    thumb.key(4)
    thumb.tap("#id_south_tricks + .cell")
    thumb.key(2)
    assert page.input_value("#id_west_tricks") == "4"
    thumb.tap("button:has-text('Save hand 1')")
    page.wait_for_selector("text=Hand 1 saved.")
    assert thumb.taps == 8 + 4
    assert stored(table_game) == [(1, "3", "4", 4, 4)]
    # After the save the next hand's first box is at the top of the screen, ready for the pad.
    assert "active" in page.get_attribute("#id_north_bid + .cell", "class")
    top = page.evaluate("document.querySelector('.entry').getBoundingClientRect().top")
    assert 0 <= top < 80


def test_save_stays_put_while_the_preview_grows(phone_page, table_game):
    page = phone_page
    page.goto(url(table_game))
    thumb = Thumb(page)
    before = page.locator("button:has-text('Save hand 1')").bounding_box()
    for value in ("3", "4", "3", "2", "4", "3", "3"):
        thumb.key(value)
    page.wait_for_selector("#preview .preview")
    assert page.locator("button:has-text('Save hand 1')").bounding_box() == before


def test_an_error_goes_as_soon_as_its_field_is_fixed(phone_page, table_game):
    page = phone_page
    page.goto(url(table_game))
    thumb = Thumb(page)
    thumb.tap("button:has-text('Save hand 1')")
    page.wait_for_selector('p.error:has-text("Enter North\'s bid.")')
    assert page.locator("p.error").count() == 8
    thumb.key(3)  # North's bid
    assert page.locator('p.error:has-text("Enter North\'s bid.")').count() == 0
    assert page.locator("p.error").count() == 7
    # An error from the server goes the same way: here blind nil, refused while East–West do not trail.
    tournament = table_game.round.tournament
    tournament.rule_overrides = {"nil_points": 100, "blind_nil_points": 200, "blind_nil_min_deficit": 100}
    tournament.save()
    page.reload()
    for value in ("3", "blind_nil", "3", "2", "4", "0", "3"):
        thumb.key(value)
    thumb.tap("button:has-text('Save hand 1')")
    page.wait_for_selector("p.error[data-for=east_bid]:has-text('trail by at least 100 points')")
    thumb.tap("#id_east_bid + .cell")
    thumb.key(4)
    assert page.locator("p.error[data-for=east_bid]").count() == 0
    assert page.get_attribute("#id_east_bid", "aria-invalid") is None
