"""A bracket's settings: the knockout's, and a league's championship (a small knockout) too."""

from __future__ import annotations

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q

from tournament.models import BEST_OF, PRESET_CHOICES, Tournament


class KnockoutSettings(models.Model):
    """How a tournament's bracket is played. A tournament without a row plays by the defaults."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="knockout_settings")
    third_place_match = models.BooleanField(
        default=False, help_text="Single elimination: the semi-final losers play for third place."
    )
    best_of = models.PositiveSmallIntegerField(
        choices=BEST_OF, default=1, help_text="Matches before the final: games a match is the best of."
    )
    final_best_of = models.PositiveSmallIntegerField(choices=BEST_OF, default=1, verbose_name="Final: best of")
    final_preset = models.CharField(
        max_length=40,
        choices=PRESET_CHOICES,
        blank=True,
        verbose_name="Final's rule set",
        help_text="The final can be played under another rule set (blank: the same as the rest).",
    )
    tables_available = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(500)],
        help_text="Tables the venue has; matches wait for a free one (blank: as many as needed).",
    )

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(best_of__in=[1, 3, 5]), name="knockout_best_of_1_3_5"),
            models.CheckConstraint(condition=Q(final_best_of__in=[1, 3, 5]), name="knockout_final_best_of_1_3_5"),
        ]

    def __str__(self) -> str:
        return f"Bracket settings of {self.tournament}"


def settings_of(tournament: Tournament) -> KnockoutSettings:
    """``tournament``'s bracket settings (the defaults, unsaved, if it has none). Django keeps the
    row on the instance once read, so asking again costs no query."""
    if tournament.pk is None:
        return KnockoutSettings()
    try:
        return tournament.knockout_settings
    except KnockoutSettings.DoesNotExist:
        return KnockoutSettings(tournament=tournament)
