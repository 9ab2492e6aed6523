"""``/health/``: what a load balancer or a monitor probes. It answers 200 when every check passes
and 500 naming the failed one otherwise; as an HTML table, or JSON (``?format=json`` or
``Accept: application/json``) with one key a check. It needs no login and says nothing secret.

- ``/health/`` checks the database, the cache, the backups' storage (a file written, read and
  deleted) and the task queue (:class:`TaskBacklog`: no task waiting longer than
  ``SPADES_TASK_BACKLOG_MINUTES`` for a worker).
- ``/health/server/`` checks only what one app server needs to answer pages (database, cache,
  storage): a balancer probing it drops a broken app server, not every app server at once when
  the workers stop."""

from __future__ import annotations

import dataclasses
import datetime
import uuid

from django.conf import settings
from django.db.models import Q
from django.utils import timezone
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult, get_date_max
from health_check.base import HealthCheck
from health_check.checks import Cache, Database, Storage
from health_check.exceptions import ServiceWarning
from health_check.views import HealthCheckView


@dataclasses.dataclass
class TaskBacklog(HealthCheck):
    """Fails when a queued task (a print, a backup) has waited longer than ``minutes`` for a
    worker (``manage.py db_worker``): no worker is running, or they cannot keep up. A task
    deferred to a later time waits from that time on."""

    minutes: int = dataclasses.field(default_factory=lambda: settings.SPADES_TASK_BACKLOG_MINUTES)

    def run(self) -> None:
        waited = self.late_tasks()
        if waited:
            tasks = "task has" if waited == 1 else "tasks have"
            raise ServiceWarning(
                f"{waited} {tasks} waited more than {self.minutes} minutes for a worker: "
                "is `manage.py db_worker` running?"
            )

    def late_tasks(self) -> int:
        """How many queued tasks have waited longer than ``minutes``."""
        since = timezone.now() - datetime.timedelta(minutes=self.minutes)
        # A task queued to run at once carries the latest possible time as its run_after.
        waiting = Q(run_after=get_date_max(), enqueued_at__lt=since) | Q(run_after__lt=since)
        return DBTaskResult.objects.filter(waiting, status=TaskResultStatus.READY).count()


@dataclasses.dataclass
class BackupStorage(Storage):
    """The backups' storage takes a file, gives it back and deletes it. The probe file sits at the
    top of the folder, so no empty folder is left among the backups."""

    alias: str = "backups"

    def get_file_name(self) -> str:
        return f"health-check-{uuid.uuid4().hex}.txt"


SERVER_CHECKS = [Database, Cache, BackupStorage]

everything = HealthCheckView.as_view(checks=[*SERVER_CHECKS, TaskBacklog])
server = HealthCheckView.as_view(checks=SERVER_CHECKS)
