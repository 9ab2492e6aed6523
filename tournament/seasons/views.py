"""A club's seasons: the director's list, form and standings (with the PDF and CSV), and the public
season standings, projector and player's page (no login, like an event's public standings).

Assistants may see a season's standings, print them and export them, but not create or change a
season (the club's directors choose what counts)."""

from __future__ import annotations

import math

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from tournament.access import club_role
from tournament.models import Club, PrintJob, RosterPlayer
from tournament.pages import director_required, whole_number
from tournament.printing import jobs
from tournament.ratings.services import player_rating
from tournament.seasons import documents
from tournament.seasons.forms import SeasonForm
from tournament.seasons.models import Season
from tournament.seasons.player import player_events
from tournament.seasons.points import TIEBREAK_TEXT
from tournament.seasons.services import save_season
from tournament.seasons.standings import places_of, season_events, season_tables
from tournament.standings.places import page_of

PROJECTOR_ROWS = 15
PROJECTOR_REFRESH_SECONDS = 10


def _season(club_id: int, season_id: int) -> Season:
    return get_object_or_404(Season.objects.select_related("club"), pk=season_id, club_id=club_id)


@director_required
@require_GET
def seasons(request: HttpRequest, club_id: int) -> HttpResponse:
    club = get_object_or_404(Club, pk=club_id)
    return render(request, "seasons/list.html", {"club": club, "seasons": club.seasons.all()})


def _form_page(request: HttpRequest, club: Club, season: Season | None) -> HttpResponse:
    """The season's form: on a valid post, saved (under the club's lock) and off to its standings."""
    if request.method == "POST":
        form = SeasonForm(request.POST, club=club, season=season)
        if form.is_valid():
            data = form.cleaned_data
            try:
                saved = save_season(
                    club_id=club.pk, season_id=season.pk if season else None, name=data["name"], rule=data["rule"],
                    points_table=data["points_table"], best_n=data["best_n"], events=data["events"],
                )  # fmt: skip
            except ValidationError as error:
                form.add_error(None, error)
            else:
                messages.success(request, f"Season {saved.name} saved.")
                return redirect("director:season", club.pk, saved.pk)
        return render(request, "seasons/form.html", {"club": club, "season": season, "form": form}, status=422)
    initial = {"points_table": "10, 8, 6, 5, 4, 3, 2, 1", "rule": Season.Rule.PLACES}
    if season is not None:
        table = ", ".join(map(str, season.points_table))
        initial = {"name": season.name, "rule": season.rule, "best_n": season.best_n, "points_table": table,
                   "events": season_events(season)}  # fmt: skip
    form = SeasonForm(initial=initial, club=club, season=season)
    return render(request, "seasons/form.html", {"club": club, "season": season, "form": form})


@director_required
@require_http_methods(["GET", "POST"])
def season_new(request: HttpRequest, club_id: int) -> HttpResponse:
    return _form_page(request, get_object_or_404(Club, pk=club_id), None)


@director_required
@require_http_methods(["GET", "POST"])
def season_edit(request: HttpRequest, club_id: int, season_id: int) -> HttpResponse:
    season = _season(club_id, season_id)
    return _form_page(request, season.club, season)


def _season_context(season: Season, *, public: bool) -> dict:
    return {"club": season.club, "season": season, "tables": season_tables(season), "public": public,
            "tiebreak": TIEBREAK_TEXT}  # fmt: skip


@director_required
@require_GET
def season(request: HttpRequest, club_id: int, season_id: int) -> HttpResponse:
    """The season's standings as the director sees them, with its PDF, CSV and public pages."""
    context = _season_context(_season(club_id, season_id), public=False)
    return render(request, "seasons/season.html", context)


@director_required
@require_GET
def season_csv(request: HttpRequest, club_id: int, season_id: int) -> HttpResponse:
    season = _season(club_id, season_id)
    response = HttpResponse(documents.season_csv(season_tables(season)), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="season-{season.pk}.csv"'
    return response


@director_required
@require_GET
def season_print(request: HttpRequest, club_id: int, season_id: int) -> HttpResponse:
    """The season's standings as a PDF on the paper asked for (``?paper=A4``; else the latest
    event's), rendered by the print worker as a job of the season's latest event."""
    season = _season(club_id, season_id)
    events = season_events(season)
    if not events:
        raise Http404("A season with no events has nothing to print.")
    latest = events[-1]
    paper = request.GET.get("paper") if request.GET.get("paper") in documents.PAPERS else latest.paper_size
    job = jobs.produce(latest, documents.season_document(season_tables(season), paper))
    if job.status == PrintJob.Status.DONE:
        response = HttpResponse(bytes(job.pdf), content_type="application/pdf")
        response["Content-Disposition"] = f'inline; filename="{job.document}.pdf"'
        return response
    return redirect("director:print_job", latest.pk, job.pk)


# --- public pages: no login -------------------------------------------------------------------------


@require_GET
def public_seasons(request: HttpRequest, club_id: int) -> HttpResponse:
    """The club's seasons, for everyone."""
    club = get_object_or_404(Club, pk=club_id)
    return render(request, "seasons/public_list.html", {"club": club, "seasons": club.seasons.all()})


@require_GET
def public_season(request: HttpRequest, club_id: int, season_id: int) -> HttpResponse:
    context = _season_context(_season(club_id, season_id), public=True)
    return render(request, "seasons/season.html", context)


@require_GET
def season_projector(request: HttpRequest, club_id: int, season_id: int) -> HttpResponse:
    """The season's tables on the projector, a page at a time (the players', then the teams'),
    the next one on each refresh."""
    season = _season(club_id, season_id)
    tables = season_tables(season)
    rows = [("Players", line) for line in tables.players.lines] + [("Teams", line) for line in tables.teams.lines]
    # Pages of even length: 16 rows make two pages of 8, not one of 15 and one of 1.
    size = math.ceil(len(rows) / max(1, math.ceil(len(rows) / PROJECTOR_ROWS)))
    page = page_of(rows, whole_number(request.GET.get("page"), 1), max(1, size))
    context = {"club": season.club, "season": season, "page": page, "refresh": PROJECTOR_REFRESH_SECONDS}
    template = "seasons/projector.html#projector" if request.htmx else "seasons/projector.html"
    return render(request, template, context)


@require_GET
def player(request: HttpRequest, club_id: int, person_id: int) -> HttpResponse:
    """A player's page: their events in the club (place, of how many, partners round by round,
    points) and their places in the club's seasons."""
    person = get_object_or_404(RosterPlayer.objects.select_related("club"), club=club_id, pk=person_id)
    standings = []
    played = Season.objects.filter(club=club_id, season_events__tournament__teams__players__roster=person)
    for season_ in played.distinct():
        standings += [(season_, *found) for found in places_of(season_tables(season_), person.pk)]
    # The club's own people see ratings the club keeps off its public pages.
    member = request.user.is_authenticated and club_role(request.user, person.club_id) is not None
    context = {"club": person.club, "person": person, "events": player_events(person), "seasons": standings,
               "player_rating": player_rating(person.club, person, public=not member)}  # fmt: skip
    return render(request, "seasons/player.html", context)
