"""Writes to a club: its people and its settings. Each takes the club's lock first
(:func:`tournament.locking.lock_club`)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from tournament.locking import lock_club, lock_tournaments
from tournament.models import Club, ClubMember, Invitation
from tournament.models.clubs import token_digest

Role = ClubMember.Role


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


@transaction.atomic
def update_club(
    *,
    club_id: int,
    name: str,
    time_zone: str,
    currency: str,
    ratings_public: bool,
    publish_checked_only: bool,
    double_keying: bool,
) -> Club:
    """Save the club's settings: its name, time zone and currency symbol, whether its ratings are
    public, whether its rounds show publicly only once their flags are checked (tournament.review),
    and whether its paper sheets are keyed twice."""
    club = lock_club(club_id)
    if club.publish_checked_only != publish_checked_only:
        # What the events' public pages may show changes: their locks stamp them as changed, so the
        # standings and projector snapshots are made again at once (tournament.standings.snapshot).
        lock_tournaments(club.tournaments.values_list("pk", flat=True))
    club.name, club.time_zone, club.currency = name, time_zone, currency
    choices = {"ratings_public": ratings_public, "publish_checked_only": publish_checked_only,
               "double_keying": double_keying}  # fmt: skip
    for field, value in choices.items():
        setattr(club, field, value)
    club.save(update_fields=["name", "time_zone", "currency", *choices])
    return club


@transaction.atomic
def change_role(*, club_id: int, member_id: int, role: str) -> ClubMember:
    """Make member ``member_id`` a director or an assistant, or (``role`` owner) hand them the
    ownership: the owner then becomes a director, so the club always has one owner. Raises
    :class:`ValidationError` for what the rules refuse, :class:`ClubMember.DoesNotExist` for a
    member not of the club."""
    lock_club(club_id)
    member = ClubMember.objects.select_related("user").get(club_id=club_id, pk=member_id)
    if member.role == Role.OWNER:
        raise ValidationError(
            "The owner's role changes only by handing the ownership to a director.", code="owner_role_fixed"
        )
    if role == Role.OWNER and member.role != Role.DIRECTOR:
        raise ValidationError(
            "The ownership goes to a director: make them a director first.", code="owner_must_be_director"
        )
    if role == Role.OWNER:
        # The old owner steps down first: the database allows one owner per club at any moment.
        ClubMember.objects.filter(club_id=club_id, role=Role.OWNER).update(role=Role.DIRECTOR)
    member.role = role
    member.save(update_fields=["role"])
    return member


@transaction.atomic
def remove_member(*, club_id: int, member_id: int) -> ClubMember:
    """Take member ``member_id`` out of the club (not its owner: a club always has one)."""
    lock_club(club_id)
    member = ClubMember.objects.select_related("user").get(club_id=club_id, pk=member_id)
    if member.role == Role.OWNER:
        raise ValidationError("The owner stays: hand the ownership to a director first.", code="owner_stays")
    member.delete()
    return member


@transaction.atomic
def invite(*, club_id: int, role: str, by: Any, days: int) -> tuple[Invitation, str]:
    """A new one-use invitation to the club as a director or assistant, and its secret token."""
    club = lock_club(club_id)
    if role not in (Role.DIRECTOR, Role.ASSISTANT):
        raise ValidationError("An invitation makes a director or an assistant.", code="role_not_invitable")
    return Invitation.issue(club=club, role=role, by=by, days=days)


@transaction.atomic
def revoke(*, club_id: int, invitation_id: int) -> None:
    """Delete an open invitation of the club: its link then opens nothing."""
    lock_club(club_id)
    Invitation.objects.get(club_id=club_id, pk=invitation_id, used_at__isnull=True).delete()


@transaction.atomic
def invite_first_owner(*, club_name: str, days: int) -> tuple[Invitation, str]:
    """The first owner's invitation: accepting it makes club ``club_name`` and its owner. Refused
    (:class:`ValidationError`) once any club has an owner; an earlier unused first owner's link
    stops working, so only the newest one printed opens anything."""
    if ClubMember.objects.filter(role=Role.OWNER).exists():
        raise ValidationError("A club already has an owner: that owner invites everyone else.", code="owner_exists")
    Invitation.objects.filter(club__isnull=True, used_at__isnull=True).delete()
    return Invitation.issue(club=None, club_name=club_name, role=Role.OWNER, days=days)


class InvitationUnusable(Exception):
    """The invitation's link was used already or has expired (or someone else just used it)."""


@transaction.atomic
def accept_invitation(*, token: str, user: Any) -> ClubMember:
    """Make ``user`` (saved here first when new) a member in the invitation's role, or the first
    owner of the club it makes; the invitation is used up. Of two acceptances at once, one wins:
    the other raises :class:`InvitationUnusable` and saves nothing. Raises
    :class:`Invitation.DoesNotExist` for an unknown token and :class:`ValidationError` for a user
    who is a member already or a user name taken meanwhile."""
    invitation = Invitation.objects.get(digest=token_digest(token))
    if invitation.club_id is not None:
        lock_club(invitation.club_id)
    if user.pk is not None and ClubMember.objects.filter(club_id=invitation.club_id, user=user).exists():
        raise ValidationError(
            f"You are a member of {invitation.club} already; the link stays unused.", code="already_member"
        )
    _save_new_user(user)
    now = timezone.now()
    # The one place the invitation is used up: a conditional update, so a second acceptance
    # (waiting on the first's row lock, or after it) finds nothing left to take.
    taken = Invitation.objects.filter(pk=invitation.pk, used_at__isnull=True, expires_at__gt=now)
    if not taken.update(used_at=now, used_by=user):
        raise InvitationUnusable("This invitation was used already or has expired.")
    if invitation.club_id is None:
        return create_club(name=invitation.club_name, owner=user).members.get(user=user)
    return ClubMember.objects.create(club_id=invitation.club_id, user=user, role=invitation.role)


def _save_new_user(user: Any) -> None:
    if user.pk is not None:
        return
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError:
        raise ValidationError(
            {"username": "That user name was taken a moment ago: choose another."}, code="username_taken"
        ) from None
