"""A league season: the schedule by night, postponements, late joiners and withdrawals,
each night's board, and the league table for the director, the public and the projector."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from tournament.charts.standings import places_drawn
from tournament.formats.knockout.models import settings_of as bracket_settings
from tournament.formats.league import services as league
from tournament.formats.league import standings as season
from tournament.formats.league.forms import LateTeamForm, PostponeForm, WithdrawTeamForm
from tournament.formats.league.models import settings_of
from tournament.formats.league.services import ROUND_ROBIN
from tournament.formats.registry import format_of
from tournament.matches.views import swap_forms
from tournament.models import Match, Round, Team, Tournament
from tournament.pages import director_required, round_or_404, tournament_or_404, whole_number
from tournament.play.board import board
from tournament.review.publish import Hold, public_hold
from tournament.standings.places import page_of
from tournament.standings.snapshot import polled
from tournament.standings.views import PROJECTOR_STANDINGS_ROWS


def _league_or_404(tournament_id: int) -> Tournament:
    tournament = tournament_or_404(tournament_id)
    if tournament.format != ROUND_ROBIN:
        raise Http404("This tournament is not a league.")
    return tournament


def _forms(tournament: Tournament, data: dict | None = None) -> tuple[LateTeamForm, WithdrawTeamForm]:
    in_league = season.league_matches(tournament)
    active = tournament.teams.filter(status=Team.Status.ACTIVE).prefetch_related("players")
    scheduled = active.filter(pk__in=in_league.values("home_id")) | active.filter(pk__in=in_league.values("away_id"))
    newcomers = active.exclude(pk__in=scheduled.values("pk"))
    return (
        LateTeamForm(data, teams=newcomers, prefix="join"),
        WithdrawTeamForm(data, teams=scheduled.distinct(), prefix="withdraw"),
    )


@director_required
def schedule(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _league_or_404(tournament_id)
    join_form, withdraw_form = _forms(tournament)
    next_night = league.nights_started(tournament) + 1
    night_open = tournament.rounds.exclude(status=Round.Status.CLOSED).exists()
    context = {
        "tournament": tournament,
        "nights": league.nights(tournament),
        "next_night": next_night,
        "can_open": None if night_open else next_night,  # nights open one at a time, in order
        "postpone_form": PostponeForm(),
        "join_form": join_form,
        "withdraw_form": withdraw_form,
        "championship": season.championship_matches(tournament).exists(),
        "champion": season.champion(tournament),
        "season_over": season.season_over(tournament),
        "season": settings_of(tournament),
        "bracket": bracket_settings(tournament),
    }
    return render(request, "league/schedule.html", context)


def _done(request: HttpRequest, tournament: Tournament, action, success: str, /, **kwargs) -> HttpResponse:
    """Run a league service; its refusal is shown to the director, its success said in ``success``."""
    try:
        result = action(**kwargs)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, success.format(result=result))
    return redirect("director:league_schedule", tournament.pk)


@director_required
@require_POST
def schedule_build(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _league_or_404(tournament_id)
    return _done(request, tournament, league.build_schedule, "The season's schedule is made.", tournament=tournament)


@director_required
@require_POST
def match_postpone(request: HttpRequest, tournament_id: int, match_id: int) -> HttpResponse:
    tournament = _league_or_404(tournament_id)
    match = get_object_or_404(Match, pk=match_id, tournament=tournament, stage=Match.Stage.LEAGUE)
    form = PostponeForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Move to night: give a night number from 1.")
        return redirect("director:league_schedule", tournament.pk)
    night = form.cleaned_data["night"]
    return _done(request, tournament, league.postpone_match, f"The match moved to night {night}.", match=match,
                 to_night=night)  # fmt: skip


@director_required
@require_POST
def team_join(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _league_or_404(tournament_id)
    form, _ = _forms(tournament, request.POST)
    if not form.is_valid():
        messages.error(request, "Choose the team joining late and what happens to the matches it missed.")
        return redirect("director:league_schedule", tournament.pk)
    team = form.cleaned_data["team"]
    return _done(request, tournament, league.add_late_team, f"Team {team.number} joins from night {{result}}.",
                 team=team, missed=form.cleaned_data["missed"])  # fmt: skip


@director_required
@require_POST
def team_withdraw(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _league_or_404(tournament_id)
    _, form = _forms(tournament, request.POST)
    if not form.is_valid():
        messages.error(request, "Choose the team withdrawing and what happens to its played results.")
        return redirect("director:league_schedule", tournament.pk)
    team = form.cleaned_data["team"]
    return _done(request, tournament, league.withdraw_team,
                 f"Team {team.number} withdrew: its matches from night {{result}} are walkovers.",
                 team=team, played=form.cleaned_data["played"])  # fmt: skip


@director_required
@require_POST
def championship_start(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _league_or_404(tournament_id)
    try:
        league.start_championship(tournament=tournament, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("director:league_schedule", tournament.pk)
    messages.success(request, "The championship has started: its matches have their tables.")
    return redirect("director:bracket", tournament.pk)


@director_required
def night(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    tournament = _league_or_404(tournament_id)
    round_ = round_or_404(tournament, number)
    (plan,) = league.nights(tournament, only=number)
    context = {
        "tournament": tournament,
        "round": round_,
        "board": board(round_),
        "plan": plan,
        "round_called": format_of(tournament).round_called(round_),
        "move_match": swap_forms(tournament)[1],
        "changes": round_.seating_changes.select_related("changed_by"),
    }
    return render(request, "league/night.html", context)


@director_required
@require_POST
def night_open(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    tournament = _league_or_404(tournament_id)
    try:
        league.open_night(tournament=tournament, night=number, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("director:league_schedule", tournament.pk)
    return redirect("director:league_night", tournament.pk, number)


def _table_context(tournament_id: int, *, public: bool = False) -> dict:
    """The league table, tonight's matches and the champion. A ``public`` page holds back nights
    whose flags are not checked yet, when the club asks (tournament.review): the table as it stood
    before the first such night, no scores beside tonight's matches and no champion yet."""
    tournament = _league_or_404(tournament_id)
    current = tournament.rounds.exclude(status=Round.Status.CLOSED).first()
    last = league.load_schedule(tournament).nights
    hold = public_hold(tournament) if public else None
    standings = season.league_standings(tournament, through=hold.through if hold else None)
    return {
        "tournament": tournament,
        "hold": hold,
        "standings": standings,
        "current": current,
        "current_title": season.night_title(current) if current else "",
        "tonight": league.nights(tournament, only=current.number)[0] if current and current.number <= last else None,
        "championship": season.championship_matches(tournament).exists(),
        "champion": None if hold else season.champion(tournament, standings),
        "bracket": bracket_settings(tournament),
    }


def _nights_chart(tournament: Tournament, hold: Hold | None = None) -> dict:
    """Every team's place after each night closed (the championship after the nights not in it;
    a public page's nights held back neither), as :func:`tournament.charts.standings.places_drawn`
    gives it to a page."""
    last = league.load_schedule(tournament).nights if hold is None else hold.through
    closed = tournament.rounds.filter(status=Round.Status.CLOSED, number__lte=last).order_by("number")
    return places_drawn(tournament, list(closed.values_list("number", flat=True)), top=tournament.teams.count())


@director_required
def table(request: HttpRequest, tournament_id: int) -> HttpResponse:
    context = _table_context(tournament_id)
    return render(request, "league/table.html", {**context, **_nights_chart(context["tournament"])})


@polled
def public_table(request: HttpRequest, tournament_id: int) -> HttpResponse:
    context = _table_context(tournament_id, public=True)
    if request.htmx:  # the table refreshing itself; the chart changes as a night closes, on the next visit
        return render(request, "league/public.html#league", context)
    chart = _nights_chart(context["tournament"], context["hold"])
    return render(request, "league/public.html", {**context, **chart})


@polled
def projector(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The league table beside tonight's matches; a long table pages, the next page on each refresh."""
    context = _table_context(tournament_id, public=True)
    number = whole_number(request.GET.get("page"), 1)
    context["page"] = page_of(context["standings"].lines, number, PROJECTOR_STANDINGS_ROWS)
    template = "league/projector.html#projector" if request.htmx else "league/projector.html"
    return render(request, template, context)
