"""Pages for everyone: live standings and the projector view. Read-only, no login."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournament.reports import board, standings_rows
from tournament.standings import TIEBREAK_TEXT
from tournament.views.common import director_required, tournament_or_404

PROJECTOR_ROWS = 20


def _standings_context(tournament_id: int) -> dict:
    tournament = tournament_or_404(tournament_id)
    current = tournament.current_round()
    return {
        "tournament": tournament,
        "rows": standings_rows(tournament),
        "tiebreak": TIEBREAK_TEXT,
        "current": current,
        "board": board(current) if current else [],
    }


def standings(request: HttpRequest, tournament_id: int) -> HttpResponse:
    context = _standings_context(tournament_id)
    template = "public/_standings.html" if request.htmx else "public/standings.html"
    return render(request, template, context)


def projector(request: HttpRequest, tournament_id: int) -> HttpResponse:
    context = _standings_context(tournament_id)
    context["top"] = context["rows"][:PROJECTOR_ROWS]
    template = "public/_projector.html" if request.htmx else "public/projector.html"
    return render(request, template, context)


@director_required
def director_standings(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return render(request, "director/standings.html", _standings_context(tournament_id))
