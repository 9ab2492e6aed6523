"""Rounds: seat round 1, review and adjust a movement, start, watch the board, close."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_POST

from tournament import services
from tournament.formats import format_of
from tournament.forms import SwapPlayersForm, SwapTeamsForm
from tournament.links import base_url, qr_svg, table_url, unreachable_by_phones
from tournament.models import Player, Round, Team
from tournament.reports import board, movement_rows, sitting_out_names
from tournament.views.common import director_required, round_or_404, tournament_or_404


@director_required
@require_POST
def seat_first(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = tournament_or_404(tournament_id)
    event_format = format_of(tournament)
    try:
        round_ = event_format.start(tournament=tournament, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("director:dashboard", tournament.pk)
    return redirect(event_format.play_url(tournament, round_))


def _swap_forms(round_: Round, data: dict | None = None) -> tuple[SwapPlayersForm, SwapTeamsForm]:
    tournament = round_.tournament
    players = Player.objects.filter(team__tournament=tournament, team__status=Team.Status.ACTIVE).order_by("name")
    teams = tournament.teams.filter(status=Team.Status.ACTIVE).prefetch_related("players")
    return SwapPlayersForm(data, players=players, prefix="p"), SwapTeamsForm(data, teams=teams, prefix="t")


@director_required
def round_detail(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """The round's page; to htmx, its board alone (the board asks for itself while the round runs)."""
    tournament = tournament_or_404(tournament_id)
    round_ = round_or_404(tournament, number)
    context = {"tournament": tournament, "round": round_, "board": board(round_)}
    if request.htmx:
        return render(request, "director/round.html#board", context)
    swap_players, swap_teams = _swap_forms(round_)
    context |= {
        "movement": movement_rows(round_) if round_.is_planned else None,
        "sitting_out": sitting_out_names(round_),
        "changes": round_.seating_changes.select_related("changed_by"),
        "swap_players": swap_players,
        "swap_teams": swap_teams,
    }
    return render(request, "director/round.html", context)


@director_required
def round_links(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """Every table's scorekeeper link with its QR code, to hand out or show on a screen."""
    tournament = tournament_or_404(tournament_id)
    round_ = round_or_404(tournament, number)
    games = round_.games.select_related("table").order_by("table__number")
    games = list({game.table_id: game for game in games}.values())  # a knockout plays several games a table
    base = base_url(request)
    links = [(game, url, mark_safe(qr_svg(url))) for game in games for url in [table_url(game.table, base)]]
    context = {"tournament": tournament, "round": round_, "links": links, "unreachable": unreachable_by_phones(base)}
    return render(request, "director/links.html", context)


@director_required
@require_POST
def round_swap(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    tournament = tournament_or_404(tournament_id)
    round_ = round_or_404(tournament, number)
    players_form, teams_form = _swap_forms(round_, request.POST)
    by_team = request.POST.get("kind") == "teams"
    form = teams_form if by_team else players_form
    if not form.is_valid():
        messages.error(request, "Choose the two " + ("teams" if by_team else "players") + " to swap.")
        return redirect("director:round", tournament.pk, number)
    swap = services.swap_teams if by_team else services.swap_players
    try:
        swap(round_=round_, first=form.cleaned_data["first"], second=form.cleaned_data["second"], by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return redirect("director:round", tournament.pk, number)


@director_required
@require_POST
def round_start(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """Start a seated round (a league's night): the table links open its games."""
    tournament = tournament_or_404(tournament_id)
    round_ = round_or_404(tournament, number)
    event_format = format_of(tournament)
    try:
        services.start_round(round_=round_)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, f"{event_format.round_name} {number} has started.")
    return redirect(event_format.play_url(tournament, round_))


@director_required
@require_POST
def round_close(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """Close a round (a league's night) once every table is done; the format says what comes next."""
    tournament = tournament_or_404(tournament_id)
    round_ = round_or_404(tournament, number)
    event_format = format_of(tournament)
    try:
        following = event_format.close_round(round_=round_, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect(event_format.play_url(tournament, round_))
    text, url = event_format.closed(tournament, round_, following)
    messages.success(request, text)
    return redirect(url)
