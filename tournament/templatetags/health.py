"""``{{ result.check|check_label }}``: a /health/ check in plain words on the page for people (the
JSON keeps the library's own names, which monitors match on)."""

from django import template
from health_check.base import HealthCheck
from health_check.checks import Cache, Database

from tournament.operations.health import BackupStorage, TaskBacklog

register = template.Library()

_LABELS: dict[type, str] = {Database: "Database", Cache: "Cache", BackupStorage: "Backup storage"}


@register.filter
def check_label(check: HealthCheck) -> str:
    """The check's name for a person: "Backup storage", "Task queue (waiting over 5 minutes)"; a
    check not named here keeps its class's name."""
    if isinstance(check, TaskBacklog):
        return f"Task queue (waiting over {check.minutes} minute{'' if check.minutes == 1 else 's'})"
    return _LABELS.get(type(check), type(check).__name__)
