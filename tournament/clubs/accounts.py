"""Accounts without a terminal: password reset links and who may make them, invitations by email."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core.mail import send_mail
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from tournament.models import Invitation


def email_on() -> bool:
    """Whether the site sends email (``EMAIL_URL`` is set): otherwise no page offers it."""
    return settings.SPADES_EMAIL


class ResetTokens(PasswordResetTokenGenerator):
    """Django's reset tokens (they expire after ``PASSWORD_RESET_TIMEOUT`` and work once: they hash
    the password and the last login), which also hash what the account opens: its clubs and roles
    in them, superuser and staff, its permissions and groups. Who may make a link is decided when it
    is made (:func:`why_not_reset`); a link whose account opens more, or other, clubs since no
    longer works, so an owner's link for an account that was the club's alone cannot open another."""

    def _make_hash_value(self, user: Any, timestamp: int) -> str:
        clubs = sorted(user.club_memberships.values_list("club_id", "role"))
        rights = (
            user.is_superuser,
            user.is_staff,
            sorted(user.user_permissions.values_list("pk", flat=True)),
            sorted(user.groups.values_list("pk", flat=True)),
        )
        return f"{super()._make_hash_value(user, timestamp)}{clubs}{rights}"


# Every reset link is made and checked with this: the links made by hand, the email's, the reset page.
reset_tokens = ResetTokens()


def reset_path(user: Any) -> str:
    """The path of a link that lets ``user`` choose a new password (:class:`ResetTokens`)."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = reset_tokens.make_token(user)
    return reverse("password_reset_confirm", kwargs={"uidb64": uid, "token": token})


def why_not_reset(*, by: Any, user: Any, club_id: int) -> str | None:
    """Why ``by`` (the owner of club ``club_id``, or a superuser) may not make a reset link for
    ``user``, or None when they may. An owner resets only an account that is the club's alone:
    one also used in another club, or with rights beyond clubs, would let them into more."""
    if by.is_superuser:
        return None
    if user.is_superuser or user.user_permissions.exists() or user.groups.exists():
        return f"{user} has rights in the site's administration: only a superuser resets their password."
    if user.club_memberships.exclude(club_id=club_id).exists():
        return f"{user} belongs to another club too: only a superuser resets a password that opens several clubs."
    return None


def send_invitation(*, invitation: Invitation, link: str, to: str) -> None:
    """Email the invitation's link to ``to``."""
    body = (
        f"You are invited to join {invitation.club} as {invitation.get_role_display().split(' (')[0].lower()} "
        f"on Spades Director.\n\nOpen this link to accept (it works once, until "
        f"{invitation.expires_at:%Y-%m-%d %H:%M} UTC):\n{link}\n"
    )
    send_mail(f"Join {invitation.club} on Spades Director", body, None, [to])
