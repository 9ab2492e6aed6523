"""A table's game, as the director sees it: every hand, entry and correction, history, ties."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from scoring import InvalidHand
from tournament import services
from tournament.forms import HandForm, ResolutionForm, TieDecisionForm, error_text, hand_initial, standing_before
from tournament.links import base_url, table_url
from tournament.models import Dispute, Game, Hand, HandRevision, Round
from tournament.reports import game_sheet
from tournament.views.common import director_required, game_or_404, tournament_or_404, whole_number


def _hand_form(game: Game, number: int, data: dict | None = None) -> HandForm:
    stored = game.hands.filter(number=number).first()
    initial = hand_initial(stored) if stored else {"number": number}
    rules = game.round.tournament.rules
    return HandForm(data, initial=initial, rules=rules, standing=standing_before(game, number))


def _context(request: HttpRequest, game: Game, form: HandForm, **extra: object) -> dict:
    return {
        "tournament": game.round.tournament,
        "game": game,
        "sheet": game_sheet(game),
        "form": form,
        "tie_form": TieDecisionForm(),
        "revisions": HandRevision.objects.filter(hand__game=game).select_related("hand", "changed_by"),
        "disputes": Dispute.objects.filter(hand__game=game).select_related("hand", "raised_by", "resolved_by"),
        "table_url": table_url(game.table, base_url(request)),
        **extra,
    }


@director_required
def game_detail(request: HttpRequest, tournament_id: int, game_id: int) -> HttpResponse:
    tournament = tournament_or_404(tournament_id)
    game = game_or_404(tournament, game_id)
    next_number = (game.hands.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    number = whole_number(request.GET.get("hand"), next_number) or next_number
    return render(request, "director/game.html", _context(request, game, _hand_form(game, number)))


@director_required
@require_POST
def game_hand(request: HttpRequest, tournament_id: int, game_id: int) -> HttpResponse:
    tournament = tournament_or_404(tournament_id)
    game = game_or_404(tournament, game_id)
    number = whole_number(request.POST.get("number"))
    form = _hand_form(game, max(number, 1), request.POST)
    winner_before = game.winner
    if form.is_valid():
        try:
            hand = services.enter_hand(
                game=game,
                number=form.cleaned_data["number"],
                values=form.values(),
                source=HandRevision.Source.DIRECTOR,
                by=request.user,
                expected_version=form.cleaned_data["version"],
            )
        except InvalidHand as error:
            form.add_error(None, ValidationError(error.message[0].upper() + error.message[1:] + ".", code=error.code))
        except services.HandConflict as conflict:
            form.add_error(None, ValidationError(conflict.message, code="conflict"))
        else:
            messages.success(request, f"Saved hand {form.cleaned_data['number']}.")
            if game.round.status == Round.Status.CLOSED and hand.game.winner != winner_before:
                messages.warning(request, services.after_result_change(game=hand.game, by=request.user))
            return redirect("director:game", tournament.pk, game.pk)
    return render(request, "director/game.html", _context(request, game, form), status=422)


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
