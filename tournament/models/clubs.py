"""A club: who owns events, a roster and its people, with its own time zone and currency.

Everything a director reaches goes through a club (:mod:`tournament.access` is the one place that
reads :class:`ClubMember`): its owner and directors run every event of the club, money and rules
included; its assistants run rounds and hands. A person may belong to several clubs.
"""

from __future__ import annotations

import datetime
import hashlib
import secrets
import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils import timezone


def validate_time_zone(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(
            f"{value!r} is not a time zone name such as Europe/London or America/Chicago.", code="unknown_time_zone"
        )


def default_time_zone() -> str:
    """A new club's zone: the server's (``DJANGO_TIME_ZONE``), read when the club is made."""
    return settings.TIME_ZONE


class Club(models.Model):
    """A card club: it owns its tournaments (:attr:`tournaments`), its roster (:attr:`roster`) and
    its people (:attr:`members`). Its time zone and currency symbol are used on every page, sheet
    and export of its events."""

    name = models.CharField(max_length=120)
    time_zone = models.CharField(
        max_length=64, default=default_time_zone, validators=[validate_time_zone],
        help_text="Times on the club's pages, sheets and exports, e.g. America/Chicago.",
    )  # fmt: skip
    currency = models.CharField(
        max_length=8, default="$", help_text="The symbol printed before amounts of money, e.g. $, £ or €."
    )
    # What the club chooses about its season and its results (tournament.seasons, tournament.review,
    # tournament.keying): ratings on its public pages, a round's flags checked before it shows,
    # paper sheets keyed twice.
    ratings_public = models.BooleanField(
        default=True, help_text="Players' ratings show on the club's public pages (always to its directors)."
    )
    publish_checked_only = models.BooleanField(
        default=False,
        help_text="The public pages and projector show a round's results only once every flag raised on it is checked.",
    )
    double_keying = models.BooleanField(
        default=False,
        help_text="A hand keyed from a paper sheet counts only once a second person keys the same values.",
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name", "id"]
        constraints = [models.CheckConstraint(condition=~Q(currency=""), name="club_has_a_currency_symbol")]

    def __str__(self) -> str:
        return self.name

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        return zoneinfo.ZoneInfo(self.time_zone)


class ClubMember(models.Model):
    """Someone who runs the club's events: its one owner, its directors and its assistants."""

    class Role(models.TextChoices):
        OWNER = "owner", "Owner (a director who also manages the club's people and settings)"
        DIRECTOR = "director", "Director (everything, money and rules included)"
        ASSISTANT = "assistant", "Assistant (rounds, hands and corrections; no money, no rules)"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_memberships")
    role = models.CharField(max_length=20, choices=Role, default=Role.DIRECTOR)
    joined_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["club", "role", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="one_membership_per_user_and_club"),
            models.UniqueConstraint(fields=["club"], condition=Q(role="owner"), name="one_owner_per_club"),
            models.CheckConstraint(
                condition=Q(role__in=["owner", "director", "assistant"]), name="club_member_role_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.role}) of {self.club}"


def token_digest(token: str) -> str:
    """What is stored of a link's secret: its SHA-256, so the database alone opens nothing."""
    return hashlib.sha256(token.encode()).hexdigest()


class Invitation(models.Model):
    """A one-use link that makes whoever opens it (with a new account, or logged in) a member of
    the club in ``role``; it expires at ``expires_at``. An owner invitation with no club yet is the
    first owner's (``manage.py first_owner``): it makes the club too."""

    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.CASCADE, related_name="invitations")
    club_name = models.CharField(max_length=120, blank=True, help_text="The club a first owner's link makes.")
    role = models.CharField(max_length=20, choices=ClubMember.Role)
    digest = models.CharField(max_length=64, unique=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=Q(club__isnull=False) | Q(role="owner"), name="invitation_names_a_club"),
            models.CheckConstraint(
                condition=Q(role__in=["owner", "director", "assistant"]), name="invitation_role_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.role} of {self.club or self.club_name}"

    @classmethod
    def issue(
        cls, *, club: Club | None, role: str, by: object = None, days: float = 7, club_name: str = ""
    ) -> tuple[Invitation, str]:
        """A new invitation and its secret token (shown once: only its digest is stored)."""
        token = secrets.token_urlsafe(32)
        invitation = cls.objects.create(
            club=club, club_name=club_name, role=role, digest=token_digest(token), created_by=by,
            expires_at=timezone.now() + datetime.timedelta(days=days),
        )  # fmt: skip
        return invitation, token

    @property
    def is_usable(self) -> bool:
        return self.used_at is None and timezone.now() < self.expires_at
