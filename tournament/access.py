"""Who may reach which club and tournament, and which of its pages: the one place the director
pages ask.

A superuser reaches everything. Anyone else reaches only the clubs they are a member of
(:class:`~tournament.models.ClubMember`) and those clubs' tournaments: an owner or a director all
of their pages, an assistant the pages that run the event (registration and check-in, rounds,
hands and their corrections, standings, printing, reading the club's roster) but nothing that
changes money, the rules or the roster's names.
Only the owner (or a superuser) manages the club's people and settings. Someone who is not a
member gets a 404, as if the club or tournament did not exist; an assistant on a director's page
gets a 403 that says why.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from tournament.formats.registry import all_formats
from tournament.models import Club, ClubMember, PrintJob, Tournament

Role = ClubMember.Role
DIRECTING = (Role.OWNER, Role.DIRECTOR)

# The core's director pages (URL names) an assistant may use; each format lists its own
# (EventFormat.assistant_pages). Every other page is the director's: a new page stays out of an
# assistant's reach until it is listed.
ASSISTANT_PAGES = frozenset({
    "dashboard", "teams", "team_add", "team_edit", "team_status", "team_check_in", "team_substitute", "team_remove",
    "seat_first", "round_board", "round_links", "round_start", "round_close", "flag_check",
    "game", "game_hand", "game_tie", "game_reissue", "game_resolve",
    "standings", "print", "print_document", "print_job", "print_job_pdf", "print_job_retry",
    "export_standings", "export_hands",
    "match", "match_swap", "clock", "round_clock", "start_clocks",
    "roster_search", "club_roster", "roster_player",
    "keying", "keying_hand", "keying_discard",
    "seasons", "season", "season_csv", "season_print",
})  # fmt: skip
# Printed documents about money: the director's, like the pages they come from.
MONEY_DOCUMENTS = frozenset({"payouts", "fee-ledger"})


def directed_clubs(user: Any) -> QuerySet[Club]:
    """The clubs whose events ``user`` directs (as owner or director; not as an assistant)."""
    if user.is_superuser:
        return Club.objects.all()
    return Club.objects.filter(members__user=user, members__role__in=DIRECTING)


def directed_tournaments(user: Any) -> QuerySet[Tournament]:
    """The tournaments ``user`` directs (an assistant's are not among them)."""
    if user.is_superuser:
        return Tournament.objects.all()
    return Tournament.objects.filter(club__members__user=user, club__members__role__in=DIRECTING)


def club_role(user: Any, club_id: int) -> str | None:
    """``user``'s role in the club (a superuser is its owner), or None if they have none there."""
    if user.is_superuser:
        return Role.OWNER if Club.objects.filter(pk=club_id).exists() else None
    return ClubMember.objects.filter(club_id=club_id, user=user).values_list("role", flat=True).first()


def club_roles(user: Any) -> dict[int, str]:
    """``user``'s role in each club they may open, by club id (a superuser owns every club)."""
    if user.is_superuser:
        return dict.fromkeys(Club.objects.values_list("pk", flat=True), Role.OWNER)
    return dict(ClubMember.objects.filter(user=user).values_list("club_id", "role"))


def role_of(user: Any, tournament_id: int) -> str | None:
    """``user``'s role in the tournament (their role in its club), or None if they have none there."""
    if user.is_superuser:
        return Role.OWNER if Tournament.objects.filter(pk=tournament_id).exists() else None
    members = ClubMember.objects.filter(club__tournaments=tournament_id, user=user)
    return members.values_list("role", flat=True).first()


def check_page(user: Any, tournament_id: int, page: str, kwargs: Mapping[str, Any]) -> str:
    """``user``'s role, if they may open director page ``page`` of the tournament; else raise
    :class:`Http404` (not theirs) or :class:`PermissionDenied` (an assistant on a director's page)."""
    return _allowed(role_of(user, tournament_id), page, kwargs, "No such tournament.")


def check_club_page(user: Any, club_id: int, page: str, kwargs: Mapping[str, Any]) -> str:
    """:func:`check_page` for a page of a club (its roster, its people): ``user``'s role there, if
    they may open ``page``; else :class:`Http404` (not a member) or :class:`PermissionDenied`."""
    return _allowed(club_role(user, club_id), page, kwargs, "No such club.")


def _allowed(role: str | None, page: str, kwargs: Mapping[str, Any], missing: str) -> str:
    if role is None:
        raise Http404(missing)
    if not may_open(role, page, kwargs):
        raise PermissionDenied("This page is for the club's directors: assistants run rounds and hands only.")
    return role


def may_open(role: str, page: str, kwargs: Mapping[str, Any] | None = None) -> bool:
    """Whether someone of ``role`` may open director page ``page`` (a URL name; ``kwargs`` its
    arguments, where they matter): the check behind every page, and what the links offer."""
    return role in DIRECTING or _assistant_may(page, kwargs or {})


def _assistant_may(page: str, kwargs: Mapping[str, Any]) -> bool:
    if page not in ASSISTANT_PAGES and not any(page in f.assistant_pages for f in all_formats()):
        return False
    if page == "print_document":
        return kwargs.get("name") not in MONEY_DOCUMENTS
    if "job_id" in kwargs:
        document = PrintJob.objects.filter(pk=kwargs["job_id"]).values_list("document", flat=True).first()
        return document not in MONEY_DOCUMENTS
    return True


def locked_out(request: HttpRequest, original_response: Any = None, credentials: Any = None) -> HttpResponse:
    """The page a locked-out login gets (django-axes calls this): 429 with when to retry. The lock
    lasts the cool-off from the last failed attempt, so now plus the cool-off is the latest moment
    it ends."""
    cool_off = settings.AXES_COOLOFF_TIME
    context = {
        "failure_limit": settings.AXES_FAILURE_LIMIT,
        "minutes": round(cool_off.total_seconds() / 60),
        "retry_at": timezone.localtime() + cool_off,
    }
    response = render(request, "registration/locked_out.html", context, status=429)
    response["Retry-After"] = str(int(cool_off.total_seconds()))
    return response
