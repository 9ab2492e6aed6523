"""Helpers shared by the views: the director check, lookups that fail early, htmx rendering."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.decorators import user_passes_test
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.cache import patch_cache_control

from tournament import access
from tournament.models import Game, Hand, Round, Team, Tournament

_member_required: Callable = user_passes_test(lambda user: user.is_active and user.is_authenticated)


def director_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Every director page: a logged-in, active user (anyone else is sent to the login page) who
    may open this page of this tournament or club, by their role in its club
    (:func:`tournament.access.check_page`, :func:`~tournament.access.check_club_page`: 404 if it
    is not theirs, 403 for an assistant on a director's page). A page of neither (the home page,
    a new tournament, the import) scopes itself to the user's clubs. The answer is never cached:
    it holds names and money, and a shared laptop's browser must not keep it."""

    @_member_required
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        page = request.resolver_match.url_name
        if "tournament_id" in kwargs:
            request.role = access.check_page(request.user, kwargs["tournament_id"], page, kwargs)
        elif "club_id" in kwargs:
            request.role = access.check_club_page(request.user, kwargs["club_id"], page, kwargs)
        response = view(request, *args, **kwargs)
        patch_cache_control(response, private=True, no_store=True)
        return response

    return wrapper


def whole_number(text: object, default: int = 0) -> int:
    """A plain ASCII whole number from user input, else ``default`` ("²" is a digit to Python)."""
    value = str(text or "")
    return int(value) if value.isascii() and value.isdecimal() else default


def tournament_or_404(tournament_id: int) -> Tournament:
    return get_object_or_404(Tournament, pk=tournament_id)


def round_or_404(tournament: Tournament, number: int) -> Round:
    return get_object_or_404(Round.objects.select_related("tournament"), tournament=tournament, number=number)


def team_or_404(tournament: Tournament, team_id: int) -> Team:
    return get_object_or_404(Team, pk=team_id, tournament=tournament)


def game_or_404(tournament: Tournament, game_id: int) -> Game:
    return get_object_or_404(
        Game.objects.select_related("round__tournament", "table"), pk=game_id, round__tournament=tournament
    )


def hand_or_404(game: Game, number: int, deal: int | None = None) -> Hand:
    """Hand ``number`` of ``game``: its ``deal``, else its last (after any misdeals); else 404."""
    try:
        return game.hand_numbered(number, deal)
    except Hand.DoesNotExist:
        raise Http404(f"There is no hand {number} at this table.") from None


def render_page(
    request: HttpRequest, template: str, partial: str, context: dict[str, Any], *, status: int = 200
) -> HttpResponse:
    """The named partial of ``template`` for an htmx request, the whole page otherwise (so a
    fragment's URL opened directly is still the styled page).

    Invalid forms answer 422; the htmx config in base.html swaps 422 so the errors show.
    """
    return render(request, f"{template}#{partial}" if request.htmx else template, context, status=status)
