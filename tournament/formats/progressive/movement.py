"""Progressive tables: each round's movement saved and read, round 1 seated, a closed round's
results moving players on, and the director's changes to a round not yet started.

Who sits where comes from the pure :mod:`.rotation`; this module loads its values from the
records and saves what it returns. Every write here runs under the tournament's lock, which
its caller (the core's round services, or this module's own entry points) takes first.
"""

from __future__ import annotations

import random

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import QuerySet

from scoring import Seat, Side
from scoring.seats import draw_first_dealer
from tournament.formats.progressive import rotation
from tournament.locking import lock_tournament
from tournament.models import (
    Game,
    Player,
    Round,
    RoundNotReady,
    Seating,
    SeatingChange,
    SitOut,
    Table,
    Team,
    Tournament,
)

User = AbstractBaseUser | None
SPLIT = "progressive_split"
FIXED = "progressive_fixed"


def seat_first_round(*, tournament: Tournament, by: User = None) -> Round:
    """Seat round 1: the checked-in teams (every active team if none is checked in yet)."""
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


def close_round(round_: Round, *, called: str) -> Round | None:
    """Close a running round; seat the next (returned) unless it was the last one planned."""
    round_.close(called=called)
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
        split=tournament.format == SPLIT,
        absent=placed - present,
        arrivals=arrivals,
        history=history,
    )


def replan(tournament: Tournament, *, by: User, reason: str) -> None:
    """Seat again the round seated but not started, if there is one (a team arrived late, was
    removed or withdrew, or a result it follows changed), recording why."""
    round_ = tournament.rounds.filter(status=Round.Status.PLANNED).first()
    if round_ is None:
        return
    round_.tournament = tournament
    round_.seatings.all().delete()
    round_.sit_outs.all().delete()
    previous = tournament.rounds.filter(number=round_.number - 1).first()
    if previous is None:
        movement = rotation.first_round(_first_round_couples(tournament))
    else:
        previous.tournament = tournament
        movement = _next_movement(previous)
    _save_movement(round_, movement)
    SeatingChange.objects.create(round=round_, changed_by=by, description=f"{reason}: the round was re-seated.")


def result_changed(game: Game, *, by: User) -> str:
    """A correction changed the winner of ``game``, in a closed round: the next round follows it
    if it has not started. Returns what happened, in words for the director."""
    round_ = game.round
    following = Round.objects.filter(tournament_id=round_.tournament_id, number=round_.number + 1).first()
    table = f"Table {game.table.number}'s result in round {round_.number} changed"
    if following is None:
        return f"{table}; the standings follow it."
    if following.status == Round.Status.PLANNED:
        replan(round_.tournament, by=by, reason=table)
        return f"{table}: round {following.number}, not yet started, was re-seated to follow it."
    return f"{table}, but round {following.number} has started: its seating stays as it was."


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
    tournament = lock_tournament(round_.tournament_id)
    round_ = Round.objects.get(pk=round_.pk)
    round_.tournament = tournament
    if round_.status != Round.Status.PLANNED:
        raise ValidationError(f"{kind.capitalize()} can be swapped only before the round starts.", code="round_started")
    movement = load_movement(round_)
    placed = set(movement.seated()) | set(movement.sitting_out)
    chosen = {p.pk for pair in pairs for p in pair}
    if not pairs or any(a.pk == b.pk for a, b in pairs) or not chosen <= placed:
        raise ValidationError(f"Choose two different {kind} of this round.", code="not_in_round")
    for a, b in pairs:
        movement = rotation.swap(movement, a.pk, b.pk)
    round_.seatings.all().delete()
    round_.sit_outs.all().delete()
    _save_movement(round_, movement)
    SeatingChange.objects.create(round=round_, changed_by=by, description=f"Swapped {what}.")
