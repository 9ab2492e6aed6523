"""The JSON backup restores a tournament exactly; the simulation plays a whole event."""

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from django.utils import timezone

from scoring import HandEntry
from tests.conftest import a_club
from tournament.formats.progressive.simulation import simulate
from tournament.models import Hand, Tournament
from tournament.play.games import flag_dispute, resolve_dispute
from tournament.play.hands import enter_hand
from tournament.play.rounds import close_round
from tournament.transfer.export import export_tournament
from tournament.transfer.write import import_tournament

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parent.parent


def _without_tokens(data: dict) -> dict:
    data = json.loads(json.dumps(data))
    for table in data["tables"]:
        table.pop("token")
    return data


def test_export_then_import_restores_the_tournament_exactly(finished_round, tournament, director):
    close_round(round_=finished_round, by=director)
    game = tournament.rounds.get(number=1).games.first()
    hand = game.hands.first()
    entry = HandEntry.from_fields({**hand.snapshot(), "north_tricks": 3, "east_tricks": 4})
    enter_hand(
        game=game, number=hand.number, entry=entry, source="director", by=director, expected_version=hand.version
    )
    flag_dispute(hand=hand, note="EW count 7", source="director", by=director)  # after the close: the director
    resolve_dispute(hand=hand, resolution="recounted", by=director)
    exported = export_tournament(tournament)
    copy = import_tournament(json.loads(json.dumps(exported)), club=a_club())
    assert copy.pk != tournament.pk
    again, expected = _without_tokens(export_tournament(copy)), _without_tokens(exported)
    assert again["tournament"].pop("name") == f"{expected['tournament'].pop('name')} (restored {timezone.localdate()})"
    assert again == expected
    restored = copy.rounds.get(number=1).games.get(table__number=game.table.number)
    assert (restored.ns_score, restored.ew_score) == (game.ns_score - 1, game.ew_score + 1)
    assert Hand.objects.filter(game=restored, version=2).exists()


def test_import_keeps_table_links_when_the_database_does_not_use_them(finished_round, tournament):
    exported = export_tournament(tournament)
    tokens = {t["number"]: t["token"] for t in exported["tables"]}
    Tournament.objects.all().delete()
    copy = import_tournament(exported, club=a_club())
    assert dict(copy.tables.values_list("number", "token")) == tokens


def test_import_issues_new_table_links_when_the_database_already_uses_them(finished_round, tournament):
    exported = export_tournament(tournament)
    copy = import_tournament(exported, club=a_club())
    old = set(tournament.tables.values_list("token", flat=True))
    assert copy.tables.count() == len(old) and old.isdisjoint(copy.tables.values_list("token", flat=True))


def test_an_older_export_with_bare_table_numbers_still_imports(finished_round, tournament):
    exported = json.loads(json.dumps(export_tournament(tournament)))
    exported["tables"] = [t["number"] for t in exported["tables"]]
    copy = import_tournament(exported, club=a_club())
    assert list(copy.tables.values_list("number", flat=True)) == [t.number for t in tournament.tables.all()]


def test_simulated_odd_event_follows_the_movement_rule():
    log = simulate(couples=13, rounds=5, seed=1)
    assert len(log["rounds"]) == 5
    for before, after in zip(log["rounds"], log["rounds"][1:], strict=False):
        assert len(before["tables"]) == 6 and len(before["sitting_out"]) == 2
        table_1 = before["tables"][0]
        losers = (
            {table_1["east"], table_1["west"]} if table_1["winner"] == "NS" else {table_1["north"], table_1["south"]}
        )
        assert set(after["sitting_out"]) == losers
        last = after["tables"][-1]
        assert set(before["sitting_out"]) <= {last["north"], last["east"], last["south"], last["west"]}


@pytest.mark.slow  # manage.py in processes of its own
def test_simulate_command_prints_the_log_as_json_and_leaves_the_database_alone(tmp_path):
    database = tmp_path / "real.sqlite3"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}"}
    run = [sys.executable, "manage.py"]
    subprocess.run([*run, "migrate", "-v0"], env=env, cwd=ROOT, check=True)
    done = subprocess.run(
        [*run, "simulate", "progressive", "--couples", "5", "--rounds", "2", "--seed", "3", "--json"],
        env=env, cwd=ROOT, capture_output=True, text=True, check=True,
    )  # fmt: skip
    log = json.loads(done.stdout)
    first = log["rounds"][0]
    assert set(first["tables"][0]) == {"table", "north", "east", "south", "west", "ns_points", "ew_points", "winner"}
    assert first["tables"][0]["winner"] in ("NS", "EW")
    assert len(first["sitting_out"]) == 2
    with sqlite3.connect(database) as real:
        assert real.execute("select count(*) from tournament_tournament").fetchone() == (0,)


def test_fixed_partner_simulation_keeps_partners_together():
    log = simulate(couples=6, rounds=3, seed=5, partners="fixed")
    pairs = {frozenset((t["north"], t["south"])) for r in log["rounds"] for t in r["tables"]}
    pairs |= {frozenset((t["east"], t["west"])) for r in log["rounds"] for t in r["tables"]}
    assert len(pairs) == 6
    assert all(max(t["ns_points"], t["ew_points"]) >= 500 for r in log["rounds"] for t in r["tables"])


def test_hands_csv_lists_every_hand_with_points(finished_round, tournament):
    from tournament.transfer.csv import hands_csv

    lines = hands_csv(tournament).splitlines()
    assert len(lines) == 1 + 16
    assert lines[1].startswith("1,1,1,1,Ada,Cleo,Ben,Dan,3,3,3,3,4,3,3,3,0,0,0,0,0,0,0,0,0,0,0,0,,61,60,61,60")
