"""Exports (CSV, and a JSON backup of a whole tournament) and the import that restores one."""

import json

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.views.decorators.http import require_http_methods

from tournament import access
from tournament.formats.registry import format_of
from tournament.pages import director_required, tournament_or_404
from tournament.transfer.csv import hands_csv, standings_csv
from tournament.transfer.export import export_tournament
from tournament.transfer.forms import ImportForm
from tournament.transfer.rows import parse
from tournament.transfer.write import import_tournament


def _download(body: str, filename: str, content_type: str) -> HttpResponse:
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@director_required
def export_standings(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = tournament_or_404(tournament_id)
    rows = format_of(tournament).standings(tournament)
    return _download(standings_csv(rows), f"{slugify(tournament.name)}-standings.csv", "text/csv")


@director_required
def export_hands(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = tournament_or_404(tournament_id)
    return _download(hands_csv(tournament), f"{slugify(tournament.name)}-hands.csv", "text/csv")


@director_required
def export_json(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = tournament_or_404(tournament_id)
    body = json.dumps(export_tournament(tournament), separators=(",", ":"))  # 40% smaller than indented
    return _download(body, f"{slugify(tournament.name)}.json", "application/json")


@director_required
@require_http_methods(["GET", "POST"])
def import_json(request: HttpRequest) -> HttpResponse:
    """A tournament export imported as a new tournament of a club the user directs, or restored in
    place of one of its tournaments (which stays in its club)."""
    clubs = access.directed_clubs(request.user)
    if not clubs.exists():
        raise PermissionDenied("Only a club's owner or directors import its events.")
    form = ImportForm(
        request.POST or None, request.FILES or None,
        directed=access.directed_tournaments(request.user), clubs=clubs, initial={"club": request.GET.get("club")},
    )  # fmt: skip
    if request.method == "POST" and form.is_valid():
        replace = form.cleaned_data["replace"]
        try:
            data = parse(form.cleaned_data["file"].read())
            tournament = import_tournament(data, club=form.cleaned_data["club"], by=request.user, replace=replace)
        except ValidationError as error:
            form.add_error("file", error)
        else:
            messages.success(request, f"{'Restored' if replace else 'Imported'} {tournament.name}.")
            return redirect("director:dashboard", tournament.pk)
    status = 422 if request.method == "POST" else 200
    return render(request, "director/import.html", {"form": form}, status=status)
