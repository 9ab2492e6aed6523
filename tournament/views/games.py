"""A table's game, as the director sees it: every hand, entry and correction, history, ties."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from scoring import InvalidHand
from tournament import services
from tournament.forms import HandForm, ResolutionForm, TieDecisionForm, error_text, hand_initial
from tournament.links import base_url, table_url
from tournament.models import Dispute, Game, Hand, HandRevision
from tournament.reports import game_sheet
from tournament.views.common import director_required, game_or_404, tournament_or_404, whole_number


def _form(game: Game, sheet: dict, number: int, data: dict | None = None) -> HandForm:
    """The form for hand ``number``: a stored hand's values to correct, else a new hand."""
    stored = next((row.hand for row in sheet["rows"] if row.hand.number == number), None)
    return HandForm(
        data,
        initial=hand_initial(stored) if stored else {"number": number},
        rules=game.rules,
        standing=sheet["replay"].standing_before(number),
    )


def _render(request: HttpRequest, game: Game, sheet: dict, form: HandForm, *, status: int = 200) -> HttpResponse:
    context = {
        "tournament": game.round.tournament,
        "game": game,
        "sheet": sheet,
        "form": form,
        "dealer": sheet["replay"].dealer_of(whole_number(form["number"].value())),
        "tie_form": TieDecisionForm(),
        # The history in the order things happened (a late correction after the entries before it).
        "revisions": HandRevision.objects.filter(hand__game=game)
        .select_related("hand", "changed_by")
        .order_by("changed_at", "id"),
        "disputes": Dispute.objects.filter(hand__game=game).select_related("hand", "raised_by", "resolved_by"),
        "table_url": table_url(game.table, base_url(request)),
    }
    return render(request, "director/game.html", context, status=status)


def _save(request: HttpRequest, game: Game, form: HandForm) -> ValidationError | None:
    """Enter or correct the hand; the error to show on the form, or None once saved."""
    number = form.cleaned_data["number"]
    try:
        entered = services.correct_hand(
            game=game, number=number, entry=form.entry(), by=request.user,
            expected_version=form.cleaned_data["version"],
        )  # fmt: skip
    except InvalidHand as error:
        return ValidationError(error.message[0].upper() + error.message[1:] + ".", code=error.code)
    except services.HandConflict as conflict:
        return ValidationError(conflict.message, code="conflict")
    messages.success(request, f"Saved hand {number}.")
    if entered.notice:
        messages.warning(request, entered.notice)
    return None


@director_required
def game_detail(request: HttpRequest, tournament_id: int, game_id: int) -> HttpResponse:
    game = game_or_404(tournament_or_404(tournament_id), game_id)
    sheet = game_sheet(game)
    next_number = len(sheet["rows"]) + 1
    number = whole_number(request.GET.get("hand"), next_number) or next_number
    return _render(request, game, sheet, _form(game, sheet, number))


@director_required
@require_POST
def game_hand(request: HttpRequest, tournament_id: int, game_id: int) -> HttpResponse:
    game = game_or_404(tournament_or_404(tournament_id), game_id)
    sheet = game_sheet(game)
    form = _form(game, sheet, max(whole_number(request.POST.get("number")), 1), request.POST)
    if form.is_valid():
        error = _save(request, game, form)
        if error is None:
            return redirect("director:game", tournament_id, game.pk)
        form.add_error(None, error)
    return _render(request, game, sheet, form, status=422)


@director_required
@require_POST
def game_reissue(request: HttpRequest, tournament_id: int, game_id: int) -> HttpResponse:
    tournament = tournament_or_404(tournament_id)
    game = game_or_404(tournament, game_id)
    services.reissue_token(table=game.table)
    messages.success(
        request,
        f"Table {game.table.number} has a new link for the rest of the event; the old one no longer works. "
        "Reprint its table tent.",
    )
    return redirect("director:game", tournament.pk, game.pk)


@director_required
@require_POST
def game_resolve(request: HttpRequest, tournament_id: int, game_id: int, number: int) -> HttpResponse:
    tournament = tournament_or_404(tournament_id)
    game = game_or_404(tournament, game_id)
    hand = get_object_or_404(Hand, game=game, number=number)
    form = ResolutionForm(request.POST)
    if form.is_valid():
        services.resolve_dispute(hand=hand, resolution=form.cleaned_data["resolution"], by=request.user)
    else:
        messages.error(request, f"The dispute stays open. {error_text(form)}")
    return redirect("director:game", tournament.pk, game.pk)


@director_required
@require_POST
def game_tie(request: HttpRequest, tournament_id: int, game_id: int) -> HttpResponse:
    tournament = tournament_or_404(tournament_id)
    game = game_or_404(tournament, game_id)
    form = TieDecisionForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose the winning side and say how the tie was decided.")
        return redirect("director:game", tournament.pk, game.pk)
    try:
        services.decide_tie(game=game, winner=form.cleaned_data["winner"], how=form.cleaned_data["how"])
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return redirect("director:game", tournament.pk, game.pk)
