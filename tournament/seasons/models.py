"""A season: a club's events grouped, and the rule its standings are made by.

An event belongs to at most one season (a unique constraint): a season's standings then never
count one evening twice across seasons a player might compare, and a director moving an event
from one season to another sees it leave the first. Every event of a season is its club's (the
service checks it: a database constraint cannot reach across the two foreign keys).
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils import timezone

from tournament.models import Club, Tournament
from tournament.seasons.points import BEST_N, PLACES, TOTAL

DEFAULT_TABLE = [10, 8, 6, 5, 4, 3, 2, 1]


def default_table() -> list[int]:
    return list(DEFAULT_TABLE)


class Season(models.Model):
    class Rule(models.TextChoices):
        PLACES = PLACES, "Points by place at each event"
        TOTAL = TOTAL, "Total score over every event"
        BEST_N = BEST_N, "Points by place, best N events"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=80)
    rule = models.CharField(max_length=10, choices=Rule, default=Rule.PLACES)
    # Points by place, the winner's first: [10, 8, 6, 5, …]; a place past its end scores 0.
    points_table = models.JSONField(default=default_table)
    best_n = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="season_name_unique_in_club"),
            models.CheckConstraint(condition=~Q(name=""), name="season_has_a_name"),
            models.CheckConstraint(condition=Q(rule__in=[PLACES, TOTAL, BEST_N]), name="season_rule_valid"),
            models.CheckConstraint(condition=~Q(rule=BEST_N) | Q(best_n__gte=1), name="season_best_n_given_for_best_n"),
        ]

    def __str__(self) -> str:
        return self.name


class SeasonEvent(models.Model):
    """An event in a season (at most one season an event)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="season_events")
    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="season_event")

    class Meta:
        ordering = ["tournament__date", "tournament_id"]

    def __str__(self) -> str:
        return f"{self.tournament} in {self.season}"


class StoredPlaces(models.Model):
    """An event's places (:func:`tournament.standings.people.event_places`) as worked out when
    its ``changed_at`` was ``made_from``: derived data, read while the stamps are equal (see
    :mod:`tournament.seasons.places`). ``places`` holds one list an entrant:
    [place, total, entrant id, name, [roster ids or null], withdrawn]."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="stored_places")
    made_from = models.DateTimeField()
    individual = models.BooleanField()
    places = models.JSONField(default=list)

    def __str__(self) -> str:
        return f"places of {self.tournament_id} as of {self.made_from:%Y-%m-%d %H:%M:%S}"
