"""What one hand entry costs the server: one replay of the game and a fixed handful of queries."""

import re

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.conftest import even_hand
from tests.test_knockout import hand as knockout_hand
from tests.test_knockout import knockout_event
from tournament import models

pytestmark = pytest.mark.django_db
TRANSACTION = ("SAVEPOINT", "RELEASE", "BEGIN", "COMMIT")  # the transaction around the work, not work


@pytest.fixture
def replays(monkeypatch) -> list[int]:
    """Counts every replay of a game (each call appends the number of hands replayed)."""
    calls: list[int] = []
    real = models.replay

    def counting(rules, entries, **kwargs):
        entries = list(entries)
        calls.append(len(entries))
        return real(rules, entries, **kwargs)

    monkeypatch.setattr(models, "replay", counting)
    return calls


@pytest.fixture
def locks(monkeypatch) -> list[int]:
    """Counts every time an entry takes its game's row lock (the id of each game locked)."""
    calls: list[int] = []
    real = models.Game.lock

    def counting(game, **kwargs):
        calls.append(game.pk)
        return real(game, **kwargs)

    monkeypatch.setattr(models.Game, "lock", counting)
    return calls


def test_a_new_hand_at_a_progressive_table_is_scored_before_any_lock_a_correction_under_it(
    client, running_round, locks
):
    game = running_round.games.get(table__number=1)
    url = reverse("table:hand", args=[game.table.token, game.round.number])
    for number in (1, 2):
        assert client.post(url, {"number": number, **even_hand(7)}, HTTP_HX_REQUEST="true").status_code == 200
    assert locks == [], "a new hand is written on the game as the link read it, guarded by that read"
    assert client.post(url, {"number": 2, "version": 1, **even_hand(8)}, HTTP_HX_REQUEST="true").status_code == 200
    assert locks == [game.pk]


def test_a_knockout_tables_new_hand_is_entered_under_its_games_lock(client, locks):
    """A match's result moves the bracket on (knockout.game_changed): that takes the lock."""
    match = knockout_event(teams=4).matches.filter(status=models.Match.Status.PLAYING).first()
    game = match.games.get()
    url = reverse("table:hand", args=[game.table.token, game.round.number])
    response = client.post(url, {"number": 1, **knockout_hand(ns_wins=True)}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and locks == [game.pk]


@pytest.mark.parametrize("next_form", [{}, {"HTTP_X_NEXT_HAND": "client"}], ids=["server-form", "phone-form"])
@pytest.mark.parametrize("entry_key", ["", "phone-attempt-1"])
@pytest.mark.parametrize("earlier", [0, 3])
def test_a_new_hand_is_scored_alone_on_the_stored_totals_in_at_most_five_queries(
    client, running_round, replays, django_assert_max_num_queries, earlier, entry_key, next_form
):
    game = running_round.games.get(table__number=1)
    url = reverse("table:hand", args=[game.table.token, game.round.number])
    for number in range(1, earlier + 1):
        client.post(url, {"number": number, **even_hand(7)}, HTTP_HX_REQUEST="true")
    replays.clear()
    hand = {"number": earlier + 1, "entry_key": entry_key, **even_hand(7)}
    with django_assert_max_num_queries(5 + 2) as queries:
        response = client.post(url, hand, HTTP_HX_REQUEST="true", **next_form)
    assert response.status_code == 200 and f"Hand {earlier + 1} saved." in response.content.decode()
    assert replays == [1], "one replay, of the new hand alone: the hands before it stand in the totals"
    html = response.content.decode()
    assert 'id="panel"' not in html and f'id="hand-{earlier + 1}"' in html  # what changed, not the whole panel
    assert 'id="hand-1"' not in html or earlier == 0  # the rows before the last stay as they are
    assert (f'id="correct-{earlier}" hx-swap-oob="delete"' in html) == (earlier > 0)  # only the last is corrected
    statements = [q["sql"] for q in queries.captured_queries if not q["sql"].startswith(TRANSACTION)]
    # SQLite: the link's game, its lock and the read under it (one statement, see Game.lock), and
    # the hand, its revision and the game's totals. PostgreSQL: the link's game, and the three
    # writes in one statement guarded by the game as the link read it (services.enter_hand).
    assert len(statements) <= (2 if connection.vendor == "postgresql" else 5), "\n".join(statements)


def test_a_new_hands_three_writes_are_one_statement_on_postgresql(client, running_round):
    game = running_round.games.get(table__number=1)
    url = reverse("table:hand", args=[game.table.token, game.round.number])
    with CaptureQueriesContext(connection) as queries:
        response = client.post(
            url, {"number": 1, "entry_key": "phone-attempt-1", **even_hand(7)}, HTTP_HX_REQUEST="true"
        )
    assert response.status_code == 200
    writes = [q["sql"] for q in queries.captured_queries if re.match(r"(WITH|INSERT|UPDATE)\b", q["sql"])]
    tables = [re.findall(r'(?:INSERT INTO|UPDATE) "(\w+)"', sql) for sql in writes]
    hand, revision, game_table = (m._meta.db_table for m in (models.Hand, models.HandRevision, models.Game))
    if connection.vendor == "postgresql":
        assert tables == [[hand, revision, game_table]], writes
        # The game's row is locked by that statement alone (guarded by the game as the link read
        # it), not by a statement of its own before it.
        assert [q["sql"] for q in queries.captured_queries if "FOR UPDATE" in q["sql"]] == writes
    else:  # the game's totals first, written only while they are as the link read them
        assert tables == [[game_table], [hand], [revision]], writes
    stored = models.Hand.objects.get(game=game)
    assert stored.entry_key == "phone-attempt-1" and stored.revisions.get().after == stored.snapshot()
    game.refresh_from_db()
    assert game.hands_played == 1 and game.ns_score > 0


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
    """Game.lock looks an entry key up among every game's hands: with the key bound as a parameter
    the lookup must still be able to use the partial unique index on it (a scan would read a
    national event's 32,000 hands on every save)."""
    game = running_round.games.first()
    with transaction.atomic():
        read, params = models._lock_sql(connection.alias)[-1]
        given = {name: {models._LOCK_KEY: "phone-attempt-1", models._LOCK_GAME: game.pk}.get(p, p)
                 for name, p in params.items()}  # fmt: skip
        with connection.cursor() as cursor:
            if connection.vendor == "sqlite":
                cursor.execute("EXPLAIN QUERY PLAN " + read, given)
                plan = " / ".join(row[-1] for row in cursor.fetchall())
                assert "SCAN" not in plan and "one_hand_per_entry_key" in plan, plan
            else:
                # As the app sends it (settings: prepare_threshold): a prepared statement, with the
                # plan PostgreSQL makes once for any key.
                names = list(params)
                types = [{models._LOCK_KEY: "text", models._LOCK_GAME: "bigint"}[params[name]] for name in names]
                prepared = re.sub(r"%\((\w+)\)s", lambda found: f"${names.index(found[1]) + 1}", read)
                cursor.execute(f"PREPARE resent_entry({', '.join(types)}) AS {prepared}")
                cursor.execute("SET LOCAL enable_seqscan = off")  # the index whenever it may be used
                cursor.execute("SET LOCAL plan_cache_mode = force_generic_plan")
                values = ", ".join(f"'{v}'" if isinstance(v, str) else str(v) for v in map(given.get, names))
                cursor.execute(f"EXPLAIN EXECUTE resent_entry({values})")  # a utility statement binds nothing
                plan = " / ".join(row[0] for row in cursor.fetchall())
                cursor.execute("DEALLOCATE resent_entry")
                assert "one_hand_per_entry_key" in plan, plan
