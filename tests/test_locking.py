"""The one write discipline: every write takes its tournament's lock before it reads or writes
anything of the event, so writes to one tournament queue and no deadlock can form; a write that
waits too long is answered 503 (the phone sends it again), not a server error."""

import threading
import urllib.parse
import urllib.request
from decimal import Decimal

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from scoring import HandEntry, Seat
from tests.conftest import even_hand, finish_game, make_tournament
from tests.live_http import Phone
from tests.test_knockout import knockout_event
from tournament.clocks.services import start_round_clock
from tournament.events.services import update_tournament
from tournament.locking import lock_tournament
from tournament.matches.services import settle_match
from tournament.models import HandRevision, Match, Tournament
from tournament.money.services import record_payment, save_prize
from tournament.play.games import decide_tie, flag_dispute, resolve_dispute, set_first_dealer
from tournament.play.hands import GameGone, enter_hand
from tournament.play.rounds import close_round, start_play, start_round
from tournament.teams.services import check_in_team, register_team, remove_team, substitute_player

LOCK = f'UPDATE "{Tournament._meta.db_table}" SET "changed_at"'


def _first_write(statements: list[str]) -> str:
    return next(sql for sql in statements if sql.startswith(("UPDATE", "INSERT", "DELETE")))


def _writes_after_the_lock(write) -> None:
    with CaptureQueriesContext(connection) as queries:
        write()
    statements = [q["sql"] for q in queries.captured_queries]
    assert _first_write(statements).startswith(LOCK), "\n".join(statements)
    assert not any("FOR UPDATE" in sql for sql in statements), "no lock but the tournament's"


def _hand(game, number=1, tricks=7):
    return enter_hand(game=game, number=number, entry=HandEntry.from_fields(even_hand(tricks)), source="table")


WRITES = {
    "register a team": lambda t, r: register_team(tournament=t, names=["Late", "Comer"]),
    "take a fee": lambda t, r: record_payment(team=t.teams.first(), amount=Decimal("5"), kind="payment", method="cash"),
    "check a team in": lambda t, r: check_in_team(team=t.teams.first(), method="card"),
    "substitute a player": lambda t, r: substitute_player(
        player=t.teams.first().players.first(), substitute="Zoe", from_round=2
    ),
    "save a hand": lambda t, r: _hand(r.games.first()),
    "choose the first dealer": lambda t, r: set_first_dealer(game=r.games.first(), seat=Seat.EAST),
    "raise a dispute": lambda t, r: flag_dispute(hand=_hand(r.games.first()).hand, note="EW say 5"),
    "start the round's clock": lambda t, r: start_round_clock(round_=r),
    "change the rules": lambda t, r: update_tournament(
        tournament=t, changes={"rule_overrides": {"bag_limit": 7, "bag_penalty": 70}}
    ),
    "add a prize": lambda t, r: save_prize(prize=t.prizes.model(tournament=t, place=1, amount=Decimal("50"))),
}


@pytest.mark.django_db
@pytest.mark.parametrize("write", list(WRITES), ids=list(WRITES))
def test_every_write_takes_its_tournaments_lock_first(tournament, running_round, write):
    if write == "start the round's clock":
        update_tournament(tournament=tournament, changes={"rule_overrides": {"time_limit_minutes": 30}})
    _writes_after_the_lock(lambda: WRITES[write](tournament, running_round))


@pytest.mark.django_db
def test_closing_a_round_deciding_a_tie_and_settling_a_match_take_the_lock_first(tournament, running_round):
    for game in running_round.games.all():
        finish_game(game)
    _writes_after_the_lock(lambda: close_round(round_=running_round))
    knockout = knockout_event(teams=4)
    match = knockout.matches.filter(status=Match.Status.PLAYING).first()
    _writes_after_the_lock(lambda: settle_match(match=match, winner=match.home, reason="No show", outcome="walkover"))


@pytest.mark.django_db
def test_a_removed_team_and_a_resolved_dispute_take_the_lock_first(tournament):
    _writes_after_the_lock(lambda: remove_team(team=tournament.teams.last()))
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    hand = _hand(round_.games.first()).hand
    flag_dispute(hand=hand, note="EW say 5")
    _writes_after_the_lock(lambda: resolve_dispute(hand=hand, resolution="Recounted"))


@pytest.mark.django_db
def test_a_tie_decided_by_the_director_takes_the_lock_first(running_round):
    game = running_round.games.first()
    game.status = game.Status.TIED
    game.save(update_fields=["status"])
    _writes_after_the_lock(lambda: decide_tie(game=game, winner="NS", how="cut of the cards"))


@pytest.mark.django_db(transaction=True)
def test_a_lock_outside_a_transaction_is_refused(tournament):
    with pytest.raises(RuntimeError, match="inside a transaction"):
        lock_tournament(tournament.pk)


@pytest.mark.django_db
def test_a_hand_whose_game_vanished_meanwhile_is_refused_as_restored(running_round):
    game = running_round.games.first()
    running_round.games.filter(pk=game.pk).delete()  # as a restore in place replaces every game
    with pytest.raises(GameGone, match="restored from a backup"):
        _hand(game)


@pytest.mark.django_db(transaction=True)
def test_a_save_that_waits_too_long_for_the_lock_is_answered_503_and_stored_once_sent_again(live_server):
    tournament = make_tournament(couples=4)
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    game = round_.games.get(table__number=1)
    phone = Phone(live_server.url, game.table.token, 1, [])
    form = phone.load()
    body = urllib.parse.urlencode({"number": form.number, "entry_key": "phone-one", **even_hand(7)}).encode()
    headers = {"Content-Type": "application/x-www-form-urlencoded", "X-CSRFToken": phone.csrf, "HX-Request": "true"}
    held, release = threading.Event(), threading.Event()

    def a_long_change() -> None:  # a restore or a rule change of a huge event, holding the lock
        try:
            with transaction.atomic():
                lock_tournament(tournament.pk)
                held.set()
                release.wait(30)
        finally:
            connection.close()

    holder = threading.Thread(target=a_long_change)
    holder.start()
    assert held.wait(10)
    try:
        refused = phone._send(urllib.request.Request(live_server.url + form.action, body, headers), "hand 1")
    finally:
        release.set()
        holder.join()
    assert refused.status == 503 and refused.retry_after == "5" and "try again in a few seconds" in refused.words
    assert not game.hands.exists()
    sent_again = phone._send(urllib.request.Request(live_server.url + form.action, body, headers), "hand 1")
    assert sent_again.status == 200, sent_again
    assert game.hands.get().entry_key == "phone-one"
    assert HandRevision.objects.filter(hand__game=game).count() == 1
