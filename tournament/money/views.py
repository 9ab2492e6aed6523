"""Money: a team's payments and refunds, the fee ledger, and the prizes (define them, work out
the winners, pay them out against a signature)."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from tournament.formats.registry import format_of
from tournament.models import Payout, Prize
from tournament.money import services
from tournament.money.forms import PaymentForm, PayoutPaidForm, PrizeForm
from tournament.money.ledger import fees_due, ledger, payment_entries, team_paid, teams_with_balance, totals_by_method
from tournament.money.winners import payouts_to_review
from tournament.pages import director_required, team_or_404, tournament_or_404
from tournament.templatetags.money import money


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
        "to_review": payouts_to_review(tournament),
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


@director_required
@require_http_methods(["GET", "POST"])
def payments(request: HttpRequest, tournament_id: int, team_id: int) -> HttpResponse:
    tournament = tournament_or_404(tournament_id)
    team = team_or_404(tournament, team_id)
    due = fees_due(tournament)[team.pk]
    form = PaymentForm(request.POST or None, initial={"amount": max(due - team_paid(team), 0) or None})
    if request.method == "POST" and form.is_valid():
        try:
            services.record_payment(team=team, by=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, f"Recorded {form.cleaned_data['kind']} of {money(form.cleaned_data['amount'])}.")
            return redirect("director:payments", tournament.pk, team.pk)
    context = {
        "tournament": tournament,
        "team": team,
        "form": form,
        "paid": (paid := team_paid(team)),
        "due": due,
        "owed": max(due - paid, 0),
        "payments": team.payments.all(),
        "fee_basis": format_of(tournament).fee_basis(tournament),
    }
    return render(request, "director/payments.html", context, status=422 if form.errors else 200)


@director_required
def fees(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = tournament_or_404(tournament_id)
    context = {
        "tournament": tournament,
        "ledger": ledger(tournament),
        "teams": teams_with_balance(tournament),
        "entries": payment_entries(tournament),
        "by_method": totals_by_method(tournament),
    }
    return render(request, "director/fees.html", context)
