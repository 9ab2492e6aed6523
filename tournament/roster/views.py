"""A club's roster: its people (searched by name), a person's events in the club and their name
corrected, and the names offered as they are typed at a tournament's registration desk."""

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from tournament.models import Club, RosterPlayer, roster_key
from tournament.pages import director_required, tournament_or_404
from tournament.ratings.glicko2 import PROVISIONAL_GAMES
from tournament.ratings.services import UNRATED, player_rating, roster_ratings
from tournament.roster.people import LISTED, history, people, rename_roster_player, suggestions


class RenameForm(forms.Form):
    name = forms.CharField(
        max_length=80, label="Name on the club roster",
        error_messages={"required": "Give the name.", "max_length": "A name is at most 80 characters."},
    )  # fmt: skip


class SearchForm(forms.Form):
    q = forms.CharField(max_length=80, required=False, label="Name contains")


@director_required
@require_GET
def roster_search(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The ``<option>``s of a registration name field's list, from the tournament's club's roster."""
    tournament = tournament_or_404(tournament_id)
    typed = request.GET.get("q") or request.GET.get("first") or request.GET.get("second") or ""
    found = suggestions(typed[:80], tournament.club_id)
    return render(request, "director/teams.html#roster_options", {"suggestions": found})


@director_required
@require_GET
def club_roster(request: HttpRequest, club_id: int) -> HttpResponse:
    """The club's people, the most recently seen first, or those whose name contains what is searched."""
    club = get_object_or_404(Club, pk=club_id)
    form = SearchForm(request.GET)
    typed = form.cleaned_data["q"] if form.is_valid() else ""
    found = people(club.pk, roster_key(typed))
    ratings = roster_ratings(club.pk)
    rows = [(s, ratings.get(s.person.pk, UNRATED)) for s in found]
    context = {"club": club, "form": form, "rows": rows, "typed": typed, "listed": LISTED,
               "provisional_games": PROVISIONAL_GAMES}  # fmt: skip
    return render(request, "director/roster.html", context)


@director_required
@require_GET
def roster_player(request: HttpRequest, club_id: int, person_id: int) -> HttpResponse:
    """A person's events in the club (each under the name it recorded), and the name to correct."""
    person = get_object_or_404(RosterPlayer.objects.select_related("club"), club=club_id, pk=person_id)
    return _person_page(request, person, RenameForm(initial={"name": person.name}))


@director_required
@require_POST
def roster_rename(request: HttpRequest, club_id: int, person_id: int) -> HttpResponse:
    """Correct a person's name on the club's roster (a director's change: the events keep theirs)."""
    person = get_object_or_404(RosterPlayer.objects.select_related("club"), club=club_id, pk=person_id)
    form = RenameForm(request.POST)
    if form.is_valid():
        try:
            rename_roster_player(person=person, name=form.cleaned_data["name"])
        except ValidationError as error:
            form.add_error(None, error)  # the error names its field
        else:
            messages.success(request, f"The roster now says {person.name}; each event keeps the name it recorded.")
            return redirect("director:roster_player", club_id, person.pk)
    return _person_page(request, person, form, status=422)


def _person_page(request: HttpRequest, person: RosterPlayer, form: RenameForm, *, status: int = 200) -> HttpResponse:
    context = {
        "club": person.club, "person": person, "form": form, "events": history(person),
        "player_rating": player_rating(person.club, person, public=False),
    }  # fmt: skip
    return render(request, "director/roster_player.html", context, status=status)
