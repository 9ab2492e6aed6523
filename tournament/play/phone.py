"""The scorekeeper's pages, reached through a table's link (a token), with no account.

A table keeps one link all event. The page opens the game at that table in the current round,
or a waiting page between rounds. Everything a page sends back (preview, hand, dispute) names the
round it was loaded for, so a form left open from a closed round never writes into the next
round's game; a closed round's game is refused (410, with a page that says so; a reported
mistake, 409 with the reason on the game's page). Another table's game (or hand) is never
reachable: a game is looked up only among the games of the token's table.

One template holds the page and its fragments (``table/page.html#panel`` and so on). A saved
hand answers with only what changed: the next form, the totals and the new or corrected row.
"""

import json
from functools import wraps

from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import reswap, retarget

from scoring import InvalidHand, Seat, Side, score_hand
from scoring.describe import first_dealer_rule
from scoring.words import number as written
from tournament.charts.games import sheet_chart
from tournament.formats.registry import format_of
from tournament.models import Dispute, Game, Hand, HandRevision, Round, Table
from tournament.pages import hand_or_404, whole_number
from tournament.play import games
from tournament.play.board import game_sheet
from tournament.play.forms import DisputeForm, HandForm, MistakeForm, error_text, hand_initial
from tournament.play.hands import EnteredHand, GameGone, HandConflict, enter_hand

PAGE = "table/page.html"
# What the table page needs to open with no network, kept by the service worker.
OFFLINE_ASSETS = ("css/app.css", "js/table.js", "js/table-form.js", "js/table-running.js", "js/scorer.js",
                  "django_htmx/htmx-2.min.js", "django_htmx/django-htmx.js", "favicon.svg")  # fmt: skip
WAITING_REFRESH_SECONDS = 15
# The home-screen icons (static/icons/, drawn for the app): path, pixel size, purpose.
MANIFEST_ICONS = (("icons/table-192.png", 192, "any"), ("icons/table-512.png", 512, "any"),
                  ("icons/table-maskable-512.png", 512, "maskable"))  # fmt: skip
# The topbar's colour (app.css .topbar; table/_head.html's theme-color) and the page's background.
MANIFEST_COLOURS = {"theme_color": "#111827", "background_color": "#f6f7f9"}
# A phone asks for the manifest again after an hour at most: a renamed event shows its new name.
MANIFEST_MAX_AGE = 3600


def _table_for_token_or_404(token: str) -> Table:
    return get_object_or_404(Table.objects.select_related("tournament"), token=token)


def _game_for_link_or_404(token: str, round_number: int) -> Game:
    """The game of round ``round_number`` at the token's table (a knockout's: the one being
    played, else the last), with its players' names, in one query; a closed round's raises
    RoundClosed."""
    game = Game.objects.at_link(token, round_number)
    if game is None:
        raise Http404("This table has no game in that round.")
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
    return list(game.hands.order_by("number", "deal"))


def _form(
    game: Game,
    data: dict | None = None,
    *,
    hands: list[Hand] | None = None,
    correct: Hand | None = None,
    preview: bool = False,
):
    """The hand form: the next hand, ``correct`` (a stored hand), or the hand ``data`` names.

    A new hand stands on the game's cached totals; only a correction replays the hands before it.
    A ``preview`` scores the hand being typed without the opponent's initials: they confirm the
    score it shows, so they are asked for on saving only.
    """
    number = whole_number((data or {}).get("number"))
    if correct is not None:
        number = correct.number
    elif not number:
        hands = _hands(game) if hands is None else hands
        number = Game.next_number(hands[-1] if hands else None)
    correcting = correct is not None or whole_number((data or {}).get("version"))
    standing = game.standing_before(number, _hands(game) if hands is None else hands) if correcting else game.standing
    tournament = game.round.tournament
    return HandForm(
        data,
        initial=hand_initial(correct) if correct else {"number": number},
        rules=game.rules,
        standing=standing,
        confirm=tournament.require_confirmation and not preview,
    )


def _awaits_director(game: Game) -> bool:
    """Whether the game is over but a hand of it is disputed: its result waits for the director
    to settle the dispute, and the phone says so instead of "Game over". (A query, for a finished
    game only: a save's answer holds its new hand alone, not the hands before.)"""
    return game.is_finished and game.hands.filter(disputed=True).exists()


def _context(game: Game, form: HandForm, sheet: dict, **extra: object) -> dict:
    rows = sheet["rows"]
    return {
        "game": game,
        "sheet": sheet,
        "form": form,
        "seat_list": list(Seat),
        "dealer": sheet["replay"].dealer_of(whole_number(form["number"].value())),
        "first_dealer_rule": "" if rows else first_dealer_rule(game.rules),  # shown before hand 1 only
        "last_hand": rows[-1].hand.pk if rows else None,
        "scorer": scorer_data(game),
        "awaits_director": _awaits_director(game),
        # Drawn once the game is over only: every save during play renders this context.
        "chart": sheet_chart(sheet, game.table.number) if game.is_finished else None,
        **extra,
    }


def scorer_data(game: Game) -> dict:
    """What the phone's scorer (static/js/scorer.js) counts hands waiting on the phone from: the
    game's rules (:meth:`RuleSet.to_json`) and its standing as stored, with the address its hands
    are sent to (a waiting hand sent there is one of this game's)."""
    standing = {
        "scores": [game.ns_score, game.ew_score],
        "bags": [game.ns_bags, game.ew_bags],
        "played": game.hands_played,
        "status": game.status,
        "time_up_hand": game.time_up_hand,
        "url": reverse("table:hand", args=[game.table.token, game.round.number]),
    }
    return {"rules": game.rules.to_json(), "standing": standing}


def _panel(request: HttpRequest, game: Game, form: HandForm, *, status: int = 200, **extra: object) -> HttpResponse:
    sheet = game_sheet(game, _hands(game))
    disputes = Dispute.objects.filter(hand__game=game).select_related("hand", "raised_by", "resolved_by")
    template = f"{PAGE}#panel" if request.htmx else PAGE
    context = _context(game, form, sheet, disputes=disputes, refused=status >= 400, **extra)
    return render(request, template, context, status=status)


def _waiting(request: HttpRequest, table: Table, game: Game | None) -> HttpResponse:
    """Between rounds: which round is next here and who sits where; the page refreshes itself."""
    tournament = table.tournament
    event_format = format_of(tournament)
    current = tournament.current_round()
    context = {
        "table": table,
        "tournament": tournament,
        "game": game,
        "seats": game_sheet(game, [])["seats"] if game else {},
        "starts": event_format.starts(),
        "waiting": event_format.waiting(tournament, table.number, current),
        "refresh": WAITING_REFRESH_SECONDS,
    }
    return render(request, "table/waiting.html", context)


@require_GET
def table_page(request: HttpRequest, token: str) -> HttpResponse:
    table = _table_for_token_or_404(token)
    game = table.current_game()
    if request.GET.get("waiting") == "director":
        # A finished game's page asks every so often while a dispute holds up its result: nothing
        # changed (204), or the page reloads to show what did (the result, or the next round).
        waiting = game is not None and _awaits_director(game)
        return HttpResponse(status=204, headers=None if waiting else {"HX-Refresh": "true"})
    if game is None or game.round.status == Round.Status.PLANNED:
        return _waiting(request, table, game)
    hands = _hands(game)
    last = hands[-1] if hands else None
    correcting = last if last and request.GET.get("correct") == str(last.number) else None
    return _panel(request, game, _form(game, hands=hands, correct=correcting))


@require_GET
@closed_link_page
def table_preview(request: HttpRequest, token: str, round_number: int) -> HttpResponse:
    """What the hand being typed would score, in words, and the totals after it."""
    game = _game_for_link_or_404(token, round_number)
    form = _form(game, request.GET, preview=True)
    result = None
    if form.is_valid() and not form.cleaned_data.get("misdeal"):
        result = score_hand(form.rules, form.sides())
    return render(request, f"{PAGE}#preview", {"form": form, "result": result, "game": game})


def _game_if_entry_stored(closed: RoundClosed, entry_key: str) -> Game:
    """A hand sent again after its round closed: its game if the hand was stored (the phone never
    heard that it was), so the answer is "saved"; else the round's closed, as for any other hand."""
    if entry_key and closed.game.hands.filter(entry_key=entry_key).exists():
        return closed.game
    raise closed


@require_POST
@closed_link_page
def table_hand(request: HttpRequest, token: str, round_number: int) -> HttpResponse:
    try:
        game = _game_for_link_or_404(token, round_number)
    except RoundClosed as closed:
        game = _game_if_entry_stored(closed, request.POST.get("entry_key", ""))
    form = _form(game, request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            entered = enter_hand(
                game=game, number=data["number"], entry=form.entry(), source=HandRevision.Source.TABLE,
                expected_version=data["version"], deal=data["deal"], confirmed_by=data.get("confirmed_by", ""),
                entry_key=data["entry_key"], keyed_at=data["keyed_at"],
            )  # fmt: skip
        except InvalidHand as error:
            form.add_error(None, f"{error.message[0].upper()}{error.message[1:]}.")
        except GameGone:
            return _restored(request, game)
        except HandConflict as conflict:
            response = _panel(request, game, _form(game), status=409, notice=conflict.message, stored=conflict.hand)
            return reswap(retarget(response, "#panel"), "outerHTML") if request.htmx else response
        else:
            return _saved(request, game, entered)
    return _entry_error(request, game, form)


def _restored(request: HttpRequest, game: Game) -> HttpResponse:
    """A phone's write whose game vanished meanwhile (the event was restored from a backup): 409
    with the page that says so, so the phone stops sending and the scorekeeper reloads."""
    context = {"game": game, "token": game.table.token, "restored": True}
    return render(request, "table/closed.html", context, status=409)


def _saved(request: HttpRequest, loaded: Game, entered: EnteredHand) -> HttpResponse:
    """The next form, the totals and the changed rows, rendered from what the service returned
    (and the names the link's game was loaded with). A new hand that leaves the game playing,
    sent by a phone that moves its form on to the next hand itself (the ``X-Next-Hand`` header,
    as table.js sends), is answered without the next form: it is the same form, blank."""
    game = entered.game
    if not request.htmx:
        return redirect("table:page", game.table.token)
    sheet = game_sheet(game, entered.hands, entered.replay, names=loaded.seat_names())
    rows, hand, number = sheet["rows"], entered.hand, entered.hand.number
    new = rows[-1].hand.pk == hand.pk and hand.version == 1
    changed = [] if new else [row for row in rows if row.hand.pk == hand.pk]
    # The scores are in the notice too: after a save the phone shows the next hand's form, and the
    # notice beside it is what the scorekeeper sees of the hand just stored.
    totals = f"{Side.NS.label} {written(game.ns_score)}, {Side.EW.label} {written(game.ew_score)}"
    said = (
        f"Hand {number}: misdeal, dealt again by the same dealer."
        if hand.misdeal
        else f"Hand {number} saved. {totals}."
    )
    saved = {"notice": said, "saved_number": number,
             "new_row": rows[-1] if new else None, "changed_rows": changed}  # fmt: skip
    if new and game.is_playing and request.headers.get("X-Next-Hand") == "client":
        context = {"game": game, "sheet": sheet, "form": None, "last_hand": hand.pk, "scorer": scorer_data(game),
                   **saved}  # fmt: skip
    else:
        context = _context(game, _form(game, hands=entered.hands), sheet, **saved)
    return render(request, f"{PAGE}#saved", context)


def _entry_error(request: HttpRequest, game: Game, form: HandForm) -> HttpResponse:
    """The form again with its errors (status 422): the page, or the #entry fragment."""
    if not request.htmx:
        return _panel(request, game, form, status=422)
    sheet = game_sheet(game, _hands(game))
    return render(request, f"{PAGE}#entry", _context(game, form, sheet), status=422)


@require_POST
@closed_link_page
def table_first_dealer(request: HttpRequest, token: str, round_number: int) -> HttpResponse:
    """The table says who deals hand 1 ("we cut for deal: East"), before any hand is entered."""
    game = _game_for_link_or_404(token, round_number)
    try:
        seat = Seat(request.POST.get("first_dealer", ""))
        games.set_first_dealer(game=game, seat=seat)
    except ValueError:  # not a seat
        return _panel(request, game, _form(game), status=422, notice="Choose the seat that deals hand 1.")
    except ValidationError as error:
        return _panel(request, game, _form(game), status=409, notice=error.message)
    except GameGone:
        return _restored(request, game)
    if not request.htmx:
        return redirect("table:page", token)
    game = _game_for_link_or_404(token, round_number)
    return _panel(request, game, _form(game), notice=f"{seat.label} deals hand 1.")


@require_POST
@closed_link_page
def table_dispute(request: HttpRequest, token: str, round_number: int, number: int) -> HttpResponse:
    """The table disputes a hand (the page offers its last); the note is optional."""
    game = _game_for_link_or_404(token, round_number)
    hand = hand_or_404(game, number, whole_number(request.POST.get("deal")) or None)  # a misdeal's own
    form = DisputeForm(request.POST)
    if not form.is_valid():
        return _panel(request, game, _form(game), status=422, notice=error_text(form))
    return _flag(request, game, hand, form.cleaned_note(), f"Hand {number} is flagged; the director will come over.")


@require_POST
def table_mistake(request: HttpRequest, token: str, round_number: int, number: int) -> HttpResponse:
    """The table reports a mistake in an earlier hand, which only the director may correct: it
    joins the director's disputes, with what is wrong (required). Refused, the report's form
    opens again on its hand's row with the reason. A closed round's report is refused with a
    message on the page (status 409, which htmx shows, where it shows no 410 page)."""
    try:
        game = _game_for_link_or_404(token, round_number)
    except RoundClosed as closed:
        game = closed.game  # flag_dispute refuses it, saying why
    hand = hand_or_404(game, number)
    form = MistakeForm(request.POST)
    if not form.is_valid():
        refused = {"number": number, "note": request.POST.get("note", ""), "error": error_text(form)}
        return _panel(request, game, _form(game), status=422, refused_report=refused)
    done = f"Hand {number} is reported; the director will come over."
    return _flag(request, game, hand, form.cleaned_data["note"], done)


def _flag(request: HttpRequest, game: Game, hand: Hand, note: str, done: str) -> HttpResponse:
    """Put ``hand`` (of ``game``, the link's) in the director's disputes with ``note``; the panel
    says ``done``, or why not."""
    try:
        games.flag_dispute(hand=hand, note=note)
    except ValidationError as error:
        return _panel(request, game, _form(game), status=409, notice=" ".join(error.messages))
    except GameGone:
        return _restored(request, game)
    if not request.htmx:
        return redirect("table:page", game.table.token)
    return _panel(request, game, _form(game), notice=done)


@require_POST
def table_report(request: HttpRequest, token: str) -> HttpResponse:
    """The open table page reports in, so the director sees when its phone was last heard from."""
    table = _table_for_token_or_404(token)
    games.record_phone_report(table=table, waiting=min(whole_number(request.POST.get("waiting")), 999))
    return HttpResponse(status=204)


@require_GET
def table_worker(request: HttpRequest) -> HttpResponse:
    """The service worker that opens table pages without a network (browsers run it over HTTPS or
    on localhost only). Served from /table/ so that it may look after every table page."""
    assets = json.dumps([static(path) for path in OFFLINE_ASSETS])
    response = render(request, "table/sw.js", {"assets": assets}, content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def table_manifest(request: HttpRequest, token: str) -> HttpResponse:
    """The web app manifest of one table's link: added to a phone's home screen, the link opens
    straight to that table (its game, or its waiting page between rounds). It names the event and
    the table and nothing else; an unknown (or revoked) link's is 404. The link is a secret, so
    no shared cache may keep it."""
    table = _table_for_token_or_404(token)
    link = reverse("table:page", args=[table.token])
    icons = [{"src": static(path), "sizes": f"{size}x{size}", "type": "image/png", "purpose": purpose}
             for path, size, purpose in MANIFEST_ICONS]  # fmt: skip
    manifest = {
        "id": link,
        "start_url": link,
        "scope": link,
        "name": f"Table {table.number} · {table.tournament.name}",
        "short_name": f"Table {table.number}",
        "display": "standalone",
        "lang": "en",
        **MANIFEST_COLOURS,
        "icons": icons,
    }
    response = JsonResponse(manifest, content_type="application/manifest+json")
    response["Cache-Control"] = f"private, max-age={MANIFEST_MAX_AGE}"
    return response
