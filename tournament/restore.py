"""Importing a tournament export (see :mod:`tournament.transfer`): as a new tournament, or in
place of the one it came from (same id, same table links).

Every row is checked as the models check it (types, choices, lengths, money in cents within
range, numbers within their columns), every reference must point inside the file, and the whole
event must hold together (hands replay under its rule set, seats filled once, refunds within
what was paid, payouts within their prizes and the pool). The first problem is reported naming
its row and field, and nothing is written. Checking happens before the write transaction opens,
so a large file never holds the database's write lock while it is read or scored.
"""

from __future__ import annotations

import datetime
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from types import SimpleNamespace
from typing import Any, NoReturn

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DatabaseError, models, transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from scoring import InvalidHand
from tournament import bracket as pure_bracket
from tournament import bulk_rows
from tournament.clocks import MAX_EXTRA_MINUTES
from tournament.matches import winner_from_games
from tournament.models import (
    HAND_FIELDS,
    Clock,
    Dispute,
    Game,
    Hand,
    HandRevision,
    Match,
    Membership,
    Payment,
    Payout,
    Player,
    PrintJob,
    Prize,
    RosterPlayer,
    Round,
    Seat,
    Seating,
    SeatingChange,
    Side,
    SitOut,
    Table,
    Team,
    Tournament,
    new_token,
    roster_key,
)
from tournament.transfer import (
    CLOCK_FIELDS,
    FORMAT,
    GAME_MATCH_FIELDS,
    MATCH_FIELDS,
    TEAM_FORMAT_FIELDS,
    TOURNAMENT_FIELDS,
    TOURNAMENT_FORMAT_FIELDS,
)

TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
MAX_DEPTH = 12
# Far above any club's evening; they bound how long checking a hostile file can take.
LIMITS = {"teams": 2000, "tables": 1000, "rounds": 50, "games": 1000, "hands": 200, "revisions": 200,
          "payments": 200, "changes": 1000, "prizes": 200, "payouts": 4000, "seatings": 4000, "clocks": 60000,
          "matches": 5000}  # fmt: skip
CENT = Decimal("0.01")


def max_upload_bytes() -> int:
    return settings.SPADES_IMPORT_MAX_MB * 1024 * 1024


def _fail(where: str, message: str, code: str = "invalid") -> NoReturn:
    raise ValidationError(f"{where}: {message}", code=code)


def parse(raw: bytes | str) -> dict[str, Any]:
    """Decode an export; :class:`ValidationError` if it is not one (or hides a NUL character
    or nests deeper than any export does)."""
    if len(raw) > max_upload_bytes():
        size = len(raw) / 1024 / 1024
        raise ValidationError(
            f"The file is {size:.1f} MB; an export is at most {settings.SPADES_IMPORT_MAX_MB} MB.", code="too_large"
        )
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise ValidationError("That file is not a tournament export (it is not JSON).", code="not_json") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValidationError(f"That file is not a tournament export of format {FORMAT}.", code="format")
    _check_text(data)
    return data


def _check_text(data: Any) -> None:
    """No NUL character anywhere (no database column can hold one) and no deep nesting."""
    stack: list[tuple[Any, str, int]] = [(data, "the file", 0)]
    while stack:
        value, where, depth = stack.pop()
        if depth > MAX_DEPTH:
            _fail(where, "nested deeper than any export is", "too_deep")
        if isinstance(value, str) and "\x00" in value:
            _fail(where, "contains a NUL character, which no text may hold", "nul")
        if isinstance(value, dict):
            for key, item in value.items():
                if "\x00" in key:
                    _fail(where, "a key contains a NUL character", "nul")
                stack.append((item, f"{where} → {key}", depth + 1))
        elif isinstance(value, list):
            stack.extend((item, f"{where} → item {i + 1}", depth + 1) for i, item in enumerate(value))


# --- reading rows -----------------------------------------------------------------------------


class _Row:
    """One object of the file, read field by field; every error names the row and the field."""

    def __init__(self, value: Any, where: str) -> None:
        if not isinstance(value, dict):
            _fail(where, "must be an object ({…})", "type")
        self.data, self.where = value, where

    def _raw(self, key: str, optional: bool) -> Any:
        if key not in self.data:
            if optional:
                return None
            _fail(self.where, f'"{key}" is missing', "missing")
        return self.data[key]

    def text(self, key: str, *, optional: bool = False) -> str:
        value = self._raw(key, optional)
        if value is None and optional:
            return ""
        if not isinstance(value, str):
            _fail(self.where, f"{key} must be text", "type")
        return value

    def number(self, key: str, *, optional: bool = False, low: int = 0, high: int = 2_147_483_647) -> int | None:
        value = self._raw(key, optional)
        if value is None and optional:
            return None
        if not isinstance(value, int) or isinstance(value, bool):
            _fail(self.where, f"{key} must be a whole number", "type")
        if not low <= value <= high:
            _fail(self.where, f"{key} must be from {low} to {high}, not {value}", "range")
        return value

    def flag(self, key: str) -> bool:
        value = self._raw(key, False)
        if not isinstance(value, bool):
            _fail(self.where, f"{key} must be true or false", "type")
        return value

    def money(self, key: str, *, optional: bool = False) -> Decimal | None:
        value = self._raw(key, optional)
        if value is None and optional:
            return None
        try:
            if isinstance(value, bool) or not isinstance(value, str | int):
                raise InvalidOperation
            amount = Decimal(value)
        except InvalidOperation:
            _fail(self.where, f'{key} must be an amount such as "20.00"', "type")
        if not amount.is_finite() or abs(amount) >= Decimal("100000000"):
            _fail(self.where, f"{key} must be an amount under $100,000,000, not {str(value)[:40]}", "range")
        if amount != amount.quantize(CENT):
            _fail(self.where, f"{key} must be in dollars and cents, not {value}", "cents")
        return amount.quantize(CENT)

    def when(self, key: str, *, optional: bool = False) -> datetime.datetime | None:
        value = self._raw(key, optional)
        if value is None and optional:
            return None
        try:
            moment = parse_datetime(value) if isinstance(value, str) else None
        except ValueError:
            moment = None
        if moment is None:
            _fail(self.where, f"{key} must be a date and time such as 2026-11-20T19:30:00+00:00", "type")
        return timezone.make_aware(moment) if timezone.is_naive(moment) else moment

    def items(self, key: str, limit: str, *, optional: bool = False) -> list[Any]:
        """The list ``key``; with ``optional``, a missing one is empty (older exports lack it)."""
        value = self._raw(key, optional)
        if value is None and optional:
            return []
        if not isinstance(value, list):
            _fail(self.where, f"{key} must be a list", "type")
        if len(value) > LIMITS[limit]:
            _fail(self.where, f"more than {LIMITS[limit]} {limit}", "too_many")
        return value

    def column(self, model: type[models.Model], name: str, *, default: bool = False) -> Any:
        """The value for column ``name`` of ``model``, read as its type (null where the column
        allows it); with ``default``, a missing key is the column's default (an older export)."""
        column = model._meta.get_field(name)
        if default and name not in self.data:
            return column.get_default()
        if isinstance(column, models.BooleanField):
            return self.flag(name)
        if isinstance(column, models.IntegerField):
            small = isinstance(column, models.PositiveSmallIntegerField | models.SmallIntegerField)
            return self.number(name, optional=column.null, high=32767 if small else 2_147_483_647)
        if isinstance(column, models.DateTimeField):
            return self.when(name, optional=column.null)
        return self.text(name)

    def ref(self, key: str, known: dict[Any, Any], what: str) -> Any:
        """The record that ``key`` refers to among the file's ``known`` ones (by number or key), or
        None when it refers to none (or, in an older export, is missing)."""
        value = self._raw(key, True)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | str) or value not in known:
            _fail(self.where, f"{key} is not one of the file's {what}", "reference")
        return known[value]

    def user(self, key: str, users: dict[str, Any]) -> Any:
        value = self._raw(key, True)
        if value is not None and not isinstance(value, str):
            _fail(self.where, f"{key} must be a user name", "type")
        return users.get(value) if value else None


def _clean(obj: models.Model, where: str) -> None:
    """The model's own field checks (choices, lengths, digits, validators), its links aside."""
    links = [f.name for f in obj._meta.concrete_fields if f.is_relation]
    try:
        obj.full_clean(exclude=links, validate_unique=False, validate_constraints=False)
    except ValidationError as error:
        name, messages = next(iter(error.message_dict.items()))
        field_name = "" if name == "__all__" else f"{name}: "
        _fail(where, f"{field_name}{' '.join(messages)}", "invalid")


# --- the plan: unsaved rows, checked -----------------------------------------------------------


@dataclass
class _Plan:
    tournament: Tournament
    teams: list[Team] = field(default_factory=list)
    players: list[Player] = field(default_factory=list)
    roster_names: list[str] = field(default_factory=list)  # each player's name on the club roster
    payments: list[Payment] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    clocks: list[Clock] = field(default_factory=list)
    matches: list[Match] = field(default_factory=list)
    rounds: list[Round] = field(default_factory=list)
    seatings: list[Seating] = field(default_factory=list)
    sit_outs: list[SitOut] = field(default_factory=list)
    changes: list[SeatingChange] = field(default_factory=list)
    games: list[tuple[Game, list[Hand]]] = field(default_factory=list)
    revisions: list[HandRevision] = field(default_factory=list)
    disputes: list[Dispute] = field(default_factory=list)
    prizes: list[Prize] = field(default_factory=list)
    payouts: list[Payout] = field(default_factory=list)

    @property
    def by_rounds(self) -> bool:
        """A progressive event: rounds of seated tables, a game at each, no matches."""
        return not (self.tournament.is_knockout or self.tournament.is_league)


def check(data: dict[str, Any], *, replace: Tournament | None = None) -> _Plan:
    """Every row and the event as a whole checked; the unsaved rows to write. Raises
    :class:`ValidationError` naming the first problem's row and field."""
    users = {u.get_username(): u for u in get_user_model().objects.all()}
    root = _Row(data, "The file")
    plan = _Plan(_tournament(_Row(root._raw("tournament", False), "Tournament")))
    players = _teams(plan, root.items("teams", "teams"), users)
    tables = _tables(plan, root.items("tables", "tables"), replace)
    clocks = _clocks(plan, root.items("clocks", "clocks", optional=True))
    matches = _matches(plan, root.items("matches", "matches", optional=True), tables, clocks)
    rounds = root.items("rounds", "rounds")
    if plan.by_rounds and len(rounds) > plan.tournament.rounds_planned:
        _fail("Rounds", f"{len(rounds)} rounds but the tournament plans {plan.tournament.rounds_planned}", "rounds")
    for index, entry in enumerate(rounds, start=1):
        _round(plan, _Row(entry, f"Round {index}"), index, tables, players, users, matches, clocks)
    _event(plan)
    _match_games(plan)
    _league(plan)
    _bracket(plan)
    pool = _pool(plan.payments)  # no team paid beyond its fees: every cent of it is fees paid
    for index, entry in enumerate(root.items("prizes", "prizes"), start=1):
        _prize(plan, _Row(entry, f"Prize {index}"), players, users, pool)
    _prize_rules(plan.prizes)
    return plan


def _tournament(row: _Row) -> Tournament:
    values = {name: row._raw(name, False) for name in TOURNAMENT_FIELDS}
    if not isinstance(values["rule_overrides"], dict):
        _fail(row.where, "rule_overrides must be an object of rule fields", "type")
    for name in ("rounds_planned", "seating_seed"):
        row.number(name)
    row.flag("require_confirmation")
    date = row.text("date")
    try:
        day = datetime.date.fromisoformat(date)
    except ValueError:
        _fail(row.where, f"date must be a date such as 2026-11-20, not {date[:40]}", "type")
    formats = {name: row.column(Tournament, name, default=True) for name in TOURNAMENT_FORMAT_FIELDS}
    tournament = Tournament(**values, **formats, date=day, entry_fee=row.money("entry_fee"))
    for name in TOURNAMENT_FIELDS:
        if isinstance(Tournament._meta.get_field(name), models.CharField) and not isinstance(values[name], str):
            _fail(row.where, f"{name} must be text", "type")
    _clean(tournament, row.where)
    if tournament.entry_fee < 0:
        _fail(row.where, "entry_fee cannot be negative", "range")
    return tournament


def _teams(plan: _Plan, entries: list[Any], users: dict) -> dict[tuple[int, int], Player]:
    players: dict[tuple[int, int], Player] = {}
    for index, entry in enumerate(entries, start=1):
        row = _Row(entry, f"Team {index}")
        number = row.number("number", low=1)
        row.where = f"Team {number}"
        if any(team.number == number for team in plan.teams):
            _fail(row.where, "two teams have this number", "duplicate")
        team = Team(tournament=plan.tournament, number=number, status=row.text("status"),
                    checked_in=row.flag("checked_in"), registered_at=row.when("registered_at"),
                    **{name: row.column(Team, name, default=True) for name in TEAM_FORMAT_FIELDS})  # fmt: skip
        _clean(team, row.where)
        if team.withdrawn_night is not None and team.status != Team.Status.WITHDRAWN:
            _fail(row.where, "withdrawn_night is for a team that withdrew (status withdrawn)", "withdrawn")
        plan.teams.append(team)
        people = row.items("players", "teams")
        if len(people) != 2:
            _fail(row.where, f"a team has two players, not {len(people)}", "team_size")
        for i, person in enumerate(people):
            p = _Row(person, f"Team {number}, player {i + 1}")
            player = Player(team=team, name=p.text("name"), division=p.text("division"),
                            substitute=p.text("substitute", optional=True),
                            substitute_from=p.number("substitute_from", optional=True, low=1, high=32767))  # fmt: skip
            _clean(player, p.where)
            if not player.name.strip():
                _fail(p.where, "name: a player needs a name", "required")
            if bool(player.substitute) != (player.substitute_from is not None):
                _fail(p.where, "a substitute needs the round they start from, and only then", "substitute")
            players[number, i] = player
            plan.players.append(player)
            plan.roster_names.append(p.text("roster", optional=True) or player.name)
        for i, entry_ in enumerate(row.items("payments", "payments"), start=1):
            _payment(plan, _Row(entry_, f"Team {number}, payment {i}"), team, users)
        paid = _pool([p for p in plan.payments if p.team is team])
        if paid < 0:
            _fail(row.where, f"its refunds exceed what it paid (net ${paid})", "refund_too_large")
    return players


def _payment(plan: _Plan, row: _Row, team: Team, users: dict) -> None:
    payment = Payment(team=team, kind=row.text("kind"), amount=row.money("amount"), method=row.text("method"),
                      note=row.text("note"), recorded_by=row.user("recorded_by", users),
                      recorded_at=row.when("recorded_at"))  # fmt: skip
    _clean(payment, row.where)
    plan.payments.append(payment)


def _tables(plan: _Plan, entries: list[Any], replace: Tournament | None) -> dict[int, Table]:
    tables: dict[int, Table] = {}
    for index, entry in enumerate(entries, start=1):
        if isinstance(entry, int) and not isinstance(entry, bool):
            entry = {"number": entry, "token": None}  # an older export: numbers only, new links
        row = _Row(entry, f"Table {index}")
        number = row.number("number", low=1, high=32767)
        row.where = f"Table {number}"
        token = row.text("token", optional=True)
        if token and not TOKEN.fullmatch(token):
            _fail(row.where, "token is not a table link's token (16 to 64 letters, digits, - or _)", "token")
        if number in tables:
            _fail(row.where, "two tables have this number", "duplicate")
        tables[number] = Table(tournament=plan.tournament, number=number, token=token or new_token())
    taken = Table.objects.filter(token__in=[t.token for t in tables.values()])
    if replace is not None:
        taken = taken.exclude(tournament=replace)
    used = set(taken.values_list("token", flat=True))
    if len({t.token for t in tables.values()}) != len(tables):
        _fail("Tables", "two tables share a link token", "duplicate")
    for table in tables.values():
        if table.token in used:
            table.token = new_token()  # that link belongs to another event here: this table gets a new one
    plan.tables.extend(tables.values())
    return tables


def _player(row: _Row, value: Any, players: dict, what: str) -> Player:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        or tuple(value) not in players
    ):
        _fail(row.where, f"{what} must name a player of the file as [team number, 0 or 1]", "reference")
    return players[tuple(value)]


def _clocks(plan: _Plan, entries: list[Any]) -> dict[int, Clock]:
    """The file's clocks, numbered 1, 2, 3… in its order (matches and games refer to them so)."""
    clocks: dict[int, Clock] = {}
    for index, entry in enumerate(entries, start=1):
        row = _Row(entry, f"Clock {index}")
        clock = Clock(tournament=plan.tournament, **{name: row.column(Clock, name) for name in CLOCK_FIELDS})
        _clean(clock, row.where)
        if clock.extra_minutes > MAX_EXTRA_MINUTES:
            _fail(row.where, f"extra_minutes must be at most {MAX_EXTRA_MINUTES}", "range")
        if clock.started_at is None and (clock.paused_at is not None or clock.paused_seconds):
            _fail(row.where, "a clock not started has not been paused", "clock")
        if clock.paused_at is not None and clock.paused_at < clock.started_at:  # type: ignore[operator]
            _fail(row.where, "paused_at is before started_at", "clock")
        clocks[index] = clock
    plan.clocks.extend(clocks.values())
    return clocks


def _matches(plan: _Plan, entries: list[Any], tables: dict, clocks: dict) -> dict[str, Match]:
    """The file's matches by key, each checked on its own (the bracket and the schedule as a
    whole are checked once the games are read)."""
    if entries and plan.by_rounds:
        _fail("Matches", "a progressive event has no matches (only knockouts and leagues do)", "format")
    teams = {team.number: team for team in plan.teams}
    matches: dict[str, Match] = {}
    clocked: set[int] = set()
    for index, entry in enumerate(entries, start=1):
        row = _Row(entry, f"Match {index}")
        row.where = f"Match {row.text('key')[:20]}"
        values = {name: row.column(Match, name) for name in MATCH_FIELDS}
        refs = {side: row.ref(side, teams, "teams") for side in ("home", "away", "winner")}
        match = Match(tournament=plan.tournament, **values, **refs, table=row.ref("table", tables, "tables"),
                      clock=row.ref("clock", clocks, "clocks"))  # fmt: skip
        _clean(match, row.where)
        if match.key in matches:
            _fail(row.where, "two matches have this key", "duplicate")
        if match.clock is not None:
            if id(match.clock) in clocked:
                _fail(row.where, "clock: another match runs on the same clock", "clock")
            clocked.add(id(match.clock))
        _match(plan, row, match)
        matches[match.key] = match
        plan.matches.append(match)
    playing = Counter(m.table.number for m in plan.matches if m.table is not None and m.status == Match.Status.PLAYING)
    for number, count in playing.items():
        if count > 1:
            _fail(f"Table {number}", f"{count} matches are playing at it at once", "table_busy")
    return matches


def _match(plan: _Plan, row: _Row, match: Match) -> None:
    """One match's own consistency: its teams, its winner, its state."""
    status, Status = match.status, Match.Status
    league = match.stage == Match.Stage.LEAGUE
    if league and not plan.tournament.is_league:
        _fail(row.where, "stage: league matches belong to a league", "stage")
    if match.home is not None and match.home is match.away:
        _fail(row.where, "a team cannot play itself", "teams")
    if match.winner is not None and match.winner not in (match.home, match.away):
        _fail(row.where, "winner must be one of the match's teams", "winner")
    if (match.winner is not None) != (status in (Status.FINISHED, Status.BYE)):
        _fail(row.where, "a finished match (or a bye) has a winner, and only then", "winner")
    if bool(match.outcome) != (status == Status.FINISHED):
        _fail(row.where, "a finished match has an outcome, and only then", "outcome")
    if match.outcome in (Match.Outcome.WALKOVER, Match.Outcome.DECISION) and not match.reason.strip():
        _fail(row.where, "a walkover or a decision gives its reason", "reason")
    if status == Status.BYE and (match.away is not None or match.winner is not match.home):
        _fail(row.where, "a bye has one team, who goes through", "bye")
    if status in (Status.READY, Status.PLAYING, Status.FINISHED) and None in (match.home, match.away):
        _fail(row.where, f"a match {match.get_status_display().lower()} has its two teams", "teams")
    if status == Status.PLAYING and match.table is None:
        _fail(row.where, "a match being played is at a table", "table")
    if league and match.leg not in range(1, plan.tournament.legs + 1):
        _fail(row.where, f"leg must be from 1 to {plan.tournament.legs} (the league's legs)", "leg")
    if not league and (match.leg is not None or match.postponed_from is not None or match.make_up or match.void):
        _fail(row.where, "leg, postponed_from, make_up and void are for league matches", "league")


def _round(plan: _Plan, row: _Row, index: int, tables: dict, players: dict, users: dict, matches: dict,
           clocks: dict) -> None:  # fmt: skip
    number = row.number("number", low=1, high=32767)
    if number != index:
        _fail(row.where, f"rounds are numbered 1, 2, 3… in order; this one is {number}", "order")
    round_ = Round(
        tournament=plan.tournament,
        number=number,
        status=row.text("status"),
        started_at=row.when("started_at", optional=True),
        closed_at=row.when("closed_at", optional=True),
    )
    _clean(round_, row.where)
    plan.rounds.append(round_)
    seats: dict[int, set[str]] = {}
    placed: set[tuple[int, int]] = set()
    for i, entry in enumerate(row.items("seatings", "seatings"), start=1):
        s = _Row(entry, f"Round {number}, seating {i}")
        table = tables.get(s.number("table", low=1, high=32767))
        if table is None:
            _fail(s.where, "table is not one of the file's tables", "reference")
        key = s._raw("player", False)
        player = _player(s, key, players, "player")
        seat = Seating(round=round_, table=table, seat=s.text("seat"), player=player)
        _clean(seat, s.where)
        if seat.seat in seats.setdefault(table.number, set()):
            _fail(s.where, f"table {table.number} seat {seat.seat} is taken twice", "duplicate")
        seats[table.number].add(seat.seat)
        _place(s, placed, tuple(key))
        plan.seatings.append(seat)
    for table_number, taken in seats.items():
        if taken != {seat.value for seat in Seat}:
            _fail(f"Round {number}, table {table_number}", "needs exactly one player in each of N, E, S, W", "seats")
    for i, value in enumerate(row.items("sit_outs", "seatings"), start=1):
        s = _Row({}, f"Round {number}, sit-out {i}")
        player = _player(s, value, players, "sit-out")
        _place(s, placed, tuple(value))
        plan.sit_outs.append(SitOut(round=round_, player=player))
    for i, entry in enumerate(row.items("changes", "changes"), start=1):
        c = _Row(entry, f"Round {number}, change {i}")
        change = SeatingChange(round=round_, description=c.text("description"),
                               changed_by=c.user("changed_by", users), changed_at=c.when("changed_at"))  # fmt: skip
        _clean(change, c.where)
        plan.changes.append(change)
    games = row.items("games", "games")
    at = [g.get("table") if isinstance(g, dict) else None for g in games]
    if plan.by_rounds and sorted(at, key=str) != sorted(seats, key=str):
        _fail(row.where, "each seated table has exactly one game, and each game a seated table", "games")
    for entry, table_number in zip(games, at, strict=True):
        game = _Row(entry, f"Round {number}, table {table_number}")
        if seats and game.number("table", low=1, high=32767) not in seats:
            _fail(game.where, "the game is at a table nobody is seated at this round", "games")
        _game(plan, game, round_, tables, users, matches, clocks)


def _place(row: _Row, placed: set, key: tuple[int, int]) -> None:
    if key in placed:
        _fail(row.where, f"player {list(key)} is placed twice in this round", "duplicate")
    placed.add(key)


def _game(plan: _Plan, row: _Row, round_: Round, tables: dict, users: dict, matches: dict, clocks: dict) -> None:
    table = tables.get(row.number("table", low=1, high=32767))
    if table is None:
        _fail(row.where, "table is not one of the file's tables", "reference")
    match = row.ref("match", matches, "matches")
    if match is not None:
        row.where = f"{row.where}, match {match.key} game {row.data.get('match_game')}"
    if (match is None) != plan.by_rounds:
        _fail(row.where, "a knockout's or a league's games belong to its matches, a progressive round's to none",
              "match")  # fmt: skip
    game = Game(round=round_, table=table, status=row.text("status"), first_dealer=row.text("first_dealer"),
                winner=row.text("winner"), decided_by=row.text("decided_by"), match=match,
                clock=row.ref("clock", clocks, "clocks"),
                **{name: row.column(Game, name, default=True) for name in GAME_MATCH_FIELDS})  # fmt: skip
    _clean(game, row.where)
    if (match is None) != (game.match_game is None):
        _fail(row.where, "match_game numbers a match's games, and only those", "match_game")
    if game.time_up_hand is not None and game.clock is None:
        _fail(row.where, "time_up_hand: time is called on a game with a clock", "time_up_hand")
    hands = [
        _hand(plan, _Row(entry, f"{row.where}, hand {i}"), game, i, users)
        for i, entry in enumerate(row.items("hands", "hands"), start=1)
    ]
    try:
        replayed = game.replay(hands)
    except InvalidHand as error:
        _fail(row.where, f"{error.message} under this tournament's rules", "hand")
    scored = replayed.game
    if game.decided_by:
        # A tie the director settled, or a game ended by a walkover or a decision of its match.
        by_match = match is not None and match.outcome in (Match.Outcome.WALKOVER, Match.Outcome.DECISION)
        finished = game.winner in {side.value for side in Side} and game.status == Game.Status.FINISHED
        if not (finished and not scored.over and (scored.tied or by_match)):
            _fail(row.where, "a game the director decided is finished with its winner, and was tied (or its match "
                  "decided) rather than won at the table", "decided")  # fmt: skip
    game.apply(replayed, hands)  # the totals, status and winner as the hands have them
    if round_.status == Round.Status.PLANNED and hands:
        _fail(row.where, "a round not yet started has no hands", "hands")
    if round_.status == Round.Status.CLOSED:
        if game.status != Game.Status.FINISHED:
            _fail(row.where, "the round is closed but this game has no winner", "undecided")
        if any(h.disputed for h in hands):
            _fail(row.where, "the round is closed but a hand is still disputed", "disputed")
    plan.games.append((game, hands))


def _match_games(plan: _Plan) -> None:
    """Each match's games: numbered in order, at its table, on its clock, in one round (a league
    match's on its night), and the match's result what its games make it."""
    games: dict[str, list[Game]] = {}
    for game, _ in plan.games:
        if game.match is not None:
            games.setdefault(game.match.key, []).append(game)
    last_round = plan.rounds[-1] if plan.rounds else None
    for key, own in games.items():
        match, where = own[0].match, f"Match {key}"
        if match.status not in (Match.Status.PLAYING, Match.Status.FINISHED):
            _fail(where, f"a match {match.get_status_display().lower()} has no games", "games")
        if [g.match_game for g in own] != list(range(1, len(own) + 1)):
            _fail(where, "its games are numbered 1, 2, 3… in order", "order")
        if any(g.table is not match.table for g in own):
            _fail(where, "its games are played at its table", "table")
        if any(g.clock is not match.clock for g in own):
            _fail(where, "its games run on its clock", "clock")
        night = match.round if match.stage == Match.Stage.LEAGUE else last_round.number  # type: ignore[union-attr]
        if any(g.round.number != night for g in own):
            _fail(where, f"its games are played in round {night}", "round")
        _match_result(where, match, own)
    for match in plan.matches:
        if match.status == Match.Status.PLAYING and match.key not in games:
            _fail(f"Match {match.key}", "a match being played has its first game", "games")


def _match_result(where: str, match: Match, games: list[Game]) -> None:
    # The match rules of knockout and league (best of N, time) on the file's team numbers.
    numbers = SimpleNamespace(home_id=match.home.number, away_id=match.away.number, games_to_win=match.games_to_win)
    result = winner_from_games(numbers, games)  # type: ignore[arg-type]
    if match.outcome in (Match.Outcome.PLAYED, Match.Outcome.TIME):
        if result != (match.winner.number, match.outcome):  # type: ignore[union-attr]
            made = f"team {result[0]} the winner ({result[1]})" if result else "no winner yet"
            _fail(where, f"its games make {made}, not team {match.winner.number} ({match.outcome})", "result")  # type: ignore[union-attr]
    elif match.status == Match.Status.PLAYING and result is not None:
        _fail(where, f"its games have decided it (team {result[0]} won), but it is still playing", "result")


def _league(plan: _Plan) -> None:
    """The season's schedule: each pairing once a leg, a match played only on an opened night."""
    if not plan.tournament.is_league:
        return
    pairings: set[tuple[int | None, int, int]] = set()
    for match in plan.matches:
        if match.stage != Match.Stage.LEAGUE:
            continue
        where = f"Match {match.key}"
        if match.home is None or match.away is None:
            _fail(where, "a league match has its two teams", "teams")
        pairing = (match.leg, match.home.number, match.away.number)
        if pairing in pairings:
            _fail(where, f"team {pairing[1]} is at home to team {pairing[2]} twice in leg {match.leg}", "duplicate")
        pairings.add(pairing)
        if match.round < 1:
            _fail(where, "round (the night) must be from 1", "range")
        if match.status not in (Match.Status.READY, Match.Status.PLAYING, Match.Status.FINISHED):
            _fail(where, "a league match is ready, playing or finished", "status")
        if match.status == Match.Status.PLAYING and match.round > len(plan.rounds):
            _fail(where, f"it is playing but night {match.round} has not been opened", "night")
    if any(m.stage != Match.Stage.LEAGUE for m in plan.matches) and not plan.tournament.championship_teams:
        _fail("Matches", "championship matches, but this league has no championship", "championship")


def _bracket(plan: _Plan) -> None:
    """A knockout's matches (or a league's championship) are the bracket of its seeded teams, and
    each match holds the teams the seeds and the results before it put there."""
    matches = [m for m in plan.matches if m.stage != Match.Stage.LEAGUE]
    if plan.tournament.is_knockout and bool(matches) != bool(plan.rounds):
        _fail("Rounds", "a knockout has one round, holding its matches' games, once its bracket is drawn", "rounds")
    if plan.tournament.is_knockout and len(plan.rounds) > 1:
        _fail("Rounds", "a knockout has one round, holding its matches' games", "rounds")
    if not matches:
        return
    seeded = sorted((team for team in plan.teams if team.seed is not None), key=lambda team: team.seed)
    if len(seeded) < 2 or [team.seed for team in seeded] != list(range(1, len(seeded) + 1)):
        _fail("Teams", "seed: the bracket's teams are seeded 1, 2, 3… each seed once", "seeds")
    shape = plan.tournament.bracket_for(len(seeded))
    keys = {slot.key for slot in shape.slots}
    missing, extra = sorted(keys - {m.key for m in matches}), sorted({m.key for m in matches} - keys)
    if missing or extra:
        words = f"missing: {', '.join(missing) or 'none'}; not in it: {', '.join(extra) or 'none'}"
        _fail("Matches", f"they are not the bracket of {len(seeded)} seeded teams ({words})", "bracket")
    results = {m.key: m.winner.number for m in matches if m.status == Match.Status.FINISHED}
    try:
        state = pure_bracket.resolve(shape, [team.number for team in seeded], results)
    except ValueError as error:
        _fail("Matches", f"the results do not fit the bracket: {error}", "bracket")
    allowed = {
        pure_bracket.Status.WAITING: {Match.Status.WAITING},
        pure_bracket.Status.READY: {Match.Status.READY, Match.Status.PLAYING},
        pure_bracket.Status.DECIDED: {Match.Status.FINISHED},
        pure_bracket.Status.BYE: {Match.Status.BYE},
        pure_bracket.Status.NOT_NEEDED: {Match.Status.NOT_NEEDED},
    }
    by_key = {m.key: m for m in matches}
    numbers = {slot.key: n for n, slot in enumerate(shape.matches, start=1)}  # as knockout.create_matches numbers
    for ms in state.matches:
        match, slot = by_key[ms.slot.key], ms.slot
        where, number = f"Match {match.key}", numbers.get(slot.key, 0)
        if (match.stage, match.round, match.number) != (slot.stage.value, slot.round, number):
            _fail(where, f"the bracket has it as {slot.stage} round {slot.round}, match {number}", "bracket")
        teams = tuple(team.number if team else None for team in (match.home, match.away))
        if ms.status != pure_bracket.Status.NOT_NEEDED and teams != ms.teams:
            _fail(where, f"the seeds and results put teams {_pair(ms.teams)} in it, not {_pair(teams)}", "bracket")
        if match.status not in allowed[ms.status]:
            _fail(where, f"status: {match.status}, but by the results it is {ms.status}", "bracket")


def _pair(teams: tuple[int | None, ...]) -> str:
    return " and ".join("none" if team is None else str(team) for team in teams)


def _hand(plan: _Plan, row: _Row, game: Game, index: int, users: dict) -> Hand:
    number = row.number("number", low=1, high=32767)
    if number != index:
        _fail(row.where, f"hands are numbered 1, 2, 3… in order; this one is {number}", "order")
    values: dict[str, Any] = {}
    for name in HAND_FIELDS:
        if name.endswith("_tricks"):
            values[name] = row.number(name, optional=True, high=13)
        elif name.endswith(("_reneges", "_talk")):
            values[name] = row.number(name, high=13)
        else:
            values[name] = row.text(name)
    extra = {"disputed": row.flag("disputed"), "dispute_note": row.text("dispute_note"),
             "dispute_resolution": row.text("dispute_resolution"), "confirmed_by": row.text("confirmed_by"),
             "version": row.number("version", low=1)}  # fmt: skip
    hand = Hand(game=game, number=number, entered_at=row.when("entered_at"), **values, **extra)
    _clean(hand, row.where)
    seats = [name for name in HAND_FIELDS if name.endswith(("_bid", "_tricks"))]
    if hand.misdeal:
        if hand.misdeal not in plan.tournament.rules.misdeal_reasons:
            _fail(row.where, f"misdeal: {hand.misdeal} is not a misdeal under these rules", "misdeal")
        if any(values[name] not in ("", None) for name in seats):
            _fail(row.where, "a misdeal has no bids or tricks", "misdeal")
    elif any(values[name] in ("", None) for name in seats):
        _fail(row.where, "a hand that was played has every bid and every player's tricks", "required")
    for i, entry in enumerate(row.items("revisions", "revisions"), start=1):
        _revision(plan, _Row(entry, f"{row.where}, revision {i}"), hand, users)
    disputes = row.items("disputes", "revisions") if "disputes" in row.data else []  # older exports have none
    for i, entry in enumerate(disputes, start=1):
        _dispute(plan, _Row(entry, f"{row.where}, dispute {i}"), hand, users)
    return hand


def _dispute(plan: _Plan, row: _Row, hand: Hand, users: dict) -> None:
    dispute = Dispute(hand=hand, note=row.text("note"), raised_from=row.text("raised_from"),
                      raised_by=row.user("raised_by", users), raised_at=row.when("raised_at"),
                      resolution=row.text("resolution"), resolved_by=row.user("resolved_by", users),
                      resolved_at=row.when("resolved_at", optional=True))  # fmt: skip
    _clean(dispute, row.where)
    if (dispute.resolved_at is None) != (dispute.resolution == ""):
        _fail(row.where, "a settled dispute has its resolution and when it was settled, an open one neither", "dispute")
    plan.disputes.append(dispute)


def _revision(plan: _Plan, row: _Row, hand: Hand, users: dict) -> None:
    before, after = row._raw("before", True), row._raw("after", False)
    for name, value in (("before", before), ("after", after)):
        if value is None and name == "before":
            continue
        if not isinstance(value, dict) or not all(
            isinstance(v, str | int | type(None)) and not isinstance(v, bool) for v in value.values()
        ):
            _fail(row.where, f"{name} must be an object of the hand's values", "type")
    revision = HandRevision(hand=hand, source=row.text("source"), changed_by=row.user("changed_by", users),
                            changed_at=row.when("changed_at"), before=before, after=after)  # fmt: skip
    _clean(revision, row.where)
    plan.revisions.append(revision)


def _event(plan: _Plan) -> None:
    """The rounds' states follow each other, and the tournament's state follows them."""
    statuses = [r.status for r in plan.rounds]
    open_rounds = [r.number for r in plan.rounds if r.status != Round.Status.CLOSED]
    if open_rounds and open_rounds != [len(statuses)]:
        _fail(
            f"Round {open_rounds[0]}", "only the last round can still be open; the ones before it are closed", "order"
        )
    if plan.tournament.status == Tournament.Status.FINISHED and open_rounds:
        _fail("Tournament", f"status: finished but round {open_rounds[0]} is not closed", "status")


def _pool(payments: list[Payment]) -> Decimal:
    """Money in, net of refunds."""
    return sum((-p.amount if p.kind == Payment.Kind.REFUND else p.amount for p in payments), Decimal("0"))


def _prize(plan: _Plan, row: _Row, players: dict, users: dict, pool: Decimal) -> None:
    prize = Prize(tournament=plan.tournament, kind=row.text("kind"), place=row.number("place", optional=True, low=1,
                  high=32767), division=row.text("division"), amount=row.money("amount", optional=True),
                  share_percent=row.money("share_percent", optional=True))  # fmt: skip
    _clean(prize, row.where)
    row.where = f"Prize {prize}" if prize.place or prize.division else row.where
    if (prize.amount is None) == (prize.share_percent is None):
        _fail(row.where, "a prize is a fixed amount or a share of the fees, not both or neither", "amount_or_share")
    if prize.amount is not None and prize.amount < 0:
        _fail(row.where, "amount cannot be negative", "negative")
    if prize.share_percent is not None and not Decimal("0") < prize.share_percent <= 100:
        _fail(row.where, "share_percent is more than 0 and at most 100", "share")
    if prize.kind == Prize.Kind.PLACE and (not prize.place or prize.division):
        _fail(row.where, "a place prize names its place (from 1) and no division", "place")
    if prize.kind == Prize.Kind.DIVISION and (prize.place or not prize.division.strip()):
        _fail(row.where, "a division prize names its division and no place", "division")
    plan.prizes.append(prize)
    value = prize.amount if prize.amount is not None else (pool * prize.share_percent / 100).quantize(CENT)
    total = Decimal("0")
    teams = {team.number: team for team in plan.teams}
    for i, entry in enumerate(row.items("payouts", "payouts"), start=1):
        o = _Row(entry, f"{row.where}, payout {i}")
        player_ref, team_ref = o._raw("player", True), o._raw("team", True)
        if (player_ref is None) == (team_ref is None):
            _fail(o.where, "a payout goes to a player or to a team", "recipient")
        player = None if player_ref is None else _player(o, player_ref, players, "player")
        team = None
        if team_ref is not None:
            team = teams.get(o.number("team", low=1))
            if team is None:
                _fail(o.where, "team is not one of the file's teams", "reference")
        payout = Payout(prize=prize, player=player, team=team, amount=o.money("amount"),
                        paid_at=o.when("paid_at", optional=True), received_by=o.text("received_by"),
                        method=o.column(Payout, "method", default=True),
                        recorded_by=o.user("recorded_by", users))  # fmt: skip
        _clean(payout, o.where)
        if payout.amount < 0:
            _fail(o.where, "amount cannot be negative", "negative")
        total += payout.amount
        if total > value + CENT:
            _fail(o.where, f"the payouts come to ${total}, more than the prize's ${value}", "over_prize")
        plan.payouts.append(payout)


def _prize_rules(prizes: list[Prize]) -> None:
    places = Counter(p.place for p in prizes if p.kind == Prize.Kind.PLACE)
    divisions = Counter(p.division.strip().casefold() for p in prizes if p.kind == Prize.Kind.DIVISION)
    for what, counts in (("place", places), ("division", divisions)):
        for value, count in counts.items():
            if count > 1:
                _fail("Prizes", f"two prizes for {what} {value}", "duplicate")
    shares = sum((p.share_percent for p in prizes if p.share_percent is not None), Decimal("0"))
    if shares > 100:
        _fail(
            "Prizes", f"the shares add up to {shares}% of the fees; at most 100% can be shared out", "shares_over_100"
        )


# --- writing ----------------------------------------------------------------------------------


def import_tournament(data: dict[str, Any], *, by: Any = None, replace: Tournament | None = None) -> Tournament:
    """Import an export: as a new tournament with ``by`` as its director, or, with ``replace``,
    in place of that tournament (same id, links and members; everything else as in the file).
    Nothing is written unless all of it is valid (:class:`ValidationError` names the problem).

    Everything is checked, scored, built, converted for the database and given its ids before
    the write transaction opens, so the transaction only deletes the old event (in place) and
    writes the rows (:mod:`tournament.bulk_rows`): SQLite's one write lock is held as briefly
    as it can be."""
    plan = check(data, replace=replace)
    if replace is not None:
        plan.tournament.pk = replace.pk
    elif Tournament.objects.filter(name=plan.tournament.name).exists():
        plan.tournament.name = restored_name(plan.tournament.name, timezone.localdate())
    tables = [bulk_rows.prepare(model, rows) for model, rows in _rows(plan)]
    bulk_rows.reserve(tables)
    try:
        with transaction.atomic():
            return _write(plan, tables, by=by, replace=replace)
    except DatabaseError as error:  # a constraint the checks above missed: still nothing written
        raise ValidationError(f"The export does not fit the database ({error}).", code="database") from None


def _rows(plan: _Plan) -> list[tuple[type[models.Model], list]]:
    """Every new row, by model, each model after those it links to."""
    return [
        (Tournament, [plan.tournament]), (RosterPlayer, _roster(plan)), (Team, plan.teams), (Player, plan.players),
        (Payment, plan.payments), (Table, plan.tables), (Clock, plan.clocks), (Match, plan.matches),
        (Round, plan.rounds), (Seating, plan.seatings), (SitOut, plan.sit_outs), (SeatingChange, plan.changes),
        (Game, [game for game, _ in plan.games]), (Hand, [hand for _, hands in plan.games for hand in hands]),
        (HandRevision, plan.revisions), (Dispute, plan.disputes), (Prize, plan.prizes), (Payout, plan.payouts),
    ]  # fmt: skip


def _roster(plan: _Plan) -> list[RosterPlayer]:
    """Link each player to the club roster's entry for their name (as :func:`services.roster_entry`
    picks it: the one who played most recently under that name), read before writing; the
    entries to add for names not on it yet."""
    keys = sorted({roster_key(name) for name in plan.roster_names})
    known: dict[str, RosterPlayer] = {}
    for start in range(0, len(keys), 500):
        found = RosterPlayer.objects.filter(key__in=keys[start : start + 500]).annotate(last=Max("entries__id"))
        for person in found.order_by(F("last").desc(nulls_last=True), "id"):
            known.setdefault(person.key, person)
    new: dict[str, RosterPlayer] = {}
    for player, name in zip(plan.players, plan.roster_names, strict=True):
        key = roster_key(name)
        if key not in known and key not in new:
            new[key] = RosterPlayer(name=" ".join(name.split()), key=key)
        player.roster = known.get(key) or new[key]
    return list(new.values())


def restored_name(name: str, day: datetime.date) -> str:
    """A copy's name beside its original on the home page: "Friday Night (restored 2026-11-22)",
    the original shortened if need be to fit the name's 120 characters."""
    suffix = f" (restored {day.isoformat()})"
    return name[: Tournament._meta.get_field("name").max_length - len(suffix)].rstrip() + suffix


def _write(plan: _Plan, tables: list[bulk_rows.Prepared], *, by: Any, replace: Tournament | None) -> Tournament:
    tournament = plan.tournament
    members: list[tuple[int, str]] = []
    if replace is not None:
        old = Tournament.objects.select_for_update().get(pk=replace.pk)
        members = list(old.memberships.values_list("user_id", "role"))
        _delete_event(old)
    bulk_rows.insert(tables)  # the games scored when checked
    if by is not None and not any(user == by.pk for user, _ in members):
        members.append((by.pk, Membership.Role.DIRECTOR))
    Membership.objects.bulk_create(Membership(tournament=tournament, user_id=u, role=r) for u, r in members)
    return tournament


# Every row of an event, by model, each model before those it links to, with the path from the
# model to the event. Money rows are deleted on purpose here, although the models protect them
# from a cascade (RESTRICT): the restore puts the file's in their place.
EVENT_ROWS: list[tuple[type[models.Model], str]] = [
    (Dispute, "hand__game__round__tournament"), (HandRevision, "hand__game__round__tournament"),
    (Hand, "game__round__tournament"), (Game, "round__tournament"), (Seating, "round__tournament"),
    (SitOut, "round__tournament"), (SeatingChange, "round__tournament"), (Payout, "prize__tournament"),
    (Payment, "team__tournament"), (Match, "tournament"), (Round, "tournament"), (Clock, "tournament"),
    (Prize, "tournament"), (Player, "team__tournament"), (Table, "tournament"), (Team, "tournament"),
    (PrintJob, "tournament"), (Membership, "tournament"), (Tournament, "pk"),
]  # fmt: skip


def _delete_event(tournament: Tournament) -> None:
    """Delete every row of ``tournament``, inside the caller's transaction: one DELETE a model.

    Django's ``delete()`` collects a cascade object by object (for a 1,000-table event it loads
    every hand and revision into memory, and its IN lists run to thousands of ids): seconds while
    the write lock is held. Here each model's rows go in one statement, children first. A row
    this list missed (a model added later) still refers to a deleted one, and the database's
    foreign-key check refuses the whole transaction: a restore fails rather than leave part of
    an event behind."""
    for model, path in EVENT_ROWS:
        model.objects.filter(**{path: tournament.pk})._raw_delete(model.objects.db)
