"""Data migrations keep a running event working, and a database of played events migrates with
nothing lost (issue 22).

The played events are ``tests/fixtures/schema_0012.json``: every row of a progressive evening, a
knockout and a league as migration 0012 stored them, with what the app made of them then in
``schema_0012_expected.json`` (see ``tests/fixtures/README.md``)."""

import json
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.management.color import no_style
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scoring import InvalidHand

# --- The app's code that the played events are checked with: the one place to repoint when the
# --- rebuild moves modules. Everything below it reads plain values out of what these return.
from tournament.formats.knockout.reports import place_rows
from tournament.formats.league.standings import championship_places, league_standings
from tournament.formats.registry import format_of
from tournament.models import Club, Game, Hand, Match, Payment, Payout, Player, RosterPlayer, Tournament
from tournament.money.ledger import fees_due, ledger

pytestmark = pytest.mark.django_db(transaction=True)


def standings_of(tournament: Tournament) -> dict:
    """The event's standings and money as the app works them out: its standings rows (rank, name,
    total, wins), a knockout's places, a league's table and championship, the ledger and each
    team's fees due."""
    numbers = dict(tournament.teams.values_list("pk", "number"))
    rows = format_of(tournament).standings(tournament)
    out = {
        "standings": [
            {"rank": r.standing.rank, "name": r.name, "total": r.standing.total, "rounds_won": r.standing.rounds_won,
             "rounds": [None if s is None else [s.round, s.points, s.won, s.sat_out] for s in r.standing.rounds],
             "division": r.division, "withdrawn": r.withdrawn}
            for r in rows
        ],
        "fees_due": {str(numbers[team]): _money(amount) for team, amount in sorted(fees_due(tournament).items())},
        "ledger": {name: _money(value) for name, value in vars(ledger(tournament)).items()},
    }  # fmt: skip
    if tournament.format in ("single_elimination", "double_elimination"):
        out["places"] = [
            {"place": p.place, "name": p.name, "went_out": p.went_out, "matches_won": p.matches_won,
             "points": p.points, "withdrawn": p.withdrawn}
            for p in place_rows(tournament)
        ]  # fmt: skip
    if tournament.format == "round_robin":
        out["league_table"] = [
            {"rank": line.row.rank, "name": line.name, "played": line.row.played, "won": line.row.won,
             "lost": line.row.lost, "points_for": line.row.points_for, "points_against": line.row.points_against,
             "bags": line.row.bags, "withdrawn": line.withdrawn}
            for line in league_standings(tournament).lines
        ]  # fmt: skip
        out["championship"] = [[p.place, p.names] for p in championship_places(tournament)]
    return out


def scores_after_each_hand(game: Game, hands: list[Hand]) -> list:
    """The game's running score after each of its ``hands`` as the app scores them under the
    game's rule set (a knockout's final under its own): [[NS score, bags], [EW score, bags]], None
    for a misdeal; for every hand, why the app refuses to score them if it does."""
    try:
        results = game.replay(hands).results
    except InvalidHand as error:
        return [f"refused: {error.message}"] * len(hands)
    return [None if r is None else [[side.score, side.bags] for side in r.teams] for r in results]


# --- The played events, read as plain values ------------------------------------------------------------

FIXTURES = Path(__file__).parent / "fixtures"
SCHEMA_0012 = ("tournament", "0012_payout_method")
HAND_VALUES = ["north_bid", "east_bid", "south_bid", "west_bid", "north_tricks", "east_tricks", "south_tricks",
           "west_tricks", "ns_reneges", "ew_reneges", "ns_table_talk", "ew_table_talk", "misdeal", "version",
           "disputed", "dispute_note", "dispute_resolution", "confirmed_by"]  # fmt: skip
TOTALS = ["ns_score", "ew_score", "ns_bags", "ew_bags", "hands_played", "status", "winner", "decided_by",
          "time_up_hand", "first_dealer"]  # fmt: skip


def _money(amount) -> str | None:
    """An amount as "20.00" whatever the database summed it as (SQLite drops the cents of a sum)."""
    return None if amount is None else f"{amount:.2f}"


def _user(user) -> str:
    return user.get_username() if user else ""


def _clock(clock) -> dict | None:
    if clock is None:
        return None
    return {"minutes": clock.minutes, "extra_minutes": clock.extra_minutes, "started": clock.started_at is not None,
            "paused": clock.paused_at is not None, "paused_seconds": clock.paused_seconds}  # fmt: skip


def event_results(tournament: Tournament) -> dict:
    """Everything the expected file holds for one event: its hands (keyed "round 1, table 2,
    hand 3", with the match and game in a match; a hand's place among its game's deals, as hands
    were numbered before a misdeal kept its hand's number), every hand's revisions (its entry and each
    correction), the disputes of the hands disputed, its games' totals, teams, matches, payments,
    prizes and payouts, and :func:`standings_of`."""
    numbers = dict(tournament.teams.values_list("pk", "number"))
    games = Game.objects.filter(round__tournament=tournament).select_related("round__tournament", "table", "match")
    hands, revisions, disputes, totals = {}, {}, {}, {}
    for game in games.order_by("round__number", "table__number", "match__key", "match_game"):
        where = f"round {game.round.number}, table {game.table.number}"
        if game.match_id:
            where += f", match {game.match.key} game {game.match_game}"
        totals[where] = {field: getattr(game, field) for field in TOTALS}
        played = list(game.hands.order_by("number", "deal").prefetch_related("revisions__changed_by", "disputes"))
        for place, (hand, after) in enumerate(zip(played, scores_after_each_hand(game, played), strict=True), 1):
            key = f"{where}, hand {place}"
            hands[key] = {**{field: getattr(hand, field) for field in HAND_VALUES}, "score_after": after}
            revisions[key] = [
                {"source": r.source, "by": _user(r.changed_by), "before": r.before, "after": r.after}
                for r in hand.revisions.all()
            ]
            if hand.disputes.all():
                disputes[key] = [
                    {
                        "note": d.note,
                        "raised_from": d.raised_from,
                        "resolution": d.resolution,
                        "resolved": not d.is_open,
                    }
                    for d in hand.disputes.all()
                ]
    return {
        "hands": hands,
        "revisions": revisions,
        "disputes": disputes,
        "games": totals,
        "teams": {
            str(team.number): {"status": team.status, "checked_in": team.checked_in, "seed": team.seed,
                               "players": [[p.name, p.division, p.substitute, p.substitute_from]
                                           for p in team.players.all()]}
            for team in tournament.teams.prefetch_related("players")
        },
        "matches": {
            m.key: {"stage": m.stage, "round": m.round, "number": m.number, "best_of": m.best_of,
                    "home": numbers.get(m.home_id), "away": numbers.get(m.away_id), "winner": numbers.get(m.winner_id),
                    "status": m.status, "outcome": m.outcome, "reason": m.reason, "leg": m.leg,
                    "postponed_from": m.postponed_from, "make_up": m.make_up, "void": m.void,
                    "table": m.table.number if m.table_id else None, "clock": _clock(m.clock)}
            for m in tournament.matches.select_related("table", "clock").order_by("position")
        },
        "payments": [
            {"team": numbers[p.team_id], "kind": p.kind, "amount": _money(p.amount), "method": p.method, "note": p.note,
             "by": _user(p.recorded_by)}
            for p in Payment.objects.filter(team__tournament=tournament).select_related("recorded_by")
        ],
        "prizes": [
            {"kind": p.kind, "place": p.place, "division": p.division,
             "amount": _money(p.amount), "share_percent": _money(p.share_percent)}
            for p in tournament.prizes.all()
        ],
        "payouts": [
            {"prize": [p.prize.kind, p.prize.place, p.prize.division],
             "to": p.player.name if p.player_id else numbers[p.team_id], "amount": _money(p.amount),
             "paid": p.paid_at is not None, "received_by": p.received_by, "method": p.method}
            for p in Payout.objects.filter(prize__tournament=tournament).select_related("prize", "player")
        ],
        **standings_of(tournament),
    }  # fmt: skip


def played_results() -> dict:
    """:func:`event_results` of every event in the database, by name, as JSON values."""
    events = {t.name: event_results(t) for t in Tournament.objects.order_by("name")}
    return json.loads(json.dumps(events))


# --- Migrating ------------------------------------------------------------------------------------------


def _migrate(target: tuple[str, str]):
    executor = MigrationExecutor(connection)
    executor.migrate([target])
    executor.loader.build_graph()
    return executor.loader.project_state([target]).apps


def _migrate_to_the_latest() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.fixture(autouse=True)
def _back_to_the_latest_schema():
    yield
    _migrate_to_the_latest()


def _parents_first(models: dict) -> list[str]:
    """The models' labels, each after every model it refers to."""
    order: list[str] = []

    def visit(label: str) -> None:
        if label in order:
            return
        for field in models[label]._meta.concrete_fields:
            parent = field.related_model._meta.label_lower if field.is_relation else None
            if parent in models and parent != label:
                visit(parent)
        order.append(label)

    for label in models:
        visit(label)
    return order


def _values(model, fields: dict) -> dict:
    """A dumped row's ``fields`` as attributes of the historical ``model``: foreign keys by their
    ids, other values as the field reads them (a date from its text, an amount as a Decimal)."""
    values = {}
    for name, value in fields.items():
        field = model._meta.get_field(name)
        if field.many_to_many:
            assert not value, f"{model._meta.label}.{name}: the loader inserts no many-to-many rows"
        else:
            values[field.attname] = value if field.is_relation else field.to_python(value)
    return values


def _load(rows: list[dict], apps) -> None:
    """Insert ``rows`` (``manage.py dumpdata``'s) through the historical ``apps``: ids kept,
    parents first; then the ids' sequences are set past them (PostgreSQL)."""
    by_model: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        by_model[row["model"]].append(row)
    models = {label: apps.get_model(label) for label in by_model}
    for label in _parents_first(models):
        model = models[label]
        stored = [(row["pk"], _values(model, row["fields"])) for row in by_model[label]]
        model.objects.bulk_create(model(pk=pk, **values) for pk, values in stored)
        # An insert stamps auto_now(_add) fields with its own time: the stored times go back.
        stamped = [f.attname for f in model._meta.concrete_fields if getattr(f, "auto_now", False)
                   or getattr(f, "auto_now_add", False)]  # fmt: skip
        for pk, values in stored if stamped else ():
            model.objects.filter(pk=pk).update(**{name: values[name] for name in stamped})
    with connection.cursor() as cursor:
        for statement in connection.ops.sequence_reset_sql(no_style(), list(models.values())):
            cursor.execute(statement)


def _differences(expected: object, found: object, where: str = "") -> Iterator[str]:
    """Where ``found`` differs from ``expected``, one line each."""
    if isinstance(expected, dict) and isinstance(found, dict):
        for key in [*expected, *(k for k in found if k not in expected)]:
            if key not in found or key not in expected:
                yield f"{where}/{key}: {'missing' if key not in found else 'not expected'}"
            else:
                yield from _differences(expected[key], found[key], f"{where}/{key}")
    elif isinstance(expected, list) and isinstance(found, list) and len(expected) == len(found):
        for index, (one, other) in enumerate(zip(expected, found, strict=True)):
            yield from _differences(one, other, f"{where}[{index}]")
    elif isinstance(expected, list) and isinstance(found, list):
        missing, extra = [x for x in expected if x not in found], [x for x in found if x not in expected]
        yield f"{where}: {len(expected)} expected, {len(found)} found; missing {missing}, not expected {extra}"
    elif expected != found:
        yield f"{where}: expected {expected!r}, found {found!r}"


def test_a_played_progressive_evening_knockout_and_league_migrate_with_every_hand_payment_and_standing():
    apps = _migrate(SCHEMA_0012)
    _load(json.loads((FIXTURES / "schema_0012.json").read_text()), apps)
    _migrate_to_the_latest()

    expected = json.loads((FIXTURES / "schema_0012_expected.json").read_text())["events"]
    differences = list(_differences(expected, played_results()))
    assert not differences, f"{len(differences)} differences:\n" + "\n".join(differences[:40])


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


def test_events_played_before_the_rules_third_pass_keep_their_scores():
    apps = _migrate(("tournament", "0014_format_settings_moved"))
    models = {m: apps.get_model("tournament", m) for m in ("Tournament", "Table", "Round", "Game", "Hand", "Match")}

    def event(name: str, preset: str, overrides: dict | None = None, *, played: bool = True):
        tournament = models["Tournament"].objects.create(name=name, preset=preset, rule_overrides=overrides or {})
        table = models["Table"].objects.create(tournament=tournament, number=1)
        round_ = models["Round"].objects.create(tournament=tournament, number=1)
        game = models["Game"].objects.create(round=round_, table=table)
        if played:  # North 3 took 5, South 3 took 1; East 2 took 4, West 2 took 3
            models["Hand"].objects.create(game=game, number=1, north_bid="3", south_bid="3", east_bid="2",
                                          west_bid="2", north_tricks=5, south_tricks=1, east_tricks=4,
                                          west_tricks=3)  # fmt: skip
        return tournament

    event("Friendly", "friendly")
    event("Friendly, not started", "friendly", played=False)
    event("League", "league-300", {"bag_limit": 5})
    event("League, its own both-nil rule", "league-300", {"both_nil": "all_or_nothing", "both_nil_points": 150})
    event("Evening", "progressive")
    event("Evening to 500", "progressive-500")
    event("Rounds of 4", "tennessee", {"hands_per_round": 4, "target_score": None})
    cup = event("Cup", "progressive-500", played=False)  # its final plays the championship's rules
    final = models["Match"].objects.create(tournament=cup, key="F", stage="final", round=1, number=1, position=1,
                                           preset="championship-500")  # fmt: skip
    models["Match"].objects.create(tournament=cup, key="F2", stage="final", round=1, number=2,
                                              position=2, preset="championship-500")  # fmt: skip
    game = models["Game"].objects.get(round__tournament=cup)
    game.match = final
    game.save()
    models["Hand"].objects.create(game=game, number=1, misdeal="no_spades")

    _migrate_to_the_latest()  # the real models read the rows below
    overrides = dict(Tournament.objects.values_list("name", "rule_overrides"))
    assert overrides == {
        "Friendly": {"contract": "side"},
        "Friendly, not started": {},
        "League": {"bag_limit": 5, "reneg_trick_points": 10, "reneg_points_to_opponents": 0, "both_nil": "separate",
                   "both_nil_points": None},
        "League, its own both-nil rule": {"both_nil": "all_or_nothing", "both_nil_points": 150,
                                          "reneg_trick_points": 10, "reneg_points_to_opponents": 0},
        "Evening": {"tie_hand_counts": True},
        "Evening to 500": {},
        "Rounds of 4": {"hands_per_round": 4, "target_score": None, "tie_hand_counts": True},
        "Cup": {},
    }  # fmt: skip
    matches = dict(Match.objects.values_list("key", "rule_overrides"))
    assert matches == {"F": {"reneg_trick_points": 10, "reneg_points_to_opponents": 0, "both_nil": "separate",
                             "both_nil_points": None}, "F2": {}}  # fmt: skip
    friendly = Game.objects.get(round__tournament__name="Friendly")
    assert friendly.replay(list(friendly.hands.all())).game.scores == (60, 43)  # as scored when it was played


def test_a_misdeal_numbered_as_a_hand_of_its_own_becomes_a_deal_of_the_hand_dealt_again():
    apps = _migrate(("tournament", "0015_rules_third_pass"))
    models = {m: apps.get_model("tournament", m) for m in ("Tournament", "Table", "Round", "Game", "Hand")}
    event = models["Tournament"].objects.create(name="Old", preset="progressive")
    table = models["Table"].objects.create(tournament=event, number=1)
    round_ = models["Round"].objects.create(tournament=event, number=1)
    game = models["Game"].objects.create(round=round_, table=table, time_up_hand=5)
    untouched = models["Game"].objects.create(round=round_, table=models["Table"].objects.create(tournament=event,
                                                                                                number=2))  # fmt: skip
    played = {"north_bid": "3", "south_bid": "3", "east_bid": "3", "west_bid": "4", "north_tricks": 3,
              "south_tricks": 3, "east_tricks": 3, "west_tricks": 4}  # fmt: skip
    # Before: hand 1, a misdeal "hand 2", its redeal "hand 3", two misdeals "hands 4 and 5", then "hand 6".
    for number, misdeal in enumerate(["", "no_spades", "", "no_spades", "no_spades", ""], start=1):
        fields = {"misdeal": misdeal} if misdeal else played
        models["Hand"].objects.create(game=game, number=number, **fields)
    models["Hand"].objects.create(game=untouched, number=1, **played)

    _migrate_to_the_latest()
    hands = Hand.objects.filter(game_id=game.pk).order_by("number", "deal")
    assert [(h.number, h.deal, h.misdeal) for h in hands] == [
        (1, 1, ""), (2, 1, "no_spades"), (2, 2, ""), (3, 1, "no_spades"), (3, 2, "no_spades"), (3, 3, ""),
    ]  # fmt: skip
    assert Game.objects.get(pk=game.pk).time_up_hand == 3  # time was called on the second misdeal of hand 3
    assert [(h.number, h.deal) for h in Hand.objects.filter(game_id=untouched.pk)] == [(1, 1)]
    _migrate(("tournament", "0015_rules_third_pass"))  # and back: each deal a hand of its own again
    old = apps.get_model("tournament", "Hand").objects.filter(game_id=game.pk).order_by("number")
    assert [(h.number, h.misdeal) for h in old] == [(1, ""), (2, "no_spades"), (3, ""), (4, "no_spades"),
                                                     (5, "no_spades"), (6, "")]  # fmt: skip
    assert apps.get_model("tournament", "Game").objects.get(pk=game.pk).time_up_hand == 4


def test_several_directors_events_move_into_clubs_with_their_people_and_roster():
    """Issue 25: each event into the club of its earliest director, else the first superuser's; each
    member keeps their highest role in the club; each roster person copied into every club whose
    events they played, each event linking its own club's copy; and back again."""
    apps = _migrate(("tournament", "0017_prize_name"))
    old = {m: apps.get_model("tournament", m) for m in ("Tournament", "Membership", "Team", "Player", "RosterPlayer")}
    users = apps.get_model("auth", "User").objects
    users.create(username="root", is_superuser=True, is_staff=True)
    alice, bob, carol = (users.create(username=name, is_staff=True) for name in ("alice", "bob", "carol"))
    events = {name: old["Tournament"].objects.create(name=name, preset="progressive") for name in "ABCD"}
    for event, user, role in [("A", bob, "assistant"), ("A", alice, "director"), ("B", bob, "director"),
                              ("B", carol, "assistant"), ("C", alice, "director"), ("C", carol, "director"),
                              ("C", bob, "assistant"), ("D", carol, "assistant")]:  # fmt: skip
        old["Membership"].objects.create(tournament=events[event], user=user, role=role)
    ada = old["RosterPlayer"].objects.create(name="Ada", key="ada")
    zed = old["RosterPlayer"].objects.create(name="Zed", key="zed")
    for event in "ABC":
        team = old["Team"].objects.create(tournament=events[event], number=1)
        old["Player"].objects.create(team=team, name="Ada", roster=ada)

    _migrate_to_the_latest()
    club_of = {t.name: t.club.name for t in Tournament.objects.select_related("club")}
    assert club_of == {"A": "alice's club", "B": "bob's club", "C": "alice's club", "D": "root's club"}
    members = {
        club.name: sorted((m.user.username, m.role) for m in club.members.select_related("user"))
        for club in Club.objects.all()
    }
    assert members == {
        "alice's club": [("alice", "owner"), ("bob", "assistant"), ("carol", "director")],
        "bob's club": [("bob", "owner"), ("carol", "assistant")],
        "root's club": [("carol", "assistant"), ("root", "owner")],
    }
    assert sorted(RosterPlayer.objects.values_list("club__name", "name")) == [
        ("alice's club", "Ada"), ("bob's club", "Ada"), ("root's club", "Zed"),
    ]  # fmt: skip
    for player in Player.objects.select_related("roster", "team__tournament"):
        assert player.roster.club_id == player.team.tournament.club_id  # each event links its own club's Ada
    assert RosterPlayer.objects.filter(pk=zed.pk, club__name="root's club").exists()

    apps = _migrate(("tournament", "0017_prize_name"))  # and back: members of each of their club's events
    back = apps.get_model("tournament", "Membership").objects.values_list("tournament__name", "user__username", "role")
    assert ("C", "bob", "assistant") in set(back) and ("A", "carol", "director") in set(back)
    assert ("D", "root", "director") in set(back)
