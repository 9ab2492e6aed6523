"""Who may reach which tournament, and which of its pages: the one place the director pages ask.

A superuser reaches everything. Anyone else reaches only the tournaments they are a member of
(:class:`~tournament.models.Membership`): a director all of its pages, an assistant the pages that
run the event (registration and check-in, rounds, hands and their corrections, standings,
printing) but nothing that changes money or the rules. Someone who is not a member gets a 404,
as if the tournament did not exist; an assistant on a director's page gets a 403 that says why.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import QuerySet
from django.http import Http404

from tournament.models import Membership, PrintJob, Tournament

Role = Membership.Role

# The director's pages (URL names) an assistant may use. Every other page is the director's:
# a new page stays out of an assistant's reach until it is listed here.
ASSISTANT_PAGES = frozenset({
    "dashboard", "teams", "team_add", "team_edit", "team_status", "team_check_in", "team_substitute", "team_remove",
    "seat_first", "round", "round_swap", "round_links", "round_start", "round_close",
    "game", "game_hand", "game_tie", "game_reissue", "game_resolve",
    "standings", "print", "print_document", "print_job", "print_job_pdf", "export_standings", "export_hands",
    "bracket", "match", "match_table", "clock", "round_clock", "start_clocks",
    "league_schedule", "league_build", "league_postpone", "league_join", "league_withdraw", "league_night",
    "league_night_open", "league_table", "league_championship", "match_swap",
})  # fmt: skip
# Printed documents about money: the director's, like the pages they come from.
MONEY_DOCUMENTS = frozenset({"payouts", "fee-ledger"})


def visible_tournaments(user: Any) -> QuerySet[Tournament]:
    """The tournaments ``user`` may open."""
    if user.is_superuser:
        return Tournament.objects.all()
    return Tournament.objects.filter(memberships__user=user)


def directed_tournaments(user: Any) -> QuerySet[Tournament]:
    """The tournaments ``user`` directs (an assistant's are not among them)."""
    if user.is_superuser:
        return Tournament.objects.all()
    return Tournament.objects.filter(memberships__user=user, memberships__role=Role.DIRECTOR)


def role_of(user: Any, tournament_id: int) -> str | None:
    """``user``'s role in the tournament, or None if they have none there."""
    if user.is_superuser:
        return Role.DIRECTOR if Tournament.objects.filter(pk=tournament_id).exists() else None
    return Membership.objects.filter(tournament_id=tournament_id, user=user).values_list("role", flat=True).first()


def check_page(user: Any, tournament_id: int, page: str, kwargs: Mapping[str, Any]) -> str:
    """``user``'s role, if they may open director page ``page`` of the tournament; else raise
    :class:`Http404` (not theirs) or :class:`PermissionDenied` (an assistant on a director's page)."""
    role = role_of(user, tournament_id)
    if role is None:
        raise Http404("No such tournament.")
    if not may_open(role, page, kwargs):
        raise PermissionDenied("This page is for the tournament's director: assistants run rounds and hands only.")
    return role


def may_open(role: str, page: str, kwargs: Mapping[str, Any] | None = None) -> bool:
    """Whether someone of ``role`` may open director page ``page`` (a URL name; ``kwargs`` its
    arguments, where they matter): the check behind every page, and what the links offer."""
    return role == Role.DIRECTOR or _assistant_may(page, kwargs or {})


def _assistant_may(page: str, kwargs: Mapping[str, Any]) -> bool:
    if page not in ASSISTANT_PAGES:
        return False
    if page == "print_document":
        return kwargs.get("name") not in MONEY_DOCUMENTS
    if "job_id" in kwargs:
        document = PrintJob.objects.filter(pk=kwargs["job_id"]).values_list("document", flat=True).first()
        return document not in MONEY_DOCUMENTS
    return True


@transaction.atomic
def create_tournament(*, tournament: Tournament, by: Any) -> Tournament:
    """Save a new ``tournament`` with ``by`` as its director."""
    tournament.save()
    Membership.objects.create(tournament=tournament, user=by, role=Role.DIRECTOR)
    return tournament


@transaction.atomic
def grant(*, tournament: Tournament, user: Any, role: str) -> Membership:
    """Make ``user`` a director or an assistant of ``tournament`` (changing the role they had)."""
    membership, _ = Membership.objects.update_or_create(tournament=tournament, user=user, defaults={"role": role})
    return membership
