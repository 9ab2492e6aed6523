"""Writes that cross models: registration, money, rounds and their movement, hands, prizes.

Every function is keyword-only and atomic. A mistake the user can fix raises
:class:`~django.core.exceptions.ValidationError` (or :class:`scoring.InvalidHand` for a hand),
whose message is shown to them; anything else is a bug and is left to raise.
"""

from __future__ import annotations

import copy
import random
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any, NoReturn

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, Max, QuerySet
from django.utils import timezone

from scoring import HandEntry, InvalidHand, Replay, Seat, Side
from scoring.seats import draw_first_dealer
from tournament import access, clocks, rotation, row_sql
from tournament import prizes as prize_rules
from tournament.models import (
    GAME_COLUMNS,
    RECORDED,
    Dispute,
    Game,
    Hand,
    HandRevision,
    Match,
    Membership,
    Payment,
    Payout,
    Player,
    Prize,
    RosterPlayer,
    Round,
    RoundNotReady,
    Seating,
    SeatingChange,
    SitOut,
    Table,
    Team,
    Tournament,
    new_token,
    roster_key,
)
from tournament.reports import fees_due, ledger, team_paid

if TYPE_CHECKING:
    from tournament.formats import EventFormat

User = AbstractBaseUser | None


# --- registration and money -------------------------------------------------------------------


@transaction.atomic
def register_team(
    *, tournament: Tournament, names: Sequence[str], divisions: Sequence[str] = ("", ""), by: User = None
) -> Team:
    """Register a couple; team numbers follow registration order even when two desks race.

    A couple registering once play has begun is a late arrival: present (checked in), it joins
    where the movement puts arrivals (the highest table, or sitting out). A round seated but not
    started is re-seated at once to take it in; otherwise it joins when the next round is seated.
    """
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if locked.status == Tournament.Status.FINISHED:
        raise ValidationError("Registration is closed: the tournament has finished.", code="finished")
    number = (locked.teams.aggregate(top=Max("number"))["top"] or 0) + 1
    late = locked.rounds.exists()
    team = Team.objects.create(tournament=locked, number=number, checked_in=late)
    Player.objects.bulk_create(
        Player(team=team, name=name.strip(), division=division.strip(), roster=roster_entry(name))
        for name, division in zip(names, divisions, strict=True)
    )
    planned = locked.rounds.filter(status=Round.Status.PLANNED).first()
    if planned is not None:
        _replan(planned, by=by, reason=f"Team {number} arrived late")
    return team


def roster_entry(name: str) -> RosterPlayer:
    """The club roster's entry for ``name``: the one who played most recently under that name
    (picked from the list as it was typed), else a new entry."""
    key = roster_key(name)
    known = (
        RosterPlayer.objects.filter(key=key).annotate(last=Max("entries__id")).order_by(F("last").desc(nulls_last=True))
    )
    return known.first() or RosterPlayer.objects.create(name=" ".join(name.split()), key=key)


@transaction.atomic
def rename_roster_player(*, person: RosterPlayer, name: str) -> None:
    """Correct a name on the club roster; every event keeps the name it was played under."""
    if not name.strip():
        raise ValidationError({"name": "Give the name."}, code="required")
    RosterPlayer.objects.select_for_update().get(pk=person.pk).rename(name)
    person.refresh_from_db()


@transaction.atomic
def remove_team(*, team: Team, by: User = None) -> None:
    """Delete a team registered by mistake: only before round 1 starts, and only with no money
    on record (a payment or refund stays in the ledger; withdraw the team instead). Later teams
    move up a number so the numbers stay 1, 2, 3…; a seated round 1 is re-seated without it."""
    team = Team.objects.select_for_update().select_related("tournament").get(pk=team.pk)
    tournament = team.tournament
    if tournament.rounds.exclude(status=Round.Status.PLANNED).exists():
        raise ValidationError(
            f"Team {team.number} cannot be removed once round 1 has started; withdraw it instead.", code="started"
        )
    if team.payments.exists():
        raise ValidationError(
            f"Team {team.number} has fees on record, which stay in the ledger; refund and withdraw it instead.",
            code="has_payments",
        )
    planned = tournament.rounds.filter(status=Round.Status.PLANNED).first()
    if planned is not None:
        planned.seatings.all().delete()
        planned.sit_outs.all().delete()
    number = team.number
    team.delete()
    for later in tournament.teams.select_for_update().filter(number__gt=number).order_by("number"):
        later.number -= 1
        later.save(update_fields=["number"])
    if planned is not None:
        _replan(planned, by=by, reason=f"Team {number} was removed")


@transaction.atomic
def substitute_player(*, player: Player, substitute: str, from_round: int, by: User = None) -> None:
    """``substitute`` plays in ``player``'s place from round ``from_round`` to the end; what the
    substitute scores stays with ``player``'s entry. The round must not have closed."""
    player = Player.objects.select_for_update().select_related("team__tournament").get(pk=player.pk)
    tournament = player.team.tournament
    substitute = " ".join(substitute.split())
    if not substitute or substitute.casefold() == player.name.casefold():
        raise ValidationError({"substitute": "Give the substitute's name."}, code="no_substitute")
    closed = tournament.rounds.filter(status=Round.Status.CLOSED).aggregate(top=Max("number"))["top"] or 0
    if not closed < from_round <= tournament.rounds_planned:
        raise ValidationError(
            {"from_round": f"Choose a round from {closed + 1} to {tournament.rounds_planned}: closed rounds stay."},
            code="round_closed",
        )
    player.substitute, player.substitute_from = substitute, from_round
    player.save(update_fields=["substitute", "substitute_from"])
    round_ = tournament.rounds.filter(number=from_round).first()
    if round_ is not None:
        SeatingChange.objects.create(
            round=round_, changed_by=by, description=f"{substitute} plays for {player.name} from round {from_round}."
        )


@transaction.atomic
def set_team_status(*, team: Team, status: str, by: User = None) -> None:
    """Withdraw or reinstate a team; a round already seated but not started is re-seated.

    A league with its schedule made refuses: there a withdrawal turns matches into walkovers
    (:func:`tournament.league.withdraw_team`, on the League page)."""
    team = Team.objects.select_for_update().select_related("tournament").get(pk=team.pk)
    if team.tournament.is_league and team.tournament.matches.filter(stage=Match.Stage.LEAGUE).exists():
        raise ValidationError(
            "In a league, a team withdraws on the League page, where its remaining matches become walkovers.",
            code="league_withdrawal",
        )
    team.status = status
    team.save(update_fields=["status"])
    planned = team.tournament.rounds.filter(status=Round.Status.PLANNED).first()
    if planned is not None:
        _replan(planned, by=by, reason=f"Team {team.number} {team.get_status_display().lower()}")


@transaction.atomic
def record_payment(*, team: Team, amount: Decimal, kind: str, method: str, note: str = "", by: User = None) -> Payment:
    """Record money in (a payment, never more than the team still owes of its fees, so the
    prizes' pool holds no money owed back) or out (a refund, never more than the team has paid)."""
    team = Team.objects.select_for_update().select_related("tournament").get(pk=team.pk)
    paid = team_paid(team)
    if kind == Payment.Kind.REFUND and amount > paid:
        message = f"A refund cannot exceed what the team has paid (${paid})."
        raise ValidationError({"amount": ValidationError(message, code="refund_too_large")})
    owed = max(fees_due(team.tournament)[team.pk] - paid, Decimal("0.00"))
    if kind == Payment.Kind.PAYMENT and amount > owed:
        message = (
            f"A payment cannot be more than the team still owes of its fees: ${owed} at most "
            f"(due ${owed + paid}, paid ${paid})."
        )
        raise ValidationError({"amount": ValidationError(message, code="overpayment")})
    return Payment.objects.create(team=team, kind=kind, amount=amount, method=method, note=note, recorded_by=by)


@transaction.atomic
def check_in_team(*, team: Team, method: str = "", by: User = None) -> Payment | None:
    """Mark a team present and, given a ``method``, take what it still owes of its fees in
    the same step (returned; None when nothing was owed or no method was given)."""
    team = Team.objects.select_for_update().select_related("tournament").get(pk=team.pk)
    team.checked_in = True
    team.save(update_fields=["checked_in"])
    owed = fees_due(team.tournament)[team.pk] - team_paid(team)
    if not method or owed <= 0:
        return None
    return Payment.objects.create(
        team=team, kind=Payment.Kind.PAYMENT, amount=owed, method=method, note="At check-in", recorded_by=by
    )


# --- rounds and movement ----------------------------------------------------------------------


@transaction.atomic
def seat_first_round(*, tournament: Tournament, by: User = None) -> Round:
    """Seat round 1: the checked-in teams (every active team if none is checked in yet)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.rounds.exists():
        raise ValidationError("Round 1 is already seated.", code="already_seated")
    couples = _first_round_couples(tournament)
    if len(couples) < 2:
        raise ValidationError("Seating needs at least two teams present.", code="too_few_teams")
    round_ = Round.objects.create(tournament=tournament, number=1)
    _save_movement(round_, rotation.first_round(couples))
    tournament.status = Tournament.Status.RUNNING
    tournament.save(update_fields=["status"])
    return round_


def _first_round_couples(tournament: Tournament) -> list[tuple[int, int]]:
    teams = list(tournament.teams.filter(status=Team.Status.ACTIVE).prefetch_related("players"))
    if any(team.checked_in for team in teams):
        teams = [team for team in teams if team.checked_in]
    if tournament.is_random_draw:
        random.Random(tournament.seating_seed).shuffle(teams)
    return [_couple(team) for team in teams]


def _couple(team: Team) -> tuple[int, int]:
    ids = [player.id for player in team.players.all()]
    if len(ids) != 2:
        raise ValidationError(f"Team {team.number} needs exactly two players to play.", code="team_size")
    return ids[0], ids[1]


def _save_movement(round_: Round, movement: rotation.Movement[int]) -> None:
    tournament = round_.tournament
    known = set(tournament.tables.values_list("number", flat=True))
    Table.objects.bulk_create(
        Table(tournament=tournament, number=t.table) for t in movement.tables if t.table not in known
    )
    tables = {t.number: t for t in tournament.tables.all()}
    Seating.objects.bulk_create(
        Seating(round=round_, table=tables[t.table], seat=seat, player_id=player)
        for t in movement.tables
        for seat, player in zip(Seat, t.players, strict=True)
    )
    SitOut.objects.bulk_create(SitOut(round=round_, player_id=player) for player in movement.sitting_out)
    existing = set(round_.games.values_list("table__number", flat=True))
    seed = tournament.seating_seed
    Game.objects.bulk_create(
        Game(round=round_, table=tables[t.table], first_dealer=draw_first_dealer(seed, round_.number, t.table))
        for t in movement.tables
        if t.table not in existing
    )
    round_.games.exclude(table__number__in=[t.table for t in movement.tables]).delete()


def load_movement(round_: Round) -> rotation.Movement[int]:
    """A round's seating as the rotation module's value."""
    tables = tuple(_table_seatings(round_.seatings.all()))
    return rotation.Movement(tables, tuple(round_.sit_outs.values_list("player_id", flat=True)))


def _table_seatings(seatings: QuerySet[Seating]) -> list[rotation.TableSeating[int]]:
    """The seatings as one value a table a round, in round and table order."""
    seats: dict[tuple[int, int], dict[str, int]] = {}
    for round_number, table_number, seat, player in seatings.values_list(
        "round__number", "table__number", "seat", "player_id"
    ):
        seats.setdefault((round_number, table_number), {})[seat] = player
    return [rotation.TableSeating(key[1], *(seats[key][s] for s in Seat)) for key in sorted(seats)]


@transaction.atomic
def start_round(*, round_: Round) -> None:
    Round.objects.select_for_update().get(pk=round_.pk).start()
    round_.refresh_from_db()


@transaction.atomic
def close_round(*, round_: Round, by: User = None) -> Round | None:
    """Close a running round; seat the next (returned) unless it was the last one planned."""
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    round_.close(hold_games=True)
    tournament = round_.tournament
    if round_.is_last:
        tournament.status = Tournament.Status.FINISHED
        tournament.save(update_fields=["status"])
        return None
    following = Round.objects.create(tournament=tournament, number=round_.number + 1)
    _save_movement(following, _next_movement(round_))
    return following


def _next_movement(previous: Round) -> rotation.Movement[int]:
    """The movement after ``previous``, with withdrawals and late arrivals applied.

    Every table played up to ``previous`` (as seated, swaps included) is the history that
    decides how split partners pair up.
    """
    tournament = previous.tournament
    played = load_movement(previous)
    at = {t.table: t for t in played.tables}
    results = []
    for table_number, winner in previous.games.values_list("table__number", "winner"):
        if winner not in (Side.NS, Side.EW):
            raise RoundNotReady(f"Table {table_number} of round {previous.number} has no winner.")
        ns, ew = at[table_number].north_south, at[table_number].east_west
        results.append(rotation.TableResult(table_number, *((ns, ew) if winner == Side.NS else (ew, ns))))
    sitting_out = list(played.sitting_out)
    placed = set(played.seated()) | set(sitting_out)
    active: dict[int, list[int]] = {}
    for team_id, player_id in Player.objects.filter(
        team__tournament=tournament, team__status=Team.Status.ACTIVE
    ).values_list("team_id", "id"):
        active.setdefault(team_id, []).append(player_id)
    present = {player for players in active.values() for player in players}
    arrivals = [(ps[0], ps[1]) for ps in active.values() if len(ps) == 2 and placed.isdisjoint(ps)]
    history = _table_seatings(Seating.objects.filter(round__tournament=tournament, round__number__lte=previous.number))
    return rotation.next_round(
        results,
        sitting_out,
        split=tournament.split_partners,
        absent=placed - present,
        arrivals=arrivals,
        history=history,
    )


def _replan(round_: Round, *, by: User, reason: str) -> None:
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    if round_.status != Round.Status.PLANNED:
        return  # started meanwhile: its games (and any hands) stay as they are
    round_.seatings.all().delete()
    round_.sit_outs.all().delete()
    previous = round_.tournament.rounds.filter(number=round_.number - 1).first()
    if previous is None:
        movement = rotation.first_round(_first_round_couples(round_.tournament))
    else:
        movement = _next_movement(previous)
    _save_movement(round_, movement)
    SeatingChange.objects.create(round=round_, changed_by=by, description=f"{reason}: the round was re-seated.")


def swap_players(*, round_: Round, first: Player, second: Player, by: User = None) -> None:
    """Exchange two players' places in a round that has not started; the change is recorded."""
    _swap(round_, [(first, second)], by=by, what=f"{first.name} and {second.name}", kind="players")


def swap_teams(*, round_: Round, first: Team, second: Team, by: User = None) -> None:
    """Exchange two teams' places (first player with first player, second with second)."""
    a, b = list(first.players.all()), list(second.players.all())
    if len(a) != 2 or len(b) != 2:
        raise ValidationError("Only teams of two players can be swapped.", code="team_size")
    pairs = list(zip(a, b, strict=True)) if first.pk != second.pk else []
    _swap(round_, pairs, by=by, what=f"teams {first} and {second}", kind="teams")


@transaction.atomic
def _swap(round_: Round, pairs: list[tuple[Player, Player]], *, by: User, what: str, kind: str) -> None:
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.status != Round.Status.PLANNED:
        raise ValidationError(f"{kind.capitalize()} can be swapped only before the round starts.", code="round_started")
    movement = load_movement(round_)
    placed = set(movement.seated()) | set(movement.sitting_out)
    chosen = {p.pk for pair in pairs for p in pair}
    if not pairs or any(a.pk == b.pk for a, b in pairs) or not chosen <= placed:
        raise ValidationError(f"Choose two different {kind} of this round.", code="not_in_round")
    for a, b in pairs:
        movement = rotation.swap(movement, a.pk, b.pk)
    _rewrite_movement(round_, movement)
    SeatingChange.objects.create(round=round_, changed_by=by, description=f"Swapped {what}.")


def _rewrite_movement(round_: Round, movement: rotation.Movement[int]) -> None:
    round_.seatings.all().delete()
    round_.sit_outs.all().delete()
    _save_movement(round_, movement)


# --- hands ------------------------------------------------------------------------------------


class HandConflict(Exception):
    """The hand changed (or was entered) since the form was loaded; ``hand`` is what is stored."""

    def __init__(self, message: str, hand: Hand) -> None:
        super().__init__(message)
        self.message = message
        self.hand = hand


@dataclass(frozen=True)
class EnteredHand:
    """A stored hand and its game after it: ``game`` is the row as written with it, ``hands`` the
    hands ``replay`` scored (one result per hand), so the caller renders without loading or
    scoring anything again: every hand of the game in order, or, for a new last hand, that hand
    alone (scored on the game's stored totals; see :meth:`Game.replay_next`). ``notice`` is what
    a correction caused, in words for the director ("" when nothing else changed)."""

    hand: Hand
    game: Game
    hands: list[Hand]
    replay: Replay
    notice: str = ""


def enter_hand(
    *,
    game: Game,
    number: int,
    entry: HandEntry,
    source: str,
    by: User = None,
    expected_version: int | None = None,
    confirmed_by: str = "",
    entry_key: str = "",
) -> EnteredHand:
    """Store hand ``number`` of ``game`` (a new one, or a correction of an existing one).

    A new hand must be the next number; when that number is already stored,
    :class:`HandConflict` returns the stored hand (two phones, one hand). A correction names the
    ``expected_version`` it was based on; a stale one raises :class:`HandConflict` too. The hand
    must pass the scoring rules together with every hand before and after it, else
    :class:`scoring.InvalidHand`. Every change is kept as a :class:`HandRevision`. A new scored
    hand is scored on the game's stored totals (the hands before it are not read); anything
    else replays the game once, its hands loaded once.

    ``game``'s own row is read again under its row lock (see :meth:`Game.lock`), or its values
    as loaded guard the write (below); its round's tournament and its table are used as loaded.

    At the table (``source`` "table") only the last hand can be corrected, only while the round
    runs, and when the tournament asks for it an opponent's initials (``confirmed_by``) are needed.

    ``entry_key`` names one attempt, made on the phone: when a hand already carries it (the
    attempt was stored and is being sent again), that hand is returned and nothing is written,
    as if the first send had just succeeded.

    A new scored hand at a table outside a match, the next after the last hand ``game`` was read
    with (``last_number``, as :meth:`GameQuerySet.at_link` reads it), is first stored on the game
    as read, by a write that is made only while the game is as read (:func:`_enter_as_read`): a
    scorekeeper's save, the one made most, scores its hand before it takes any lock, and on
    PostgreSQL is one statement with no transaction around it. Anything else, and a game changed
    since it was read, is entered under the game's lock.
    """
    as_read = _enter_as_read(game=game, number=number, entry=entry, source=source, by=by, confirmed_by=confirmed_by,
                             entry_key=entry_key)  # fmt: skip
    if as_read is not None:
        return as_read
    return _enter_locked(game=game, number=number, entry=entry, source=source, by=by,
                         expected_version=expected_version, confirmed_by=confirmed_by, entry_key=entry_key)  # fmt: skip


class _GameChanged(Exception):
    """The game's row changed after it was read: a guarded write wrote nothing."""


def _enter_as_read(
    *, game: Game, number: int, entry: HandEntry, source: str, by: User, confirmed_by: str, entry_key: str
) -> EnteredHand | None:
    """:func:`enter_hand`'s new scored hand stored on ``game`` as read, without its lock; None
    when this is not such a hand, or a check or the database refuses it: then the lock enters it,
    and says why it is refused on the game as it is then. Whole or not at all, by itself or as a
    savepoint of the caller's transaction.

    The game's row as read guards the write (``unchanged``, see :func:`row_sql.write_together`):
    the hands before the new one stand in its totals, and any hand scored or corrected since
    changes them (as a decided tie changes its status, and time called its time_up_hand). A
    misdeal entered since
    changes no total, but took the number the new hand would take, which the database refuses
    (one_hand_number_per_game), as it refuses an entry key stored already (a resent entry, which
    the lock answers as saved). The round, which the checks read as loaded, cannot have closed
    meanwhile: a round closes only once every game is decided, and the guard holds the game
    undecided.
    """
    last_number = getattr(game, "last_number", None)
    if last_number is None or game.match_id is not None or not _new_scored_hand(number, entry, last_number):
        return None  # (a match's result moves its match on: that write is the lock's)
    game = _copied(game)
    read = {column: getattr(game, column) for column in GAME_COLUMNS}
    try:
        return _enter_new(game, number, entry, last_number=last_number, source=source, by=by,
                          confirmed_by=confirmed_by, entry_key=entry_key, unchanged=read)  # fmt: skip
    except (InvalidHand, IntegrityError, _GameChanged):
        return None


@transaction.atomic
def _enter_locked(
    *,
    game: Game,
    number: int,
    entry: HandEntry,
    source: str,
    by: User,
    expected_version: int | None,
    confirmed_by: str,
    entry_key: str,
) -> EnteredHand:
    """:func:`enter_hand` under the game's row lock: ``game`` is read again under it."""
    game = _copied(game)
    last_number, sent_id = game.lock(entry_key=entry_key)
    if sent_id is not None:
        # Read under the game's lock: a racing send of the same key has committed or not started.
        sent = Hand.objects.get(pk=sent_id)
        if sent.game_id != game.pk:
            raise InvalidHand("this entry was made for another table's game", field="hand", code="other_game")
        hands = list(game.hands.order_by("number"))
        sent = next(hand for hand in hands if hand.pk == sent.pk)
        return EnteredHand(hand=sent, game=game, hands=hands, replay=game.replay(hands))
    if _new_scored_hand(number, entry, last_number):
        return _enter_new(game, number, entry, last_number=last_number, source=source, by=by,
                          confirmed_by=confirmed_by, entry_key=entry_key)  # fmt: skip
    at_table = source == HandRevision.Source.TABLE
    if at_table:
        _check_table_entry(game, confirmed_by)
    hands = list(game.hands.order_by("number"))
    existing = next((h for h in hands if h.number == number), None)
    if existing is None:
        return _store(game, Hand(game=game, number=number), entry, hands=hands, last_number=last_number, source=source,
                      by=by, confirmed_by=confirmed_by, entry_key=entry_key)  # fmt: skip
    if expected_version is None:
        raise HandConflict(f"Hand {number} was already entered; this is what was stored.", existing)
    if expected_version != existing.version:
        raise HandConflict(f"Hand {number} was changed by someone else meanwhile; here it is now.", existing)
    if at_table and existing.number != hands[-1].number:
        raise InvalidHand("only the last hand can be corrected at the table; ask the director", field="hand",
                          code="not_last_hand")  # fmt: skip
    return _store(game, existing, entry, hands=hands, source=source, by=by, confirmed_by=confirmed_by,
                  entry_key=entry_key)  # fmt: skip


def _copied(game: Game) -> Game:
    """A copy of ``game`` and of its round, to enter a hand on: the caller's stay as they were."""
    game = copy.copy(game)
    game.round = copy.copy(game.round)
    return game


def _new_scored_hand(number: int, entry: HandEntry, last_number: int | None) -> bool:
    """Whether hand ``number`` is a new scored hand after the last (``last_number``, None for none):
    scored on the game's stored totals, with no other hand read (see :func:`_store`)."""
    return number > (last_number or 0) and not entry.misdeal


def _enter_new(
    game: Game,
    number: int,
    entry: HandEntry,
    *,
    last_number: int | None,
    source: str,
    by: User,
    confirmed_by: str,
    entry_key: str,
    unchanged: Mapping[str, object] | None = None,
) -> EnteredHand:
    """Store the new scored hand ``number`` (see :func:`_new_scored_hand`), the game's totals
    standing for every hand before it; ``unchanged`` as :func:`_store` takes it."""
    if source == HandRevision.Source.TABLE:
        _check_table_entry(game, confirmed_by)
    entered = _store(game, Hand(game=game, number=number), entry, last_number=last_number, source=source, by=by,
                     confirmed_by=confirmed_by, entry_key=entry_key, unchanged=unchanged)  # fmt: skip
    game.last_number = number  # as the link reads it: a caller may enter the next hand on this game
    return entered


def _store(
    game: Game,
    hand: Hand,
    entry: HandEntry,
    *,
    source: str,
    by: User,
    confirmed_by: str,
    entry_key: str,
    hands: list[Hand] | None = None,
    last_number: int | None = None,
    unchanged: Mapping[str, object] | None = None,
) -> EnteredHand:
    """Write ``hand`` (new when unsaved, else a correction) with ``entry``, its revision and the
    game's totals. Replays ``hands`` (all of the game's, stored versions) with it, or, when
    ``hands`` is None, scores the new hand alone on the game's totals. With ``unchanged`` (the
    game's columns as read), the write is guarded by them: :class:`_GameChanged` when they
    changed, and nothing is written."""
    new = hand.pk is None
    if new:
        _check_new_hand(game, last_number, hand.number)
        before = None
    else:
        before = hand.snapshot()
        hand.version += 1
    closed = game.round.status == Round.Status.CLOSED
    hand.confirmed_by = confirmed_by.strip()
    if entry_key:
        hand.entry_key = entry_key
    hand.store(HandEntry.misdealt(entry.misdeal) if entry.misdeal else entry)  # a misdeal keeps no scores
    if hands is None:
        ordered, replayed = [hand], game.replay_next(hand)
    else:
        ordered = sorted([h for h in hands if h.number != hand.number] + [hand], key=lambda h: h.number)
        replayed = game.replay(ordered)
    if new:
        game.call_time(hand.number)
    game.apply(replayed, ordered)
    # Game.record's save, with the hand and its revision: one statement where the database allows.
    revision = HandRevision(hand=hand, source=source, changed_by=by, before=before, after=hand.snapshot())
    if not row_sql.write_together(hand, revision, game, RECORDED, unchanged=unchanged):
        raise _GameChanged
    if closed and game.status != Game.Status.FINISHED:
        # The next round was seated from this game's result: it must still have one.
        raise InvalidHand("a correction in a closed round must leave the game decided", field="hand",
                          code="closed_round_undecided")  # fmt: skip
    _format_of(game).game_changed(game=game)
    return EnteredHand(hand=hand, game=game, hands=ordered, replay=replayed)


@transaction.atomic
def correct_hand(
    *, game: Game, number: int, entry: HandEntry, by: User = None, expected_version: int | None = None
) -> EnteredHand:
    """The director enters or corrects hand ``number`` (any hand, in any round), as
    :func:`enter_hand` does; when that changes the winner of a closed round, the next round is
    re-seated to follow it if it has not started. ``notice`` says what happened, else is ""."""
    winner_before = Game.objects.select_for_update(of=("self",)).values_list("winner", flat=True).get(pk=game.pk)
    entered = enter_hand(
        game=game, number=number, entry=entry, source=HandRevision.Source.DIRECTOR, by=by,
        expected_version=expected_version,
    )  # fmt: skip
    game = entered.game
    if game.round.status != Round.Status.CLOSED or game.winner == winner_before:
        return entered
    following = Round.objects.filter(tournament_id=game.round.tournament_id, number=game.round.number + 1).first()
    table = f"Table {game.table.number}'s result in round {game.round.number} changed"
    if following is None:
        notice = f"{table}; the standings follow it."
    elif following.status == Round.Status.PLANNED:
        _replan(following, by=by, reason=table)
        notice = f"{table}: round {following.number}, not yet started, was re-seated to follow it."
    else:
        notice = f"{table}, but round {following.number} has started: its seating stays as it was."
    return EnteredHand(hand=entered.hand, game=game, hands=entered.hands, replay=entered.replay, notice=notice)


def _check_table_entry(game: Game, confirmed_by: str) -> None:
    if game.round.status != Round.Status.RUNNING:
        raise InvalidHand(f"round {game.round.number} is not running", field="hand", code="round_not_running")
    if game.round.tournament.require_confirmation and not confirmed_by.strip():
        raise InvalidHand("a player of the other side confirms the hand with their initials", field="confirmed_by",
                          code="confirmation_required")  # fmt: skip


def _check_new_hand(game: Game, last_number: int | None, number: int) -> None:
    expected = (last_number or 0) + 1
    if number != expected:
        raise InvalidHand(f"the next hand at this table is hand {expected}", field="hand")
    if game.round.status != Round.Status.RUNNING:
        raise InvalidHand(f"round {game.round.number} is {game.round.get_status_display().lower()}", field="hand")
    if game.status == Game.Status.FINISHED:
        raise InvalidHand("the game at this table is over; no more hands can be entered", field="hand")


TOURNAMENT_FIELDS = frozenset(field.name for field in Tournament._meta.concrete_fields) - {"id", "created_at"}


@transaction.atomic
def update_tournament(
    *, tournament: Tournament, changes: Mapping[str, Any], by: User = None
) -> tuple[Tournament, list[str]]:
    """Change a tournament's fields (``changes``: field name to new value); if its rules changed,
    score every hand again under them. A time limit set, changed or taken away applies to the
    matches and progressive tables still playing (:func:`clocks.apply_time_limits`).

    Returns the saved tournament and the closed-round tables whose winner flipped. A value the
    model refuses raises :class:`ValidationError`; so does a stored hand the new rules refuse,
    rolling everything back.
    """
    unknown = set(changes) - TOURNAMENT_FIELDS
    if unknown:
        raise TypeError(f"update_tournament cannot change {', '.join(sorted(unknown))}")
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    before, limits = locked.rules, _time_limits(locked)
    for field, value in changes.items():
        setattr(locked, field, value)
    locked.full_clean()
    locked.save(update_fields=list(changes) or None)
    if _time_limits(locked) != limits:
        clocks.apply_time_limits(tournament=locked)
    if locked.rules == before:
        return locked, []
    return locked, _rescore_all(locked)


def _time_limits(tournament: Tournament) -> tuple[int | None, int | None]:
    return tournament.rules.time_limit_minutes, tournament.final_rules.time_limit_minutes


def _rescore_all(tournament: Tournament) -> list[str]:
    flipped = []
    games = Game.objects.select_for_update(of=("self",)).select_related("round", "table")
    games = list(games.filter(round__tournament=tournament).order_by("round__number", "table__number"))
    # Read once every game is locked: a hand stored meanwhile is in them, or waits for this.
    hands: dict[int, list[Hand]] = defaultdict(list)
    for hand in Hand.objects.filter(game__round__tournament=tournament).order_by("game_id", "number"):
        hands[hand.game_id].append(hand)
    for game in games:
        game.round.tournament = tournament  # one rule set for every game
        before = game.winner
        try:
            game.rescore(hands[game.pk])
        except InvalidHand as error:
            where = f"Round {game.round.number}, table {game.table.number}"
            raise ValidationError(f"{where}, {error.message}: the new rules refuse it.", code="breaks_hands") from None
        if game.round.status == Round.Status.CLOSED and game.winner != before:
            flipped.append(f"round {game.round.number} table {game.table.number}")
    return flipped


@transaction.atomic
def set_first_dealer(*, game: Game, seat: Seat) -> None:
    """The table cut or drew for the deal: ``seat`` deals hand 1 instead of the seat drawn.
    Only before any hand (a misdeal too) is entered, since every dealer after follows from it."""
    game = Game.objects.select_for_update().get(pk=game.pk)
    if game.hands.exists():
        raise ValidationError("The first dealer can change only before hand 1 is entered.", code="hands_entered")
    game.first_dealer = seat
    game.save(update_fields=["first_dealer"])


@transaction.atomic
def flag_dispute(*, hand: Hand, note: str, source: str = HandRevision.Source.TABLE, by: User = None) -> Dispute:
    """The table disputes a hand; it shows on the director's board until resolved, and stays
    in the game's history with who raised it and when."""
    hand = Hand.objects.select_for_update().get(pk=hand.pk)
    hand.disputed, hand.dispute_note, hand.dispute_resolution = True, note.strip(), ""
    hand.save(update_fields=["disputed", "dispute_note", "dispute_resolution"])
    return Dispute.objects.create(hand=hand, note=note.strip(), raised_from=source, raised_by=by)


@transaction.atomic
def resolve_dispute(*, hand: Hand, resolution: str, by: User = None) -> None:
    """Settle every open dispute on ``hand`` with ``resolution``, recording who and when."""
    hand = Hand.objects.select_for_update().get(pk=hand.pk)
    hand.disputed, hand.dispute_resolution = False, resolution.strip()
    hand.save(update_fields=["disputed", "dispute_resolution"])
    hand.disputes.filter(resolved_at__isnull=True).update(
        resolution=resolution.strip(), resolved_by=by, resolved_at=timezone.now()
    )


def record_phone_report(*, table: Table, waiting: int) -> None:
    """The table's page reported in (it does every half minute while open), with how many hands
    wait on the phone to be sent."""
    Table.objects.filter(pk=table.pk).update(phone_heard_at=timezone.now(), phone_waiting=waiting)


@transaction.atomic
def reissue_token(*, table: Table) -> str:
    """Revoke a table's link and issue a new one for the rest of the event; the old link stops
    working at once (its table tent must be reprinted)."""
    table = Table.objects.select_for_update().get(pk=table.pk)
    table.token = new_token()
    table.save(update_fields=["token"])
    return table.token


@transaction.atomic
def decide_tie(*, game: Game, winner: str, how: str) -> None:
    # The game's row alone, as a hand's save locks it: locking its round too would wait on a
    # round's close, which waits on this game.
    game = Game.objects.select_for_update(of=("self",)).select_related("table", "round__tournament").get(pk=game.pk)
    game.decide_tie(winner, how)
    _format_of(game).game_changed(game=game)


def _format_of(game: Game) -> EventFormat:
    from tournament.formats import format_of  # formats sits above this module: imported when needed

    return format_of(game.round.tournament)


# --- prizes -----------------------------------------------------------------------------------


@transaction.atomic
def award_prizes(*, tournament: Tournament) -> list[Payout]:
    """Work out every prize's winners from the standings and record them as payouts to make.

    Refused once any payout has been paid, so money handed over is never re-assigned.
    """
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status != Tournament.Status.FINISHED:
        raise ValidationError("Prizes are worked out once the last round has closed.", code="not_finished")
    payouts = Payout.objects.filter(prize__tournament=tournament)
    list(payouts.select_for_update())  # a payout marked paid meanwhile waits for this, then is seen
    if payouts.filter(paid_at__isnull=False).exists():
        raise ValidationError("Prizes have already been paid out; they can no longer be re-assigned.", code="paid")
    payouts.delete()
    prizes = list(tournament.prizes.all())
    amounts = prize_rules.prize_amounts(
        {p.pk: p.amount for p in prizes if p.amount is not None},
        {p.pk: p.share_percent for p in prizes if p.share_percent is not None},
        ledger(tournament).fees_paid,
    )
    specs = [prize_rules.PrizeSpec(p.pk, amounts[p.pk], p.place, p.division) for p in prizes]
    from tournament.formats import format_of  # formats sits above this module

    event_format = format_of(tournament)
    rows = event_format.standings(tournament)
    awards = prize_rules.award(
        specs,
        [row.standing for row in rows],
        ties=event_format.prize_ties(tournament),
        divisions={row.standing.entrant: row.division for row in rows},
        names={row.standing.entrant: row.name for row in rows},
    )
    field = "player_id" if tournament.split_partners else "team_id"
    return Payout.objects.bulk_create(
        Payout(prize_id=a.prize_id, amount=a.amount, **{field: a.entrant}) for a in awards if a.amount > 0
    )


@transaction.atomic
def save_prize(*, prize: Prize) -> Prize:
    """Add or change a prize. Under the tournament's lock (two desks adding prizes at once wait
    for each other): the prizes' shares of the fees add up to 100% at most, which no database
    constraint can say; one prize a place or division (the database holds that too); and a prize
    already paid out stays as it was."""
    tournament = Tournament.objects.select_for_update().get(pk=prize.tournament_id)
    if prize.pk and Payout.objects.filter(prize_id=prize.pk, paid_at__isnull=False).exists():
        raise ValidationError(f"The {prize} prize has been paid out, so it stays as it was.", code="paid")
    if prize.share_percent is not None:
        others = tournament.prizes.exclude(pk=prize.pk).filter(share_percent__isnull=False)
        total = sum((p.share_percent for p in others), Decimal("0")) + prize.share_percent
        if total > 100:
            message = f"The prizes' shares would add up to {total}% of the fees; they can share out 100% at most."
            raise ValidationError({"share_percent": message}, code="shares_over_100")
    prize.full_clean()
    prize.save()
    return prize


@transaction.atomic
def remove_prize(*, prize: Prize) -> None:
    """Remove a prize and its unpaid payouts; one already paid stays on the record."""
    prize = Prize.objects.select_for_update().get(pk=prize.pk)
    if prize.payouts.select_for_update().filter(paid_at__isnull=False).exists():
        raise ValidationError(f"The {prize} prize has been paid out, so it stays on the record.", code="paid")
    prize.payouts.all().delete()
    prize.delete()


@transaction.atomic
def mark_payout_paid(*, payout: Payout, received_by: str, method: str = Payment.Method.CASH, by: User = None) -> None:
    """Record ``payout`` handed to ``received_by``, paid by ``method`` (the drawer it comes out of)."""
    payout = Payout.objects.select_for_update().get(pk=payout.pk)
    if payout.paid_at is not None:
        raise ValidationError("This prize has already been paid.", code="already_paid")
    payout.paid_at, payout.received_by, payout.method, payout.recorded_by = timezone.now(), received_by, method, by
    payout.full_clean(validate_unique=False, validate_constraints=False)
    payout.save(update_fields=["paid_at", "received_by", "method", "recorded_by"])


# --- who runs the event -------------------------------------------------------------------------


@transaction.atomic
def add_assistant(*, tournament: Tournament, username: str, by: User = None) -> Membership:
    """Make the director's user ``username`` an assistant of ``tournament`` (rounds, hands and
    corrections; no money, no rules: see :mod:`tournament.access`). A user who is unknown, cannot
    log in to the director's pages, or already runs the event is refused, naming the field."""
    model = get_user_model()
    user = model.objects.filter(**{model.USERNAME_FIELD: username.strip()}).first()
    if user is None:
        _username_error(f"No user is called {username.strip()!r}.", "unknown_user")
    name = user.get_username()
    if not (user.is_active and user.is_staff):
        _username_error(f"{name} cannot log in to the director's pages (not an active staff user).", "not_staff")
    role = access.role_of(user, tournament.pk)
    if user.is_superuser or role == Membership.Role.DIRECTOR:
        _username_error(f"{name} directs this event already (an assistant can do less).", "director")
    if role == Membership.Role.ASSISTANT:
        _username_error(f"{name} is an assistant already.", "already_assistant")
    return access.grant(tournament=tournament, user=user, role=Membership.Role.ASSISTANT)


def _username_error(message: str, code: str) -> NoReturn:
    raise ValidationError({"username": ValidationError(message, code=code)})


@transaction.atomic
def remove_assistant(*, tournament: Tournament, user_id: int, by: User = None) -> None:
    """``user_id`` no longer assists at ``tournament`` (a director stays: this removes assistants only)."""
    removed, _ = Membership.objects.filter(
        tournament=tournament, user_id=user_id, role=Membership.Role.ASSISTANT
    ).delete()
    if not removed:
        raise ValidationError("That user is not an assistant of this event.", code="not_assistant")
