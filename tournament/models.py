"""The tournament's records. Scoring rules live in :mod:`scoring`; a tournament stores only
its preset's name and the fields it overrides."""

from __future__ import annotations

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q

from scoring.rules import PRESETS, InvalidRules, RuleSet, rules_from_json

PRESET_CHOICES = [(name, preset.title) for name, preset in PRESETS.items()]


class Tournament(models.Model):
    class Format(models.TextChoices):
        PROGRESSIVE_SPLIT = "progressive_split", "Progressive tables, partners split (individual scores)"
        PROGRESSIVE_FIXED = "progressive_fixed", "Progressive tables, fixed partners (team scores)"

    class Status(models.TextChoices):
        REGISTRATION = "registration", "Registration open"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    name = models.CharField(max_length=120)
    date = models.DateField()
    venue = models.CharField(max_length=200, blank=True)
    preset = models.CharField(max_length=40, choices=PRESET_CHOICES)
    rule_overrides = models.JSONField(default=dict, blank=True)
    format = models.CharField(max_length=30, choices=Format, default=Format.PROGRESSIVE_SPLIT)
    entry_fee = models.DecimalField(
        max_digits=8, decimal_places=2, default=Decimal("0.00"), validators=[MinValueValidator(Decimal("0"))]
    )
    status = models.CharField(max_length=20, choices=Status, default=Status.REGISTRATION)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "name"]
        constraints = [
            models.CheckConstraint(condition=Q(entry_fee__gte=0), name="tournament_entry_fee_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.date:%Y-%m-%d})"

    @property
    def rules(self) -> RuleSet:
        """The rule set this tournament scores by: its preset with its overrides applied."""
        return rules_from_json({"preset": self.preset, **self.rule_overrides})

    def clean(self) -> None:
        try:
            self.rules  # noqa: B018 - building the rule set is the check
        except InvalidRules as error:
            raise ValidationError({"rule_overrides": f"{error.field}: {error.message}"}) from None


class Team(models.Model):
    """A couple that registers and pays together; in split-partner events they play apart."""

    class Status(models.TextChoices):
        ACTIVE = "active", "Playing"
        WITHDRAWN = "withdrawn", "Withdrawn"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams")
    number = models.PositiveIntegerField(help_text="Registration order, from 1.")
    status = models.CharField(max_length=20, choices=Status, default=Status.ACTIVE)
    checked_in = models.BooleanField(default=False)
    registered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="team_number_unique_in_tournament"),
        ]

    def __str__(self) -> str:
        names = " & ".join(player.name for player in self.players.all())
        return f"Team {self.number}: {names}" if names else f"Team {self.number}"


class Player(models.Model):
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=80)
    division = models.CharField(
        max_length=40, blank=True, help_text='For category prizes, such as "female" for high female.'
    )

    class Meta:
        ordering = ["team", "id"]

    def __str__(self) -> str:
        return self.name
