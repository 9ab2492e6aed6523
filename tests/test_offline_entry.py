"""A hand waits on the phone and is sent again: its entry key stores it once, whatever the retries.

Also the table page's reports, which show the director when each table's phone was last heard from.
"""

import datetime
import re
import threading

import pytest
from django.db import close_old_connections
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.conftest import even_hand, finish_game, make_tournament
from tournament.models import Game, Hand, HandRevision, Table
from tournament.play.rounds import close_round, start_play, start_round

pytestmark = pytest.mark.django_db

KEY = "k3y-0f-one-attempt"


def post_hand(client, game: Game, number: int, values: dict, **extra):
    data = {"number": number, **values, **extra}
    url = reverse("table:hand", args=[game.table.token, game.round.number])
    return client.post(url, data, HTTP_HX_REQUEST="true")


@pytest.fixture
def game(running_round) -> Game:
    return running_round.games.get(table__number=1)


def test_the_same_entry_sent_twice_stores_one_hand_and_answers_as_saved_both_times(client, game):
    first = post_hand(client, game, 1, even_hand(7), entry_key=KEY)
    again = post_hand(client, game, 1, even_hand(7), entry_key=KEY)
    assert first.status_code == again.status_code == 200
    assert b"Hand 1 saved." in first.content and b"Hand 1 saved." in again.content
    assert b"Hand 2" in again.content  # the form has moved on, as after the first send
    assert game.hands.count() == 1 and HandRevision.objects.count() == 1
    assert game.hands.get().entry_key == KEY


def test_a_stored_hand_names_its_entry_key_so_a_phone_still_holding_it_stops_waiting(client, game):
    saved = post_hand(client, game, 1, even_hand(7), entry_key=KEY).content.decode()
    assert f'<li id="hand-1" class="" data-key="{KEY}"' in saved  # the new row the answer carries
    page = client.get(reverse("table:page", args=[game.table.token])).content.decode()
    assert f'<li id="hand-1" class="" data-key="{KEY}"' in page  # and the page reloaded
    finish_game(game, hands=1)  # entered with no key (as the director does): the row names none
    assert '<li id="hand-2" class="">' in client.get(reverse("table:page", args=[game.table.token])).content.decode()


def test_an_entry_sent_again_after_later_hands_is_still_the_one_hand(client, game):
    post_hand(client, game, 1, even_hand(7), entry_key=KEY)
    post_hand(client, game, 2, even_hand(8), entry_key="second-attempt")
    late = post_hand(client, game, 1, even_hand(7), entry_key=KEY)
    assert late.status_code == 200 and b"Hand 1 saved." in late.content
    assert list(game.hands.values_list("number", flat=True)) == [1, 2]
    game.refresh_from_db()
    assert game.hands_played == 2


def test_an_entry_stored_before_its_round_closed_still_answers_saved(client, running_round):
    game = running_round.games.get(table__number=1)
    finish_game(game, hands=3)
    post_hand(client, game, 4, even_hand(7), entry_key=KEY)  # the last hand; its answer never reached the phone
    for other in running_round.games.exclude(pk=game.pk):
        finish_game(other)
    close_round(round_=running_round)
    again = post_hand(client, game, 4, even_hand(7), entry_key=KEY)
    assert again.status_code == 200 and b"Hand 4 saved." in again.content
    assert game.hands.count() == 4
    refused = post_hand(client, game, 5, even_hand(7), entry_key="never-stored-here")
    assert refused.status_code == 410 and game.hands.count() == 4


def test_without_a_key_the_same_hand_sent_twice_is_a_conflict_not_a_second_hand(client, game):
    post_hand(client, game, 1, even_hand(7))
    again = post_hand(client, game, 1, even_hand(7))
    assert again.status_code == 409 and b"already entered" in again.content
    assert game.hands.count() == 1


def test_a_key_made_for_another_tables_game_is_refused_there(client, running_round):
    table_1, table_2 = (running_round.games.get(table__number=n) for n in (1, 2))
    post_hand(client, table_1, 1, even_hand(7), entry_key=KEY)
    response = post_hand(client, table_2, 1, even_hand(7), entry_key=KEY)
    assert response.status_code == 422 and b"another table" in response.content
    assert table_2.hands.count() == 0 and Hand.objects.count() == 1


@pytest.mark.parametrize("key", ["short", "has spaces in it", "x" * 65, "<script>alert(1)</script>"])
def test_a_malformed_key_is_refused_with_a_message_and_nothing_is_stored(client, game, key):
    response = post_hand(client, game, 1, even_hand(7), entry_key=key)
    assert response.status_code == 422
    assert "entry_key" in response.context["form"].errors
    assert "Entry key: the page&#x27;s key for this hand is damaged" in response.content.decode()
    assert game.hands.count() == 0


def test_a_hand_with_a_key_is_still_checked_like_any_other(client, game):
    bad = even_hand(7) | {"north_tricks": 9}
    response = post_hand(client, game, 1, bad, entry_key=KEY)
    assert response.status_code == 422 and game.hands.count() == 0
    assert post_hand(client, game, 1, even_hand(7), entry_key=KEY).status_code == 200  # fixed, same attempt


def test_a_correction_sent_twice_is_applied_once(client, game):
    post_hand(client, game, 1, even_hand(7), entry_key=KEY)
    fix = even_hand(8) | {"version": 1}
    assert post_hand(client, game, 1, fix, entry_key="the-correction").status_code == 200
    again = post_hand(client, game, 1, fix, entry_key="the-correction")
    assert again.status_code == 200
    hand = game.hands.get()
    assert hand.version == 2 and HandRevision.objects.filter(hand=hand).count() == 2


# --- racing retries, on whichever database the run uses (SQLite, or PostgreSQL by DATABASE_URL) ----


def _race_posts(game: Game, posts: list[dict]) -> list[int]:
    """Send ``posts`` to ``game``'s link at once from threads, each its own client; the statuses."""
    statuses: list[int] = []
    barrier = threading.Barrier(len(posts))

    def send(data: dict) -> None:
        close_old_connections()
        try:
            barrier.wait()
            statuses.append(post_hand(Client(), game, 1, data).status_code)
        finally:
            close_old_connections()

    threads = [threading.Thread(target=send, args=(data,)) for data in posts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sorted(statuses)


@pytest.mark.django_db(transaction=True)
def test_racing_sends_of_the_same_entry_store_one_hand_and_all_answer_saved():
    round_ = start_play(tournament=make_tournament(couples=2))
    start_round(round_=round_)
    game = round_.games.get()
    statuses = _race_posts(game, [even_hand(7) | {"entry_key": KEY}] * 4)
    assert statuses == [200, 200, 200, 200]
    assert game.hands.count() == 1 and HandRevision.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_racing_sends_of_the_same_hand_under_different_keys_store_one_and_show_it_to_the_rest():
    round_ = start_play(tournament=make_tournament(couples=2))
    start_round(round_=round_)
    game = round_.games.get()
    statuses = _race_posts(game, [even_hand(7) | {"entry_key": f"attempt-{n:04d}"} for n in range(4)])
    assert statuses == [200, 409, 409, 409]
    assert game.hands.count() == 1 and HandRevision.objects.count() == 1


# --- the phone reports in ------------------------------------------------------------------------


def report(client, game: Game, waiting: object = 0):
    return client.post(reverse("table:report", args=[game.table.token]), {"waiting": waiting})


def test_a_table_page_reporting_in_shows_on_the_directors_board(client, director_client, game):
    board = reverse("director:round", args=[game.round.tournament_id, 1])
    assert "not heard from yet" in director_client.get(board).content.decode()
    assert report(client, game, waiting=3).status_code == 204
    html = director_client.get(board).content.decode()
    assert "heard just now · 3 hands waiting on the phone" in html


def test_a_phone_quiet_for_three_report_periods_is_marked_on_the_board(director_client, game):
    Table.objects.filter(pk=game.table_id).update(phone_heard_at=timezone.now() - datetime.timedelta(minutes=2))
    html = director_client.get(reverse("director:round", args=[game.round.tournament_id, 1])).content.decode()
    assert '<td class="phone bad" data-label="Phone">heard 2 min ago</td>' in html


@pytest.mark.parametrize("waiting", ["", "-1", "lots", "²"])
def test_a_report_with_a_nonsense_count_counts_as_none_waiting(client, game, waiting):
    assert report(client, game, waiting).status_code == 204
    assert Table.objects.get(pk=game.table_id).phone_waiting == 0


def test_a_report_needs_post_and_a_known_link(client, game):
    url = reverse("table:report", args=[game.table.token])
    assert client.get(url).status_code == 405
    assert client.post(reverse("table:report", args=["not-a-token"])).status_code == 404
    assert Table.objects.get(pk=game.table_id).phone_heard_at is None


def test_a_table_between_rounds_still_reports_in(client, game, finished_round):
    close_round(round_=finished_round)
    assert report(client, game, waiting=1).status_code == 204
    assert Table.objects.get(pk=game.table_id).phone_waiting == 1


def test_the_database_refuses_a_second_hand_with_the_same_key(game, running_round):
    from django.db import IntegrityError, transaction

    post_hand(Client(), game, 1, even_hand(7), entry_key=KEY)
    other = running_round.games.get(table__number=2)
    with pytest.raises(IntegrityError), transaction.atomic():
        Hand.objects.create(game=other, number=1, entry_key=KEY, **even_hand(7))
    Hand.objects.create(game=other, number=1, **even_hand(7))  # hands without a key never collide
    Hand.objects.create(game=other, number=2, **even_hand(7))


def test_the_service_worker_is_served_from_table_with_the_pages_assets(client):
    response = client.get(reverse("table:worker"))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    body = response.content.decode()
    assert '"/static/js/table.js"' in body and '"/static/css/app.css"' in body
    assert '"/static/js/scorer.js"' in body  # waiting hands are scored on a page reopened offline
    assert reverse("table:worker") == "/table/sw.js"  # its scope is every table page
    assert client.post(reverse("table:worker")).status_code == 405


def test_every_script_of_the_table_page_is_kept_for_a_page_reopened_offline(client, game):
    page = client.get(reverse("table:page", args=[game.table.token])).content.decode()
    # The page's own scripts (templates/table/_phone_app.html): one left out breaks the page offline.
    scripts = re.findall(r'<script src="(/static/js/(?:table[\w-]*|scorer)\.js)"', page)
    assert "/static/js/table-form.js" in scripts and "/static/js/table-running.js" in scripts
    worker = client.get(reverse("table:worker")).content.decode()
    assert [src for src in scripts if f'"{src}"' not in worker] == []
