"""One keying of a hand from a paper sheet, kept while the club keys sheets twice."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone

from tournament.models import Game, Hand


class Keying(models.Model):
    """Hand ``number`` (its ``deal``, after a misdeal) of ``game`` as one person keyed it from the
    paper sheet: ``values`` are the hand's fields as stored (:meth:`scoring.HandEntry.fields`).

    A first keying waits for a second by another person; equal values agree (and the hand is
    entered once every hand before it is), different values are a mismatch until a third keying
    agrees with one of them or both are discarded. Open keyings (waiting or in a mismatch) are
    one a person a hand."""

    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting for a second keying"
        MISMATCH = "mismatch", "Mismatch"
        AGREED = "agreed", "Agreed, waiting for the hands before it"
        ENTERED = "entered", "Entered"
        SET_ASIDE = "set_aside", "Set aside"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="keyings")
    number = models.PositiveSmallIntegerField(validators=[MinValueValidator(1)])
    deal = models.PositiveSmallIntegerField(default=1, validators=[MinValueValidator(1)])
    values = models.JSONField()
    keyed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    keyed_at = models.DateTimeField(default=timezone.now)
    status = models.CharField(max_length=10, choices=Status, default=Status.WAITING)
    hand = models.ForeignKey(Hand, null=True, blank=True, on_delete=models.SET_NULL, related_name="keyings")

    class Meta:
        ordering = ["game", "number", "deal", "keyed_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "number", "deal", "keyed_by"],
                condition=Q(status__in=["waiting", "mismatch"]),
                name="keying_one_open_per_person_and_hand",
            ),
            models.CheckConstraint(condition=Q(number__gte=1, deal__gte=1), name="keying_number_and_deal_from_1"),
            models.CheckConstraint(
                condition=Q(status__in=["waiting", "mismatch", "agreed", "entered", "set_aside"]),
                name="keying_status_known",
            ),
        ]
        indexes = [models.Index(fields=["game", "status"], name="keying_game_status")]

    def __str__(self) -> str:
        return f"{self.game}, hand {self.number}: {self.get_status_display().lower()}"
