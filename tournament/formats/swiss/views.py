"""A Swiss event's pages: the round being paired or played (its board, its pairings in rank order,
two teams swapping places, late teams' missed rounds), and the standings for the director, the
public and the projector."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from tournament.charts.standings import places_drawn
from tournament.formats.swiss import services
from tournament.formats.swiss.forms import MissedRoundsForm, SwapForm
from tournament.formats.swiss.models import LateEntry, settings_of
from tournament.formats.swiss.standings import round_plan, swiss_standings
from tournament.models import Round, Team, Tournament
from tournament.pages import director_required, tournament_or_404, whole_number
from tournament.play.board import board
from tournament.review.publish import public_hold
from tournament.standings.places import page_of
from tournament.standings.snapshot import polled, snapshot
from tournament.standings.views import PROJECTOR_STANDINGS_ROWS


def _swiss_or_404(tournament_id: int) -> Tournament:
    tournament = tournament_or_404(tournament_id)
    if tournament.format != services.SWISS:
        raise Http404("This tournament is not a Swiss event.")
    return tournament


def _swap_form(tournament: Tournament, data: dict | None = None) -> SwapForm:
    paired = tournament.teams.filter(status=Team.Status.ACTIVE).prefetch_related("players").order_by("number")
    return SwapForm(data, teams=paired, prefix="swap")


def _latest(tournament: Tournament) -> Round | None:
    return tournament.current_round() or tournament.rounds.order_by("-number").first()


@director_required
@require_GET
def rounds(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _swiss_or_404(tournament_id)
    round_ = _latest(tournament)
    late = LateEntry.objects.filter(team__tournament=tournament).select_related("team").order_by("team__number")
    context = {
        "tournament": tournament,
        "round": round_,
        "board": board(round_) if round_ else None,
        "plan": round_plan(tournament, round_.number) if round_ else None,
        "round_called": f"round {round_.number}" if round_ else "",
        "settings": settings_of(tournament),
        "swap_form": _swap_form(tournament),
        "late": [(entry, MissedRoundsForm(instance=entry, prefix=f"late-{entry.team_id}")) for entry in late],
        "changes": round_.seating_changes.select_related("changed_by") if round_ else [],
    }
    return render(request, "swiss/rounds.html", context)


@director_required
@require_POST
def swap(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _swiss_or_404(tournament_id)
    form = _swap_form(tournament, request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(e for errors in form.errors.values() for e in errors))
        return redirect("director:swiss", tournament.pk)
    try:
        done = services.swap_teams(tournament=tournament, first=form.cleaned_data["first"],
                                   second=form.cleaned_data["second"], by=request.user)  # fmt: skip
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, done)
    return redirect("director:swiss", tournament.pk)


@director_required
@require_POST
def missed(request: HttpRequest, tournament_id: int, team_id: int) -> HttpResponse:
    tournament = _swiss_or_404(tournament_id)
    entry = get_object_or_404(LateEntry.objects.select_related("team"), team_id=team_id, team__tournament=tournament)
    form = MissedRoundsForm(request.POST, instance=LateEntry.objects.get(pk=entry.pk), prefix=f"late-{team_id}")
    if not form.is_valid():
        errors = "; ".join(f"{form.fields[name].label}: {' '.join(e)}" for name, e in form.errors.items())
        messages.error(request, f"Team {entry.team.number}'s missed rounds: {errors}")
        return redirect("director:swiss", tournament.pk)
    data = form.cleaned_data
    services.score_missed_rounds(entry=entry, won=data["won"], points_for=data["points_for"],
                                 points_against=data["points_against"], by=request.user)  # fmt: skip
    counted = "won" if data["won"] else "lost"
    messages.success(request, f"Team {entry.team.number}'s {entry.missed} missed round(s) count as {counted} "
                              f"{data['points_for']} to {data['points_against']}.")  # fmt: skip
    return redirect("director:swiss", tournament.pk)


def _standings_context(tournament_id: int, *, public: bool = False) -> dict:
    """The standings, and the round being played or about to start with its pairings. A ``public``
    page holds back rounds whose flags are not checked yet, when the club asks (tournament.review):
    the standings as they stood before the first such round, and no scores beside the pairings."""
    tournament = _swiss_or_404(tournament_id)
    round_ = _latest(tournament)
    hold = public_hold(tournament) if public else None
    return {
        "tournament": tournament,
        "hold": hold,
        "standings": swiss_standings(tournament, through=hold.through if hold else None),
        "settings": settings_of(tournament),
        "current": round_ if round_ and not round_.is_closed else None,
        "plan": round_plan(tournament, round_.number) if round_ and not round_.is_closed else None,
    }


@director_required
@require_GET
def standings(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return render(request, "swiss/standings.html", _standings_context(tournament_id))


@polled
def public_standings(request: HttpRequest, tournament_id: int) -> HttpResponse:
    context = _standings_context(tournament_id, public=True)
    if request.htmx:  # the standings refreshing themselves; the chart changes as a round closes
        return render(request, "swiss/public.html#swiss", context)
    tournament, hold = context["tournament"], context["hold"]
    through = hold.through if hold else None  # a round held back is left out of the chart too
    chart = snapshot(tournament.pk, f"places chart {through}", tournament.changed_at,
                     lambda: places_drawn(tournament, through=through))  # fmt: skip
    return render(request, "swiss/public.html", {**context, **chart.value})


@polled
def projector(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The standings beside the pairings of the round about to start or being played; a long
    standings table pages, the next page on each refresh."""
    context = _standings_context(tournament_id, public=True)
    context["page"] = page_of(context["standings"].lines, whole_number(request.GET.get("page"), 1),
                              PROJECTOR_STANDINGS_ROWS)  # fmt: skip
    template = "swiss/projector.html#projector" if request.htmx else "swiss/projector.html"
    return render(request, template, context)
