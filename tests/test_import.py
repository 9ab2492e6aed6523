"""The JSON import checks every row and the whole event before it writes anything; a backup
restores in place of the event it came from. Each bad file found when the app was attacked is a
case here; a fuzzer posts a few hundred more."""

import copy
import datetime
import functools
import json
from decimal import Decimal

import pytest
from django.apps import apps
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import HandEntry
from scoring.presets import played_before_third_pass
from tests.conftest import a_club, even_hand, finish_game, make_tournament
from tests.events import EVENTS, correct_hand, one_hand
from tournament.clubs.services import create_club
from tournament.events.services import update_tournament
from tournament.formats.registry import format_of
from tournament.models import (
    Clock,
    ClubMember,
    Game,
    Hand,
    HandRevision,
    Match,
    Payment,
    Payout,
    Player,
    PrintJob,
    Prize,
    Team,
    Tournament,
)
from tournament.money.ledger import ledger
from tournament.money.services import mark_payout_paid, record_payment
from tournament.play.games import flag_dispute
from tournament.play.hands import enter_hand
from tournament.play.rounds import close_round, start_play, start_round
from tournament.printing.catalog import EVENT_DOCUMENTS, ROUND_DOCUMENTS
from tournament.printing.pdf import render_html_chunks
from tournament.teams.services import register_team
from tournament.transfer import write
from tournament.transfer.export import (
    FIELDS,
    GAME_MATCH_FIELDS,
    NOT_EXPORTED,
    NOT_EXPORTED_MODELS,
    REFERENCES,
    TEAM_FORMAT_FIELDS,
    export_tournament,
)
from tournament.transfer.write import EVENT_ROWS, import_tournament, restored_name

pytestmark = pytest.mark.django_db
MODELS = [Tournament, Team, Player, Payment, Game, Hand, HandRevision, Prize, Payout, Match, Clock]


def _counts() -> list[int]:
    return [model.objects.count() for model in MODELS]


def _event() -> Tournament:
    """A small event with something in every part of the file: money, a closed round, a round
    under way with a correction and a dispute, prizes with payouts."""
    tournament = make_tournament(couples=4)
    for team in tournament.teams.all():
        record_payment(team=team, amount=Decimal("20.00"), kind="payment", method="cash")
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    for game in round_.games.all():
        finish_game(game)
    second = close_round(round_=round_)
    start_round(round_=second)
    game = second.games.first()
    finish_game(game, hands=2)
    hand = game.hands.get(number=2)
    corrected = HandEntry.from_fields({**hand.snapshot(), "north_tricks": 3, "east_tricks": 4})
    correct_hand(game=game, number=2, entry=corrected, expected_version=1)
    flag_dispute(hand=hand, note="EW say 4")
    prize = Prize.objects.create(tournament=tournament, place=1, share_percent=Decimal("50"))
    Payout.objects.create(prize=prize, team=tournament.teams.first(), amount=Decimal("40.00"))
    Prize.objects.create(tournament=tournament, kind=Prize.Kind.DIVISION, division="female", amount=Decimal("10"))
    tournament.refresh_from_db()
    return tournament


@pytest.fixture
def event() -> Tournament:
    return _event()


@pytest.fixture
def exported(event) -> dict:
    return json.loads(json.dumps(export_tournament(event)))


def _post(client, body: bytes | dict, **data):
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    upload = SimpleUploadedFile("event.json", raw, content_type="application/json")
    return client.post(reverse("director:import"), {"file": upload, "club": a_club().pk, **data})


def _refused(client, body, *words: str):
    before = _counts()
    response = _post(client, body)
    assert response.status_code == 422
    text = " ".join(response.context["form"].errors["file"])
    for word in words:
        assert word in text, text
    assert _counts() == before
    return text


def _first_team_payment(data: dict) -> dict:
    return data["teams"][0]["payments"][0]


def _prize(data: dict, kind: str) -> dict:
    return next(p for p in data["prizes"] if p["kind"] == kind)


BAD_FILES = [
    # (what the attack did, how to break the export, words the refusal must contain)
    ("payment of kind gift", lambda d: _first_team_payment(d).update(kind="gift"),
     ["Team 1, payment 1", "kind", "'gift' is not a valid choice"]),
    ("payment of 0.001", lambda d: _first_team_payment(d).update(amount="0.001"),
     ["Team 1, payment 1", "amount must be in whole cents (two decimals at most)"]),
    ("payment of 1e30", lambda d: _first_team_payment(d).update(amount="1e30"),
     ["Team 1, payment 1", "amount must be an amount under 100,000,000"]),
    ("payment of 0", lambda d: _first_team_payment(d).update(amount="0"),
     ["Team 1, payment 1", "amount", "greater than or equal to 0.01"]),
    ("payment as a float", lambda d: _first_team_payment(d).update(amount=[1]),
     ["Team 1, payment 1", 'amount must be an amount such as "20.00"']),
    ("unpaid payout of $99,999,999.99 against the pool",
     lambda d: _prize(d, "place")["payouts"][0].update(amount="99999999.99"),
     ["Prize 1st place, payout 1", "more than the prize's $40.00"]),
    ("round status bogus", lambda d: d["rounds"][0].update(status="bogus"),
     ["Round 1", "status", "'bogus' is not a valid choice"]),
    ("team status bogus", lambda d: d["teams"][1].update(status="bogus"),
     ["Team 2", "status", "'bogus' is not a valid choice"]),
    ("seat Q", lambda d: d["rounds"][0]["seatings"][0].update(seat="Q"),
     ["Round 1, seating 1", "seat", "'Q' is not a valid choice"]),
    ("a 10,000-character name", lambda d: d["teams"][0]["players"][0].update(name="N" * 10_000),
     ["Team 1, player 1", "name", "at most 80 characters"]),
    ("a 10,000-character tournament name", lambda d: d["tournament"].update(name="N" * 10_000),
     ["Tournament", "name", "at most 120 characters"]),
    ("a NUL byte in a name", lambda d: d["teams"][0]["players"][1].update(name="Ben\x00"),
     ["teams → item 1 → players → item 2 → name", "NUL character"]),
    ("a NUL byte in a hand's history", lambda d: d["rounds"][0]["games"][0]["hands"][0]["revisions"][0]
     ["after"].update(north_bid="3\x00"), ["NUL character"]),
    ("a one-character table token", lambda d: d["tables"][0].update(token="x"),
     ["Table 1", "token is not a table link's token"]),
    ("team number 2**70", lambda d: d["teams"][0].update(number=2**70),
     ["Team 1", "number must be from 1 to 2147483647"]),
    ("a seat for a player not in the file", lambda d: d["rounds"][0]["seatings"][0].update(player=[99, 0]),
     ["Round 1, seating 1", "player must name a player of the file"]),
    ("tricks that do not add up", lambda d: d["rounds"][0]["games"][0]["hands"][0].update(north_tricks=9),
     ["Round 1, table 1", "hand 1", "under this tournament's rules"]),
    ("fourteen tricks", lambda d: d["rounds"][0]["games"][0]["hands"][0].update(north_tricks=14),
     ["Round 1, table 1, hand 1", "north_tricks must be from 0 to 13"]),
    ("a refund larger than the payments", lambda d: _first_team_payment(d).update(kind="refund"),
     ["Team 1", "refunds exceed what it paid"]),
    ("a payout paid by a method that does not exist", lambda d: _prize(d, "place")["payouts"][0].update(method="iou"),
     ["Prize 1st place, payout 1", "method", "'iou' is not a valid choice"]),
    ("prize shares over 100%", lambda d: _prize(d, "division").update(amount=None, share_percent="60.00"),
     ["Prizes", "shares add up to 110.00%"]),
    ("two prizes for one place", lambda d: _prize(d, "division").update(kind="place", place=1, division=""),
     ["Prizes", "two prizes for place 1"]),
    ("a closed round with a game still playing", lambda d: d["rounds"][0]["games"][0].update(hands=[]),
     ["Round 1, table 1", "the round is closed but this game has no winner"]),
    ("a hand numbered out of order", lambda d: d["rounds"][1]["games"][0]["hands"][0].update(number=5),
     ["Round 2, table 1, hand 1", "this should be hand 1, deal 1", "not hand 5, deal 1"]),
    ("a game at a table nobody sits at", lambda d: d["rounds"][1]["games"][0].update(table=9),
     ["Round 2", "each seated table has exactly one game"]),
    ("a hand's history that is not an object", lambda d: d["rounds"][0]["games"][0]["hands"][0]["revisions"][0]
     .update(after=[1, 2]), ["revision 1", "after must be an object"]),
    ("a date that is not one", lambda d: d["teams"][0].update(registered_at="yesterday"),
     ["Team 1", "registered_at must be a date and time"]),
    ("rules that do not exist", lambda d: d["tournament"].update(rule_overrides={"bagz": 1}),
     ["Tournament", "rule_overrides", "bagz"]),
]  # fmt: skip


@pytest.mark.parametrize(("attack", "damage", "words"), BAD_FILES, ids=[case[0] for case in BAD_FILES])
def test_a_bad_file_is_refused_naming_its_row_and_field_and_nothing_is_written(director_client, attack, damage, words):
    exported = copy.deepcopy(_export_of("progressive"))
    damage(exported)
    _refused(director_client, exported, *words)


def test_deep_nesting_is_refused_without_a_500(director_client, exported):
    _refused(director_client, b'{"format": "spades-director/1", "x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
             "not JSON")  # fmt: skip
    exported["tournament"]["rule_overrides"] = {"a": [[[[[[[[[[[[[[1]]]]]]]]]]]]]]}
    _refused(director_client, exported, "nested deeper than any export")


def test_a_50_mb_upload_is_refused_before_it_is_read(director_client, settings):
    limit = settings.SPADES_IMPORT_MAX_MB
    _refused(director_client, b" " * (50 * 1024 * 1024), f"The file is 50.0 MB; an export is at most {limit} MB")


@pytest.mark.parametrize(("size", "refused_for_size"), [(1024 * 1024, False), (1024 * 1024 + 1, True)])
def test_a_file_one_byte_over_the_limit_is_refused_for_its_size(director_client, settings, size, refused_for_size):
    settings.SPADES_IMPORT_MAX_MB = 1
    text = _refused(director_client, b" " * size)
    assert ("an export is at most 1 MB" in text) == refused_for_size, text


def test_the_import_page_states_the_upload_limit(director_client, settings):
    settings.SPADES_IMPORT_MAX_MB = 7
    assert "At most 7 MB" in director_client.get(reverse("director:import")).content.decode()


def test_the_json_export_is_compact(director_client, event):
    body = director_client.get(reverse("director:export_json", args=[event.pk])).content
    assert body == json.dumps(json.loads(body), separators=(",", ":")).encode()


@pytest.mark.parametrize("body", [b"", b"not json", b"[]", b'{"format": "other"}', b'{"format": "spades-director/1"}'])
def test_something_that_is_not_an_export_is_refused(director_client, body):
    _refused(director_client, body)


def test_a_good_file_imports_as_a_new_tournament_with_every_row(director_client, event, exported):
    response = _post(director_client, exported)
    assert response.status_code == 302
    copy_ = Tournament.objects.exclude(pk=event.pk).get()
    again = export_tournament(copy_)
    for table in again["tables"] + exported["tables"]:
        table.pop("token")
    # The one difference: the copy's name tells it apart from the original on the home page.
    restored = f"{exported['tournament']['name']} (restored {timezone.localdate().isoformat()})"
    assert again["tournament"].pop("name") == restored
    exported["tournament"].pop("name")
    assert again == exported
    assert copy_.rounds.get(number=2).games.get(table__number=1).hands.get(number=2).disputed


def test_an_import_keeps_its_name_where_no_tournament_has_it(event, exported):
    event.name = "Another event"
    event.save(update_fields=["name"])
    assert import_tournament(exported, club=a_club()).name == exported["tournament"]["name"]


def test_a_restored_copys_name_fits_the_name_field():
    name = restored_name("N" * 120, datetime.date(2026, 11, 22))
    assert len(name) == 120 and name.endswith("N (restored 2026-11-22)")


def test_rows_made_after_an_import_get_ids_of_their_own(event, exported):
    copy_ = import_tournament(exported, club=a_club())
    team = register_team(tournament=copy_, names=["Late", "Comer"])
    game = copy_.rounds.get(number=2).games.get(table__number=2)
    finish_game(game, hands=1)
    assert team.players.count() == 2 and game.hands.count() == 1 + len(exported["rounds"][1]["games"][1]["hands"])
    assert Team.objects.filter(pk=team.pk).get().tournament == copy_


def test_rows_another_writer_adds_while_an_import_is_checked_keep_their_ids(event, exported, monkeypatch):
    check, late = write.check, []

    def and_a_desk_registers_a_team(data, **kwargs):  # after the file is checked, before it is written
        plan = check(data, **kwargs)
        if not late:
            late.append(register_team(tournament=event, names=["Late", "Comer"]))
        return plan

    monkeypatch.setattr(write, "check", and_a_desk_registers_a_team)
    copy_ = import_tournament(exported, club=a_club())
    assert Team.objects.get(pk=late[0].pk).tournament == event and late[0].players.count() == 2
    again, expected = _without_tokens(_exported(copy_)), _without_tokens(exported)
    for data in (again, expected):
        data["tournament"].pop("name")  # the copy is named apart from its original
    assert again == expected


def test_a_backup_restores_in_place_with_the_same_links_and_club(director_client, event, exported, director):
    links = dict(event.tables.values_list("number", "token"))
    game = event.rounds.get(number=2).games.get(table__number=1)
    finish_game(game, hands=2)  # play went on after the backup…
    register_team(tournament=event, names=["Late", "Comer"])
    response = _post(director_client, exported, replace=event.pk)  # …and the backup is restored
    assert response.status_code == 302
    restored = Tournament.objects.get()
    assert restored.pk == event.pk
    assert dict(restored.tables.values_list("number", "token")) == links
    assert restored.teams.count() == 4
    assert restored.rounds.get(number=2).games.get(table__number=1).hands.count() == 2
    assert restored.club == event.club
    table = restored.tables.get(number=1)
    assert director_client.get(reverse("table:page", args=[table.token])).status_code == 200


def test_only_a_director_of_the_event_may_restore_over_it(client, django_user_model, event, exported):
    helper = django_user_model.objects.create_user("hank", password="x" * 12, is_staff=True)
    ClubMember.objects.create(club=event.club, user=helper, role=ClubMember.Role.ASSISTANT)
    client.force_login(helper)
    before = _counts()
    assert _post(client, exported, replace=event.pk).status_code == 403  # an assistant imports nothing
    other = create_club(name="Hank's own club", owner=helper)  # a director, but of another club
    response = _post(client, exported, replace=event.pk, club=other.pk)
    assert response.status_code == 422 and "replace" in response.context["form"].errors
    assert _counts() == before


def _every_row() -> dict[str, set[str]]:
    """Every row of every model of the app, as its values (ids too)."""
    return {
        m.__name__: {repr(row) for row in m.objects.values_list()}
        for m in apps.get_app_config("tournament").get_models()
    }


@pytest.mark.parametrize("kind", ["progressive", *EVENTS])
def test_a_restore_in_place_leaves_exactly_the_backups_rows_and_no_other_events_row_changes(director, kind):
    other = _event()
    PrintJob.objects.create(tournament=other, document="standings", title="Standings", key="other")
    untouched = _every_row()
    event = EVENTS[kind]() if kind in EVENTS else _event()
    backup = _exported(event)
    at_backup = _every_row()
    playing = Game.objects.filter(round__tournament=event).exclude(status=Game.Status.FINISHED).first()
    if playing is not None:  # play went on after the backup…
        one_hand(playing, __import__("random").Random(1))
    PrintJob.objects.create(tournament=event, document="standings", title="Standings", key="event")
    restored = import_tournament(backup, by=director, replace=event)  # …and the backup is restored
    after = _every_row()
    assert {name: len(rows) for name, rows in after.items()} == {name: len(rows) for name, rows in at_backup.items()}
    assert all(untouched[name] <= after[name] for name in untouched)  # the other event's rows, as they were
    assert _exported(restored) == backup


def test_a_restore_in_place_deletes_every_model_of_an_event_each_before_those_it_links_to():
    """All but the tournament's own row (every write locks it), and a format's settings (the
    format writes the backup's over them)."""
    models = list(apps.get_app_config("tournament").get_models())
    owned = {Tournament}  # a model whose rows link to an event's rows belongs to the event
    while grown := {m for m in models if m not in owned and any(f.related_model in owned for f in _links(m))}:
        owned |= grown
    order = [model for model, _ in EVENT_ROWS]
    kept = {Tournament}
    assert set(order) == owned - kept and len(order) == len(owned - kept)
    for position, model in enumerate(order):
        linked = (f.related_model for f in _links(model) if f.related_model in owned - kept)
        assert all(order.index(related) > position for related in linked)


def _links(model) -> list:
    return [f for f in model._meta.concrete_fields if f.is_relation]


# --- knockouts and leagues -------------------------------------------------------------------------


def _exported(tournament: Tournament) -> dict:
    return json.loads(json.dumps(export_tournament(tournament)))


@functools.cache
def _export_of(event: str) -> dict:
    """The file of one of EVENTS (or of :func:`_event`: "progressive"), played once for every test
    that damages a copy of it (a file is checked whole before anything is written, whatever the
    database holds)."""
    with transaction.atomic():
        exported = _exported(_event() if event == "progressive" else EVENTS[event]())
        transaction.set_rollback(True)
    return exported


def _without_tokens(data: dict) -> dict:
    data = copy.deepcopy(data)
    for table in data["tables"]:
        table.pop("token")
    return data


@pytest.fixture(params=list(EVENTS))
def match_event(request) -> Tournament:
    return EVENTS[request.param]()


def test_a_knockout_or_league_imports_as_a_new_event_with_all_its_state(director_client, match_event):
    exported = _exported(match_event)
    assert exported["matches"] and exported["clocks"]
    response = _post(director_client, exported, club=match_event.club_id)
    assert response.status_code == 302, response.context and response.context["form"].errors
    copy_ = Tournament.objects.exclude(pk=match_event.pk).get()
    again = _without_tokens(_exported(copy_))
    assert again["tournament"].pop("name").startswith(exported["tournament"]["name"] + " (restored ")
    exported["tournament"].pop("name")
    assert again == _without_tokens(exported)
    _every_page_renders(director_client, copy_)


def test_a_knockout_or_league_restores_in_place_with_the_same_links(director_client, match_event, director):
    exported = _exported(match_event)
    links = dict(match_event.tables.values_list("number", "token"))
    playing = Game.objects.filter(round__tournament=match_event).exclude(status=Game.Status.FINISHED).first()
    if playing is not None:
        one_hand(playing, __import__("random").Random(1))  # play went on after the backup…
    response = _post(director_client, exported, replace=match_event.pk, club=match_event.club_id)  # …and restored
    assert response.status_code == 302
    restored = Tournament.objects.get()
    assert restored.pk == match_event.pk
    assert dict(restored.tables.values_list("number", "token")) == links
    assert _exported(restored) == exported
    _every_page_renders(director_client, restored)


def _match(data: dict, key: str) -> dict:
    return next(m for m in data["matches"] if m["key"] == key)


def _match_game(data: dict, key: str) -> dict:
    return next(g for r in data["rounds"] for g in r["games"] if g["match"] == key)


BAD_KNOCKOUTS = [
    ("rule overrides on a match playing by the event's rules", lambda d: _match(d, "W1-2").update(
        rule_overrides={"bag_limit": 5}), ["Match W1-2", "only a match under a rule set of its own has them"]),
    ("a final's overrides that make no rule set", lambda d: _match(d, "F1").update(rule_overrides={"bag_limit": "x"}),
     ["Match F1", "rule_overrides: bag_limit: must be a whole number or null"]),
    ("a final's overrides naming a preset", lambda d: _match(d, "F1").update(rule_overrides={"preset": "classic"}),
     ["Match F1", "a match's preset is its format's"]),
    ("a match stage that does not exist", lambda d: _match(d, "W1-2").update(stage="semis"),
     ["Match W1-2", "stage", "'semis' is not a valid choice"]),
    ("a league match in a knockout", lambda d: _match(d, "W1-2").update(stage="league"),
     ["Match W1-2", "league matches belong to a league"]),
    ("best of 4", lambda d: _match(d, "W1-2").update(best_of=4), ["Match W1-2", "best_of", "4 is not a valid choice"]),
    ("a team not in the file", lambda d: _match(d, "W1-2").update(home=99),
     ["Match W1-2", "home is not one of the file's teams"]),
    ("a winner who did not play", lambda d: _match(d, "W1-2").update(winner=1),
     ["Match W1-2", "winner must be one of the match's teams"]),
    ("a finished match without a winner", lambda d: _match(d, "W1-2").update(winner=None),
     ["Match W1-2", "a finished match (or a bye) has a winner"]),
    ("a decision without its reason", lambda d: _match(d, "W1-4").update(reason=" "),
     ["Match W1-4", "a walkover or a decision gives its reason"]),
    ("a walkover for a match not over", lambda d: _match(d, "W2-2").update(outcome="walkover", reason="x"),
     ["Match W2-2", "a finished match has an outcome, and only then"]),
    ("a match at a table not in the file", lambda d: _match(d, "W2-2").update(table=9),
     ["Match W2-2", "table is not one of the file's tables"]),
    ("a clock not in the file", lambda d: _match(d, "W2-2").update(clock=99),
     ["Match W2-2", "clock is not one of the file's clocks"]),
    ("two matches on one clock", lambda d: _match(d, "W2-2").update(clock=_match(d, "W2-1")["clock"]),
     ["Match W2-2", "another match runs on the same clock"]),
    ("two matches playing at one table", lambda d: _match(d, "W2-1").update(status="playing", winner=None,
     outcome="", reason="", table=2), ["Table 2", "2 matches are playing at it at once"]),
    ("two matches with one key", lambda d: _match(d, "W2-1").update(key="W1-2"),
     ["Match W1-2", "two matches have this key"]),
    ("a match the bracket does not have", lambda d: _match(d, "3P").update(key="W9-9"),
     ["Matches", "not the bracket of 6 seeded teams", "missing: 3P", "not in it: W9-9"]),
    ("a result the seeds do not give", lambda d: _match(d, "W2-1").update(away=6),
     ["Match W2-1", "the seeds and results put teams 1 and 5 in it, not 1 and 6"]),
    ("a seed given twice", lambda d: d["teams"][1].update(seed=d["teams"][0]["seed"]),
     ["Teams", "seeded 1, 2, 3… each seed once"]),
    ("a played match its games do not decide", lambda d: _match(d, "W1-2").update(winner=6),
     ["Match W1-2", "its games make team 5 the winner (played), not team 6 (played)"]),
    ("a game of a match not in the file", lambda d: _match_game(d, "W2-2").update(match="W7-7"),
     ["Round 1, table 2", "match is not one of the file's matches"]),
    ("a match's game at another table", lambda d: _match_game(d, "W2-2").update(table=1),
     ["Match W2-2", "its games are played at its table"]),
    ("a match's game on another clock", lambda d: _match_game(d, "W2-2").update(clock=1),
     ["Match W2-2", "its games run on its clock"]),
    ("a match's games numbered out of order", lambda d: _match_game(d, "W2-2").update(match_game=2),
     ["Match W2-2", "its games are numbered 1, 2, 3"]),
    ("a game of no match", lambda d: _match_game(d, "W2-2").update(match=None, match_game=None),
     ["Round 1, table 2", "a knockout's or a league's games belong to its matches"]),
    ("a game for a match still waiting", lambda d: _match_game(d, "W2-2").update(match="F1"),
     ["Match F1", "a match waiting for its teams has no games"]),
    ("a clock paused before it started", lambda d: d["clocks"][0].update(paused_at="2020-01-01T00:00:00+00:00"),
     ["Clock 1", "paused_at is before started_at"]),
    ("three hours of extra time", lambda d: d["clocks"][0].update(extra_minutes=180),
     ["Clock 1", "extra_minutes must be at most 120"]),
    ("a clock of no minutes", lambda d: d["clocks"][0].update(minutes=0),
     ["Clock 1", "minutes", "greater than or equal to 1"]),
    ("a final under a rule set that does not exist", lambda d: d["tournament"].update(final_preset="bogus"),
     ["Tournament", "final_preset", "'bogus' is not a valid choice"]),
    ("tables available as text", lambda d: d["tournament"].update(tables_available="2"),
     ["Tournament", "tables_available must be a whole number"]),
    ("a knockout with two rounds", lambda d: d["rounds"].insert(0, {**d["rounds"][0], "status": "closed", "games": []})
     or d["rounds"][1].update(number=2), ["Rounds", "a knockout has one round"]),
]  # fmt: skip

BAD_LEAGUES = [
    ("a game's table that is not a number", lambda d: d["rounds"][0]["games"][0].update(table=[]),
     ["Round 1, table []", "table must be a whole number"]),
    ("a night that is not a number", lambda d: _match(d, "L1-5-3").update(round="two"),
     ["Match L1-5-3", "round must be a whole number"]),
    ("a leg the league does not have", lambda d: _match(d, "L1-5-3").update(leg=2),
     ["Match L1-5-3", "leg must be from 1 to 1"]),
    ("the same pairing twice in a leg", lambda d: d["matches"].append({**_match(d, "L1-5-3"), "key": "L1-x"}),
     ["Match L1-x", "team 5 is at home to team 3 twice in leg 1"]),
    ("a league match without its teams", lambda d: _match(d, "L1-5-3").update(away=None),
     ["Match L1-5-3", "a match ready: waiting for a table has its two teams"]),
    ("a match playing on a night not opened", lambda d: _match(d, "L1-6-4").update(round=4),
     ["Match L1-6-4", "its games are played in round 4"]),
    ("a bracket stage in a league without a championship", lambda d: (
        d["tournament"].update(championship_teams=0), d["matches"].append({**_match(d, "L1-5-3"), "key": "F1",
        "stage": "final", "leg": None})), ["Matches", "this league has no championship"]),
    ("a withdrawal night for a team still playing", lambda d: d["teams"][0].update(withdrawn_night=3),
     ["Team 1", "withdrawn_night is for a team that withdrew"]),
    ("tiebreakers that do not exist", lambda d: d["tournament"].update(tiebreakers="coin-toss"),
     ["Tournament", "tiebreakers", "each of head-to-head"]),
    ("two legs of three", lambda d: d["tournament"].update(legs=3), ["Tournament", "legs", "3 is not a valid choice"]),
    ("a fee per week", lambda d: d["tournament"].update(fee_per="week"),
     ["Tournament", "fee_per", "'week' is not a valid choice"]),
    ("a championship of three", lambda d: d["tournament"].update(championship_teams=3),
     ["Tournament", "championship_teams", "3 is not a valid choice"]),
    ("a voided knockout match", lambda d: d["matches"].append({**_match(d, "L1-5-3"), "key": "F1", "stage": "final",
     "leg": None, "void": True}), ["Match F1", "leg, postponed_from, make_up and void are for league matches"]),
    ("a late joiner's night as text", lambda d: d["teams"][5].update(joined_night="2"),
     ["Team 6", "joined_night must be a whole number"]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("event", "attack", "damage", "words"),
    [("knockout under way", *case) for case in BAD_KNOCKOUTS]
    + [("league in its season", *case) for case in BAD_LEAGUES],
    ids=[case[0] for case in BAD_KNOCKOUTS + BAD_LEAGUES],
)
def test_a_bad_knockout_or_league_file_is_refused_naming_its_row_and_field(director_client, event, attack, damage,
                                                                           words):  # fmt: skip
    exported = copy.deepcopy(_export_of(event))
    damage(exported)
    _refused(director_client, exported, *words)


def test_an_export_from_before_knockouts_and_leagues_still_imports(exported):
    for key in ("clocks", "matches"):
        del exported[key]
    for team in exported["teams"]:
        for name in TEAM_FORMAT_FIELDS:
            del team[name]
    for game in (g for r in exported["rounds"] for g in r["games"]):
        for name in ("match", "clock", *GAME_MATCH_FIELDS):
            del game[name]
    copy_ = import_tournament(exported, club=a_club())
    assert copy_.teams.count() == 4 and not copy_.matches.exists()


def test_every_field_of_every_model_is_exported_or_listed_as_left_out_with_a_reason():
    models = set(apps.get_app_config("tournament").get_models())
    for model in models - set(NOT_EXPORTED_MODELS):
        fields = {f.name for f in model._meta.concrete_fields if not f.primary_key}
        carried = set(FIELDS.get(model, [])) | set(REFERENCES.get(model, []))
        left_out = set(NOT_EXPORTED.get(model, {}))
        assert fields - carried - left_out == set(), f"{model.__name__}: export these or say why not"
        assert (carried | left_out) - fields == set(), f"{model.__name__}: these are not its fields"
        assert not carried & left_out, f"{model.__name__}: both exported and left out"
    assert all(NOT_EXPORTED_MODELS.values()) and all(
        reason for reasons in NOT_EXPORTED.values() for reason in reasons.values()
    )


# --- the fuzzer ------------------------------------------------------------------------------------

NASTY = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**80), max_value=2**80),
    st.floats(allow_nan=True, allow_infinity=False), st.text(max_size=30),
    st.sampled_from(["", "\x00", "=1+1", "gift", "bogus", "Q", "1e30", "0.001", "-5", "NaN", "Infinity", "N" * 500,
                     "2026-13-45T99:00:00", "x", "nil", "blind_nil", "finished", "closed", "NS", "100.00"]),
    st.lists(st.integers(min_value=-2, max_value=9), max_size=3), st.dictionaries(st.text(max_size=5), st.none()),
)  # fmt: skip


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*path, index))


def _at(data, path):
    for key in path:
        data = data[key]
    return data


def _mutate(data, path, action, replacement):
    data = copy.deepcopy(data)
    *parents, last = path
    holder = data
    for key in parents:
        holder = holder[key]
    if action == "delete":
        if isinstance(holder, dict):
            del holder[last]
        else:
            holder.pop(last)
    elif action == "duplicate" and isinstance(holder, list):
        holder.append(copy.deepcopy(holder[last]))
    else:
        holder[last] = replacement
    return data


_BASES: dict[str, dict] = {}


def _base_export(kind: str) -> dict:
    """The export of a progressive event, or of one of the knockouts and leagues, made once for
    the whole fuzz run."""
    if kind not in _BASES:
        make = EVENTS.get(kind, _event)
        _BASES[kind] = json.loads(json.dumps(export_tournament(make())))
    return _BASES[kind]


def _every_page_renders(client, tournament: Tournament) -> None:
    t = tournament.pk
    pages = [reverse(f"director:{name}", args=[t]) for name in
             ("dashboard", "tournament_edit", "teams", "fees", "standings", "prizes", "print",
              "export_standings", "export_hands", "export_json")]  # fmt: skip
    pages += [reverse("public:standings", args=[t]), reverse("public:projector", args=[t])]
    pages += [reverse("director:payments", args=[t, team]) for team in tournament.teams.values_list("pk", flat=True)]
    event_format = format_of(tournament)
    for round_ in tournament.rounds.all():
        pages += [event_format.play_url(tournament, round_), reverse("director:round_links", args=[t, round_.number])]
        pages += [reverse("director:game", args=[t, g]) for g in round_.games.values_list("pk", flat=True)]
    pages += [tab.url for tab in event_format.tabs(tournament)]
    pages += [reverse(event_format.public_page, args=[t]), reverse(event_format.projector_page, args=[t])]
    pages += [reverse("director:match", args=[t, m]) for m in tournament.matches.values_list("pk", flat=True)]
    pages += [reverse("table:page", args=[token]) for token in tournament.tables.values_list("token", flat=True)]
    for page in pages:
        assert client.get(page, follow=True).status_code == 200, page  # a league's standings lead to its table
    makers = [*EVENT_DOCUMENTS.values(), *(doc.make for doc in event_format.documents(tournament) if doc.offered)]
    for make in makers:
        document = make(tournament, "http://venue")
        render_html_chunks(document.template, document.contexts)
    for round_ in tournament.rounds.all():
        for make in ROUND_DOCUMENTS.values():
            document = make(round_, "http://venue")
            render_html_chunks(document.template, document.contexts)


@pytest.mark.slow  # a fuzz: 400 examples under the CI profile (tests/conftest.py)
@settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_fuzzed_imports_never_answer_500_and_either_refuse_or_render_every_page(director_client, data):
    base = _base_export(data.draw(st.sampled_from(["progressive", *EVENTS])))
    mutated = base
    for _ in range(data.draw(st.integers(min_value=1, max_value=3))):
        action = data.draw(st.sampled_from(["replace", "replace", "delete", "duplicate", "retext", "renumber"]))
        if action in ("retext", "renumber"):
            # Plausible edits (a new name, a neighbouring number), so that many files import.
            kind = str if action == "retext" else int
            paths = [p for p in _paths(mutated) if p and type(_at(mutated, p)) is kind]
            path = data.draw(st.sampled_from(paths))
            value = data.draw(st.text(max_size=90)) if kind is str else _at(mutated, path) + data.draw(
                st.integers(min_value=-2, max_value=2))  # fmt: skip
            mutated = _mutate(mutated, path, "replace", value)
            continue
        path = data.draw(st.sampled_from([p for p in _paths(mutated) if p]))
        mutated = _mutate(mutated, path, action, data.draw(NASTY))
    before = _counts()
    response = _post(director_client, mutated)
    assert response.status_code in (302, 422)
    if response.status_code == 422:
        assert response.context["form"].errors["file"]
        assert _counts() == before
        return
    imported = Tournament.objects.order_by("-pk").first()
    _every_page_renders(director_client, imported)


def test_a_backup_taken_after_a_fee_cut_restores_with_the_excess_owed_back_not_pooled(event):
    """Lowering the fee after teams paid leaves money the app holds as owed back to them; a backup
    of that event must restore as it was, the excess still owed back and outside the prize pool."""
    event, _ = update_tournament(tournament=event, changes={"entry_fee": event.entry_fee - Decimal("5")})
    before = ledger(event)
    assert before.owed_back > 0
    copy = import_tournament(json.loads(json.dumps(export_tournament(event))), club=a_club())
    after = ledger(copy)
    assert (after.owed_back, after.fees_paid, after.collected) == (before.owed_back, before.fees_paid, before.collected)


def test_a_payouts_method_travels_with_the_file_and_an_older_file_pays_in_cash(event, exported):
    payout = Payout.objects.get(prize__tournament=event)
    mark_payout_paid(payout=payout, received_by="Ada", method=Payment.Method.CARD)
    with_method = json.loads(json.dumps(export_tournament(event)))
    assert _prize(with_method, "place")["payouts"][0]["method"] == "card"
    assert Payout.objects.get(prize__tournament=import_tournament(with_method, club=a_club())).method == "card"
    del _prize(exported, "place")["payouts"][0]["method"]
    assert Payout.objects.get(prize__tournament=import_tournament(exported, club=a_club())).method == "cash"


@pytest.mark.parametrize(
    ("preset", "field", "kept"),
    [("friendly", "contract", "side"), ("league-300", "reneg_points_to_opponents", 0)],
)
def test_an_export_made_before_the_rules_third_pass_keeps_the_rules_its_hands_were_scored_by(db, preset, field, kept):
    event = make_tournament(couples=2, preset=preset, split=False)
    game = start_play(tournament=event).games.get()
    start_round(round_=game.round)
    finish_game(game, hands=1)
    old = json.loads(json.dumps(export_tournament(event)))
    old["format"] = "spades-director/1"
    copy_ = import_tournament(old, club=a_club())
    assert copy_.rule_overrides == {**played_before_third_pass(preset, {}), **event.rule_overrides}
    assert getattr(copy_.rules, field) == kept
    unplayed = json.loads(json.dumps(export_tournament(make_tournament(couples=2, preset=preset, split=False))))
    unplayed["format"] = "spades-director/1"
    assert import_tournament(unplayed, club=a_club()).rule_overrides == {}  # not played yet: today's rules


def _game_with_a_misdeal() -> Tournament:
    """Hand 1, a misdeal of hand 2, hand 2 dealt again: three deals, two hands."""
    event = make_tournament(couples=2, split=False)
    game = start_play(tournament=event).games.get()
    start_round(round_=game.round)
    finish_game(game, hands=1)
    for entry in (HandEntry.misdealt("no_spades"), HandEntry.from_fields(even_hand(7))):
        enter_hand(game=game, number=2, entry=entry, source=HandRevision.Source.TABLE)
    return event


def _deals(event: Tournament) -> list[tuple[int, int, str]]:
    return [(h.number, h.deal, h.misdeal) for h in Hand.objects.filter(game__round__tournament=event)]


def test_a_misdeal_and_the_deal_after_it_keep_their_hand_number_through_an_export(db):
    event = _game_with_a_misdeal()
    assert _deals(event) == [(1, 1, ""), (2, 1, "no_spades"), (2, 2, "")]
    assert _deals(import_tournament(json.loads(json.dumps(export_tournament(event))), club=a_club())) == _deals(event)


def test_an_export_that_numbered_a_misdeal_as_a_hand_is_numbered_again_on_import(db):
    old = json.loads(json.dumps(export_tournament(_game_with_a_misdeal())))
    old["format"] = "spades-director/2"
    (game,) = old["rounds"][0]["games"]
    for place, hand in enumerate(game["hands"], start=1):  # as exports numbered hands then
        hand["number"] = place
        del hand["deal"]
    assert _deals(import_tournament(old, club=a_club())) == [(1, 1, ""), (2, 1, "no_spades"), (2, 2, "")]


def test_a_deal_out_of_order_is_refused_naming_the_hand(db, director_client):
    data = json.loads(json.dumps(export_tournament(_game_with_a_misdeal())))
    data["rounds"][0]["games"][0]["hands"][2]["deal"] = 1
    _refused(director_client, data, "hand 3", "should be hand 2, deal 2")
