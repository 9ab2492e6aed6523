"""An event and who is in it: the tournament, its teams and players, the club roster.

A tournament stores only its rule set's name and the fields it overrides (the rules live in
:mod:`scoring`), and the name of its format (a plug-in: see :mod:`tournament.formats`), whose
own settings the format keeps.
"""

from __future__ import annotations

import functools
import json
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone

from scoring import InvalidRules, RuleSet, rules_from_json
from scoring.presets import PRESETS

PRESET_CHOICES = [(name, preset.title) for name, preset in PRESETS.items()]
MONEY = {"max_digits": 10, "decimal_places": 2}


@functools.lru_cache(maxsize=64)
def rule_set(preset: str, overrides: str = "{}") -> RuleSet:
    """A rule set is a frozen value: every tournament (and request) on the same rules shares one."""
    return rules_from_json({"preset": preset, **json.loads(overrides)})


class Tournament(models.Model):
    class Status(models.TextChoices):
        REGISTRATION = "registration", "Registration open"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    class SeatingOrder(models.TextChoices):
        RANDOM = "random", "Random draw"
        REGISTRATION = "registration", "Registration order"
        DIRECTOR = "director", "Seeds set by the director (knockouts)"

    class PaperSize(models.TextChoices):
        LETTER = "letter", "US Letter"
        A4 = "A4", "A4"

    class PrizeTies(models.TextChoices):
        SHARE = "share", "Level on points: they share the prizes of the places they hold"
        TIEBREAK = "tiebreak", "The tiebreakers decide; only those level on all of them share"

    club = models.ForeignKey("Club", on_delete=models.PROTECT, related_name="tournaments")
    name = models.CharField(max_length=120)
    date = models.DateField(default=timezone.localdate)
    venue = models.CharField(max_length=200, blank=True)
    preset = models.CharField(max_length=40, choices=PRESET_CHOICES)
    rule_overrides = models.JSONField(default=dict, blank=True)
    # The formats are plug-ins (tournament.formats): the tournament form offers those registered.
    format = models.CharField(max_length=30, default="progressive_split")
    rounds_planned = models.PositiveSmallIntegerField(
        default=5, validators=[MinValueValidator(1), MaxValueValidator(50)]
    )
    entry_fee = models.DecimalField(**MONEY, default=Decimal("0.00"), validators=[MinValueValidator(Decimal("0"))])
    seating_order = models.CharField(max_length=20, choices=SeatingOrder, default=SeatingOrder.RANDOM)
    seating_seed = models.PositiveIntegerField(default=0, help_text="The random draw of round 1 is reproducible.")
    prize_ties = models.CharField(max_length=20, choices=PrizeTies, default=PrizeTies.SHARE)
    paper_size = models.CharField(max_length=10, choices=PaperSize, default=PaperSize.LETTER)
    require_confirmation = models.BooleanField(
        default=False, help_text="A player of the other side confirms each hand at the table before it counts."
    )
    status = models.CharField(max_length=20, choices=Status, default=Status.REGISTRATION)
    created_at = models.DateTimeField(auto_now_add=True)
    # When the event last changed: every write stamps it as it takes the tournament's lock
    # (tournament.locking), and the pages everyone watches are built again only once it has.
    changed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-date", "name"]
        constraints = [
            models.CheckConstraint(condition=Q(entry_fee__gte=0), name="tournament_entry_fee_not_negative"),
            models.CheckConstraint(condition=Q(rounds_planned__gte=1), name="tournament_plays_a_round"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.date:%Y-%m-%d})"

    @property
    def rules(self) -> RuleSet:
        """The rule set this tournament scores by: its preset with its overrides applied.

        Built once per instance and built again only when the preset or overrides change.
        """
        key = (self.preset, json.dumps(self.rule_overrides, sort_keys=True))
        cached = self.__dict__.get("_rules")
        if cached is None or cached[0] != key:
            cached = self.__dict__["_rules"] = (key, rule_set(*key))
        return cached[1]

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED

    @property
    def is_random_draw(self) -> bool:
        """Whether round 1 (or the bracket's seeding) is drawn at random, from ``seating_seed``."""
        return self.seating_order == self.SeatingOrder.RANDOM

    def clean(self) -> None:
        # A missing or unknown preset is the preset field's own error: the changes to it cannot
        # be checked then, and a second message under them would only repeat it.
        if self.preset in PRESETS:
            try:
                self.rules  # noqa: B018 - building the rule set is the check
            except InvalidRules as error:
                raise ValidationError({"rule_overrides": f"{error.field}: {error.message}"}) from None

    def current_round(self) -> models.Model | None:
        """The round being played or seated (a :class:`~tournament.models.play.Round`), if any."""
        return self.rounds.exclude(status="closed").order_by("number").first()

    def prize_divisions(self) -> frozenset[str]:
        """The divisions a division prize names: the only ones the standings show beside a name
        (a division no prize asks for says nothing about the game)."""
        return frozenset(self.prizes.filter(kind="division").values_list("division", flat=True))


class Team(models.Model):
    """A couple that registers and pays together; in split-partner events they play apart."""

    class Status(models.TextChoices):
        ACTIVE = "active", "Playing"
        WITHDRAWN = "withdrawn", "Withdrawn"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams")
    number = models.PositiveIntegerField(help_text="Registration order, from 1.")
    status = models.CharField(max_length=20, choices=Status, default=Status.ACTIVE)
    checked_in = models.BooleanField(default=False)
    seed = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1)], help_text="Knockouts: 1 is the top seed."
    )
    registered_at = models.DateTimeField(default=timezone.now)
    # Formats of numbered rounds: the round (a league's night) a late joiner's matches start, and the
    # round a withdrawn team stops being paired (a league's walkovers start then).
    joined_night = models.PositiveSmallIntegerField(null=True, blank=True)
    withdrawn_night = models.PositiveSmallIntegerField(null=True, blank=True)
    results_voided = models.BooleanField(default=False, help_text="League: a withdrawn team's played results voided.")

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="team_number_unique_in_tournament"),
        ]

    def __str__(self) -> str:
        return f"{self.number}. {self.names}"

    @property
    def names(self) -> str:
        return " & ".join(player.name for player in self.players.all())

    @property
    def is_withdrawn(self) -> bool:
        return self.status == self.Status.WITHDRAWN


def roster_key(name: str) -> str:
    """A name as the roster compares it: spacing and case do not matter."""
    return " ".join(name.split()).casefold()


class RosterPlayer(models.Model):
    """Someone who plays at the club, across events. Each event keeps its own copy of the name
    (:attr:`Player.name`), so renaming someone here never rewrites an event's record. Each club
    has its own roster: the same person at two clubs is two entries."""

    club = models.ForeignKey("Club", on_delete=models.CASCADE, related_name="roster")
    name = models.CharField(max_length=80)
    key = models.CharField(max_length=80, db_index=True, editable=False)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["key", "id"]

    def __str__(self) -> str:
        return self.name

    def rename(self, name: str) -> None:
        self.name, self.key = " ".join(name.split()), roster_key(name)
        self.save(update_fields=["name", "key"])


class Player(models.Model):
    """An entrant. A substitute may play in their place from a round on; what the substitute
    scores stays with this player (the entry), only the name at the table changes."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=80)
    division = models.CharField(
        max_length=40, blank=True, help_text='For category prizes, such as "female" for high female.'
    )
    roster = models.ForeignKey(
        RosterPlayer, null=True, blank=True, on_delete=models.SET_NULL, related_name="entries",
        help_text="The same person in other events.",
    )  # fmt: skip
    substitute = models.CharField(max_length=80, blank=True, help_text="Who plays in this player's place.")
    substitute_from = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The first round the substitute plays."
    )

    class Meta:
        ordering = ["team", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(substitute="", substitute_from__isnull=True)
                | (~Q(substitute="") & Q(substitute_from__gte=1)),
                name="player_substitute_has_a_first_round",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def name_in_round(self, number: int) -> str:
        """Who sits in this player's seat in round ``number``."""
        if self.substitute and self.substitute_from is not None and number >= self.substitute_from:
            return self.substitute
        return self.name
