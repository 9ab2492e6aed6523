"""Importing a tournament export (see :mod:`tournament.transfer`): as a new tournament, or in
place of the one it came from (same id, same table links).

Every row is checked as the models check it (types, choices, lengths, money in cents within
range, numbers within their columns), every reference must point inside the file, and the whole
event must hold together (hands replay under its rule set, seats filled once, refunds within
what was paid, payouts within their prizes and the pool). The first problem is reported naming
its row and field, and nothing is written. Checking happens before the write transaction opens,
so a large file never holds the database's write lock while it is read.
"""

from __future__ import annotations

import datetime
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any, NoReturn

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DatabaseError, models, transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from scoring import InvalidHand
from tournament.models import (
    HAND_FIELDS,
    Dispute,
    Game,
    Hand,
    HandRevision,
    Membership,
    Payment,
    Payout,
    Player,
    Prize,
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
)
from tournament.services import roster_entry
from tournament.transfer import FORMAT, TOURNAMENT_FIELDS

TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
MAX_DEPTH = 12
# Far above any club's evening; they bound how long checking a hostile file can take.
LIMITS = {"teams": 2000, "tables": 1000, "rounds": 50, "games": 1000, "hands": 200, "revisions": 200,
          "payments": 200, "changes": 1000, "prizes": 200, "payouts": 4000, "seatings": 4000}  # fmt: skip
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

    def items(self, key: str, limit: str) -> list[Any]:
        value = self._raw(key, False)
        if not isinstance(value, list):
            _fail(self.where, f"{key} must be a list", "type")
        if len(value) > LIMITS[limit]:
            _fail(self.where, f"more than {LIMITS[limit]} {limit}", "too_many")
        return value

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
    rounds: list[Round] = field(default_factory=list)
    seatings: list[Seating] = field(default_factory=list)
    sit_outs: list[SitOut] = field(default_factory=list)
    changes: list[SeatingChange] = field(default_factory=list)
    games: list[tuple[Game, list[Hand]]] = field(default_factory=list)
    revisions: list[HandRevision] = field(default_factory=list)
    disputes: list[Dispute] = field(default_factory=list)
    prizes: list[Prize] = field(default_factory=list)
    payouts: list[Payout] = field(default_factory=list)


def check(data: dict[str, Any], *, replace: Tournament | None = None) -> _Plan:
    """Every row and the event as a whole checked; the unsaved rows to write. Raises
    :class:`ValidationError` naming the first problem's row and field."""
    users = {u.get_username(): u for u in get_user_model().objects.all()}
    root = _Row(data, "The file")
    plan = _Plan(_tournament(_Row(root._raw("tournament", False), "Tournament")))
    players = _teams(plan, root.items("teams", "teams"), users)
    tables = _tables(plan, root.items("tables", "tables"), replace)
    rounds = root.items("rounds", "rounds")
    if len(rounds) > plan.tournament.rounds_planned:
        _fail("Rounds", f"{len(rounds)} rounds but the tournament plans {plan.tournament.rounds_planned}", "rounds")
    for index, entry in enumerate(rounds, start=1):
        _round(plan, _Row(entry, f"Round {index}"), index, tables, players, users)
    _event(plan)
    pool = _pool(plan.payments)
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
    tournament = Tournament(**values, date=day, entry_fee=row.money("entry_fee"))
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
                    checked_in=row.flag("checked_in"), registered_at=row.when("registered_at"))  # fmt: skip
        _clean(team, row.where)
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


def _round(plan: _Plan, row: _Row, index: int, tables: dict, players: dict, users: dict) -> None:
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
    if sorted(at, key=str) != sorted(seats, key=str):
        _fail(row.where, "each seated table has exactly one game, and each game a seated table", "games")
    for entry, table_number in zip(games, at, strict=True):
        _game(plan, _Row(entry, f"Round {number}, table {table_number}"), round_, tables, users)


def _place(row: _Row, placed: set, key: tuple[int, int]) -> None:
    if key in placed:
        _fail(row.where, f"player {list(key)} is placed twice in this round", "duplicate")
    placed.add(key)


def _game(plan: _Plan, row: _Row, round_: Round, tables: dict, users: dict) -> None:
    table = tables[row.number("table", low=1, high=32767)]
    game = Game(round=round_, table=table, status=row.text("status"), first_dealer=row.text("first_dealer"),
                winner=row.text("winner"), decided_by=row.text("decided_by"))  # fmt: skip
    _clean(game, row.where)
    hands = [
        _hand(plan, _Row(entry, f"{row.where}, hand {i}"), game, i, users)
        for i, entry in enumerate(row.items("hands", "hands"), start=1)
    ]
    try:
        scored = game.replay(hands).game
    except InvalidHand as error:
        _fail(row.where, f"{error.message} under this tournament's rules", "hand")
    decided = (
        scored.tied
        and not scored.over
        and game.winner in {side.value for side in Side}
        and game.status == Game.Status.FINISHED
    )
    if game.decided_by and not decided:
        _fail(row.where, "a tie decided by the director needs a tied game, finished, with its winner", "decided")
    if round_.status == Round.Status.PLANNED and hands:
        _fail(row.where, "a round not yet started has no hands", "hands")
    if round_.status == Round.Status.CLOSED:
        if not (scored.over or game.decided_by):
            _fail(row.where, "the round is closed but this game has no winner", "undecided")
        if any(h.disputed for h in hands):
            _fail(row.where, "the round is closed but a hand is still disputed", "disputed")
    plan.games.append((game, hands))


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
    Nothing is written unless all of it is valid (:class:`ValidationError` names the problem)."""
    plan = check(data, replace=replace)
    try:
        with transaction.atomic():
            return _write(plan, by=by, replace=replace)
    except DatabaseError as error:  # a constraint the checks above missed: still nothing written
        raise ValidationError(f"The export does not fit the database ({error}).", code="database") from None


def _write(plan: _Plan, *, by: Any, replace: Tournament | None) -> Tournament:
    tournament = plan.tournament
    members: list[tuple[int, str]] = []
    if replace is not None:
        old = Tournament.objects.select_for_update().get(pk=replace.pk)
        members = list(old.memberships.values_list("user_id", "role"))
        # Money rows are protected from a cascade (RESTRICT): they go first, on purpose.
        Payout.objects.filter(prize__tournament=old).delete()
        Payment.objects.filter(team__tournament=old).delete()
        old.delete()
        tournament.pk = replace.pk
    tournament.save(force_insert=True)
    if by is not None and not any(user == by.pk for user, _ in members):
        members.append((by.pk, Membership.Role.DIRECTOR))
    Membership.objects.bulk_create(Membership(tournament=tournament, user_id=u, role=r) for u, r in members)
    for player, name in zip(plan.players, plan.roster_names, strict=True):
        player.roster = roster_entry(name)  # the same person as in the club's other events
    for model, rows in ((Team, plan.teams), (Player, plan.players), (Payment, plan.payments),
                        (Table, plan.tables), (Round, plan.rounds), (Seating, plan.seatings),
                        (SitOut, plan.sit_outs), (SeatingChange, plan.changes)):  # fmt: skip
        model.objects.bulk_create(rows)
    Game.objects.bulk_create(game for game, _ in plan.games)
    Hand.objects.bulk_create(hand for _, hands in plan.games for hand in hands)
    HandRevision.objects.bulk_create(plan.revisions)
    Dispute.objects.bulk_create(plan.disputes)
    Prize.objects.bulk_create(plan.prizes)
    Payout.objects.bulk_create(plan.payouts)
    for game, hands in plan.games:
        game.rescore(hands)
    return tournament
