"""The director's tournament pages: the list, creating and editing, the dashboard."""

from dataclasses import dataclass

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from scoring.describe import summary
from scoring.parts import compared
from scoring.presets import find_preset
from tournament import access
from tournament.events import services
from tournament.events.forms import TournamentForm
from tournament.formats.registry import format_of
from tournament.models import Club, Round, Team, Tournament
from tournament.money.ledger import ledger
from tournament.pages import director_required, tournament_or_404
from tournament.review.flags import unchecked_by_round


@dataclass(frozen=True)
class ClubSection:
    """One of the user's clubs on the home page, with its events (latest first)."""

    club: Club
    role: str
    directs: bool  # may create and import events in it
    tournaments: list[Tournament]


@director_required
def home(request: HttpRequest) -> HttpResponse:
    """The user's clubs, each with its events; someone in no club is told how to join one."""
    roles = access.club_roles(request.user)
    events: dict[int, list[Tournament]] = {pk: [] for pk in roles}
    for tournament in Tournament.objects.filter(club__in=roles):
        events[tournament.club_id].append(tournament)
    sections = [
        ClubSection(club, roles[club.pk], access.may_open(roles[club.pk], "tournament_new"), events[club.pk])
        for club in Club.objects.filter(pk__in=roles)
    ]
    context = {"sections": sections, "directs_any": any(s.directs for s in sections)}
    return render(request, "director/home.html", context)


@director_required
@require_http_methods(["GET", "POST"])
def tournament_new(request: HttpRequest) -> HttpResponse:
    """A new tournament in a club the user directs (``?club=<id>`` chooses it beforehand)."""
    clubs = access.directed_clubs(request.user)
    if not clubs.exists():
        raise PermissionDenied("Only a club's owner or directors create its events: an owner can invite you.")
    form = TournamentForm(request.POST or None, clubs=clubs, initial={"club": request.GET.get("club")})
    if request.method == "POST" and form.is_valid():
        tournament = form.save(commit=False)
        tournament.club = form.cleaned_data["club"]
        tournament = services.create_tournament(tournament=tournament, by=request.user, settings=form.chosen_settings())
        return redirect("director:dashboard", tournament.pk)
    status = 422 if request.method == "POST" else 200
    return render(request, "director/tournament_form.html", {"form": form}, status=status)


@director_required
@require_http_methods(["GET", "POST"])
def tournament_edit(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = tournament_or_404(tournament_id)
    form = TournamentForm(request.POST or None, instance=tournament)
    if request.method == "POST" and form.is_valid():
        changes = {name: form.cleaned_data[name] for name in form.Meta.fields}
        confirm = _confirm_rule_change(request, tournament, changes, form)
        if confirm is not None:
            return confirm
        try:
            tournament, flipped = services.update_tournament(
                tournament=tournament, changes=changes, settings=form.chosen_settings(), by=request.user
            )
        except ValidationError as error:
            # On the field whose change is refused; a format's setting's (a final's rules) above the form.
            form.add_error(next((f for f in ("rule_overrides", "preset") if f in form.changed_data), None), error)
        else:
            messages.success(request, "Settings saved.")
            if flipped:
                changed = ", ".join(flipped)
                messages.warning(request, f"Every hand was scored again. Results changed at {changed}: later rounds "
                                 "were seated on the old results.")  # fmt: skip
            return redirect("director:dashboard", tournament.pk)
    status = 422 if request.method == "POST" else 200
    return render(request, "director/tournament_form.html", {"form": form, "tournament": tournament}, status=status)


def _confirm_rule_change(
    request: HttpRequest, tournament: Tournament, changes: dict, form: TournamentForm
) -> HttpResponse | None:
    """A page listing what new rules would change in the games played, to confirm; None when
    the rules stay, no game moves, or the director has confirmed."""
    if request.POST.get("confirm_rules") == "yes":
        return None
    try:
        change = services.preview_update(tournament=tournament, changes=changes, settings=form.chosen_settings())
    except ValidationError:
        return None  # the change itself will say what is wrong
    if not change.changes:
        return None
    context = {"tournament": tournament, "change": change, "posted": _resubmission(request)}
    return render(request, "director/rule_change.html", context)


def _resubmission(request: HttpRequest) -> list[tuple[str, str]]:
    """The edit form's fields as posted, to send again once the director confirms."""
    return [(k, v) for k, values in request.POST.lists() if k != "csrfmiddlewaretoken" for v in values]


def _own_rules(tournament: Tournament) -> list[dict[str, str]]:
    """The parts of the event played under rules of their own (a final), as the dashboard says
    them: how their games end beside the others', and their rule set in one line."""
    return [
        {"sentence": compared(tournament.rules, part.rules, part.title), "title": part.title,
         "preset": find_preset(part.preset).title, "summary": summary(part.rules)}
        for part in format_of(tournament).rule_parts(tournament)
        if part.rules != tournament.rules
    ]  # fmt: skip


@director_required
def dashboard(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = tournament_or_404(tournament_id)
    rounds = list(tournament.rounds.all())
    event_format = format_of(tournament)
    to_check = unchecked_by_round(tournament)
    for round_ in rounds:
        round_.play_url = event_format.play_url(tournament, round_)
        round_.title = event_format.round_title(round_)
        round_.to_check = to_check.get(round_.number, 0)
    context = {
        "tournament": tournament,
        "rules_summary": summary(tournament.rules),
        "own_rules": _own_rules(tournament),
        "event_format": event_format,
        "progress": event_format.progress(tournament),
        "rounds_heading": event_format.rounds_heading(tournament),
        "rounds": rounds,
        "current": next((r for r in rounds if r.status != Round.Status.CLOSED), None),
        "team_count": tournament.teams.filter(status=Team.Status.ACTIVE).count(),
        "ledger": ledger(tournament),
        "dashboard_links": event_format.dashboard_links(tournament),
    }
    return render(request, "director/dashboard.html", context)
