"""A printed document: its PDF, kept so that printing it again is instant."""

from __future__ import annotations

import datetime

from django.db import models
from django.db.models import Q
from django.utils import timezone

from tournament.models.events import Tournament


class PrintJob(models.Model):
    """A PDF queued, rendering, rendered or failed, keyed by a hash of its HTML: unchanged data
    is served again without rendering, and a long batch reports its progress.

    A worker rendering a job holds its lease (``lease_owner`` until ``lease_until``), renewed as
    each chunk finishes. A rendering job whose lease ran out lost its worker (killed, or its
    machine went away); see :mod:`tournament.printing.jobs` for how it is taken over."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Waiting for the print worker"
        RENDERING = "rendering", "Rendering"
        DONE = "done", "Ready"
        FAILED = "failed", "Failed"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="print_jobs")
    document = models.CharField(max_length=40)
    title = models.CharField(max_length=200)
    key = models.CharField(max_length=64, unique=True)
    status = models.CharField(max_length=10, choices=Status, default=Status.QUEUED)
    chunks_done = models.PositiveIntegerField(default=0)
    chunks_total = models.PositiveIntegerField(default=1)
    pdf = models.BinaryField(null=True, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    # When the job last went into the queue (made, taken over, retried): how long it has waited.
    queued_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    lease_owner = models.CharField(max_length=32, blank=True)
    lease_until = models.DateTimeField(null=True, blank=True)
    # Until the job is done: the HTML chunks to render (again, after a takeover) from.
    html = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.title} ({self.get_status_display()})"

    @staticmethod
    def lease_expired() -> Q:
        """Rendering jobs whose worker stopped renewing its lease (none taken counts as run out)."""
        return Q(status=PrintJob.Status.RENDERING) & (Q(lease_until__lt=timezone.now()) | Q(lease_until__isnull=True))

    @property
    def percent(self) -> int:
        return round(100 * self.chunks_done / max(1, self.chunks_total))

    @property
    def is_pending(self) -> bool:
        """Queued or rendering: the page keeps asking how it goes."""
        return self.status in (self.Status.QUEUED, self.Status.RENDERING)

    @property
    def is_queued(self) -> bool:
        return self.status == self.Status.QUEUED

    @property
    def is_failed(self) -> bool:
        return self.status == self.Status.FAILED

    def waited(self) -> datetime.timedelta:
        return timezone.now() - self.queued_at
