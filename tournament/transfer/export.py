"""A whole tournament as JSON: a backup, and a way to move an event between machines
(:mod:`.restore` checks it and :mod:`.write` imports it again).

Records refer to each other by their numbers in the tournament (team 3's second player, table 5,
round 2, match ``W1-1``, the file's clock 4), never by database ids, so an export imports into any
database. Users are referred to by user name and linked again where that user exists on the
importing machine. A table's link token (``tables[].token``, one per physical table for the whole
event) is kept unless the importing database already uses it (then a new one is issued and the
table's tent must be reprinted). Older exports listed tables as bare numbers; their tables get
new tokens.

:data:`FIELDS` lists every model's fields the file carries as values, :data:`REFERENCES` those
it carries as references (nesting, numbers, user names), and :data:`NOT_EXPORTED` the rest with
the reason; a test holds every model's fields to these lists, so a new field cannot be left out
of backups unnoticed.
"""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

from django.db import models
from django.db.models import Prefetch
from django.utils import timezone

from tournament.formats.registry import format_of
from tournament.models import (
    HAND_FIELDS,
    Clock,
    Club,
    ClubMember,
    Dispute,
    Game,
    Hand,
    HandRevision,
    Invitation,
    Match,
    Payment,
    Payout,
    Player,
    PrintJob,
    Prize,
    RosterPlayer,
    Round,
    Seating,
    SeatingChange,
    SitOut,
    Table,
    Team,
    Tournament,
)

FORMAT = "spades-director/3"
# Exports made before the rules' third pass: their hands were scored by the presets as they were then.
FORMAT_BEFORE_THIRD_PASS = "spades-director/1"
# Exports made before a misdeal kept its hand's number: there a misdeal was numbered as a hand.
FORMATS_MISDEAL_NUMBERED = (FORMAT_BEFORE_THIRD_PASS, "spades-director/2")
TOURNAMENT_FIELDS = [
    "name", "venue", "preset", "rule_overrides", "format", "rounds_planned", "seating_order", "seating_seed",
    "prize_ties", "require_confirmation", "paper_size", "status",
]  # fmt: skip
TEAM_FORMAT_FIELDS = ["seed", "joined_night", "withdrawn_night", "results_voided"]
HAND_EXTRA_FIELDS = ["disputed", "dispute_note", "dispute_resolution", "confirmed_by", "version"]
CLOCK_FIELDS = ["minutes", "extra_minutes", "started_at", "paused_at", "paused_seconds"]
MATCH_FIELDS = [
    "key", "stage", "round", "number", "position", "best_of", "status", "outcome", "reason", "finished_order",
    "finished_at", "leg", "postponed_from", "make_up", "void", "rule_overrides",
]  # fmt: skip
GAME_MATCH_FIELDS = ["match_game", "time_up_hand"]

FIELDS: dict[type[models.Model], list[str]] = {
    Tournament: [*TOURNAMENT_FIELDS, "date", "entry_fee"],
    Team: ["number", "status", "checked_in", "registered_at", *TEAM_FORMAT_FIELDS],
    Player: ["name", "division", "substitute", "substitute_from"],
    Payment: ["kind", "amount", "method", "note", "recorded_at"],
    Table: ["number", "token"],
    Round: ["number", "status", "started_at", "closed_at"],
    Seating: ["seat"],
    SeatingChange: ["description", "changed_at"],
    Game: ["status", "first_dealer", "winner", "decided_by", *GAME_MATCH_FIELDS],
    Hand: ["number", "deal", *HAND_FIELDS, *HAND_EXTRA_FIELDS, "entered_at"],
    HandRevision: ["source", "changed_at", "before", "after"],
    Dispute: ["note", "raised_from", "raised_at", "resolution", "resolved_at"],
    Prize: ["name", "kind", "place", "division", "amount", "share_percent"],
    Payout: ["amount", "paid_at", "received_by", "method"],
    Clock: CLOCK_FIELDS,
    Match: MATCH_FIELDS,
}
"""Each model's fields the file carries as plain values."""

REFERENCES: dict[type[models.Model], list[str]] = {
    Team: ["tournament"],
    Player: ["team", "roster"],
    RosterPlayer: ["name"],  # each player's "roster": the name they are linked by on the importing machine
    Payment: ["team", "recorded_by"],
    Table: ["tournament"],
    Round: ["tournament"],
    Seating: ["round", "table", "player"],
    SitOut: ["round", "player"],
    SeatingChange: ["round", "changed_by"],
    Game: ["round", "table", "match", "clock"],
    Hand: ["game"],
    HandRevision: ["hand", "changed_by"],
    Dispute: ["hand", "raised_by", "resolved_by"],
    Prize: ["tournament"],
    Payout: ["prize", "player", "team", "recorded_by"],
    Clock: ["tournament"],
    Match: ["tournament", "home", "away", "table", "clock", "winner"],
}
"""Each model's fields the file carries as references: by nesting, numbers in the tournament,
the file's clock numbers, match keys, user names."""

NOT_EXPORTED: dict[type[models.Model], dict[str, str]] = {
    Tournament: {
        "club": "the club of this database that owns it; an import goes into the club the importer chooses",
        "created_at": "when this database's row was made; an import is a new row",
        "changed_at": "when this database's row last changed (the pages everyone watches follow it)",
    },
    RosterPlayer: {
        "club": "the importing club's roster links the players, by name",
        "key": "derived from the name",
        "created_at": "the club roster of the importing machine keeps its own dates",
    },
    Table: {
        "phone_heard_at": "the live report of a phone to this server; phones report again after a restore",
        "phone_waiting": "the live report of a phone to this server; phones report again after a restore",
    },
    Game: {
        name: "recomputed from the hands on import"
        for name in ("ns_score", "ew_score", "ns_bags", "ew_bags", "hands_played")
    },
    Hand: {
        "entry_key": "one phone's retry key for one attempt at entering the hand, unique in the database",
        "keyed_at": "the phone's own clock, read by the results checks on the evening of play; an imported hand "
        "counts as keyed at the desk",
    },
    Match: {
        "name": "given by the format on import, as it names the match when it makes it",
        "preset": "given by the format on import, from its settings (a final's rule set)",
    },
}
"""Each model's fields the file leaves out, and why."""

NOT_EXPORTED_MODELS: dict[type[models.Model], str] = {
    PrintJob: "a printed PDF is a cache, rendered again from the data",
    Club: "an event is imported into a club of the importing machine, chosen by the importer",
    ClubMember: "who runs a club belongs to the machine's users and its clubs, not to an event",
    Invitation: "a one-use link to join a club of this machine",
}
"""Models the file leaves out as a whole, and why."""


def _json(value: Any) -> Any:
    if isinstance(value, datetime.datetime) and timezone.is_aware(value):
        return timezone.localtime(value).isoformat()  # in the club's zone, with its offset
    if isinstance(value, datetime.date):  # a naive datetime too
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    return value


def _json_values(values: dict[str, Any]) -> dict[str, Any]:
    return {name: _json(value) for name, value in values.items()}


def _values(obj: models.Model, names: list[str] | None = None) -> dict[str, Any]:
    return {name: _json(getattr(obj, name)) for name in (FIELDS[type(obj)] if names is None else names)}


def _user(user: Any) -> str | None:
    return user.get_username() if user else None


def export_tournament(tournament: Tournament) -> dict[str, Any]:
    """Everything about ``tournament`` as JSON-ready data (see the module docstring); its times in
    ISO 8601 with the offset of its club's time zone (``2026-11-20T19:30:00-06:00``)."""
    with timezone.override(tournament.club.zone):
        return _export(tournament)


def _export(tournament: Tournament) -> dict[str, Any]:
    # The roster joined, not prefetched: Django prefetches a foreign key with one OR per row on
    # SQLite, and 4,000 players' ORs are deeper than SQLite parses.
    players = Prefetch("players", queryset=Player.objects.select_related("roster"))
    teams = list(tournament.teams.prefetch_related(players, "payments__recorded_by"))
    ref = {p.pk: [team.number, i] for team in teams for i, p in enumerate(team.players.all())}
    number = {team.pk: team.number for team in teams}
    matches = tournament.matches.select_related("table").order_by("position", "key")
    clocks = {pk: i for i, pk in enumerate(tournament.clocks.order_by("pk").values_list("pk", flat=True), start=1)}
    return {
        "format": FORMAT,
        # The format's own settings sit beside the tournament's fields (as exports always had them).
        "tournament": {**_values(tournament), **_json_values(format_of(tournament).export(tournament))},
        "teams": [_team(team) for team in teams],
        "tables": [_values(table) for table in tournament.tables.all()],
        "clocks": [_values(clock) for clock in tournament.clocks.order_by("pk")],
        "matches": [_match(match, number, clocks) for match in matches],
        "rounds": [_round(r, ref, clocks) for r in tournament.rounds.prefetch_related("seating_changes__changed_by")],
        "prizes": [_prize(p, ref) for p in tournament.prizes.prefetch_related("payouts__team", "payouts__recorded_by")],
    }


def _team(team: Team) -> dict[str, Any]:
    return {
        **_values(team),
        "players": [{**_values(p), "roster": p.roster.name if p.roster else None} for p in team.players.all()],
        "payments": [{**_values(p), "recorded_by": _user(p.recorded_by)} for p in team.payments.all()],
    }


def _match(match: Match, number: dict[int, int], clocks: dict[int, int]) -> dict[str, Any]:
    return {
        **_values(match),
        **{side: number.get(getattr(match, f"{side}_id")) for side in ("home", "away", "winner")},
        "table": match.table.number if match.table else None,
        "clock": clocks.get(match.clock_id),
    }


def _round(round_: Round, ref: dict[int, list[int]], clocks: dict[int, int]) -> dict[str, Any]:
    games = (
        round_.games.select_related("table", "match")
        .prefetch_related("hands__revisions__changed_by", "hands__disputes__raised_by", "hands__disputes__resolved_by")
        .order_by("table__number", "match__position", "match_game", "pk")
    )
    return {
        **_values(round_),
        "seatings": [
            {"table": table, "seat": seat, "player": ref[player]}
            for table, seat, player in round_.seatings.values_list("table__number", "seat", "player_id")
        ],
        "sit_outs": [ref[p] for p in round_.sit_outs.values_list("player_id", flat=True)],
        "changes": [{**_values(c), "changed_by": _user(c.changed_by)} for c in round_.seating_changes.all()],
        "games": [_game(game, clocks) for game in games],
    }


def _game(game: Game, clocks: dict[int, int]) -> dict[str, Any]:
    return {
        "table": game.table.number,
        **_values(game),
        "match": game.match.key if game.match else None,
        "clock": clocks.get(game.clock_id),
        "hands": [
            {
                **_values(hand),
                "revisions": [{**_values(r), "changed_by": _user(r.changed_by)} for r in hand.revisions.all()],
                "disputes": [
                    {**_values(d), "raised_by": _user(d.raised_by), "resolved_by": _user(d.resolved_by)}
                    for d in hand.disputes.all()
                ],
            }
            for hand in game.hands.all()
        ],
    }


def _prize(prize: Prize, ref: dict[int, list[int]]) -> dict[str, Any]:
    return {
        **_values(prize),
        "payouts": [
            {
                **_values(p),
                "player": ref[p.player_id] if p.player_id else None,
                "team": p.team.number if p.team_id else None,
                "recorded_by": _user(p.recorded_by),
            }
            for p in prize.payouts.all()
        ],
    }
