"""Writes to a club: its people and its settings. Each takes the club's lock first
(:func:`tournament.locking.lock_club`)."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from tournament.locking import lock_club
from tournament.models import Club, ClubMember


@transaction.atomic
def create_club(*, name: str, owner: Any, time_zone: str | None = None, currency: str = "$") -> Club:
    """A new club with ``owner`` as its owner."""
    fields = {"name": name, "currency": currency} | ({"time_zone": time_zone} if time_zone else {})
    club = Club.objects.create(**fields)
    ClubMember.objects.create(club=club, user=owner, role=ClubMember.Role.OWNER)
    return club


@transaction.atomic
def grant(*, club: Club, user: Any, role: str) -> ClubMember:
    """Make ``user`` a member of ``club`` in ``role`` (changing the role they had)."""
    lock_club(club.pk)
    member, _ = ClubMember.objects.update_or_create(club=club, user=user, defaults={"role": role})
    return member
