"""Knockout pages: the live bracket and match board, seeds before the draw, seating a ready match
at a table of the director's choice, and everyone's bracket (the public page and the projector)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from tournament.formats.knockout import services
from tournament.formats.knockout.forms import AssignTableForm, SeedsForm
from tournament.formats.knockout.reports import (
    PROJECTOR_COLUMNS,
    PROJECTOR_PLAYING_ROWS,
    bracket_view,
    projector_columns,
)
from tournament.formats.registry import format_of
from tournament.matches.views import match_or_404, swap_forms
from tournament.models import Match, Table, Tournament
from tournament.pages import director_required, tournament_or_404, whole_number
from tournament.standings.places import Page, page_of
from tournament.standings.snapshot import polled

PUBLIC_REFRESH_SECONDS = 10


def _free_tables(tournament: Tournament) -> QuerySet[Table]:
    busy = tournament.matches.filter(status=Match.Status.PLAYING).values("table_id")
    return tournament.tables.exclude(pk__in=busy).order_by("number")


@director_required
def bracket(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The director's live bracket and match board; htmx refreshes the board part."""
    tournament = tournament_or_404(tournament_id)
    round_ = services.knockout_round(tournament)
    swap_teams, move_match = swap_forms(tournament)
    context = {
        "tournament": tournament,
        "view": bracket_view(tournament),
        "round": round_,
        "free_tables": list(_free_tables(tournament)),
        "swap_teams": swap_teams,
        "move_match": move_match,
        "changes": round_.seating_changes.select_related("changed_by") if round_ else [],
    }
    return render(request, "knockout/bracket.html#board" if request.htmx else "knockout/bracket.html", context)


@director_required
@require_POST
def match_table(request: HttpRequest, tournament_id: int, match_id: int) -> HttpResponse:
    """The director seats a ready match at a free table of their choice."""
    tournament = tournament_or_404(tournament_id)
    match = match_or_404(tournament, match_id)
    form = AssignTableForm(request.POST, free=_free_tables(tournament))
    if not form.is_valid():
        messages.error(request, "Choose a free table.")
        return redirect("director:bracket", tournament.pk)
    try:
        services.assign_table(match=match, table=form.cleaned_data["table"])
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return redirect("director:bracket", tournament.pk)


@director_required
@require_http_methods(["GET", "POST"])
def seeds(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The director sets the seeds before the draw (used when the order is "set by the director")."""
    tournament = tournament_or_404(tournament_id)
    form = SeedsForm(request.POST or None, teams=services.playing_teams(tournament))
    if request.method == "POST" and form.is_valid():
        try:
            services.set_seeds(tournament=tournament, seeds=form.seeds())
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, "Seeds saved.")
            return redirect("director:dashboard", tournament.pk)
    status = 422 if request.method == "POST" else 200
    return render(request, "knockout/seeds.html", {"tournament": tournament, "form": form}, status=status)


def _public_context(tournament_id: int) -> dict:
    tournament = tournament_or_404(tournament_id)
    context = {"tournament": tournament, "view": bracket_view(tournament), "refresh": PUBLIC_REFRESH_SECONDS}
    if tournament.is_finished:  # the places, as the prizes go by them
        context["places"] = format_of(tournament).standings(tournament)
    return context


@polled
def public_bracket(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Everyone's bracket: the matches now playing with their tables and clocks, then the bracket."""
    context = _public_context(tournament_id)
    return render(request, "knockout/public.html#live" if request.htmx else "knockout/public.html", context)


@polled
def bracket_projector(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The projector: the matches now playing with their tables and clocks beside the bracket, a
    page of each at a time (the next on each refresh) when they do not fit one screen."""
    context = _public_context(tournament_id)
    number = whole_number(request.GET.get("page"), 1)
    playing = page_of(context["view"].playing, number, PROJECTOR_PLAYING_ROWS)
    columns = page_of(projector_columns(context["view"]), number, PROJECTOR_COLUMNS)
    count = max(playing.count, columns.count)
    context |= {"playing": playing, "columns": columns, "page": Page([], (number - 1) % count + 1, count)}
    template = "knockout/projector.html#projector" if request.htmx else "knockout/projector.html"
    return render(request, template, context)
