"""The table page scores the hands that wait on it while the network is down (static/js/scorer.js,
the engine's second copy): the totals count them, marked as not yet confirmed, each waiting hand
shows its points, and no hand is offered past the game's end (headless Chromium, 360×740)."""

import pytest

from scoring import Game, PlayerHand, Seat
from tests.conftest import make_tournament
from tests.test_browser_offline import url
from tournament.models import Game as TableGame
from tournament.play.rounds import start_play, start_round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Everyone bids 3; North–South take 6 or 7 tricks (the tricks of North, East, South; West's fill in).
NS_SEVEN = {"north": 4, "east": 3, "south": 3}  # NS 61, EW 60
NS_SIX = {"north": 3, "east": 4, "south": 3}  # NS 60, EW 61


def engine_hand(tricks: dict) -> tuple:
    west = 13 - sum(tricks.values())
    return ((PlayerHand(3, tricks["north"]), PlayerHand(3, tricks["south"])),
            (PlayerHand(3, tricks["east"]), PlayerHand(3, west)))  # fmt: skip


def table_game(preset: str, **overrides) -> TableGame:
    tournament = make_tournament(couples=2, preset=preset, rule_overrides=overrides)
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    return round_.games.get()


def enter(page, tricks: dict) -> None:
    """Everyone bids 3, then the tricks; saved, whatever the hand's number."""
    for _ in range(4):
        page.tap(".pad .key[data-value='3']")
    for seat in ("north", "east", "south"):
        page.tap(f".pad .key[data-value='{tricks[seat]}']")
    page.tap("#hand-form button[type=submit]")


def misdeal(page) -> None:
    page.tap("details.misdeal summary")
    page.tap("details.misdeal button[type=submit]")


def shown_totals(page) -> tuple[int, int]:
    return tuple(int(text.replace("−", "-")) for text in page.locator("#totals .side strong").all_inner_texts())


def test_hands_waiting_offline_that_end_the_game_show_its_end_and_no_further_hand(phone_page, screenshot):
    game = table_game("tennessee", target_score=150)
    page = phone_page
    page.on("dialog", lambda dialog: dialog.accept())  # "Record a misdeal …? It scores nothing."
    page.goto(url(game))
    page.context.set_offline(True)
    enter(page, NS_SEVEN)
    page.wait_for_selector("text=(1 waiting)")
    misdeal(page)  # scores nothing and is no hand played
    page.wait_for_selector("text=(2 waiting)")
    enter(page, NS_SIX)
    page.wait_for_selector("text=(3 waiting)")
    assert shown_totals(page) == (121, 121)
    assert "Game to 150 · 2 hands played" in page.inner_text("#totals")
    assert "Counting 2 hands waiting on this phone: not yet confirmed by the server." in page.inner_text("#totals")
    assert "tied" not in page.inner_text("#entry")  # level, but short of the target: no extra hand yet
    screenshot(page, "table-offline-running-total")
    enter(page, NS_SEVEN)
    page.wait_for_selector("#pending-over")

    engine = Game(game.rules)
    for tricks in (NS_SEVEN, NS_SIX, NS_SEVEN):
        engine = engine.play(engine_hand(tricks))
    assert engine.over and shown_totals(page) == engine.scores == (182, 181)
    assert "Game over on this phone's count" in page.inner_text("#pending-over")
    assert not page.is_visible("#hand-form") and not page.is_visible("details.misdeal")
    assert "NS +61, EW +60" in page.inner_text(".waiting-list")
    screenshot(page, "table-offline-game-over")
    page.set_viewport_size({"width": 1280, "height": 800})
    screenshot(page, "table-offline-game-over-desktop")

    page.context.set_offline(False)
    page.wait_for_selector("#entry >> text=Game over:", timeout=15_000)
    game.refresh_from_db()
    assert (game.ns_score, game.ew_score) == engine.scores and game.is_finished
    assert shown_totals(page) == engine.scores and not page.is_visible("#pending-note")


def test_a_round_level_after_its_hands_offline_still_offers_the_extra_hand(phone_page, screenshot):
    game = table_game("progressive")  # four hands a round; level scores play one more
    page = phone_page
    page.goto(url(game))
    page.context.set_offline(True)
    for number, tricks in enumerate((NS_SEVEN, NS_SIX, NS_SEVEN, NS_SIX), start=1):
        enter(page, tricks)
        page.wait_for_selector(f"text=({number} waiting)")
    assert shown_totals(page) == (242, 242)
    assert "4 of 4 hands played" in page.inner_text("#totals")
    assert "On this phone's count the game is tied at 242 each" in page.inner_text("#entry")
    assert page.is_visible("#hand-form button:has-text('Save hand 5')")
    screenshot(page, "table-offline-tied")
    first = Seat(game.first_dealer).after(4).label
    assert page.inner_text("[data-dealer]") == f"dealer: {first}"

    enter(page, NS_SEVEN)
    page.wait_for_selector("#pending-over")
    assert shown_totals(page) == (303, 302)
    page.context.set_offline(False)
    page.wait_for_selector("#entry >> text=Game over:", timeout=15_000)
    game.refresh_from_db()
    assert (game.ns_score, game.ew_score) == (303, 302)


def test_after_time_is_called_a_waiting_hand_that_leaves_the_scores_apart_ends_the_game(phone_page):
    game = table_game("tennessee")
    TableGame.objects.filter(pk=game.pk).update(time_up_hand=1)  # the clock ran out during hand 1
    page = phone_page
    page.goto(url(game))
    page.context.set_offline(True)
    enter(page, NS_SEVEN)
    page.wait_for_selector("#pending-over")
    assert shown_totals(page) == (61, 60) and not page.is_visible("#hand-form")
    page.context.set_offline(False)
    page.wait_for_selector("#entry >> text=Game over:", timeout=15_000)
    game.refresh_from_db()
    assert game.is_finished and (game.ns_score, game.ew_score) == (61, 60)
