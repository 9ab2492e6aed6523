"""The keying page of a table's game: its paper sheet typed row by row (Enter saves a row), and
discarding a hand's keyings. Without JavaScript each row is a form posted on its own; with it
(static/js/keying.js) the grid comes back in place and the cursor moves to the next row."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from scoring import InvalidHand
from tournament.keying import services
from tournament.keying.forms import columns, legend, misdeal_choices, typed_form
from tournament.keying.services import Keyed
from tournament.keying.sheet import Row, Typed, keying_sheet, standing_before
from tournament.models import Game
from tournament.pages import director_required, game_or_404, render_page, tournament_or_404, whole_number
from tournament.play.hands import GameGone, HandConflict


def _render(request: HttpRequest, game: Game, rows: list[Row], *, status: int = 200, said: str = "",
            warn: str = "") -> HttpResponse:  # fmt: skip
    """The page (to htmx or keying.js, the grid alone) with ``said`` and ``warn`` above the grid."""
    tournament = game.round.tournament
    names = game.seat_names()
    shown = columns(game.rules)
    context = {
        "tournament": tournament,
        "game": game,
        "rows": rows,
        "columns": shown,
        "infractions": sum(column.kind == "count" for column in shown),
        "misdeal_choices": misdeal_choices(game.rules),
        "legend": legend(game.rules),
        "seats": {seat.label: name for seat, name in names.items()},
        "double": tournament.club.double_keying,
        "waiting": services.waiting(game.keyings.all()),
        "said": said,
        "warn": warn,
    }
    return render_page(request, "keying/sheet.html", "sheet", context, status=status)


def _after(text: str) -> tuple[int, int] | None:
    """The hand just saved, from the page's address after a save without JavaScript ("3-1")."""
    number, _, deal = text.partition("-")
    return (whole_number(number), whole_number(deal)) if whole_number(number) and whole_number(deal) else None


@director_required
@require_GET
def keying(request: HttpRequest, tournament_id: int, game_id: int) -> HttpResponse:
    game = game_or_404(tournament_or_404(tournament_id), game_id)
    after = _after(request.GET.get("after", ""))
    caught = services.catch_up(game=game)  # writes only when a hand was stored another way meanwhile
    if caught:
        game.refresh_from_db()
    return _render(request, game, keying_sheet(game, request.user, after=after), warn=caught)


@director_required
@require_POST
def keying_hand(request: HttpRequest, tournament_id: int, game_id: int) -> HttpResponse:
    """A row of the grid: the hand keyed (entered, or kept as a keying when the club keys twice)."""
    game = game_or_404(tournament_or_404(tournament_id), game_id)
    number, deal = max(whole_number(request.POST.get("number")), 1), max(whole_number(request.POST.get("deal")), 1)
    standing = standing_before(game, request.user, number)
    form = typed_form(request.POST, rules=game.rules, standing=standing, number=number, deal=deal)
    if form.is_valid():
        try:
            keyed = services.key_hand(game=game, number=number, deal=deal, entry=form.entry(), by=request.user)
        except ValidationError as refused:
            form.add_error(None, refused)
        except InvalidHand as error:
            form.add_error(None, ValidationError(error.message[0].upper() + error.message[1:] + ".", code=error.code))
        except (HandConflict, GameGone) as conflict:
            form.add_error(None, ValidationError(conflict.message, code="conflict"))
        else:
            return _done(request, game, keyed, (number, deal))
    typed = Typed(number=number, deal=deal, data=request.POST, form=form)
    return _render(request, game, keying_sheet(game, request.user, typed=typed), status=422)


def _done(request: HttpRequest, game: Game, keyed: Keyed, saved: tuple[int, int]) -> HttpResponse:
    game.refresh_from_db()  # its totals and status as the keying left them
    warn = " ".join(filter(None, [keyed.said if keyed.mismatch else "", keyed.notice]))
    said = "" if keyed.mismatch else keyed.said
    if request.htmx:
        return _render(request, game, keying_sheet(game, request.user, after=saved), said=said, warn=warn)
    if said:
        messages.success(request, said)
    if warn:
        messages.warning(request, warn)
    url = reverse("director:keying", args=[game.round.tournament_id, game.pk])
    return redirect(f"{url}?after={saved[0]}-{saved[1]}")


@director_required
@require_POST
def keying_discard(request: HttpRequest, tournament_id: int, game_id: int, number: int) -> HttpResponse:
    """Set aside every keying of hand ``number`` not entered yet (both of a mismatch)."""
    game = game_or_404(tournament_or_404(tournament_id), game_id)
    deal = max(whole_number(request.POST.get("deal")), 1)
    try:
        count = services.discard(game=game, number=number, deal=deal)
    except ValidationError as refused:
        return _render(request, game, keying_sheet(game, request.user), status=422, warn=" ".join(refused.messages))
    said = f"Discarded {count} keying{'s' if count > 1 else ''} of hand {number}: key it again from the sheet."
    if request.htmx:
        return _render(request, game, keying_sheet(game, request.user, after=(number, deal - 1)), said=said)
    messages.success(request, said)
    return redirect("director:keying", game.round.tournament_id, game.pk)
