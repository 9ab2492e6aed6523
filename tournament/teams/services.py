"""Registration: teams and their players, substitutes, withdrawals, and check-in with the fee.

Every function is keyword-only, atomic and takes the tournament's lock first
(:mod:`tournament.locking`). A change of who plays is told to the event's format
(:meth:`~tournament.formats.registry.EventFormat.entrants_changed`), which re-seats what it has seated but
not started.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F, Max, Q

from tournament.formats.registry import format_of
from tournament.locking import lock_tournament
from tournament.models import (
    Match,
    Payment,
    Player,
    RosterPlayer,
    Round,
    Seating,
    SeatingChange,
    SitOut,
    Team,
    Tournament,
    roster_key,
)
from tournament.money.ledger import fees_due, team_paid

User = AbstractBaseUser | None


@transaction.atomic
def register_team(
    *, tournament: Tournament, names: Sequence[str], divisions: Sequence[str] = ("", ""), by: User = None
) -> Team:
    """Register a couple; team numbers follow registration order even when two desks race.

    A couple registering once play has begun is a late arrival: present (checked in), it joins
    where the format puts arrivals (a progressive round seated but not started is re-seated at
    once to take it in; otherwise it joins when the next round is seated).
    """
    locked = lock_tournament(tournament.pk)
    if locked.status == Tournament.Status.FINISHED:
        raise ValidationError("Registration is closed: the tournament has finished.", code="finished")
    number = (locked.teams.aggregate(top=Max("number"))["top"] or 0) + 1
    late = locked.rounds.exists()
    team = Team.objects.create(tournament=locked, number=number, checked_in=late)
    Player.objects.bulk_create(
        Player(team=team, name=name.strip(), division=division.strip(), roster=roster_entry(locked.club_id, name))
        for name, division in zip(names, divisions, strict=True)
    )
    format_of(locked).entrants_changed(tournament=locked, reason=f"Team {number} arrived late", by=by)
    return team


def roster_entry(club_id: int, name: str) -> RosterPlayer:
    """The club's roster entry for ``name``: the one who played most recently under that name
    (picked from the list as it was typed), else a new entry."""
    key = roster_key(name)
    known = RosterPlayer.objects.filter(club_id=club_id, key=key).annotate(last=Max("entries__id"))
    found = known.order_by(F("last").desc(nulls_last=True)).first()
    return found or RosterPlayer.objects.create(club_id=club_id, name=" ".join(name.split()), key=key)


@transaction.atomic
def remove_team(*, team: Team, by: User = None) -> None:
    """Delete a team registered by mistake: only before round 1 starts, only with no money on
    record (a payment or refund stays in the ledger; withdraw the team instead) and only while it
    is in no match. Later teams move up a number so the numbers stay 1, 2, 3…; a seated round 1
    is re-seated without it."""
    tournament = lock_tournament(team.tournament_id)
    team = Team.objects.get(pk=team.pk)
    if tournament.rounds.exclude(status=Round.Status.PLANNED).exists():
        raise ValidationError(
            f"Team {team.number} cannot be removed once round 1 has started; withdraw it instead.", code="started"
        )
    if team.payments.exists():
        raise ValidationError(
            f"Team {team.number} has fees on record, which stay in the ledger; refund and withdraw it instead.",
            code="has_payments",
        )
    if Match.objects.filter(Q(home=team) | Q(away=team)).exists():
        raise ValidationError(f"Team {team.number} is in the schedule already; withdraw it instead.", code="scheduled")
    # Only rounds seated but not started can hold its players (checked above): the format seats them again.
    Seating.objects.filter(player__team=team).delete()
    SitOut.objects.filter(player__team=team).delete()
    number = team.number
    team.delete()
    for later in tournament.teams.filter(number__gt=number).order_by("number"):
        later.number -= 1
        later.save(update_fields=["number"])
    format_of(tournament).entrants_changed(tournament=tournament, reason=f"Team {number} was removed", by=by)


@transaction.atomic
def substitute_player(*, player: Player, substitute: str, from_round: int, by: User = None) -> None:
    """``substitute`` plays in ``player``'s place from round ``from_round`` to the end; what the
    substitute scores stays with ``player``'s entry. The round must not have closed."""
    tournament = lock_tournament(player.team.tournament_id)
    player = Player.objects.get(pk=player.pk)
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
    """Withdraw or reinstate a team (the format may refuse and say where that is done instead);
    the format re-seats what it has seated but not started."""
    tournament = lock_tournament(team.tournament_id)
    team = Team.objects.get(pk=team.pk)
    event_format = format_of(tournament)
    event_format.check_team_status(team=team, status=status)
    team.status = status
    team.save(update_fields=["status"])
    reason = f"Team {team.number} {team.get_status_display().lower()}"
    event_format.entrants_changed(tournament=tournament, reason=reason, by=by)


@transaction.atomic
def set_checked_in(*, team: Team, checked_in: bool) -> Team:
    """Tick or untick a team's check-in box; a withdrawn team (say, withdrawn since the page was
    loaded) is refused: it is reinstated first. Returns the team as stored."""
    lock_tournament(team.tournament_id)
    team = Team.objects.get(pk=team.pk)
    if team.is_withdrawn:
        raise ValidationError(
            f"Team {team.number} has withdrawn: reinstate it before checking it in.", code="withdrawn"
        )
    team.checked_in = checked_in
    team.save(update_fields=["checked_in"])
    return team


@transaction.atomic
def check_in_team(*, team: Team, method: str = "", by: User = None) -> Payment | None:
    """Mark a team present and, given a ``method``, take what it still owes of its fees in
    the same step (returned; None when nothing was owed or no method was given)."""
    tournament = lock_tournament(team.tournament_id)
    team = Team.objects.get(pk=team.pk)
    team.tournament = tournament
    team.checked_in = True
    team.save(update_fields=["checked_in"])
    owed = fees_due(tournament)[team.pk] - team_paid(team)
    if not method or owed <= 0:
        return None
    return Payment.objects.create(
        team=team, kind=Payment.Kind.PAYMENT, amount=owed, method=method, note="At check-in", recorded_by=by
    )
