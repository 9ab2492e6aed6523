"""A row written with SQL built once is the row ``save()`` would have written, under the same
constraints, and no behaviour hangs on the signals such a write does not send."""

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models import F, signals
from django.forms.models import model_to_dict
from psycopg import _queries as psycopg_queries

from tournament import row_sql
from tournament.models import Game, Hand, HandRevision

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("model", [Hand, HandRevision, Game])
def test_nothing_listens_for_the_saves_of_the_rows_written_with_compiled_sql(model):
    for signal in (signals.pre_save, signals.post_save):
        assert not signal.has_listeners(model), f"{signal} of {model.__name__} would not be sent by row_sql"


def _stored(obj) -> dict:
    fresh = type(obj).objects.get(pk=obj.pk)
    return {f.attname: getattr(fresh, f.attname) for f in obj._meta.concrete_fields if not f.primary_key}


def test_an_inserted_hand_and_its_revision_read_back_as_save_would_store_them(running_round):
    game = running_round.games.first()
    saved = Hand(game=game, number=1, north_bid="3", east_bid="nil", south_bid="4", west_bid="4",
                 north_tricks=3, east_tricks=0, south_tricks=5, west_tricks=5)  # fmt: skip
    saved.save()
    inserted = Hand(**{**model_to_dict(saved, exclude=["id"]), "game": game, "number": 2})
    row_sql.insert(inserted)
    assert inserted.pk is not None and not inserted._state.adding
    assert _stored(inserted) == {**_stored(saved), "number": 2, "entered_at": inserted.entered_at}
    revision = HandRevision(hand=inserted, source=HandRevision.Source.TABLE, before=None, after={"north_bid": "3"})
    row_sql.insert(revision)
    stored = HandRevision.objects.get(pk=revision.pk)
    assert (stored.hand_id, stored.after, stored.before, stored.changed_at) == (inserted.pk, {"north_bid": "3"},
                                                                                 None, revision.changed_at)  # fmt: skip


def test_an_update_writes_the_named_columns_only(running_round):
    game = running_round.games.first()
    game.ns_score, game.status, game.decided_by = 120, Game.Status.TIED, "stale"
    row_sql.update(game, ["ns_score", "status"])
    stored = Game.objects.get(pk=game.pk)
    assert (stored.ns_score, stored.status, stored.decided_by) == (120, Game.Status.TIED, "")


def test_the_databases_constraints_still_refuse_a_bad_row(running_round):
    game = running_round.games.first()
    row_sql.insert(Hand(game=game, number=1, misdeal="no_spades"))
    with pytest.raises(IntegrityError), transaction.atomic():
        row_sql.insert(Hand(game=game, number=1, misdeal="no_spades"))  # one_hand_number_per_game
    with pytest.raises(IntegrityError), transaction.atomic():
        row_sql.insert(Hand(game=game, number=2))  # hand_scored_unless_misdeal: no tricks


def test_updating_a_row_that_is_gone_is_an_error(running_round):
    game = running_round.games.first()
    Game.objects.filter(pk=game.pk).delete()
    with pytest.raises(DatabaseError, match="gone"):
        row_sql.update(game, ["ns_score"])


def test_a_compiled_querys_literal_percent_signs_survive_naming_its_parameters(running_round):
    """The link's and the lock's queries are compiled once and their parameters named: a ``%%``
    (a literal ``%``, as in a LIKE pattern) must stay one, on both databases."""
    games = Game.objects.filter(pk__gt=0, status__contains=F("status")).values("pk")
    sql, params = games.query.get_compiler(connection.alias).as_sql()
    assert "%%" in sql and params, sql
    named, values = row_sql.named_parameters(sql, params)
    with row_sql.executed(connection, named, values) as cursor:
        found = {pk for (pk,) in cursor.fetchall()}
    assert found == set(running_round.games.values_list("pk", flat=True))


def test_a_named_statement_runs_as_postgresqls_own_placeholders_a_name_used_twice_bound_once(
    running_round, monkeypatch
):
    """row_sql.executed sends PostgreSQL ``$1``… (psycopg would read ``%(name)s`` on every run);
    a name used twice is one value, and the statement, run again, is prepared as PostgreSQL's."""
    sql = "SELECT COUNT(*) FROM tournament_game WHERE id >= %(low)s AND round_id = %(round)s AND id >= %(low)s"
    values = {"round": running_round.pk, "low": 0, "unused": "left out"}
    games = running_round.games.count()
    read = []
    own_placeholders = getattr(connection.features, "uses_server_side_binding", False)  # else psycopg binds
    if own_placeholders:
        real = psycopg_queries.PostgresQuery.convert
        monkeypatch.setattr(psycopg_queries.PostgresQuery, "convert", lambda q, *args: read.append(q) or real(q, *args))
    for _ in range(3):
        with row_sql.executed(connection, sql, values) as cursor:
            assert cursor.fetchone()[0] == games
    if own_placeholders:
        positional = sql.replace("%(low)s", "$1").replace("%(round)s", "$2")
        assert row_sql._positional(sql) == (positional, ("low", "round"))
        assert read == [], "psycopg read the statement's placeholders itself"
        with connection.cursor() as cursor:
            cursor.execute("SELECT COUNT(*) FROM pg_prepared_statements WHERE statement = %s", [positional])
            assert cursor.fetchone()[0] == 1


def _new_hand(game, number: int = 1) -> Hand:
    return Hand(game=game, number=number, north_bid="3", east_bid="3", south_bid="3", west_bid="3",
                north_tricks=4, east_tricks=3, south_tricks=3, west_tricks=3, entry_key=f"key-{number}")  # fmt: skip


def test_a_hand_its_revision_and_the_games_totals_written_together_read_back_as_three_writes(running_round):
    """write_together is one statement on PostgreSQL and three elsewhere; either way the rows
    are what insert, insert and update store, and the new rows get their ids."""
    game, twin = running_round.games.order_by("pk")[:2]
    together, apart = _new_hand(game), _new_hand(twin, 2)
    revisions = [HandRevision(hand=hand, source=HandRevision.Source.TABLE, after=hand.snapshot())
                 for hand in (together, apart)]  # fmt: skip
    for each in (game, twin):
        each.ns_score, each.status = 41, Game.Status.TIED
    row_sql.write_together(together, revisions[0], game, ["ns_score", "status"])
    row_sql.insert(apart)
    revisions[1].hand_id = apart.pk
    row_sql.insert(revisions[1])
    row_sql.update(twin, ["ns_score", "status"])
    assert together.pk and revisions[0].pk and not together._state.adding and not revisions[0]._state.adding
    assert revisions[0].hand_id == together.pk
    differ = {"game_id", "number", "entry_key", "entered_at"}
    assert {k: v for k, v in _stored(together).items() if k not in differ} == {
        k: v for k, v in _stored(apart).items() if k not in differ
    }
    assert _stored(together)["entry_key"] == "key-1" and _stored(together)["entered_at"] == together.entered_at
    assert _stored(revisions[0]) == {**_stored(revisions[1]), "hand_id": together.pk,
                                     "changed_at": revisions[0].changed_at}  # fmt: skip
    written = {name: [Game.objects.filter(pk=g.pk).values_list(name, flat=True).get() for g in (game, twin)]
               for name in ("ns_score", "status", "ew_score")}  # fmt: skip
    assert written == {"ns_score": [41, 41], "status": ["tied", "tied"], "ew_score": [0, 0]}


def test_a_correction_written_together_updates_the_hand_and_keeps_a_revision_of_the_change(running_round):
    game = running_round.games.first()
    hand = _new_hand(game)
    row_sql.write_together(hand, HandRevision(hand=hand, source="table", after=hand.snapshot()), game, ["ns_score"])
    before, hand.north_tricks, hand.east_tricks, hand.version = hand.snapshot(), 5, 2, 2
    game.ns_score = 52
    revision = HandRevision(hand=hand, source="director", before=before, after=hand.snapshot())
    row_sql.write_together(hand, revision, game, ["ns_score"])
    assert Hand.objects.filter(game=game).count() == 1
    stored = Hand.objects.get(pk=hand.pk)
    assert (stored.north_tricks, stored.east_tricks, stored.version) == (5, 2, 2)
    history = list(HandRevision.objects.filter(hand=hand).order_by("id").values_list("before", "after"))
    assert [(b and b["north_tricks"], a["north_tricks"]) for b, a in history] == [(None, 4), (4, 5)]
    assert Game.objects.get(pk=game.pk).ns_score == 52


def test_writing_together_is_refused_whole_by_any_rows_constraint(running_round):
    game = running_round.games.first()
    first = _new_hand(game)
    row_sql.write_together(first, HandRevision(hand=first, source="table", after={}), game, ["ns_score"])
    game.ns_score = 99
    clash = _new_hand(game)  # one_hand_number_per_game, and the entry key once
    with pytest.raises(IntegrityError), transaction.atomic():
        row_sql.write_together(clash, HandRevision(hand=clash, source="table", after={}), game, ["ns_score"])
    game.ns_bags = -1  # a positive small integer
    second = _new_hand(game, 2)
    with pytest.raises(IntegrityError), transaction.atomic():
        row_sql.write_together(second, HandRevision(hand=second, source="table", after={}), game, ["ns_bags"])
    assert list(Hand.objects.values_list("pk", flat=True)) == [first.pk] and HandRevision.objects.count() == 1
    assert Game.objects.get(pk=game.pk).ns_score == 0


def test_writing_together_to_a_row_that_is_gone_is_an_error(running_round):
    game, other = running_round.games.order_by("pk")[:2]
    hand = _new_hand(game)
    row_sql.write_together(hand, HandRevision(hand=hand, source="table", after={}), game, ["ns_score"])
    Hand.objects.filter(pk=hand.pk).delete()
    with pytest.raises(DatabaseError), transaction.atomic():  # the hand to correct
        row_sql.write_together(hand, HandRevision(hand=hand, source="table", after={}), game, ["ns_score"])
    Game.objects.filter(pk=other.pk).delete()
    new = _new_hand(game, 2)
    with pytest.raises(DatabaseError, match="gone"), transaction.atomic():  # the row whose fields it updates
        row_sql.write_together(new, HandRevision(hand=new, source="table", after={}), other, ["ns_score"])


def test_a_guarded_write_writes_nothing_once_the_row_it_read_has_changed(running_round):
    """The scorekeeper's save: the three writes only while the game's row holds the values it was
    read with (a NULL matching a NULL), else none of them and False."""
    game = running_round.games.first()
    read = {"ns_score": game.ns_score, "time_up_hand": None, "status": game.status}
    Game.objects.filter(pk=game.pk).update(ns_score=game.ns_score + 10)  # another phone's save
    game.ns_score = 61
    hand = _new_hand(game)
    revision = HandRevision(hand=hand, source="table", after=hand.snapshot())
    assert row_sql.write_together(hand, revision, game, ["ns_score"], unchanged=read) is False
    assert hand.pk is None and not Hand.objects.exists() and not HandRevision.objects.exists()
    assert Game.objects.get(pk=game.pk).ns_score == read["ns_score"] + 10
    read["ns_score"] += 10
    assert row_sql.write_together(hand, revision, game, ["ns_score"], unchanged=read) is True
    assert _stored(hand)["entry_key"] == "key-1" and _stored(revision)["hand_id"] == hand.pk
    assert Game.objects.get(pk=game.pk).ns_score == 61


def test_a_lone_percent_sign_in_a_named_statement_is_a_bug_not_sent():
    with pytest.raises(AssertionError, match="lone %"):
        row_sql._positional("SELECT 1 WHERE 'a' LIKE '%a' AND %(x)s")
    assert row_sql._positional("SELECT '100%%', %(x)s, %(x)s") == ("SELECT '100%', $1, $1", ("x",))
