"""The flags of a round as its board lists them, and the director's "checked" on one."""

from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from tournament.formats.registry import format_of
from tournament.models import Round, Tournament
from tournament.pages import director_required, round_or_404, tournament_or_404
from tournament.play.forms import error_text
from tournament.review.flags import round_flags
from tournament.review.forms import FlagCheckForm
from tournament.review.services import mark_checked

FLAGS = "review/flags.html#flags"


def flags_context(tournament: Tournament, round_: Round, **extra: object) -> dict:
    """What the flags partial shows of ``round_``: its flags, each with its check, and what the
    event calls the round ("Round 3", "Night 3")."""
    called = format_of(tournament).round_title(round_)
    return {"tournament": tournament, "round": round_, "called": called, "flags": round_flags(round_), **extra}


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
