"""The money read back: each team's fees due and paid, the ledger of the event, the drawer by method.

A fixed handful of queries however many teams there are.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Count, Q, Sum

from tournament.formats.registry import format_of
from tournament.models import Payment, Payout, Team, Tournament
from tournament.money.prizes import prize_amounts

ZERO = Decimal("0.00")


@dataclass(frozen=True)
class Ledger:
    fees_expected: Decimal
    payments: Decimal
    refunds: Decimal
    owed_back: Decimal  # what teams paid beyond their fees, net of refunds: theirs, not the pool's
    prizes_promised: Decimal  # the prizes' amounts as defined, or once worked out, as awarded
    prizes_awarded: Decimal
    paid_out: Decimal
    outstanding_fees: Decimal

    @property
    def collected(self) -> Decimal:
        return self.payments - self.refunds

    @property
    def fees_paid(self) -> Decimal:
        """The fees due and paid: the pool a prize's "% of fees" shares, never a team's excess."""
        return self.collected - self.owed_back

    @property
    def prizes_unpaid(self) -> Decimal:
        return self.prizes_awarded - self.paid_out

    @property
    def house(self) -> Decimal:
        """What stays with the house once every awarded prize is paid (negative: the house pays)."""
        return self.fees_paid - self.prizes_awarded

    @property
    def house_pays(self) -> Decimal:
        """What the house pays out of its own pocket for the prizes awarded (zero when the fees cover them)."""
        return max(ZERO, -self.house)

    @property
    def shortfall(self) -> Decimal:
        """How far the prizes promised exceed the fees paid (zero when the fees cover them)."""
        return max(ZERO, self.prizes_promised - self.fees_paid)


def ledger(tournament: Tournament) -> Ledger:
    money = Payment.objects.filter(team__tournament=tournament).aggregate(
        payments=Sum("amount", filter=Q(kind=Payment.Kind.PAYMENT)),
        refunds=Sum("amount", filter=Q(kind=Payment.Kind.REFUND)),
    )
    payouts = Payout.objects.filter(prize__tournament=tournament).aggregate(
        count=Count("id"), awarded=Sum("amount"), paid=Sum("amount", filter=Q(paid_at__isnull=False))
    )
    teams = teams_with_balance(tournament)
    collected = (money["payments"] or ZERO) - (money["refunds"] or ZERO)
    owed_back = sum((team.owed_back for team in teams), ZERO)
    awarded = payouts["awarded"] or ZERO
    return Ledger(
        outstanding_fees=sum((team.owed for team in teams), ZERO),
        fees_expected=sum((team.due for team in teams if team.status == Team.Status.ACTIVE), ZERO),
        payments=money["payments"] or ZERO,
        refunds=money["refunds"] or ZERO,
        owed_back=owed_back,
        prizes_promised=awarded if payouts["count"] else _prizes_defined(tournament, collected - owed_back),
        prizes_awarded=awarded,
        paid_out=payouts["paid"] or ZERO,
    )


def _prizes_defined(tournament: Tournament, pool: Decimal) -> Decimal:
    fixed, shares = {}, {}
    for pk, amount, share in tournament.prizes.values_list("pk", "amount", "share_percent"):
        if amount is not None:
            fixed[pk] = amount
        else:
            shares[pk] = share
    return sum(prize_amounts(fixed, shares, pool).values(), ZERO)


@dataclass(frozen=True)
class MethodTotal:
    method: str  # the method in words
    payments: Decimal
    refunds: Decimal
    paid_out: Decimal  # prizes handed over this way

    @property
    def net(self) -> Decimal:
        return self.payments - self.refunds - self.paid_out


def payment_entries(tournament: Tournament) -> list[Payment]:
    """Every payment and refund of the event in the order recorded, with its team and recorder."""
    payments = Payment.objects.filter(team__tournament=tournament)
    return list(payments.select_related("team", "recorded_by").prefetch_related("team__players"))


def totals_by_method(tournament: Tournament) -> list[MethodTotal]:
    """Money in and out for each method used (cash first, to count the drawer against): fees in,
    refunds and prizes paid out."""
    sums = (
        Payment.objects.filter(team__tournament=tournament)
        .values("method")
        .annotate(
            payments=Sum("amount", filter=Q(kind=Payment.Kind.PAYMENT)),
            refunds=Sum("amount", filter=Q(kind=Payment.Kind.REFUND)),
        )
    )
    found = {row["method"]: row for row in sums}
    paid = Payout.objects.filter(prize__tournament=tournament, paid_at__isnull=False)
    paid_out = dict(paid.values("method").annotate(total=Sum("amount")).values_list("method", "total"))
    return [
        MethodTotal(
            label,
            found.get(value, {}).get("payments") or ZERO,
            found.get(value, {}).get("refunds") or ZERO,
            paid_out.get(value, ZERO),
        )
        for value, label in Payment.Method.choices
        if value in found or value in paid_out
    ]


def team_paid(team: Team) -> Decimal:
    """What a team has paid, net of refunds."""
    money = Payment.objects.filter(team=team).aggregate(
        payments=Sum("amount", filter=Q(kind=Payment.Kind.PAYMENT)),
        refunds=Sum("amount", filter=Q(kind=Payment.Kind.REFUND)),
    )
    return (money["payments"] or ZERO) - (money["refunds"] or ZERO)


def fees_due(tournament: Tournament) -> dict[int, Decimal]:
    """Each team's fees so far: the entry fee as many times as the event's format says it is owed
    (once; a league paid by the night, once for each night the team has been seated)."""
    teams = list(tournament.teams.values_list("pk", flat=True))
    units = format_of(tournament).fee_units(tournament, teams)
    return {team: tournament.entry_fee * units[team] for team in teams}


def teams_with_balance(tournament: Tournament):
    """The tournament's teams with ``due`` (:func:`fees_due`), ``paid``, ``owed`` (due less net
    payments) and ``owed_back`` (net payments beyond what is due, say after the fee was lowered)
    attached."""
    teams = tournament.teams.prefetch_related("players").annotate(
        paid_in=Sum("payments__amount", filter=Q(payments__kind=Payment.Kind.PAYMENT)),
        refunded=Sum("payments__amount", filter=Q(payments__kind=Payment.Kind.REFUND)),
    )
    due = fees_due(tournament)
    out = []
    for team in teams:
        team.paid, team.due = (team.paid_in or ZERO) - (team.refunded or ZERO), due[team.pk]
        owed = team.due - team.paid if team.status == Team.Status.ACTIVE else ZERO
        team.owed = max(ZERO, owed)
        team.owed_back = max(ZERO, team.paid - team.due)
        out.append(team)
    return out
