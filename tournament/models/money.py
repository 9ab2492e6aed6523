"""Money: fees paid and refunded, the prizes a tournament pays and the payouts to their winners.

Amounts are :class:`~decimal.Decimal`, two decimals, in the club's currency throughout.
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils import timezone

from scoring import words
from tournament.clubs.locale import format_money
from tournament.models.events import MONEY, Player, Team, Tournament


class Payment(models.Model):
    class Kind(models.TextChoices):
        PAYMENT = "payment", "Payment"
        REFUND = "refund", "Refund"

    class Method(models.TextChoices):
        CASH = "cash", "Cash"
        CARD = "card", "Card"
        CHECK = "check", "Check"
        OTHER = "other", "Other"

    team = models.ForeignKey(Team, on_delete=models.RESTRICT, related_name="payments")
    kind = models.CharField(max_length=10, choices=Kind, default=Kind.PAYMENT)
    amount = models.DecimalField(**MONEY, validators=[MinValueValidator(Decimal("0.01"))])
    method = models.CharField(max_length=10, choices=Method, default=Method.CASH)
    note = models.CharField(max_length=200, blank=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)
    recorded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["recorded_at", "id"]
        constraints = [models.CheckConstraint(condition=Q(amount__gt=0), name="payment_amount_positive")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} of {format_money(self.amount)} for team {self.team.number}"

    @property
    def signed_amount(self) -> Decimal:
        """The amount as it moves the drawer: a refund counts against it."""
        return self.amount if self.kind == self.Kind.PAYMENT else -self.amount


class Prize(models.Model):
    """A prize the tournament pays: a fixed amount or a share of the fees collected."""

    class Kind(models.TextChoices):
        PLACE = "place", "Place in the standings"
        DIVISION = "division", "Highest in a division"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="prizes")
    kind = models.CharField(max_length=10, choices=Kind, default=Kind.PLACE)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    division = models.CharField(max_length=40, blank=True)
    name = models.CharField(
        max_length=60,
        blank=True,
        help_text='What the prize is called, e.g. "Ladies\' high"; else its place or division.',
    )
    amount = models.DecimalField(**MONEY, null=True, blank=True)
    share_percent = models.DecimalField(max_digits=5, decimal_places=2, null=True, blank=True)

    class Meta:
        ordering = ["tournament", "kind", "place", "division"]
        constraints = [
            models.CheckConstraint(
                condition=Q(amount__isnull=False, share_percent__isnull=True)
                | Q(amount__isnull=True, share_percent__isnull=False),
                name="prize_amount_or_share",
            ),
            models.CheckConstraint(
                condition=Q(amount__gte=0) | Q(amount__isnull=True), name="prize_amount_not_negative"
            ),
            models.CheckConstraint(
                condition=Q(share_percent__gt=0, share_percent__lte=100) | Q(share_percent__isnull=True),
                name="prize_share_0_100",
            ),
            models.CheckConstraint(
                condition=Q(kind="place", place__gte=1) | Q(kind="division") & ~Q(division=""),
                name="prize_place_or_division",
            ),
            models.UniqueConstraint(
                fields=["tournament", "place"],
                condition=Q(kind="place"),
                name="one_prize_per_place",
                violation_error_message="There is already a prize for this place.",
            ),
            models.UniqueConstraint(
                Lower("division"),
                "tournament",
                condition=Q(kind="division"),
                name="one_prize_per_division",
                violation_error_message="There is already a prize for this division.",
            ),
        ]

    def __str__(self) -> str:
        """The name the director gave the prize, else what it is for ("1st place", "High female")."""
        if self.name:
            return self.name
        return f"{ordinal(self.place)} place" if self.kind == self.Kind.PLACE else f"High {self.division}"


def ordinal(n: int | None) -> str:
    """A place as written ("1st", "22nd"); "" for none."""
    return "" if n is None else words.ordinal(n)


class Payout(models.Model):
    """Money a prize pays to one winner (a player or a team); ``paid_at`` once handed over, and
    ``method`` how (the drawer of that method pays it, as it took the fees)."""

    prize = models.ForeignKey(Prize, on_delete=models.RESTRICT, related_name="payouts")
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.RESTRICT, related_name="payouts")
    team = models.ForeignKey(Team, null=True, blank=True, on_delete=models.RESTRICT, related_name="payouts")
    amount = models.DecimalField(**MONEY)
    paid_at = models.DateTimeField(null=True, blank=True)
    received_by = models.CharField(max_length=120, blank=True)
    method = models.CharField(max_length=10, choices=Payment.Method, default=Payment.Method.CASH)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)

    class Meta:
        ordering = ["prize", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gte=0), name="payout_amount_not_negative"),
            models.CheckConstraint(
                condition=Q(player__isnull=False, team__isnull=True) | Q(player__isnull=True, team__isnull=False),
                name="payout_to_player_or_team",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.prize}: {format_money(self.amount)} to {self.recipient}"

    @property
    def recipient(self) -> str:
        return self.player.name if self.player_id else self.team.names
