"""A printed document: its PDF, kept so that printing it again is instant."""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from tournament.models.events import Tournament


class PrintJob(models.Model):
    """A rendered (or rendering) PDF, keyed by a hash of its HTML: unchanged data is served
    again without rendering, and a long batch reports its progress."""

    class Status(models.TextChoices):
        RUNNING = "running", "Rendering"
        DONE = "done", "Ready"
        FAILED = "failed", "Failed"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="print_jobs")
    document = models.CharField(max_length=40)
    title = models.CharField(max_length=200)
    key = models.CharField(max_length=64, unique=True)
    status = models.CharField(max_length=10, choices=Status, default=Status.RUNNING)
    chunks_done = models.PositiveIntegerField(default=0)
    chunks_total = models.PositiveIntegerField(default=1)
    pdf = models.BinaryField(null=True, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    # While rendering: beaten every few seconds, and the HTML chunks to render again from if the
    # process stops (see tournament.printing.jobs).
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    html = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.title} ({self.get_status_display()})"

    @property
    def percent(self) -> int:
        return round(100 * self.chunks_done / max(1, self.chunks_total))

    @property
    def is_running(self) -> bool:
        return self.status == self.Status.RUNNING

    @property
    def is_failed(self) -> bool:
        return self.status == self.Status.FAILED
