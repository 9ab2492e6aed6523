"""The JSON import checks every row and the whole event before it writes anything; a backup
restores in place of the event it came from. Each bad file found when the app was attacked is a
case here; a fuzzer posts a few hundred more."""

import copy
import json
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import HandEntry
from tests.conftest import finish_game, make_tournament
from tournament import printing, services, transfer
from tournament.models import Game, Hand, HandRevision, Membership, Payment, Payout, Player, Prize, Team, Tournament

pytestmark = pytest.mark.django_db
MODELS = [Tournament, Team, Player, Payment, Game, Hand, HandRevision, Prize, Payout, Membership]


def _counts() -> list[int]:
    return [model.objects.count() for model in MODELS]


def _event() -> Tournament:
    """A small event with something in every part of the file: money, a closed round, a round
    under way with a correction and a dispute, prizes with payouts."""
    tournament = make_tournament(couples=4)
    for team in tournament.teams.all():
        services.record_payment(team=team, amount=Decimal("20.00"), kind="payment", method="cash")
    round_ = services.seat_first_round(tournament=tournament)
    services.start_round(round_=round_)
    for game in round_.games.all():
        finish_game(game)
    second = services.close_round(round_=round_)
    services.start_round(round_=second)
    game = second.games.first()
    finish_game(game, hands=2)
    hand = game.hands.get(number=2)
    corrected = HandEntry.from_fields({**hand.snapshot(), "north_tricks": 3, "east_tricks": 4})
    services.correct_hand(game=game, number=2, entry=corrected, expected_version=1)
    services.flag_dispute(hand=hand, note="EW say 4")
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
    return json.loads(json.dumps(transfer.export_tournament(event)))


def _post(client, body: bytes | dict, **data):
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    upload = SimpleUploadedFile("event.json", raw, content_type="application/json")
    return client.post(reverse("director:import"), {"file": upload, **data})


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
     ["Team 1, payment 1", "amount must be in dollars and cents"]),
    ("payment of 1e30", lambda d: _first_team_payment(d).update(amount="1e30"),
     ["Team 1, payment 1", "amount must be an amount under $100,000,000"]),
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
    ("prize shares over 100%", lambda d: _prize(d, "division").update(amount=None, share_percent="60.00"),
     ["Prizes", "shares add up to 110.00%"]),
    ("two prizes for one place", lambda d: _prize(d, "division").update(kind="place", place=1, division=""),
     ["Prizes", "two prizes for place 1"]),
    ("a closed round with a game still playing", lambda d: d["rounds"][0]["games"][0].update(hands=[]),
     ["Round 1, table 1", "the round is closed but this game has no winner"]),
    ("a hand numbered out of order", lambda d: d["rounds"][1]["games"][0]["hands"][0].update(number=5),
     ["Round 2, table 1, hand 1", "hands are numbered 1, 2, 3"]),
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
def test_a_bad_file_is_refused_naming_its_row_and_field_and_nothing_is_written(
    director_client, exported, attack, damage, words
):
    damage(exported)
    _refused(director_client, exported, *words)


def test_deep_nesting_is_refused_without_a_500(director_client, exported):
    _refused(director_client, b'{"format": "spades-director/1", "x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
             "not JSON")  # fmt: skip
    exported["tournament"]["rule_overrides"] = {"a": [[[[[[[[[[[[[[1]]]]]]]]]]]]]]}
    _refused(director_client, exported, "nested deeper than any export")


def test_a_50_mb_upload_is_refused_before_it_is_read(director_client):
    _refused(director_client, b" " * (50 * 1024 * 1024), "The file is 50.0 MB; an export is at most 16 MB")


@pytest.mark.parametrize("body", [b"", b"not json", b"[]", b'{"format": "other"}', b'{"format": "spades-director/1"}'])
def test_something_that_is_not_an_export_is_refused(director_client, body):
    _refused(director_client, body)


def test_a_good_file_imports_as_a_new_tournament_with_every_row(director_client, event, exported):
    response = _post(director_client, exported)
    assert response.status_code == 302
    copy_ = Tournament.objects.exclude(pk=event.pk).get()
    again = transfer.export_tournament(copy_)
    for table in again["tables"] + exported["tables"]:
        table.pop("token")
    assert again == exported
    assert copy_.rounds.get(number=2).games.get(table__number=1).hands.get(number=2).disputed


def test_a_backup_restores_in_place_with_the_same_links_and_members(director_client, event, exported, director):
    Membership.objects.create(tournament=event, user=director, role=Membership.Role.DIRECTOR)
    links = dict(event.tables.values_list("number", "token"))
    game = event.rounds.get(number=2).games.get(table__number=1)
    finish_game(game, hands=2)  # play went on after the backup…
    services.register_team(tournament=event, names=["Late", "Comer"])
    response = _post(director_client, exported, replace=event.pk)  # …and the backup is restored
    assert response.status_code == 302
    restored = Tournament.objects.get()
    assert restored.pk == event.pk
    assert dict(restored.tables.values_list("number", "token")) == links
    assert restored.teams.count() == 4
    assert restored.rounds.get(number=2).games.get(table__number=1).hands.count() == 2
    assert list(restored.memberships.values_list("user__username", "role")) == [("dee", "director")]
    table = restored.tables.get(number=1)
    assert director_client.get(reverse("table:page", args=[table.token])).status_code == 200


def test_only_a_director_of_the_event_may_restore_over_it(client, django_user_model, event, exported):
    helper = django_user_model.objects.create_user("hank", password="x" * 12, is_staff=True)
    Membership.objects.create(tournament=event, user=helper, role=Membership.Role.ASSISTANT)
    client.force_login(helper)
    before = _counts()
    response = _post(client, exported, replace=event.pk)
    assert response.status_code == 422 and "replace" in response.context["form"].errors
    assert _counts() == before


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


_BASE: dict = {}


def _base_export() -> dict:
    """The event's export, made once for the whole fuzz run."""
    if not _BASE:
        _BASE.update(json.loads(json.dumps(transfer.export_tournament(_event()))))
    return _BASE


def _every_page_renders(client, tournament: Tournament) -> None:
    t = tournament.pk
    pages = [reverse(f"director:{name}", args=[t]) for name in
             ("dashboard", "tournament_edit", "teams", "fees", "standings", "prizes", "print",
              "export_standings", "export_hands", "export_json")]  # fmt: skip
    pages += [reverse("public:standings", args=[t]), reverse("public:projector", args=[t])]
    pages += [reverse("director:payments", args=[t, team]) for team in tournament.teams.values_list("pk", flat=True)]
    for round_ in tournament.rounds.all():
        pages += [reverse("director:round", args=[t, round_.number]), reverse("director:round_links",
                  args=[t, round_.number])]  # fmt: skip
        pages += [reverse("director:game", args=[t, g]) for g in round_.games.values_list("pk", flat=True)]
    pages += [reverse("table:page", args=[token]) for token in tournament.tables.values_list("token", flat=True)]
    for page in pages:
        assert client.get(page).status_code == 200, page
    for make in printing.TOURNAMENT_DOCUMENTS.values():
        document = make(tournament)
        printing.pdf.render_html_chunks(document.template, document.contexts)
    for round_ in tournament.rounds.all():
        for make in printing.ROUND_DOCUMENTS.values():
            document = make(round_, "http://venue")
            printing.pdf.render_html_chunks(document.template, document.contexts)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_fuzzed_imports_never_answer_500_and_either_refuse_or_render_every_page(director_client, data):
    base = _base_export()
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
