"""The director's pages: everything here needs a logged-in staff member."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from tournament.models import Tournament


@login_required
def home(request: HttpRequest) -> HttpResponse:
    tournaments = Tournament.objects.all()
    return render(request, "director/home.html", {"tournaments": tournaments})


@login_required
def dashboard(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    teams = tournament.teams.prefetch_related("players")
    return render(request, "director/dashboard.html", {"tournament": tournament, "teams": teams})
