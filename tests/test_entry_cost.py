"""What one hand's save costs the server, and in what order: the tournament's lock first, then a
fixed handful of queries, and one replay of the game at most."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.conftest import even_hand
from tests.test_knockout import hand as knockout_hand
from tests.test_knockout import knockout_event
from tournament.models import Hand, Match, Tournament
from tournament.models import play as play_models

pytestmark = pytest.mark.django_db
TRANSACTION = ("SAVEPOINT", "RELEASE", "BEGIN", "COMMIT")  # the transaction around the work, not work


@pytest.fixture
def replays(monkeypatch) -> list[int]:
    """Counts every replay of a game (each call appends the number of hands replayed)."""
    calls: list[int] = []
    real = play_models.replay

    def counting(rules, entries, **kwargs):
        entries = list(entries)
        calls.append(len(entries))
        return real(rules, entries, **kwargs)

    monkeypatch.setattr(play_models, "replay", counting)
    return calls


def _statements(queries: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if not q["sql"].startswith(TRANSACTION)]


def _locks_first(statements: list[str]) -> bool:
    """Whether the first write of ``statements`` is the tournament's lock (and nothing of the event
    was read in the transaction before it)."""
    table = Tournament._meta.db_table
    writes = [i for i, sql in enumerate(statements) if sql.startswith(("UPDATE", "INSERT", "DELETE"))]
    return bool(writes) and statements[writes[0]].startswith(f'UPDATE "{table}" SET "changed_at"')


@pytest.mark.parametrize("correction", [False, True], ids=["new hand", "correction"])
def test_a_hand_at_the_table_takes_its_tournaments_lock_before_it_reads_or_writes_the_game(
    client, running_round, correction
):
    game = running_round.games.get(table__number=1)
    url = reverse("table:hand", args=[game.table.token, game.round.number])
    client.post(url, {"number": 1, **even_hand(7)}, HTTP_HX_REQUEST="true")
    hand = {"number": 1, "version": 1, **even_hand(8)} if correction else {"number": 2, **even_hand(8)}
    with CaptureQueriesContext(connection) as queries:
        assert client.post(url, hand, HTTP_HX_REQUEST="true").status_code == 200
    statements = _statements(queries)
    assert _locks_first(statements), "\n".join(statements)
    locked = next(i for i, sql in enumerate(statements) if "changed_at" in sql)
    game_table = game._meta.db_table
    read_again = [i for i, sql in enumerate(statements) if sql.startswith("SELECT") and f'FROM "{game_table}"' in sql]
    assert any(i > locked for i in read_again), "the game is read again once the lock is held"


def test_a_knockout_tables_hand_and_the_bracket_it_moves_on_are_written_under_the_lock(client):
    match = knockout_event(teams=4).matches.filter(status=Match.Status.PLAYING).first()
    game = match.games.get()
    url = reverse("table:hand", args=[game.table.token, game.round.number])
    with CaptureQueriesContext(connection) as queries:
        response = client.post(url, {"number": 1, **knockout_hand(ns_wins=True)}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    statements = _statements(queries)
    assert _locks_first(statements), "\n".join(statements)
    assert not any("FOR UPDATE" in sql for sql in statements), "one lock: the tournament's, no row locks besides"


@pytest.mark.parametrize("next_form", [{}, {"HTTP_X_NEXT_HAND": "client"}], ids=["server-form", "phone-form"])
@pytest.mark.parametrize("entry_key", ["", "phone-attempt-1"])
@pytest.mark.parametrize("earlier", [0, 3])
def test_a_new_hand_is_scored_alone_on_the_stored_totals_in_a_bounded_number_of_queries(
    client, running_round, replays, django_assert_max_num_queries, earlier, entry_key, next_form
):
    game = running_round.games.get(table__number=1)
    url = reverse("table:hand", args=[game.table.token, game.round.number])
    for number in range(1, earlier + 1):
        client.post(url, {"number": number, **even_hand(7)}, HTTP_HX_REQUEST="true")
    replays.clear()
    hand = {"number": earlier + 1, "entry_key": entry_key, **even_hand(7)}
    # The club's time zone and currency (tournament.clubs.middleware); the link's game; BEGIN, the
    # lock, the game again (with its tournament and its last hand's number), the key when one is
    # sent; the hand, its revision, the totals; the seats' names; for the round's fourth hand, which
    # ends the game, whether a hand of it waits on the director.
    with django_assert_max_num_queries(10 + bool(entry_key) + (earlier == 3)):
        response = client.post(url, hand, HTTP_HX_REQUEST="true", **next_form)
    assert response.status_code == 200 and f"Hand {earlier + 1} saved." in response.content.decode()
    assert replays == [1], "one replay, of the new hand alone: the hands before it stand in the totals"
    html = response.content.decode()
    assert 'id="panel"' not in html and f'id="hand-{earlier + 1}"' in html  # what changed, not the whole panel
    assert 'id="hand-1"' not in html or earlier == 0  # the rows before the last stay as they are
    assert (f'id="correct-{earlier}" hx-swap-oob="delete"' in html) == (earlier > 0)  # only the last is corrected


def test_hands_scored_on_the_stored_totals_add_up_as_a_replay_of_them_all(client, running_round):
    game = running_round.games.get(table__number=1)
    url = reverse("table:hand", args=[game.table.token, game.round.number])
    for number, tricks in enumerate((9, 4, 10, 6), start=1):
        assert client.post(url, {"number": number, **even_hand(tricks)}, HTTP_HX_REQUEST="true").status_code == 200
    game.refresh_from_db()
    stored = (game.ns_score, game.ew_score, game.ns_bags, game.ew_bags, game.hands_played, game.status)
    game.rescore()
    assert stored == (game.ns_score, game.ew_score, game.ns_bags, game.ew_bags, game.hands_played, game.status)
    assert game.hands_played == 4 and game.ns_score != game.ew_score


def test_a_misdeal_and_a_correction_replay_every_hand_once(client, running_round, replays):
    game = running_round.games.get(table__number=1)
    url = reverse("table:hand", args=[game.table.token, game.round.number])
    client.post(url, {"number": 1, **even_hand(7)}, HTTP_HX_REQUEST="true")
    replays.clear()
    assert client.post(url, {"number": 2, "misdeal": "no_spades"}, HTTP_HX_REQUEST="true").status_code == 200
    assert replays == [2]
    replays.clear()
    response = client.post(url, {"number": 2, "version": 1, **even_hand(8)}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "Hand 2 saved." in response.content.decode()
    assert replays == [1, 2], "the form's standing before hand 2, then the game with the correction"


def test_a_director_correction_replays_the_game_once(director_client, running_round, replays):
    game = running_round.games.get(table__number=1)
    table = reverse("table:hand", args=[game.table.token, game.round.number])
    for number in (1, 2):
        client_response = director_client.post(table, {"number": number, **even_hand(7)}, HTTP_HX_REQUEST="true")
        assert client_response.status_code == 200
    replays.clear()
    url = reverse("director:game_hand", args=[game.round.tournament_id, game.pk])
    response = director_client.post(url, {"number": 1, "version": 1, **even_hand(8)})
    assert response.status_code == 302
    assert replays == [2, 2], "one replay to show the form, one to store the correction"


def test_the_resent_entry_lookup_reads_the_entry_key_index_not_every_hand(running_round):
    """A resent hand is found by its entry key among every game's hands: the lookup must use the
    unique index on the key (a scan would read a national event's 32,000 hands on every save)."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:  # a table this small is read whole unless told not to
                cursor.execute("SET LOCAL enable_seqscan = off")
        plan = Hand.objects.filter(entry_key="phone-attempt-1").explain()
    assert "SCAN tournament_hand" not in plan and "Seq Scan" not in plan, plan
    assert "entry_key" in plan or "one_hand_per_entry_key" in plan, plan
