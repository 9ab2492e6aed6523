"""Money in and out: fees paid and refunded, prizes defined and worked out, payouts handed over.

Every function is keyword-only, atomic and takes the tournament's lock first
(:mod:`tournament.locking`): two desks taking money for one event wait for each other, so a
team never pays past what it owes and a prize is never paid twice. A mistake the user can fix
raises :class:`~django.core.exceptions.ValidationError` naming the field.
"""

from __future__ import annotations

from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from tournament.clubs.locale import format_money
from tournament.locking import lock_tournament
from tournament.models import Payment, Payout, Prize, Team, Tournament
from tournament.money.ledger import fees_due, team_paid
from tournament.money.winners import standing_awards

User = AbstractBaseUser | None


@transaction.atomic
def record_payment(*, team: Team, amount: Decimal, kind: str, method: str, note: str = "", by: User = None) -> Payment:
    """Record money in (a payment, never more than the team still owes of its fees, so the
    prizes' pool holds no money owed back) or out (a refund, never more than the team has paid)."""
    tournament = lock_tournament(team.tournament_id)
    team = Team.objects.get(pk=team.pk)
    paid = team_paid(team)
    if kind == Payment.Kind.REFUND and amount > paid:
        message = f"A refund cannot exceed what the team has paid ({format_money(paid, tournament.club.currency)})."
        raise ValidationError({"amount": ValidationError(message, code="refund_too_large")})
    owed = max(fees_due(tournament)[team.pk] - paid, Decimal("0.00"))
    if kind == Payment.Kind.PAYMENT and amount > owed:
        sums = [format_money(value, tournament.club.currency) for value in (owed, owed + paid, paid)]
        message = (
            f"A payment cannot be more than the team still owes of its fees: {sums[0]} at most "
            f"(due {sums[1]}, paid {sums[2]})."
        )
        raise ValidationError({"amount": ValidationError(message, code="overpayment")})
    return Payment.objects.create(team=team, kind=kind, amount=amount, method=method, note=note, recorded_by=by)


@transaction.atomic
def award_prizes(*, tournament: Tournament) -> list[Payout]:
    """Work out every prize's winners from the standings and record them as payouts to make.

    Refused once any payout has been paid, so money handed over is never re-assigned.
    """
    tournament = lock_tournament(tournament.pk)
    if tournament.status != Tournament.Status.FINISHED:
        raise ValidationError("Prizes are worked out once the last round has closed.", code="not_finished")
    payouts = Payout.objects.filter(prize__tournament=tournament)
    if payouts.filter(paid_at__isnull=False).exists():
        raise ValidationError("Prizes have already been paid out; they can no longer be re-assigned.", code="paid")
    payouts.delete()
    now = standing_awards(tournament)
    return Payout.objects.bulk_create(
        Payout(prize_id=a.prize_id, amount=a.amount, **{now.field: a.entrant}) for a in now.awards if a.amount > 0
    )


@transaction.atomic
def save_prize(*, prize: Prize) -> Prize:
    """Add or change a prize. Under the tournament's lock (two desks adding prizes at once wait
    for each other): the prizes' shares of the fees add up to 100% at most, which no database
    constraint can say; one prize a place or division (the database holds that too); and a prize
    already paid out stays as it was."""
    tournament = lock_tournament(prize.tournament_id)
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
    lock_tournament(prize.tournament_id)
    prize = Prize.objects.get(pk=prize.pk)
    if prize.payouts.filter(paid_at__isnull=False).exists():
        raise ValidationError(f"The {prize} prize has been paid out, so it stays on the record.", code="paid")
    prize.payouts.all().delete()
    prize.delete()


@transaction.atomic
def mark_payout_paid(*, payout: Payout, received_by: str, method: str = Payment.Method.CASH, by: User = None) -> None:
    """Record ``payout`` handed to ``received_by``, paid by ``method`` (the drawer it comes out of)."""
    lock_tournament(payout.prize.tournament_id)
    payout = Payout.objects.get(pk=payout.pk)
    if payout.paid_at is not None:
        raise ValidationError("This prize has already been paid.", code="already_paid")
    payout.paid_at, payout.received_by, payout.method, payout.recorded_by = timezone.now(), received_by, method, by
    payout.full_clean(validate_unique=False, validate_constraints=False)
    payout.save(update_fields=["paid_at", "received_by", "method", "recorded_by"])
