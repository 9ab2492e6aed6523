"""Pages for everyone: live standings and the projector view. Read-only, no login."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from tournament.formats import format_of
from tournament.models import Round
from tournament.places import find_places, page_of, round_places
from tournament.reports import board
from tournament.standings import TIEBREAK_TEXT
from tournament.views.common import director_required, tournament_or_404, whole_number

# What fits at 1920x1080 in type readable across a hall; longer lists page every REFRESH seconds.
PROJECTOR_STANDINGS_ROWS = 15
PROJECTOR_SEATING_ROWS = 22
PROJECTOR_REFRESH_SECONDS = 10


def _standings_context(tournament_id: int) -> dict:
    tournament = tournament_or_404(tournament_id)
    current = tournament.current_round()
    return {
        "tournament": tournament,
        "rows": format_of(tournament).standings(tournament),  # a knockout places by its bracket
        "tiebreak": TIEBREAK_TEXT,
        "current": current,
        "board": board(current) if current else [],
    }


def standings(request: HttpRequest, tournament_id: int) -> HttpResponse:
    if tournament_or_404(tournament_id).is_league:
        return redirect("public:league", tournament_id)  # a league's standings are its league table
    context = _standings_context(tournament_id)
    template = "public/_standings.html" if request.htmx else "public/standings.html"
    return render(request, template, context)


def projector(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The seating of a round seated but not started (to find seats), else the standings and the
    tables still playing; one page at a time, the next one on each refresh."""
    if tournament_or_404(tournament_id).is_league:
        return redirect("public:league_projector", tournament_id)
    context = _standings_context(tournament_id)
    number, current = whole_number(request.GET.get("page"), 1), context["current"]
    if current is not None and current.status == Round.Status.PLANNED:
        context["seating"] = True
        context["page"] = page_of(round_places(current), number, PROJECTOR_SEATING_ROWS)
    else:
        context["page"] = page_of(context["rows"], number, PROJECTOR_STANDINGS_ROWS)
        context["board"] = context["board"] if current and current.status == Round.Status.RUNNING else []
    context["refresh"] = PROJECTOR_REFRESH_SECONDS
    template = "public/_projector.html" if request.htmx else "public/projector.html"
    return render(request, template, context)


def find_seat(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """ "Find my seat": part of a name gives the table, seat, partner and opponents this round."""
    context = _standings_context(tournament_id)
    query = request.GET.get("q", "").strip()[:80]
    current = context["current"]
    context.update(query=query, places=find_places(current, query) if current and query else [])
    template = "public/_find_seat.html" if request.htmx else "public/standings.html"
    return render(request, template, context)


@director_required
def director_standings(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return render(request, "director/standings.html", _standings_context(tournament_id))
