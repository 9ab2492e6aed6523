"""Play as the director runs it: starting play, a round's table links, starting and closing a
round, its board; a table's game with every hand, entry and correction, its history and ties."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_POST

from scoring import InvalidHand
from tournament.charts.games import sheet_chart
from tournament.formats.registry import format_of
from tournament.models import Dispute, Game, HandRevision
from tournament.money.winners import PaidPlacesMove
from tournament.pages import director_required, game_or_404, hand_or_404, round_or_404, tournament_or_404, whole_number
from tournament.play import games, rounds
from tournament.play.board import board, game_sheet
from tournament.play.forms import HandForm, ResolutionForm, RoundStartForm, TieDecisionForm, error_text, hand_initial
from tournament.play.hands import GameGone, HandConflict, enter_hand
from tournament.play.links import base_url, qr_svg, table_url, unreachable_by_phones


def _form(game: Game, sheet: dict, number: int, data: dict | None = None, *, correct: bool = True) -> HandForm:
    """The form for hand ``number``: to ``correct``, its stored values (its last deal), else a new
    hand (after a misdeal, the same number dealt again)."""
    rows = reversed(sheet["rows"]) if correct else ()
    stored = next((row.hand for row in rows if row.hand.number == number), None)
    return HandForm(
        data,
        initial=hand_initial(stored) if stored else {"number": number},
        rules=game.rules,
        standing=sheet["replay"].standing_before(number),
    )


CONFIRM_FIELD = "paid_moves_confirmed"


def _render(
    request: HttpRequest,
    game: Game,
    sheet: dict,
    form: HandForm,
    *,
    status: int = 200,
    moved: PaidPlacesMove | None = None,
) -> HttpResponse:
    """The game's page; with ``moved``, the warning that the hand posted moves paid prizes, and
    the button that posts it again, as it was, confirming those moves."""
    context = {
        "tournament": game.round.tournament,
        "game": game,
        "sheet": sheet,
        "chart": sheet_chart(sheet, game.table.number),
        "form": form,
        "dealer": sheet["replay"].dealer_of(whole_number(form["number"].value())),
        "tie_form": TieDecisionForm(),
        # The history in the order things happened (a late correction after the entries before it).
        "revisions": HandRevision.objects.filter(hand__game=game)
        .select_related("hand", "changed_by")
        .order_by("changed_at", "id"),
        "disputes": Dispute.objects.filter(hand__game=game).select_related("hand", "raised_by", "resolved_by"),
        "table_url": table_url(game.table, base_url(request)),
        "back": format_of(game.round.tournament).play_url(game.round.tournament, game.round),
        "back_to": format_of(game.round.tournament).round_called(game.round),
        "round_title": format_of(game.round.tournament).round_title(game.round),
        "moved": moved,
        "repost": [] if moved is None else _repost(request),
        "confirm_field": CONFIRM_FIELD,
    }
    return render(request, "director/game.html", context, status=status)


def _repost(request: HttpRequest) -> list[tuple[str, str]]:
    """The values posted, to post again as they were (the CSRF token comes afresh)."""
    skip = {"csrfmiddlewaretoken", CONFIRM_FIELD}
    return [(name, value) for name, values in request.POST.lists() if name not in skip for value in values]


def _save(request: HttpRequest, game: Game, form: HandForm) -> ValidationError | PaidPlacesMove | None:
    """Enter or correct the hand; the error to show on the form, the paid prizes it would move
    (not confirmed yet), or None once saved."""
    number = form.cleaned_data["number"]
    try:
        entered = enter_hand(
            game=game, number=number, entry=form.entry(), source=HandRevision.Source.DIRECTOR, by=request.user,
            expected_version=form.cleaned_data["version"], deal=form.cleaned_data["deal"],
            paid_moves_confirmed=request.POST.get(CONFIRM_FIELD, ""),
        )  # fmt: skip
    except PaidPlacesMove as moved:
        return moved
    except InvalidHand as error:
        return ValidationError(error.message[0].upper() + error.message[1:] + ".", code=error.code)
    except (HandConflict, GameGone) as conflict:
        return ValidationError(conflict.message, code="conflict")
    messages.success(request, f"Saved hand {number}.")
    if entered.notice:
        messages.warning(request, entered.notice)
    return None


@director_required
def game_detail(request: HttpRequest, tournament_id: int, game_id: int) -> HttpResponse:
    game = game_or_404(tournament_or_404(tournament_id), game_id)
    sheet = game_sheet(game)
    next_number = Game.next_number(sheet["rows"][-1].hand if sheet["rows"] else None)
    number = whole_number(request.GET.get("hand"), next_number) or next_number
    return _render(request, game, sheet, _form(game, sheet, number, correct="hand" in request.GET))


@director_required
@require_POST
def game_hand(request: HttpRequest, tournament_id: int, game_id: int) -> HttpResponse:
    game = game_or_404(tournament_or_404(tournament_id), game_id)
    sheet = game_sheet(game)
    number, correct = max(whole_number(request.POST.get("number")), 1), bool(request.POST.get("version"))
    form = _form(game, sheet, number, request.POST, correct=correct)
    if form.is_valid():
        outcome = _save(request, game, form)
        if outcome is None:
            return redirect("director:game", tournament_id, game.pk)
        if isinstance(outcome, PaidPlacesMove):
            return _render(request, game, sheet, form, status=409, moved=outcome)
        form.add_error(None, outcome)
    return _render(request, game, sheet, form, status=422)


@director_required
@require_POST
def game_reissue(request: HttpRequest, tournament_id: int, game_id: int) -> HttpResponse:
    tournament = tournament_or_404(tournament_id)
    game = game_or_404(tournament, game_id)
    games.reissue_token(table=game.table)
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
    hand = hand_or_404(game, number, whole_number(request.POST.get("deal")) or None)  # a misdeal's own
    form = ResolutionForm(request.POST)
    if form.is_valid():
        games.resolve_dispute(hand=hand, resolution=form.cleaned_data["resolution"], by=request.user)
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
        notice = games.decide_tie(game=game, winner=form.cleaned_data["winner"], how=form.cleaned_data["how"],
                                  by=request.user)  # fmt: skip
    except (ValidationError, InvalidHand) as error:
        messages.error(request, " ".join(error.messages) if isinstance(error, ValidationError) else error.message)
    else:
        if notice:
            messages.warning(request, notice)
    return redirect("director:game", tournament.pk, game.pk)


@director_required
@require_POST
def seat_first(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = tournament_or_404(tournament_id)
    event_format = format_of(tournament)
    try:
        round_ = rounds.start_play(tournament=tournament, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("director:dashboard", tournament.pk)
    return redirect(event_format.play_url(tournament, round_))


@director_required
def round_links(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """Every table's scorekeeper link with its QR code, to hand out or show on a screen."""
    tournament = tournament_or_404(tournament_id)
    round_ = round_or_404(tournament, number)
    games = round_.games.select_related("table").order_by("table__number")
    games = list({game.table_id: game for game in games}.values())  # a knockout plays several games a table
    base = base_url(request)
    links = [(game, url, mark_safe(qr_svg(url))) for game in games for url in [table_url(game.table, base)]]
    context = {"tournament": tournament, "round": round_, "round_title": format_of(tournament).round_title(round_),
               "links": links, "unreachable": unreachable_by_phones(base)}  # fmt: skip
    return render(request, "director/links.html", context)


@director_required
@require_POST
def round_start(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """Start a seated round (a league's night): the table links open its games, and its clock
    starts with it when the director leaves "Start the clock now" ticked."""
    tournament = tournament_or_404(tournament_id)
    round_ = round_or_404(tournament, number)
    event_format = format_of(tournament)
    form = RoundStartForm(request.POST)
    form.is_valid()  # a tick box alone: nothing to refuse, and no tick is "not now"
    try:
        rounds.start_round(round_=round_, start_clock=form.cleaned_data["start_clock"])
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        timed = form.cleaned_data["start_clock"] and tournament.rules.time_limit_minutes
        messages.success(
            request, f"{event_format.round_title(round_)} has started." + (" Its clock is running." if timed else "")
        )
    return redirect(event_format.play_url(tournament, round_))


@director_required
@require_POST
def round_close(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """Close a round (a league's night) once every table is done; the format says what comes next."""
    tournament = tournament_or_404(tournament_id)
    round_ = round_or_404(tournament, number)
    event_format = format_of(tournament)
    try:
        following = rounds.close_round(round_=round_, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect(event_format.play_url(tournament, round_))
    text, url = event_format.closed(tournament, round_, following)
    messages.success(request, text)
    return redirect(url)


@director_required
def round_board(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """A round's board with its controls (start, clock, close); to htmx, the board alone, as it asks
    for itself every few seconds while the round runs. A format may run its rounds on a page of
    its own (a progressive round's movement), showing this board too."""
    tournament = tournament_or_404(tournament_id)
    round_ = round_or_404(tournament, number)
    event_format = format_of(tournament)
    context = {"tournament": tournament, "round": round_, "board": board(round_),
               "round_title": event_format.round_title(round_),
               "round_called": event_format.round_called(round_)}  # fmt: skip
    return render(request, "play/board.html#board" if request.htmx else "play/round.html", context)
