"""Data migrations keep a running event working."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)


def _migrate(target: tuple[str, str]):
    executor = MigrationExecutor(connection)
    executor.migrate([target])
    executor.loader.build_graph()
    return executor.loader.project_state([target]).apps


@pytest.fixture(autouse=True)
def _back_to_the_latest_schema():
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def test_table_links_move_from_games_to_tables_keeping_the_current_rounds_link():
    apps = _migrate(("tournament", "0001_initial"))
    Tournament, Table, Round, Game = (apps.get_model("tournament", m) for m in ("Tournament", "Table", "Round", "Game"))
    event = Tournament.objects.create(name="Old", preset="standard")
    table = Table.objects.create(tournament=event, number=1)
    Table.objects.create(tournament=event, number=2)  # no game yet: gets a fresh link
    first, second = (Round.objects.create(tournament=event, number=n) for n in (1, 2))
    Game.objects.create(round=first, table=table, token="round-one-link")
    Game.objects.create(round=second, table=table, token="round-two-link")

    apps = _migrate(("tournament", "0002_table_token"))
    tokens = dict(apps.get_model("tournament", "Table").objects.values_list("number", "token"))
    assert tokens[1] == "round-two-link"  # the phones on the current round keep their page
    assert tokens[2] and tokens[2] != tokens[1]

    apps = _migrate(("tournament", "0001_initial"))
    games = apps.get_model("tournament", "Game").objects.order_by("round__number")
    first_token, second_token = games.values_list("token", flat=True)
    assert second_token == "round-two-link" and first_token != "round-two-link"


def test_disputes_recorded_on_hands_before_become_dispute_records():
    apps = _migrate(("tournament", "0004_player_substitute"))
    models = {m: apps.get_model("tournament", m) for m in ("Tournament", "Table", "Round", "Game", "Hand")}
    event = models["Tournament"].objects.create(name="Old", preset="standard")
    table = models["Table"].objects.create(tournament=event, number=1)
    round_ = models["Round"].objects.create(tournament=event, number=1)
    game = models["Game"].objects.create(round=round_, table=table)
    hands = models["Hand"].objects
    hands.create(game=game, number=1, misdeal="no_spades", disputed=True, dispute_note="EW say 7")
    hands.create(game=game, number=2, misdeal="no_spades", dispute_note="N bid 4", dispute_resolution="recounted")
    hands.create(game=game, number=3, misdeal="no_spades")

    apps = _migrate(("tournament", "0005_dispute_record"))
    disputes = apps.get_model("tournament", "Dispute").objects.order_by("hand__number")
    assert [(d.hand.number, d.note, d.resolution, d.resolved_at is None) for d in disputes] == [
        (1, "EW say 7", "", True),
        (2, "N bid 4", "recounted", False),
    ]


def test_everyone_who_played_before_joins_the_roster_once():
    apps = _migrate(("tournament", "0010_print_job_heartbeat"))
    models = {m: apps.get_model("tournament", m) for m in ("Tournament", "Team", "Player")}
    for week, names in enumerate((["Ada", "Ben"], ["ada ", "Cleo"])):
        event = models["Tournament"].objects.create(name=f"Week {week}", preset="standard")
        team = models["Team"].objects.create(tournament=event, number=1)
        for name in names:
            models["Player"].objects.create(team=team, name=name)

    apps = _migrate(("tournament", "0011_roster"))
    players = apps.get_model("tournament", "Player").objects.order_by("id")
    assert [(p.name, p.roster.name) for p in players] == [
        ("Ada", "Ada"),
        ("Ben", "Ben"),
        ("ada ", "Ada"),
        ("Cleo", "Cleo"),
    ]
    assert apps.get_model("tournament", "RosterPlayer").objects.count() == 3
