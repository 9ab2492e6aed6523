"""What the results checks keep: a director's "checked" on a flag, and what each table's phone
reported when its round closed (the phone's own report changes after, so it is kept then)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from tournament.models import Round, Table


class FlagCheck(models.Model):
    """A flag of ``round`` marked checked, by its key (:attr:`tournament.review.detect.Flag.key`):
    a flag found again with the same key stays checked; a new finding has a new key."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="flag_checks")
    key = models.CharField(max_length=200)
    checked_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    checked_at = models.DateTimeField(default=timezone.now)
    note = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["round", "checked_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["round", "key"], name="flag_checked_once_per_round"),
            models.CheckConstraint(condition=~Q(key=""), name="flag_check_has_key"),
        ]

    def __str__(self) -> str:
        return f"{self.round}: {self.key} checked"


class PhoneAtClose(models.Model):
    """How many hands a table's phone last reported waiting to be sent when ``round`` closed."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="phones_at_close")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    waiting = models.PositiveSmallIntegerField(default=0)
    heard_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round", "table__number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "table"], name="one_phone_report_per_table_at_close"),
        ]

    def __str__(self) -> str:
        return f"{self.round}, {self.table}: {self.waiting} waiting at close"
