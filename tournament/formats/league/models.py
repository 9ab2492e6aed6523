"""A league season's settings: how often teams meet, the tiebreakers, the championship, the fee.

The championship's matches (best of N, the final's rule set, a third-place match) are played by
the bracket's settings (:class:`tournament.formats.knockout.models.KnockoutSettings`), as are the
league's own matches' best of N.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q

from tournament.formats.league.table import DEFAULT_TIEBREAKERS, Tiebreaker
from tournament.models import Tournament


class LeagueSettings(models.Model):
    """How a league's season is played. A tournament without a row plays by the defaults."""

    class FeePer(models.TextChoices):
        SEASON = "season", "For the season"
        NIGHT = "night", "For each night a team plays"

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="league_settings")
    legs = models.PositiveSmallIntegerField(
        choices=[(1, "Once"), (2, "Twice: home and away")], default=1, help_text="How often each pair meets."
    )
    tiebreakers = models.CharField(
        max_length=80,
        blank=True,
        default=",".join(DEFAULT_TIEBREAKERS),
        help_text="The tiebreakers after matches won and lost, in order.",
    )
    championship_teams = models.PositiveSmallIntegerField(
        choices=[(0, "No championship"), (2, "Top two: a final"), (4, "Top four: semi-finals, then a final")],
        default=2,
        help_text="Who plays the championship after the season.",
    )
    fee_per = models.CharField(max_length=10, choices=FeePer, default=FeePer.SEASON, verbose_name="Entry fee is")

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(legs__in=[1, 2]), name="league_legs_1_or_2"),
            models.CheckConstraint(condition=Q(championship_teams__in=[0, 2, 4]), name="league_championship_0_2_4"),
        ]

    def __str__(self) -> str:
        return f"League settings of {self.tournament}"

    @property
    def league_tiebreakers(self) -> tuple[Tiebreaker, ...]:
        return tuple(Tiebreaker(name) for name in self.tiebreakers.split(",") if name)

    def clean(self) -> None:
        names = [name for name in self.tiebreakers.split(",") if name]
        if not set(names) <= {t.value for t in Tiebreaker} or len(set(names)) != len(names):
            raise ValidationError(
                {"tiebreakers": "Tiebreakers: each of " + ", ".join(Tiebreaker) + " at most once."},
                code="tiebreakers",
            )


def settings_of(tournament: Tournament) -> LeagueSettings:
    """``tournament``'s league settings (the defaults, unsaved, if it has none). Django keeps the row
    on the instance once read, so asking again costs no query."""
    if tournament.pk is None:
        return LeagueSettings()
    try:
        return tournament.league_settings
    except LeagueSettings.DoesNotExist:
        return LeagueSettings(tournament=tournament)
