"""A match's page (walkover or decision), and the changes before play that every format that
plays matches offers on its board: two teams swap places, a match moves to another table."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from tournament.formats.registry import format_of
from tournament.matches import services
from tournament.matches.forms import DecideMatchForm, MoveMatchForm, SwapTeamsForm
from tournament.models import Match, Tournament
from tournament.pages import director_required, tournament_or_404

PAGE = "matches/match.html"


def match_or_404(tournament: Tournament, match_id: int) -> Match:
    return get_object_or_404(
        Match.objects.select_related("tournament", "home", "away"), pk=match_id, tournament=tournament
    )


def swap_forms(tournament: Tournament, data: dict | None = None) -> tuple[SwapTeamsForm, MoveMatchForm]:
    """The board's changes before play: two teams exchange places, a match changes table."""
    teams = tournament.teams.filter(seed__isnull=False).prefetch_related("players").order_by("seed")
    seated = tournament.matches.filter(status=Match.Status.PLAYING).select_related("table")
    return (
        SwapTeamsForm(data, teams=teams, prefix="swap"),
        MoveMatchForm(data, matches=seated.order_by("table__number"), tables=tournament.tables.order_by("number"),
                      prefix="move"),
    )  # fmt: skip


def _board_url(tournament: Tournament) -> str:
    """Back to the board of the round being played (a league night's page, the bracket)."""
    current = tournament.current_round()
    round_ = current or tournament.rounds.order_by("-number").first()
    if round_ is None:
        return reverse("director:dashboard", args=[tournament.pk])
    return format_of(tournament).play_url(tournament, round_)


@director_required
@require_POST
def match_swap(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Before play starts: two teams exchange places (``kind=teams``), or a match moves to another
    table, swapping with a match not started there (``kind=table``)."""
    tournament = tournament_or_404(tournament_id)
    teams_form, table_form = swap_forms(tournament, request.POST)
    form = teams_form if request.POST.get("kind") == "teams" else table_form
    if not form.is_valid():
        messages.error(request, " ".join(e for errors in form.errors.values() for e in errors))
        return redirect(_board_url(tournament))
    data = form.cleaned_data
    try:
        if form is teams_form:
            format_of(tournament).swap_teams(tournament=tournament, first=data["first"], second=data["second"],
                                             by=request.user)  # fmt: skip
            done = f"{data['first'].names} and {data['second'].names} swapped places in the bracket."
        else:
            other = services.move_to_table(match=data["match"], table=data["table"], by=request.user)
            done = f"{data['match'].subject} is at table {data['table'].number} now" + (
                f"; {other.in_sentence} took its table." if other else "."
            )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, done)
    return redirect(_board_url(tournament))


@director_required
def match_detail(request: HttpRequest, tournament_id: int, match_id: int) -> HttpResponse:
    tournament = tournament_or_404(tournament_id)
    match = match_or_404(tournament, match_id)
    context = {
        "tournament": tournament,
        "match": match,
        "games": match.games.select_related("table").order_by("match_game"),
        "decide": DecideMatchForm(match=match),
        "back": _board_url(tournament),
    }
    return render(request, PAGE, context)


@director_required
@require_POST
def match_decide(request: HttpRequest, tournament_id: int, match_id: int) -> HttpResponse:
    """A walkover or a decision, with its reason."""
    tournament = tournament_or_404(tournament_id)
    match = match_or_404(tournament, match_id)
    form = DecideMatchForm(request.POST, match=match)
    if form.is_valid():
        try:
            services.settle_match(match=match, winner=form.winner_team(), reason=form.cleaned_data["reason"],
                                  outcome=form.cleaned_data["kind"], by=request.user)  # fmt: skip
        except ValidationError as error:
            form.add_error(None, error)
    if not form.is_valid():
        context = {"tournament": tournament, "match": match, "games": match.games.all(), "decide": form,
                   "back": _board_url(tournament)}  # fmt: skip
        return render(request, PAGE, context, status=422)
    messages.success(request, f"{match.subject} is settled: {form.winner_team().names} {form.words.go}.")
    return redirect(_board_url(tournament))
