"""Prizes: define them, work out the winners, pay them out against a signature."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from tournament import services
from tournament.forms import PayoutPaidForm, PrizeForm
from tournament.models import Payout, Prize
from tournament.reports import ledger
from tournament.views.common import director_required, tournament_or_404


@director_required
def prizes(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = tournament_or_404(tournament_id)
    return render(request, "director/prizes.html", _context(tournament, PrizeForm()))


def _context(tournament, form: PrizeForm) -> dict:
    payouts = Payout.objects.filter(prize__tournament=tournament).select_related(
        "prize", "player", "team", "recorded_by"
    )
    return {
        "tournament": tournament,
        "form": form,
        "prizes": tournament.prizes.all(),
        "payouts": payouts.prefetch_related("team__players"),
        "paid_form": PayoutPaidForm(),
        "ledger": ledger(tournament),
    }


@director_required
@require_POST
def prize_add(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = tournament_or_404(tournament_id)
    form = PrizeForm(request.POST, instance=Prize(tournament=tournament))
    if form.is_valid():
        try:
            services.save_prize(prize=form.save(commit=False))
        except ValidationError as error:
            form.add_error(None, error)
    if not form.is_valid():
        return render(request, "director/prizes.html", _context(tournament, form), status=422)
    messages.success(request, f"Added the prize for {form.instance}.")
    return redirect("director:prizes", tournament.pk)


@director_required
@require_POST
def prize_delete(request: HttpRequest, tournament_id: int, prize_id: int) -> HttpResponse:
    tournament = tournament_or_404(tournament_id)
    prize = get_object_or_404(Prize, pk=prize_id, tournament=tournament)
    try:
        services.remove_prize(prize=prize)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return redirect("director:prizes", tournament.pk)


@director_required
@require_POST
def prizes_award(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = tournament_or_404(tournament_id)
    try:
        payouts = services.award_prizes(tournament=tournament)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, f"Worked out {len(payouts)} payouts from the standings.")
    return redirect("director:prizes", tournament.pk)


@director_required
@require_POST
def payout_paid(request: HttpRequest, tournament_id: int, payout_id: int) -> HttpResponse:
    tournament = tournament_or_404(tournament_id)
    payout = get_object_or_404(Payout, pk=payout_id, prize__tournament=tournament)
    form = PayoutPaidForm(request.POST)
    if not form.is_valid():
        for field, errors in form.errors.items():
            messages.error(request, f"{form.fields[field].label}: {' '.join(errors)}")
        return redirect("director:prizes", tournament.pk)
    try:
        services.mark_payout_paid(payout=payout, by=request.user, **form.cleaned_data)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return redirect("director:prizes", tournament.pk)
