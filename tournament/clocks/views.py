"""The director's clock controls: one clock (a match's, or one table's in a round), every clock
of a round's tables, and the clocks of every match at a table."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from tournament.clocks import services
from tournament.clocks.forms import ClockForm
from tournament.formats.registry import format_of
from tournament.models import Clock
from tournament.pages import director_required, round_or_404, tournament_or_404


def _act(clock: Clock, data: dict) -> None:
    action = data["action"]
    if action == "start":
        services.start_clock(clock=clock)
    elif action == "pause":
        services.pause_clock(clock=clock)
    elif action == "set":
        services.set_minutes_left(clock=clock, minutes=data["minutes_left"])
    else:
        services.add_minutes(clock=clock, minutes=data["minutes"])


@director_required
@require_POST
def clock_action(request: HttpRequest, tournament_id: int, clock_id: int) -> HttpResponse:
    """Start, pause, extend or set the minutes left of one clock; back to the page where its round
    is run."""
    tournament = tournament_or_404(tournament_id)
    clock = get_object_or_404(Clock, pk=clock_id, tournament=tournament)
    game = clock.games.select_related("round", "table").first()
    form = ClockForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(e for errors in form.errors.values() for e in errors))
    else:
        try:
            _act(clock, form.cleaned_data)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            if form.cleaned_data["action"] == "set":
                left = form.cleaned_data["minutes_left"]
                where = f"Table {game.table.number}'s clock" if game else "The clock"
                messages.success(request, f"{where} now has {left} minute{'s' if left != 1 else ''} left.")
    if game is None:
        return redirect("director:dashboard", tournament.pk)
    return redirect(format_of(tournament).play_url(tournament, game.round))


@director_required
@require_POST
def start_clocks(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Start the clocks of every match at a table that has not started yet."""
    tournament = tournament_or_404(tournament_id)
    started = services.start_match_clocks(tournament=tournament)
    messages.success(request, f"Started {started} clock{'s' if started != 1 else ''}.")
    current = tournament.current_round()
    if current is None:
        return redirect("director:dashboard", tournament.pk)
    return redirect(format_of(tournament).play_url(tournament, current))


@director_required
@require_POST
def round_clock(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """Start (or resume) or pause the clock of every table of a round."""
    tournament = tournament_or_404(tournament_id)
    round_ = round_or_404(tournament, number)
    try:
        if request.POST.get("action") == "pause":
            services.pause_round_clock(round_=round_)
        else:
            services.start_round_clock(round_=round_)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return redirect(format_of(tournament).play_url(tournament, round_))
