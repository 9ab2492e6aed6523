"""The scorekeeper's pages, reached through a table's link (a token), with no account.

A table keeps one link all event. The page opens the game at that table in the current round,
or a waiting page between rounds. Everything a page sends back (preview, hand, dispute) names the
round it was loaded for, so a form left open from a closed round never writes into the next
round's game; a closed round's game is refused (410, with a page that says so). Another table's
game is never reachable: a game is looked up only among the games of the token's table.
"""

from functools import wraps

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from scoring import InvalidHand, score_hand
from tournament import services
from tournament.forms import DisputeForm, HandForm, error_text, hand_initial, standing_before
from tournament.models import Dispute, Game, Hand, HandRevision, Round, Table
from tournament.reports import game_sheet
from tournament.views.common import whole_number

SWAPPED_PANEL = "table/_panel.html"
SEAT_ORDER = [("north", "North", "ns"), ("east", "East", "ew"), ("south", "South", "ns"), ("west", "West", "ew")]
WAITING_REFRESH_SECONDS = 15


def _table_for_token_or_404(token: str) -> Table:
    return get_object_or_404(Table.objects.select_related("tournament"), token=token)


def _game_for_link_or_404(token: str, round_number: int) -> Game:
    """The game of round ``round_number`` at the token's table; a closed round's raises RoundClosed."""
    table = _table_for_token_or_404(token)
    game = get_object_or_404(
        Game.objects.select_related("round__tournament", "table"), table=table, round__number=round_number
    )
    if game.round.status == Round.Status.CLOSED:
        raise RoundClosed(game)
    return game


class RoundClosed(Http404):
    """A form from a round that has closed. Shown as a page that says so (status 410 Gone)."""

    def __init__(self, game: Game) -> None:
        super().__init__("This game's round has closed.")
        self.game = game


def closed_link_page(view):
    """Answer a closed round's form with a page that says where to go, instead of a bare 404."""

    @wraps(view)
    def wrapper(request: HttpRequest, token: str, *args: object, **kwargs: object) -> HttpResponse:
        try:
            return view(request, token, *args, **kwargs)
        except RoundClosed as closed:
            return render(request, "table/closed.html", {"game": closed.game, "token": token}, status=410)

    return wrapper


def _hands(game: Game) -> list[Hand]:
    return list(game.hands.order_by("number"))


def _form(game: Game, hands: list[Hand], data: dict | None = None, correct: Hand | None = None) -> HandForm:
    number = correct.number if correct else (hands[-1].number + 1 if hands else 1)
    if data is not None and whole_number(data.get("number")):
        number = whole_number(data.get("number"))
    tournament = game.round.tournament
    return HandForm(
        data,
        initial=hand_initial(correct) if correct else {"number": number},
        rules=tournament.rules,
        standing=standing_before(game, number, hands),
        confirm=tournament.require_confirmation,
    )


def _panel(
    request: HttpRequest,
    game: Game,
    hands: list[Hand],
    form: HandForm,
    *,
    status: int = 200,
    notice: str = "",
    stored=None,
) -> HttpResponse:
    context = {"game": game, "sheet": game_sheet(game, hands), "form": form, "notice": notice, "stored": stored}
    context["seat_order"] = SEAT_ORDER
    context["disputes"] = Dispute.objects.filter(hand__game=game).select_related("hand", "raised_by", "resolved_by")
    template = SWAPPED_PANEL if request.htmx else "table/page.html"
    return render(request, template, context, status=status)


def _waiting(request: HttpRequest, table: Table, game: Game | None) -> HttpResponse:
    """Between rounds: which round is next here and who sits where; the page refreshes itself."""
    tournament = table.tournament
    context = {
        "table": table,
        "tournament": tournament,
        "game": game,
        "current": tournament.current_round(),
        "seats": game_sheet(game, [])["seats"] if game else {},
        "refresh": WAITING_REFRESH_SECONDS,
    }
    return render(request, "table/waiting.html", context)


@require_GET
def table_page(request: HttpRequest, token: str) -> HttpResponse:
    table = _table_for_token_or_404(token)
    game = table.current_game()
    if game is None or game.round.status == Round.Status.PLANNED:
        return _waiting(request, table, game)
    hands = _hands(game)
    last = hands[-1] if hands else None
    correcting = last if last and request.GET.get("correct") == str(last.number) else None
    return _panel(request, game, hands, _form(game, hands, correct=correcting))


@require_GET
@closed_link_page
def table_preview(request: HttpRequest, token: str, round_number: int) -> HttpResponse:
    """What the hand being typed would score, in words, and the totals after it."""
    game = _game_for_link_or_404(token, round_number)
    form = _form(game, _hands(game), request.GET)
    result = None
    if form.is_valid() and not form.cleaned_data.get("misdeal"):
        result = score_hand(form.rules, form.sides())
    return render(request, "table/_preview.html", {"form": form, "result": result, "game": game})


@require_POST
@closed_link_page
def table_hand(request: HttpRequest, token: str, round_number: int) -> HttpResponse:
    game = _game_for_link_or_404(token, round_number)
    hands = _hands(game)
    form = _form(game, hands, request.POST)
    if not form.is_valid():
        return _panel(request, game, hands, form, status=422)
    try:
        hand = services.enter_hand(
            game=game, number=form.cleaned_data["number"], values=form.values(), source=HandRevision.Source.TABLE,
            expected_version=form.cleaned_data["version"], confirmed_by=form.cleaned_data.get("confirmed_by", ""),
        )  # fmt: skip
    except InvalidHand as error:
        form.add_error(None, f"{error.message[0].upper()}{error.message[1:]}.")
        return _panel(request, game, hands, form, status=422)
    except services.HandConflict as conflict:
        hands = _hands(game)
        return _panel(
            request, game, hands, _form(game, hands), status=409, notice=conflict.message, stored=conflict.hand
        )
    if not request.htmx:
        return redirect("table:page", token)
    game = hand.game
    hands = _hands(game)
    return _panel(request, game, hands, _form(game, hands), notice=f"Hand {hand.number} saved.")


@require_POST
@closed_link_page
def table_dispute(request: HttpRequest, token: str, round_number: int, number: int) -> HttpResponse:
    game = _game_for_link_or_404(token, round_number)
    hand = get_object_or_404(Hand, game=game, number=number)
    form = DisputeForm(request.POST)
    if not form.is_valid():
        hands = _hands(game)
        return _panel(request, game, hands, _form(game, hands), status=422, notice=error_text(form))
    services.flag_dispute(hand=hand, note=form.cleaned_note())
    if not request.htmx:
        return redirect("table:page", token)
    hands = _hands(game)
    return _panel(
        request, game, hands, _form(game, hands), notice=f"Hand {number} is flagged; the director will come over."
    )
