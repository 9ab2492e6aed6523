"""The flags of a round as its board lists them, and the director's "checked" on one."""

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from tournament.formats.registry import format_of
from tournament.models import Round, Tournament
from tournament.pages import director_required, round_or_404, tournament_or_404
from tournament.play.forms import error_text
from tournament.review.flags import round_flags, unchecked_by_round
from tournament.review.forms import FlagCheckForm
from tournament.review.services import mark_checked

FLAGS = "review/flags.html#flags"


@dataclass(frozen=True)
class Unchecked:
    """An earlier round with flags still to check: what it is called, its page and how many."""

    title: str
    url: str
    count: int


def flags_context(tournament: Tournament, round_: Round, **extra: object) -> dict:
    """What the flags partial shows of ``round_``: its flags, each with its check, what the event
    calls the round ("Round 3", "Night 3") and the earlier rounds whose flags are not all checked
    (a closed round's board is not on the tabs, so its flags would otherwise go unseen)."""
    event_format = format_of(tournament)
    counts = unchecked_by_round(tournament)
    earlier = [
        Unchecked(event_format.round_title(r), event_format.play_url(tournament, r), counts[r.number])
        for r in tournament.rounds.filter(number__in=counts, number__lt=round_.number).order_by("number")
    ]
    return {"tournament": tournament, "round": round_, "called": event_format.round_title(round_),
            "flags": round_flags(round_), "earlier": earlier, **extra}  # fmt: skip


@director_required
@require_POST
def flag_check(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """Mark one flag of the round checked (with an optional note); answers htmx with the flags
    again, a plain form with the round's page. A bad form or a flag fixed meanwhile: 422, saying why."""
    tournament = tournament_or_404(tournament_id)
    round_ = round_or_404(tournament, number)
    form = FlagCheckForm(request.POST)
    problem = ""
    if form.is_valid():
        try:
            mark_checked(round_=round_, key=form.cleaned_data["key"], note=form.cleaned_data["note"], by=request.user)
        except ValidationError as error:
            problem = " ".join(error.messages)
    else:
        problem = error_text(form)
    if not problem and not request.htmx:
        return redirect(format_of(tournament).play_url(tournament, round_) + "#review-flags")
    context = flags_context(tournament, round_, problem=problem)
    return render(request, FLAGS, context, status=422 if problem else 200)
