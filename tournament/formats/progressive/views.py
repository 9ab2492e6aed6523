"""A progressive round's page: its movement to review and adjust before it starts, then its board."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from tournament.formats.progressive import movement
from tournament.formats.progressive.forms import SwapPlayersForm, SwapTeamsForm
from tournament.formats.progressive.seating import movement_rows, sitting_out_names
from tournament.formats.registry import format_of
from tournament.models import Player, Round, Team
from tournament.pages import director_required, round_or_404, tournament_or_404
from tournament.play.board import board

PAGE = "progressive/round.html"


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
    context = {"tournament": tournament, "round": round_, "board": board(round_),
               "round_called": format_of(tournament).round_called(round_)}  # fmt: skip
    if request.htmx:
        return render(request, "play/board.html#board", context)
    swap_players, swap_teams = _swap_forms(round_)
    context |= {
        "movement": movement_rows(round_) if round_.is_planned else None,
        "sitting_out": sitting_out_names(round_),
        "changes": round_.seating_changes.select_related("changed_by"),
        "swap_players": swap_players,
        "swap_teams": swap_teams,
    }
    return render(request, PAGE, context)


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
    swap = movement.swap_teams if by_team else movement.swap_players
    try:
        swap(round_=round_, first=form.cleaned_data["first"], second=form.cleaned_data["second"], by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return redirect("director:round", tournament.pk, number)
