"""The club roster: names offered as they are typed at registration, a person's events."""

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from tournament import access
from tournament.models import RosterPlayer
from tournament.pages import director_required
from tournament.roster.people import history, rename_roster_player, suggestions


class RenameForm(forms.Form):
    name = forms.CharField(max_length=80, label="Name on the club roster")


@director_required
@require_GET
def roster_search(request: HttpRequest) -> HttpResponse:
    """The ``<option>``s of a registration name field's list, for what has been typed so far."""
    typed = request.GET.get("q") or request.GET.get("first") or request.GET.get("second") or ""
    found = suggestions(typed[:80], access.visible_clubs(request.user))
    return render(request, "director/teams.html#roster_options", {"suggestions": found})


@director_required
@require_http_methods(["GET", "POST"])
def roster_player(request: HttpRequest, person_id: int) -> HttpResponse:
    """A person's events (each under the name it recorded), and the roster name to correct."""
    visible = access.visible_tournaments(request.user)
    person = get_object_or_404(RosterPlayer, club__in=access.visible_clubs(request.user), pk=person_id)
    form = RenameForm(request.POST or None, initial={"name": person.name})
    if request.method == "POST" and form.is_valid():
        try:
            rename_roster_player(person=person, name=form.cleaned_data["name"])
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, f"The roster now says {person.name}; each event keeps the name it recorded.")
            return redirect("director:roster_player", person.pk)
    context = {"person": person, "form": form, "events": history(person, visible)}
    return render(request, "director/roster_player.html", context, status=422 if form.errors else 200)
