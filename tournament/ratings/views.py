"""How ratings work, in our words: public when the club's ratings are, else its people's alone."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from tournament.access import club_role
from tournament.models import Club
from tournament.ratings.glicko2 import PROVISIONAL_GAMES


@require_GET
def about(request: HttpRequest, club_id: int) -> HttpResponse:
    """The page that explains a club's ratings; a club whose ratings are private shows it only to
    its members (anyone else: not found)."""
    club = get_object_or_404(Club, pk=club_id)
    if not club.ratings_public and (not request.user.is_authenticated or club_role(request.user, club.pk) is None):
        raise Http404("No such club.")
    context = {"club": club, "provisional_games": PROVISIONAL_GAMES}
    return render(request, "ratings/about.html", context)
