"""Importing a tournament export (see :mod:`.export`): every row and the event as a whole checked
before anything is written (:func:`check`), then written (:mod:`.write`).

Every row is checked as the models check it (types, choices, lengths, money in cents within
range, numbers within their columns; see :mod:`.rows`), every reference must point inside the
file, and the whole event must hold together (hands replay under its rule set, seats filled
once, refunds within what was paid, payouts within their prizes and the pool). What the event's
format requires of its matches and settings, the format checks
(:meth:`~tournament.formats.registry.EventFormat.check_import`). The first problem is reported naming its
row and field.
"""

from __future__ import annotations

import datetime
import re
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal
from types import SimpleNamespace
from typing import Any

from django.contrib.auth import get_user_model
from django.db import models

from scoring import InvalidHand, Seat, Side
from tournament.clocks.services import MAX_EXTRA_MINUTES
from tournament.clubs.locale import format_money
from tournament.formats.registry import EventFormat, choices, format_of
from tournament.matches.rules import winner_from_games
from tournament.models import (
    HAND_FIELDS,
    Clock,
    Dispute,
    Game,
    Hand,
    HandRevision,
    Match,
    Payment,
    Payout,
    Player,
    Prize,
    Round,
    Seating,
    SeatingChange,
    SitOut,
    Table,
    Team,
    Tournament,
    new_token,
)
from tournament.transfer.deals import number_deals
from tournament.transfer.export import (
    CLOCK_FIELDS,
    FORMAT_BEFORE_THIRD_PASS,
    FORMATS_MISDEAL_NUMBERED,
    GAME_MATCH_FIELDS,
    MATCH_FIELDS,
    TEAM_FORMAT_FIELDS,
    TOURNAMENT_FIELDS,
)
from tournament.transfer.match_rules import check_match_rules, keep_the_rules_played
from tournament.transfer.rows import CENT, Row, clean, fail

TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")


@dataclass
class Plan:
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
    format_settings: Any = None  # the format's settings, as its check_import read them
    misdeal_numbered: bool = False  # an older export's misdeal has a number of its own

    @property
    def format(self) -> EventFormat:
        return format_of(self.tournament)

    @property
    def by_rounds(self) -> bool:
        """Rounds of seated tables, a game at each, no matches (a progressive event)."""
        return not self.format.plays_matches


def check(data: dict[str, Any], *, replace: Tournament | None = None) -> Plan:
    """Every row and the event as a whole checked; the unsaved rows to write. Raises
    :class:`ValidationError` naming the first problem's row and field."""
    users = {u.get_username(): u for u in get_user_model().objects.all()}
    root = Row(data, "The file")
    tournament_row = Row(root.raw("tournament", False), "Tournament")
    plan = Plan(_tournament(tournament_row), misdeal_numbered=data.get("format") in FORMATS_MISDEAL_NUMBERED)
    players = _teams(plan, root.items("teams", "teams"), users)
    tables = _tables(plan, root.items("tables", "tables"), replace)
    clocks = _clocks(plan, root.items("clocks", "clocks", optional=True))
    matches = _matches(plan, root.items("matches", "matches", optional=True), tables, clocks)
    plan.format.read_import(plan, tournament_row.data)  # before the games are scored: a final's rules
    rounds = root.items("rounds", "rounds")
    if data.get("format") == FORMAT_BEFORE_THIRD_PASS:
        keep_the_rules_played(plan.tournament, plan.matches, rounds)
    for match in plan.matches:
        check_match_rules(match)
    if plan.by_rounds and len(rounds) > plan.tournament.rounds_planned:
        fail("Rounds", f"{len(rounds)} rounds but the tournament plans {plan.tournament.rounds_planned}", "rounds")
    for index, entry in enumerate(rounds, start=1):
        _round(plan, Row(entry, f"Round {index}"), index, tables, players, users, matches, clocks)
    _event(plan)
    _match_games(plan)
    plan.format.check_import(plan)
    pool = _pool(plan.payments)  # no team paid beyond its fees: every cent of it is fees paid
    for index, entry in enumerate(root.items("prizes", "prizes"), start=1):
        _prize(plan, Row(entry, f"Prize {index}"), players, users, pool)
    _prize_rules(plan.prizes)
    return plan


def _tournament(row: Row) -> Tournament:
    values = {name: row.raw(name, False) for name in TOURNAMENT_FIELDS}
    if not isinstance(values["rule_overrides"], dict):
        fail(row.where, "rule_overrides must be an object of rule fields", "type")
    for name in ("rounds_planned", "seating_seed"):
        row.number(name)
    row.flag("require_confirmation")
    date = row.text("date")
    try:
        day = datetime.date.fromisoformat(date)
    except ValueError:
        fail(row.where, f"date must be a date such as 2026-11-20, not {date[:40]}", "type")
    if not isinstance(values["format"], str) or values["format"] not in dict(choices()):
        fail(row.where, f"format: {str(values['format'])[:40]} is not one of this machine's formats", "format")
    tournament = Tournament(**values, date=day, entry_fee=row.money("entry_fee"))
    for name in TOURNAMENT_FIELDS:
        if isinstance(Tournament._meta.get_field(name), models.CharField) and not isinstance(values[name], str):
            fail(row.where, f"{name} must be text", "type")
    clean(tournament, row.where)
    if tournament.entry_fee < 0:
        fail(row.where, "entry_fee cannot be negative", "range")
    return tournament


def _teams(plan: Plan, entries: list[Any], users: dict) -> dict[tuple[int, int], Player]:
    players: dict[tuple[int, int], Player] = {}
    for index, entry in enumerate(entries, start=1):
        row = Row(entry, f"Team {index}")
        number = row.number("number", low=1)
        row.where = f"Team {number}"
        if any(team.number == number for team in plan.teams):
            fail(row.where, "two teams have this number", "duplicate")
        team = Team(tournament=plan.tournament, number=number, status=row.text("status"),
                    checked_in=row.flag("checked_in"), registered_at=row.when("registered_at"),
                    **{name: row.column(Team, name, default=True) for name in TEAM_FORMAT_FIELDS})  # fmt: skip
        clean(team, row.where)
        if team.withdrawn_night is not None and team.status != Team.Status.WITHDRAWN:
            fail(row.where, "withdrawn_night is for a team that withdrew (status withdrawn)", "withdrawn")
        plan.teams.append(team)
        people = row.items("players", "teams")
        if len(people) != 2:
            fail(row.where, f"a team has two players, not {len(people)}", "team_size")
        for i, person in enumerate(people):
            p = Row(person, f"Team {number}, player {i + 1}")
            player = Player(team=team, name=p.text("name"), division=p.text("division"),
                            substitute=p.text("substitute", optional=True),
                            substitute_from=p.number("substitute_from", optional=True, low=1, high=32767))  # fmt: skip
            clean(player, p.where)
            if not player.name.strip():
                fail(p.where, "name: a player needs a name", "required")
            if bool(player.substitute) != (player.substitute_from is not None):
                fail(p.where, "a substitute needs the round they start from, and only then", "substitute")
            players[number, i] = player
            plan.players.append(player)
            plan.roster_names.append(p.text("roster", optional=True) or player.name)
        for i, entry_ in enumerate(row.items("payments", "payments"), start=1):
            _payment(plan, Row(entry_, f"Team {number}, payment {i}"), team, users)
        paid = _pool([p for p in plan.payments if p.team is team])
        if paid < 0:
            fail(row.where, f"its refunds exceed what it paid (net {format_money(paid)})", "refund_too_large")
    return players


def _payment(plan: Plan, row: Row, team: Team, users: dict) -> None:
    payment = Payment(team=team, kind=row.text("kind"), amount=row.money("amount"), method=row.text("method"),
                      note=row.text("note"), recorded_by=row.user("recorded_by", users),
                      recorded_at=row.when("recorded_at"))  # fmt: skip
    clean(payment, row.where)
    plan.payments.append(payment)


def _tables(plan: Plan, entries: list[Any], replace: Tournament | None) -> dict[int, Table]:
    tables: dict[int, Table] = {}
    for index, entry in enumerate(entries, start=1):
        if isinstance(entry, int) and not isinstance(entry, bool):
            entry = {"number": entry, "token": None}  # an older export: numbers only, new links
        row = Row(entry, f"Table {index}")
        number = row.number("number", low=1, high=32767)
        row.where = f"Table {number}"
        token = row.text("token", optional=True)
        if token and not TOKEN.fullmatch(token):
            fail(row.where, "token is not a table link's token (16 to 64 letters, digits, - or _)", "token")
        if number in tables:
            fail(row.where, "two tables have this number", "duplicate")
        tables[number] = Table(tournament=plan.tournament, number=number, token=token or new_token())
    taken = Table.objects.filter(token__in=[t.token for t in tables.values()])
    if replace is not None:
        taken = taken.exclude(tournament=replace)
    used = set(taken.values_list("token", flat=True))
    if len({t.token for t in tables.values()}) != len(tables):
        fail("Tables", "two tables share a link token", "duplicate")
    for table in tables.values():
        if table.token in used:
            table.token = new_token()  # that link belongs to another event here: this table gets a new one
    plan.tables.extend(tables.values())
    return tables


def _player(row: Row, value: Any, players: dict, what: str) -> Player:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        or tuple(value) not in players
    ):
        fail(row.where, f"{what} must name a player of the file as [team number, 0 or 1]", "reference")
    return players[tuple(value)]


def _clocks(plan: Plan, entries: list[Any]) -> dict[int, Clock]:
    """The file's clocks, numbered 1, 2, 3… in its order (matches and games refer to them so)."""
    clocks: dict[int, Clock] = {}
    for index, entry in enumerate(entries, start=1):
        row = Row(entry, f"Clock {index}")
        clock = Clock(tournament=plan.tournament, **{name: row.column(Clock, name) for name in CLOCK_FIELDS})
        clean(clock, row.where)
        if clock.extra_minutes > MAX_EXTRA_MINUTES:
            fail(row.where, f"extra_minutes must be at most {MAX_EXTRA_MINUTES}", "range")
        if clock.started_at is None and (clock.paused_at is not None or clock.paused_seconds):
            fail(row.where, "a clock not started has not been paused", "clock")
        if clock.paused_at is not None and clock.paused_at < clock.started_at:  # type: ignore[operator]
            fail(row.where, "paused_at is before started_at", "clock")
        clocks[index] = clock
    plan.clocks.extend(clocks.values())
    return clocks


def _matches(plan: Plan, entries: list[Any], tables: dict, clocks: dict) -> dict[str, Match]:
    """The file's matches by key, each checked on its own (the bracket and the schedule as a
    whole are checked once the games are read)."""
    if entries and plan.by_rounds:
        fail("Matches", "a progressive event has no matches (only knockouts and leagues do)", "format")
    teams = {team.number: team for team in plan.teams}
    matches: dict[str, Match] = {}
    clocked: set[int] = set()
    for index, entry in enumerate(entries, start=1):
        row = Row(entry, f"Match {index}")
        row.where = f"Match {row.text('key')[:20]}"
        values = {name: row.column(Match, name) for name in MATCH_FIELDS if name != "rule_overrides"}
        values["rule_overrides"] = row.raw("rule_overrides", True) or {}  # older exports have none
        if not isinstance(values["rule_overrides"], dict):
            fail(row.where, "rule_overrides must be an object of rule fields", "type")
        refs = {side: row.ref(side, teams, "teams") for side in ("home", "away", "winner")}
        match = Match(tournament=plan.tournament, **values, **refs, table=row.ref("table", tables, "tables"),
                      clock=row.ref("clock", clocks, "clocks"))  # fmt: skip
        clean(match, row.where)
        if match.key in matches:
            fail(row.where, "two matches have this key", "duplicate")
        if match.clock is not None:
            if id(match.clock) in clocked:
                fail(row.where, "clock: another match runs on the same clock", "clock")
            clocked.add(id(match.clock))
        _match(plan, row, match)
        matches[match.key] = match
        plan.matches.append(match)
    playing = Counter(m.table.number for m in plan.matches if m.table is not None and m.status == Match.Status.PLAYING)
    for number, count in playing.items():
        if count > 1:
            fail(f"Table {number}", f"{count} matches are playing at it at once", "table_busy")
    return matches


def _match(plan: Plan, row: Row, match: Match) -> None:
    """One match's own consistency: its teams, its winner, its state."""
    status, Status = match.status, Match.Status
    if match.home is not None and match.home is match.away:
        fail(row.where, "a team cannot play itself", "teams")
    if match.winner is not None and match.winner not in (match.home, match.away):
        fail(row.where, "winner must be one of the match's teams", "winner")
    if (match.winner is not None) != (status in (Status.FINISHED, Status.BYE)):
        fail(row.where, "a finished match (or a bye) has a winner, and only then", "winner")
    if bool(match.outcome) != (status == Status.FINISHED):
        fail(row.where, "a finished match has an outcome, and only then", "outcome")
    if match.outcome in (Match.Outcome.WALKOVER, Match.Outcome.DECISION) and not match.reason.strip():
        fail(row.where, "a walkover or a decision gives its reason", "reason")
    if status == Status.BYE and (match.away is not None or match.winner is not match.home):
        fail(row.where, "a bye has one team, who goes through", "bye")
    if status in (Status.READY, Status.PLAYING, Status.FINISHED) and None in (match.home, match.away):
        fail(row.where, f"a match {match.get_status_display().lower()} has its two teams", "teams")
    if status == Status.PLAYING and match.table is None:
        fail(row.where, "a match being played is at a table", "table")


def _round(plan: Plan, row: Row, index: int, tables: dict, players: dict, users: dict, matches: dict,
           clocks: dict) -> None:  # fmt: skip
    number = row.number("number", low=1, high=32767)
    if number != index:
        fail(row.where, f"rounds are numbered 1, 2, 3… in order; this one is {number}", "order")
    round_ = Round(
        tournament=plan.tournament,
        number=number,
        status=row.text("status"),
        started_at=row.when("started_at", optional=True),
        closed_at=row.when("closed_at", optional=True),
    )
    clean(round_, row.where)
    plan.rounds.append(round_)
    seats: dict[int, set[str]] = {}
    placed: set[tuple[int, int]] = set()
    for i, entry in enumerate(row.items("seatings", "seatings"), start=1):
        s = Row(entry, f"Round {number}, seating {i}")
        table = tables.get(s.number("table", low=1, high=32767))
        if table is None:
            fail(s.where, "table is not one of the file's tables", "reference")
        key = s.raw("player", False)
        player = _player(s, key, players, "player")
        seat = Seating(round=round_, table=table, seat=s.text("seat"), player=player)
        clean(seat, s.where)
        if seat.seat in seats.setdefault(table.number, set()):
            fail(s.where, f"table {table.number} seat {seat.seat} is taken twice", "duplicate")
        seats[table.number].add(seat.seat)
        _place(s, placed, tuple(key))
        plan.seatings.append(seat)
    for table_number, taken in seats.items():
        if taken != {seat.value for seat in Seat}:
            fail(f"Round {number}, table {table_number}", "needs exactly one player in each of N, E, S, W", "seats")
    for i, value in enumerate(row.items("sit_outs", "seatings"), start=1):
        s = Row({}, f"Round {number}, sit-out {i}")
        player = _player(s, value, players, "sit-out")
        _place(s, placed, tuple(value))
        plan.sit_outs.append(SitOut(round=round_, player=player))
    for i, entry in enumerate(row.items("changes", "changes"), start=1):
        c = Row(entry, f"Round {number}, change {i}")
        change = SeatingChange(round=round_, description=c.text("description"),
                               changed_by=c.user("changed_by", users), changed_at=c.when("changed_at"))  # fmt: skip
        clean(change, c.where)
        plan.changes.append(change)
    games = row.items("games", "games")
    at = [g.get("table") if isinstance(g, dict) else None for g in games]
    if plan.by_rounds and sorted(at, key=str) != sorted(seats, key=str):
        fail(row.where, "each seated table has exactly one game, and each game a seated table", "games")
    for entry, table_number in zip(games, at, strict=True):
        game = Row(entry, f"Round {number}, table {table_number}")
        if seats and game.number("table", low=1, high=32767) not in seats:
            fail(game.where, "the game is at a table nobody is seated at this round", "games")
        _game(plan, game, round_, tables, users, matches, clocks)


def _place(row: Row, placed: set, key: tuple[int, int]) -> None:
    if key in placed:
        fail(row.where, f"player {list(key)} is placed twice in this round", "duplicate")
    placed.add(key)


def _game(plan: Plan, row: Row, round_: Round, tables: dict, users: dict, matches: dict, clocks: dict) -> None:
    table = tables.get(row.number("table", low=1, high=32767))
    if table is None:
        fail(row.where, "table is not one of the file's tables", "reference")
    match = row.ref("match", matches, "matches")
    if match is not None:
        row.where = f"{row.where}, match {match.key} game {row.data.get('match_game')}"
    if (match is None) != plan.by_rounds:
        fail(row.where, "a knockout's or a league's games belong to its matches, a progressive round's to none",
              "match")  # fmt: skip
    game = Game(round=round_, table=table, status=row.text("status"), first_dealer=row.text("first_dealer"),
                winner=row.text("winner"), decided_by=row.text("decided_by"), match=match,
                clock=row.ref("clock", clocks, "clocks"),
                **{name: row.column(Game, name, default=True) for name in GAME_MATCH_FIELDS})  # fmt: skip
    clean(game, row.where)
    if (match is None) != (game.match_game is None):
        fail(row.where, "match_game numbers a match's games, and only those", "match_game")
    if game.time_up_hand is not None and game.clock is None:
        fail(row.where, "time_up_hand: time is called on a game with a clock", "time_up_hand")
    hands = [
        _hand(plan, Row(entry, f"{row.where}, hand {i}"), game, users)
        for i, entry in enumerate(row.items("hands", "hands"), start=1)
    ]
    number_deals(game, hands, row.where, misdeal_numbered=plan.misdeal_numbered)
    try:
        replayed = game.replay(hands)
    except InvalidHand as error:
        fail(row.where, f"{error.message} under this tournament's rules", "hand")
    scored = replayed.game
    if game.decided_by:
        # A tie the director settled, or a game ended by a walkover or a decision of its match.
        by_match = match is not None and match.outcome in (Match.Outcome.WALKOVER, Match.Outcome.DECISION)
        finished = game.winner in {side.value for side in Side} and game.status == Game.Status.FINISHED
        if not (finished and not scored.over and (scored.tied or by_match)):
            fail(row.where, "a game the director decided is finished with its winner, and was tied (or its match "
                  "decided) rather than won at the table", "decided")  # fmt: skip
    game.apply(replayed, hands)  # the totals, status and winner as the hands have them
    if round_.status == Round.Status.PLANNED and hands:
        fail(row.where, "a round not yet started has no hands", "hands")
    if round_.status == Round.Status.CLOSED:
        if game.status != Game.Status.FINISHED:
            fail(row.where, "the round is closed but this game has no winner", "undecided")
        if any(h.disputed for h in hands):
            fail(row.where, "the round is closed but a hand is still disputed", "disputed")
    plan.games.append((game, hands))


def _match_games(plan: Plan) -> None:
    """Each match's games: numbered in order, at its table, on its clock, in one round (a league
    match's on its night), and the match's result what its games make it."""
    games: dict[str, list[Game]] = {}
    for game, _ in plan.games:
        if game.match is not None:
            games.setdefault(game.match.key, []).append(game)
    for key, own in games.items():
        match, where = own[0].match, f"Match {key}"
        if match.status not in (Match.Status.PLAYING, Match.Status.FINISHED):
            fail(where, f"a match {match.get_status_display().lower()} has no games", "games")
        if [g.match_game for g in own] != list(range(1, len(own) + 1)):
            fail(where, "its games are numbered 1, 2, 3… in order", "order")
        if any(g.table is not match.table for g in own):
            fail(where, "its games are played at its table", "table")
        if any(g.clock is not match.clock for g in own):
            fail(where, "its games run on its clock", "clock")
        if len({g.round.number for g in own}) > 1:
            fail(where, "its games are played in one round", "round")
        _match_result(where, match, own)
    for match in plan.matches:
        if match.status == Match.Status.PLAYING and match.key not in games:
            fail(f"Match {match.key}", "a match being played has its first game", "games")


def _match_result(where: str, match: Match, games: list[Game]) -> None:
    # The match rules of knockout and league (best of N, time) on the file's team numbers.
    numbers = SimpleNamespace(home_id=match.home.number, away_id=match.away.number, games_to_win=match.games_to_win)
    result = winner_from_games(numbers, games)  # type: ignore[arg-type]
    if match.outcome in (Match.Outcome.PLAYED, Match.Outcome.TIME):
        if result != (match.winner.number, match.outcome):  # type: ignore[union-attr]
            made = f"team {result[0]} the winner ({result[1]})" if result else "no winner yet"
            fail(where, f"its games make {made}, not team {match.winner.number} ({match.outcome})", "result")  # type: ignore[union-attr]
    elif match.status == Match.Status.PLAYING and result is not None:
        fail(where, f"its games have decided it (team {result[0]} won), but it is still playing", "result")


def _hand(plan: Plan, row: Row, game: Game, users: dict) -> Hand:
    number = row.number("number", low=1, high=32767)
    deal = 1 if plan.misdeal_numbered else row.number("deal", low=1, high=32767)
    values: dict[str, Any] = {}
    for name in HAND_FIELDS:
        if name.endswith("_tricks"):
            values[name] = row.number(name, optional=True, high=13)
        elif name.endswith(("_reneges", "_talk")):
            # Who committed an infraction came with the rules scoring players' own bids: older
            # exports have only the sides' counts.
            values[name] = row.number(name, high=13) if name in row.data or name[:2] in ("ns", "ew") else 0
        else:
            values[name] = row.text(name)
    extra = {"disputed": row.flag("disputed"), "dispute_note": row.text("dispute_note"),
             "dispute_resolution": row.text("dispute_resolution"), "confirmed_by": row.text("confirmed_by"),
             "version": row.number("version", low=1)}  # fmt: skip
    hand = Hand(game=game, number=number, deal=deal, entered_at=row.when("entered_at"), **values, **extra)
    clean(hand, row.where)
    seats = [name for name in HAND_FIELDS if name.endswith(("_bid", "_tricks"))]
    if hand.misdeal:
        if hand.misdeal not in plan.tournament.rules.misdeal_reasons:
            fail(row.where, f"misdeal: {hand.misdeal} is not a misdeal under these rules", "misdeal")
        if any(values[name] not in ("", None) for name in seats):
            fail(row.where, "a misdeal has no bids or tricks", "misdeal")
    elif any(values[name] in ("", None) for name in seats):
        fail(row.where, "a hand that was played has every bid and every player's tricks", "required")
    for i, entry in enumerate(row.items("revisions", "revisions"), start=1):
        _revision(plan, Row(entry, f"{row.where}, revision {i}"), hand, users)
    disputes = row.items("disputes", "revisions") if "disputes" in row.data else []  # older exports have none
    for i, entry in enumerate(disputes, start=1):
        _dispute(plan, Row(entry, f"{row.where}, dispute {i}"), hand, users)
    return hand


def _dispute(plan: Plan, row: Row, hand: Hand, users: dict) -> None:
    dispute = Dispute(hand=hand, note=row.text("note"), raised_from=row.text("raised_from"),
                      raised_by=row.user("raised_by", users), raised_at=row.when("raised_at"),
                      resolution=row.text("resolution"), resolved_by=row.user("resolved_by", users),
                      resolved_at=row.when("resolved_at", optional=True))  # fmt: skip
    clean(dispute, row.where)
    if (dispute.resolved_at is None) != (dispute.resolution == ""):
        fail(row.where, "a settled dispute has its resolution and when it was settled, an open one neither", "dispute")
    plan.disputes.append(dispute)


def _revision(plan: Plan, row: Row, hand: Hand, users: dict) -> None:
    before, after = row.raw("before", True), row.raw("after", False)
    for name, value in (("before", before), ("after", after)):
        if value is None and name == "before":
            continue
        if not isinstance(value, dict) or not all(
            isinstance(v, str | int | type(None)) and not isinstance(v, bool) for v in value.values()
        ):
            fail(row.where, f"{name} must be an object of the hand's values", "type")
    revision = HandRevision(hand=hand, source=row.text("source"), changed_by=row.user("changed_by", users),
                            changed_at=row.when("changed_at"), before=before, after=after)  # fmt: skip
    clean(revision, row.where)
    plan.revisions.append(revision)


def _event(plan: Plan) -> None:
    """The rounds' states follow each other, and the tournament's state follows them."""
    statuses = [r.status for r in plan.rounds]
    open_rounds = [r.number for r in plan.rounds if r.status != Round.Status.CLOSED]
    if open_rounds and open_rounds != [len(statuses)]:
        fail(f"Round {open_rounds[0]}", "only the last round can still be open; the ones before it are closed", "order")
    if plan.tournament.status == Tournament.Status.FINISHED and open_rounds:
        fail("Tournament", f"status: finished but round {open_rounds[0]} is not closed", "status")


def _pool(payments: list[Payment]) -> Decimal:
    """Money in, net of refunds."""
    return sum((-p.amount if p.kind == Payment.Kind.REFUND else p.amount for p in payments), Decimal("0"))


def _prize(plan: Plan, row: Row, players: dict, users: dict, pool: Decimal) -> None:
    prize = Prize(tournament=plan.tournament, kind=row.text("kind"), place=row.number("place", optional=True, low=1,
                  high=32767), division=row.text("division"), amount=row.money("amount", optional=True),
                  share_percent=row.money("share_percent", optional=True),
                  name=row.text("name") if "name" in row.data else "")  # fmt: skip  # older exports name none
    clean(prize, row.where)
    row.where = f"Prize {prize}" if prize.place or prize.division else row.where
    if (prize.amount is None) == (prize.share_percent is None):
        fail(row.where, "a prize is a fixed amount or a share of the fees, not both or neither", "amount_or_share")
    if prize.amount is not None and prize.amount < 0:
        fail(row.where, "amount cannot be negative", "negative")
    if prize.share_percent is not None and not Decimal("0") < prize.share_percent <= 100:
        fail(row.where, "share_percent is more than 0 and at most 100", "share")
    if prize.kind == Prize.Kind.PLACE and (not prize.place or prize.division):
        fail(row.where, "a place prize names its place (from 1) and no division", "place")
    if prize.kind == Prize.Kind.DIVISION and (prize.place or not prize.division.strip()):
        fail(row.where, "a division prize names its division and no place", "division")
    plan.prizes.append(prize)
    value = prize.amount if prize.amount is not None else (pool * prize.share_percent / 100).quantize(CENT)
    total = Decimal("0")
    teams = {team.number: team for team in plan.teams}
    for i, entry in enumerate(row.items("payouts", "payouts"), start=1):
        o = Row(entry, f"{row.where}, payout {i}")
        player_ref, team_ref = o.raw("player", True), o.raw("team", True)
        if (player_ref is None) == (team_ref is None):
            fail(o.where, "a payout goes to a player or to a team", "recipient")
        player = None if player_ref is None else _player(o, player_ref, players, "player")
        team = None
        if team_ref is not None:
            team = teams.get(o.number("team", low=1))
            if team is None:
                fail(o.where, "team is not one of the file's teams", "reference")
        payout = Payout(prize=prize, player=player, team=team, amount=o.money("amount"),
                        paid_at=o.when("paid_at", optional=True), received_by=o.text("received_by"),
                        method=o.column(Payout, "method", default=True),
                        recorded_by=o.user("recorded_by", users))  # fmt: skip
        clean(payout, o.where)
        if payout.amount < 0:
            fail(o.where, "amount cannot be negative", "negative")
        total += payout.amount
        if total > value + CENT:
            fail(
                o.where,
                f"the payouts come to {format_money(total)}, more than the prize's {format_money(value)}",
                "over_prize",
            )
        plan.payouts.append(payout)


def _prize_rules(prizes: list[Prize]) -> None:
    places = Counter(p.place for p in prizes if p.kind == Prize.Kind.PLACE)
    divisions = Counter(p.division.strip().casefold() for p in prizes if p.kind == Prize.Kind.DIVISION)
    for what, counts in (("place", places), ("division", divisions)):
        for value, count in counts.items():
            if count > 1:
                fail("Prizes", f"two prizes for {what} {value}", "duplicate")
    shares = sum((p.share_percent for p in prizes if p.share_percent is not None), Decimal("0"))
    if shares > 100:
        fail("Prizes", f"the shares add up to {shares}% of the fees; at most 100% can be shared out", "shares_over_100")
