"""A Swiss event's settings (rounds, the bye's score, the tiebreak order, games a pairing) and
the rounds a late team missed, with the score the director gave them."""

from __future__ import annotations

import math

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q

from tournament.formats.swiss.table import DEFAULT_TIEBREAKS, Tiebreak
from tournament.models import Team, Tournament

MAX_ROUNDS = 30


def suggested_rounds(teams: int) -> int:
    """Enough rounds to separate a winner: ⌈log2 teams⌉ + 1 (at least 1)."""
    return math.ceil(math.log2(teams)) + 1 if teams > 1 else 1


class SwissSettings(models.Model):
    """How a Swiss event is played. A tournament without a row plays by the defaults."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="swiss_settings")
    rounds = models.PositiveSmallIntegerField(
        default=4,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_ROUNDS)],
        help_text="Every team plays every round.",
    )
    bye_points_for = models.PositiveSmallIntegerField(
        default=0, validators=[MaxValueValidator(2000)], verbose_name="A bye scores",
        help_text="With an odd field one team sits out each round: a round won by this score.",
    )  # fmt: skip
    bye_points_against = models.PositiveSmallIntegerField(
        default=0, validators=[MaxValueValidator(2000)], verbose_name="to"
    )
    tiebreaks = models.CharField(
        max_length=80,
        blank=True,
        default=",".join(DEFAULT_TIEBREAKS),
        help_text="The tiebreaks after rounds won, in order.",
    )
    best_of = models.PositiveSmallIntegerField(
        choices=[(1, "One game"), (3, "Best of 3 games"), (5, "Best of 5 games")],
        default=1,
        verbose_name="Each pairing plays",
    )

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(best_of__in=[1, 3, 5]), name="swiss_best_of_1_3_5"),
            models.CheckConstraint(condition=Q(rounds__gte=1), name="swiss_plays_a_round"),
        ]

    def __str__(self) -> str:
        return f"Swiss settings of {self.tournament}"

    @property
    def swiss_tiebreaks(self) -> tuple[Tiebreak, ...]:
        return tuple(Tiebreak(name) for name in self.tiebreaks.split(",") if name)

    def clean(self) -> None:
        names = [name for name in self.tiebreaks.split(",") if name]
        if not set(names) <= {t.value for t in Tiebreak} or len(set(names)) != len(names):
            raise ValidationError(
                {"tiebreaks": "Tiebreaks: each of " + ", ".join(Tiebreak) + " at most once."}, code="tiebreaks"
            )


class LateEntry(models.Model):
    """A team that joined after round 1 was paired: the rounds before ``joined_round`` count as a
    loss each, or as the result the director gave them (the same for every missed round)."""

    team = models.OneToOneField(Team, on_delete=models.CASCADE, related_name="swiss_late_entry")
    joined_round = models.PositiveSmallIntegerField(validators=[MinValueValidator(2)])
    won = models.BooleanField(default=False, help_text="Each missed round counts as a round won.")
    points_for = models.PositiveSmallIntegerField(default=0, validators=[MaxValueValidator(2000)])
    points_against = models.PositiveSmallIntegerField(default=0, validators=[MaxValueValidator(2000)])

    def __str__(self) -> str:
        return f"Team {self.team.number} joined at round {self.joined_round}"

    @property
    def missed(self) -> int:
        return self.joined_round - 1


def settings_of(tournament: Tournament) -> SwissSettings:
    """``tournament``'s Swiss settings (the defaults, unsaved, if it has none); Django keeps the
    row on the instance once read."""
    if tournament.pk is None:
        return SwissSettings()
    try:
        return tournament.swiss_settings
    except SwissSettings.DoesNotExist:
        return SwissSettings(tournament=tournament)
