"""Registration: couples registered by their two names, checked in with their fee, edited,
withdrawn, substituted."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.forms import modelformset_factory
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from tournament.formats.registry import format_of
from tournament.models import Payment, Player, Round, Team, Tournament
from tournament.money.ledger import teams_with_balance
from tournament.pages import director_required, render_page, team_or_404, tournament_or_404
from tournament.teams import services
from tournament.teams.forms import PlayerForm, RegistrationForm, SubstituteForm
from tournament.teams.lookups import namesakes
from tournament.templatetags.money import money

TEAMS = "director/teams.html"  # the page, and its partials: the registration, a team's check-in

PlayerFormSet = modelformset_factory(
    Player, form=PlayerForm, extra=0, min_num=2, max_num=2, validate_max=True, edit_only=True
)


def _registration_form(
    tournament: Tournament, data: QueryDict | None = None, autofocus: bool = False
) -> RegistrationForm:
    """The registration form, its divisions those the tournament's prizes name."""
    search_url = reverse("director:roster_search", args=[tournament.pk])
    return RegistrationForm(data, search_url=search_url, divisions=tournament.prize_divisions(), autofocus=autofocus)


def _registration_context(tournament: Tournament, form: RegistrationForm) -> dict:
    started = tournament.rounds.exclude(status=Round.Status.PLANNED).exists()
    return {
        "tournament": tournament,
        "form": form,
        "teams": teams_with_balance(tournament),
        "can_remove": not started,
        "can_substitute": tournament.status == Tournament.Status.RUNNING,
    }


def _registered_message(request: HttpRequest, team: Team) -> None:
    messages.success(request, f"Registered team {team.number}: {team.names}.")
    current = team.tournament.current_round()
    if current is not None and (words := format_of(team.tournament).late_entry(team, current)):
        messages.info(request, words)
    for name, numbers in namesakes(team).items():
        teams_text = ", ".join(str(n) for n in numbers)
        messages.warning(
            request,
            f"{name} is also registered in team {teams_text}. Both are kept (two people can share a name); "
            "add an initial to tell them apart, or remove the team if it was entered twice.",
        )


@director_required
def teams(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = tournament_or_404(tournament_id)
    return render(request, TEAMS, _registration_context(tournament, _registration_form(tournament, autofocus=True)))


@director_required
@require_POST
def team_add(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = tournament_or_404(tournament_id)
    form = _registration_form(tournament, request.POST, autofocus=not request.htmx)
    status = 422
    if form.is_valid():
        try:
            team = services.register_team(
                tournament=tournament, names=form.names(), divisions=form.divisions(), by=request.user
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            form, status = _registration_form(tournament), 200
            _registered_message(request, team)
    context = _registration_context(tournament, form)
    if not request.htmx and status == 200:
        return redirect("director:teams", tournament.pk)
    return render_page(request, TEAMS, "registration", context, status=status)


@director_required
@require_http_methods(["GET", "POST"])
def team_edit(request: HttpRequest, tournament_id: int, team_id: int) -> HttpResponse:
    tournament = tournament_or_404(tournament_id)
    team = team_or_404(tournament, team_id)
    formset = PlayerFormSet(
        request.POST or None, queryset=team.players.all(), form_kwargs={"divisions": tournament.prize_divisions()}
    )
    if request.method == "POST" and formset.is_valid():
        formset.save()
        messages.success(request, f"Saved team {team.number}.")
        return redirect("director:teams", tournament.pk)
    status = 422 if request.method == "POST" else 200
    return render(
        request, "director/team_edit.html", {"tournament": tournament, "team": team, "formset": formset}, status=status
    )


@director_required
@require_POST
def team_status(request: HttpRequest, tournament_id: int, team_id: int) -> HttpResponse:
    tournament = tournament_or_404(tournament_id)
    team = team_or_404(tournament, team_id)
    status = request.POST.get("status", "")
    if status not in Team.Status.values:
        messages.error(request, "Choose whether the team is playing or withdrawn.")
        return redirect("director:teams", tournament.pk)
    try:
        services.set_team_status(team=team, status=status, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, f"Team {team.number} is now {Team.Status(status).label.lower()}.")
    return redirect("director:teams", tournament.pk)


@director_required
@require_POST
def team_remove(request: HttpRequest, tournament_id: int, team_id: int) -> HttpResponse:
    tournament = tournament_or_404(tournament_id)
    team = team_or_404(tournament, team_id)
    names = team.names
    try:
        services.remove_team(team=team, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, f"Removed team {team.number} ({names}); the teams after it moved up a number.")
    return redirect("director:teams", tournament.pk)


@director_required
@require_http_methods(["GET", "POST"])
def team_substitute(request: HttpRequest, tournament_id: int, team_id: int) -> HttpResponse:
    tournament = tournament_or_404(tournament_id)
    team = team_or_404(tournament, team_id)
    current = tournament.current_round()
    first = current.number + (current.status == Round.Status.RUNNING) if current else 1
    form = SubstituteForm(request.POST or None, team=team, initial={"from_round": first})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.substitute_player(
                player=data["player"], substitute=data["substitute"], from_round=data["from_round"], by=request.user
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(
                request,
                f"{data['substitute']} plays for {data['player'].name} from round {data['from_round']}; "
                f"the scores stay with {data['player'].name}.",
            )
            return redirect("director:teams", tournament.pk)
    context = {"tournament": tournament, "team": team, "form": form}
    return render(request, "director/substitute.html", context, status=422 if form.errors else 200)


@director_required
@require_POST
def team_arrive(request: HttpRequest, tournament_id: int, team_id: int) -> HttpResponse:
    """Check a team in and take its entry fee in one press."""
    tournament = tournament_or_404(tournament_id)
    team = team_or_404(tournament, team_id)
    method = request.POST.get("method", "")
    if method not in Payment.Method.values:
        messages.error(request, "Choose how the team paid.")
        return redirect("director:teams", tournament.pk)
    payment = services.check_in_team(team=team, method=method, by=request.user)
    paid = f", paid {money(payment.amount)} {payment.get_method_display().lower()}" if payment else ""
    messages.success(request, f"Team {team.number} is checked in{paid}.")
    if not request.htmx:
        return redirect("director:teams", tournament.pk)
    return render(request, f"{TEAMS}#registration", _registration_context(tournament, _registration_form(tournament)))


@director_required
@require_POST
def team_check_in(request: HttpRequest, tournament_id: int, team_id: int) -> HttpResponse:
    tournament = tournament_or_404(tournament_id)
    team = team_or_404(tournament, team_id)
    status = 200
    try:
        team = services.set_checked_in(team=team, checked_in=request.POST.get("checked_in") == "on")
    except ValidationError as error:  # a page from before the withdrawal: its box says "Withdrawn" now
        messages.error(request, " ".join(error.messages))
        team.refresh_from_db()
        status = 409
    if request.htmx:
        return render(request, f"{TEAMS}#check_in", {"tournament": tournament, "team": team}, status=status)
    return redirect("director:teams", tournament.pk)
