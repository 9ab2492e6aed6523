"""A hand's history: every change made to it, and the disputes raised on it."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from tournament.models.play import HAND_FIELDS, Hand


class HandRevision(models.Model):
    """Every entry and change of a hand: who, when, the values before and after."""

    class Source(models.TextChoices):
        TABLE = "table", "Table scorekeeper"
        DIRECTOR = "director", "Director"

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="revisions")
    source = models.CharField(max_length=20, choices=Source)
    changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    changed_at = models.DateTimeField(default=timezone.now)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField()

    class Meta:
        ordering = ["hand", "changed_at", "id"]

    def __str__(self) -> str:
        return f"{self.hand} by {self.get_source_display()} at {timezone.localtime(self.changed_at):%H:%M:%S}"

    def changes(self) -> list[tuple[str, object, object]]:
        """(field in words, before, after) for each value this revision changed."""
        if not self.before:
            return []
        return [
            (field.replace("_", " "), self.before.get(field), self.after.get(field))
            for field in HAND_FIELDS
            if self.before.get(field) != self.after.get(field)
        ]


class Dispute(models.Model):
    """A hand disputed at the table, and how the director settled it: who and when, both ways."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="disputes")
    note = models.CharField(max_length=300)
    raised_from = models.CharField(max_length=20, choices=HandRevision.Source, default=HandRevision.Source.TABLE)
    raised_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    raised_at = models.DateTimeField(default=timezone.now)
    resolution = models.CharField(max_length=300, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["raised_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(resolved_at__isnull=True, resolution="") | Q(resolved_at__isnull=False) & ~Q(resolution=""),
                name="dispute_resolved_with_words",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.hand}: {self.note}"

    @property
    def is_open(self) -> bool:
        return self.resolved_at is None
