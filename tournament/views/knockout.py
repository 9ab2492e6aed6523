"""Knockout pages: the live bracket and match board, settling and seating matches, the clocks,
and the public bracket. Clocks of progressive rounds are run from here too."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from tournament import clocks, knockout, matches
from tournament.formats import format_of
from tournament.knockout_forms import (
    AssignTableForm,
    ClockForm,
    DecideMatchForm,
    MoveMatchForm,
    SeedsForm,
    SwapTeamsForm,
)
from tournament.knockout_reports import (
    PROJECTOR_COLUMNS,
    PROJECTOR_PLAYING_ROWS,
    bracket_view,
    projector_columns,
)
from tournament.models import Clock, Match, Table, Tournament
from tournament.places import Page, page_of
from tournament.views.common import director_required, round_or_404, tournament_or_404, whole_number

PUBLIC_REFRESH_SECONDS = 10


def _match_or_404(tournament: Tournament, match_id: int) -> Match:
    return get_object_or_404(
        Match.objects.select_related("tournament", "home", "away"), pk=match_id, tournament=tournament
    )


def _free_tables(tournament: Tournament) -> QuerySet[Table]:
    busy = tournament.matches.filter(status=Match.Status.PLAYING).values("table_id")
    return tournament.tables.exclude(pk__in=busy).order_by("number")


def _errors(request: HttpRequest, error: ValidationError) -> None:
    messages.error(request, " ".join(error.messages))


def swap_forms(tournament: Tournament, data: dict | None = None) -> tuple[SwapTeamsForm, MoveMatchForm]:
    """The match board's changes before play: two teams exchange places, a match changes table."""
    teams = tournament.teams.filter(seed__isnull=False).prefetch_related("players").order_by("seed")
    # Through tournament.matches every match shares this tournament, whose bracket names them all.
    seated = tournament.matches.filter(status=Match.Status.PLAYING).select_related("table")
    return (
        SwapTeamsForm(data, teams=teams, prefix="swap"),
        MoveMatchForm(data, matches=seated.order_by("table__number"), tables=tournament.tables.order_by("number"),
                      prefix="move"),
    )  # fmt: skip


@director_required
def bracket(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The director's live bracket and match board; htmx refreshes the board part."""
    tournament = tournament_or_404(tournament_id)
    round_ = knockout.knockout_round(tournament)
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
            other = matches.move_to_table(match=data["match"], table=data["table"], by=request.user)
            done = f"{data['match'].subject} is at table {data['table'].number} now" + (
                f"; {other.in_sentence} took its table." if other else "."
            )
    except ValidationError as error:
        _errors(request, error)
    else:
        messages.success(request, done)
    return redirect(_board_url(tournament))


def _board_url(tournament: Tournament) -> str:
    """Back to the board of the round being played: a league night's page, or the bracket."""
    current = tournament.current_round()
    if current is None:
        return reverse("director:bracket", args=[tournament.pk])
    return format_of(tournament).play_url(tournament, current)


@director_required
def match_detail(request: HttpRequest, tournament_id: int, match_id: int) -> HttpResponse:
    tournament = tournament_or_404(tournament_id)
    match = _match_or_404(tournament, match_id)
    context = {
        "tournament": tournament,
        "match": match,
        "games": match.games.select_related("table").order_by("match_game"),
        "decide": DecideMatchForm(match=match),
    }
    return render(request, "knockout/match.html", context)


@director_required
@require_POST
def match_decide(request: HttpRequest, tournament_id: int, match_id: int) -> HttpResponse:
    """A walkover or a decision, with its reason."""
    tournament = tournament_or_404(tournament_id)
    match = _match_or_404(tournament, match_id)
    form = DecideMatchForm(request.POST, match=match)
    if form.is_valid():
        settle = knockout.walkover if form.cleaned_data["kind"] == "walkover" else knockout.decide_match
        try:
            settle(match=match, winner=form.winner_team(), reason=form.cleaned_data["reason"], by=request.user)
        except ValidationError as error:
            form.add_error(None, error)
    if not form.is_valid():
        context = {"tournament": tournament, "match": match, "games": match.games.all(), "decide": form}
        return render(request, "knockout/match.html", context, status=422)
    messages.success(request, f"{match.subject} is settled: {form.winner_team().names} {form.words.go}.")
    game = match.games.select_related("round").first()
    if game is None:
        return redirect("director:bracket", tournament.pk)
    return redirect(format_of(tournament).play_url(tournament, game.round))


@director_required
@require_POST
def match_table(request: HttpRequest, tournament_id: int, match_id: int) -> HttpResponse:
    """The director seats a ready match at a free table of their choice."""
    tournament = tournament_or_404(tournament_id)
    match = _match_or_404(tournament, match_id)
    form = AssignTableForm(request.POST, free=_free_tables(tournament))
    if not form.is_valid():
        messages.error(request, "Choose a free table.")
        return redirect("director:bracket", tournament.pk)
    try:
        knockout.assign_table(match=match, table=form.cleaned_data["table"])
    except ValidationError as error:
        _errors(request, error)
    return redirect("director:bracket", tournament.pk)


@director_required
@require_POST
def clock_action(request: HttpRequest, tournament_id: int, clock_id: int) -> HttpResponse:
    """Start, pause or extend one clock (a match's, or one table's in a progressive round)."""
    tournament = tournament_or_404(tournament_id)
    clock = get_object_or_404(Clock, pk=clock_id, tournament=tournament)
    form = ClockForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(e for errors in form.errors.values() for e in errors))
    else:
        try:
            _act(clock, form.cleaned_data["action"], form.cleaned_data.get("minutes") or 0)
        except ValidationError as error:
            _errors(request, error)
    game = clock.games.select_related("round").first()
    if game is not None:  # back to the page where its round is run
        return redirect(format_of(tournament).play_url(tournament, game.round))
    return redirect("director:bracket", tournament.pk)


def _act(clock: Clock, action: str, minutes: int) -> None:
    if action == "start":
        clocks.start_clock(clock=clock)
    elif action == "pause":
        clocks.pause_clock(clock=clock)
    else:
        clocks.add_minutes(clock=clock, minutes=minutes)


@director_required
@require_POST
def start_clocks(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Start the clocks of every match at a table that has not started yet."""
    tournament = tournament_or_404(tournament_id)
    started = clocks.start_match_clocks(tournament=tournament)
    messages.success(request, f"Started {started} clock{'s' if started != 1 else ''}.")
    return redirect("director:bracket", tournament.pk)


@director_required
@require_POST
def round_clock(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """Start (or resume) or pause the clock of every table of a progressive round."""
    tournament = tournament_or_404(tournament_id)
    round_ = round_or_404(tournament, number)
    try:
        if request.POST.get("action") == "pause":
            clocks.pause_round_clock(round_=round_)
        else:
            clocks.start_round_clock(round_=round_)
    except ValidationError as error:
        _errors(request, error)
    return redirect(format_of(tournament).play_url(tournament, round_))


@director_required
@require_http_methods(["GET", "POST"])
def seeds(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The director sets the seeds before the draw (used when the order is "set by the director")."""
    tournament = tournament_or_404(tournament_id)
    teams = knockout.playing_teams(tournament)
    form = SeedsForm(request.POST or None, teams=teams)
    if request.method == "POST" and form.is_valid():
        try:
            knockout.set_seeds(tournament=tournament, seeds=form.seeds())
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


def public_bracket(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Everyone's bracket: the matches now playing with their tables and clocks, then the bracket."""
    context = _public_context(tournament_id)
    return render(request, "knockout/public.html#live" if request.htmx else "knockout/public.html", context)


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
