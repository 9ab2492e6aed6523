"""A row written with SQL built once is the row ``save()`` would have written, under the same
constraints, and no behaviour hangs on the signals such a write does not send."""

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models import F, signals
from django.forms.models import model_to_dict

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
    with connection.cursor() as cursor:
        cursor.execute(named, values)
        found = {pk for (pk,) in cursor.fetchall()}
    assert found == set(running_round.games.values_list("pk", flat=True))
