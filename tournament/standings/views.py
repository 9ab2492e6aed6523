"""Pages for everyone: live standings and the projector view. Read-only, no login."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from tournament.charts.standings import places_drawn
from tournament.clocks.services import round_clock
from tournament.formats.registry import format_of
from tournament.models import Round, Tournament
from tournament.pages import director_required, tournament_or_404, whole_number
from tournament.review.publish import public_hold
from tournament.standings.places import find_places, page_of, round_places
from tournament.standings.snapshot import polled, snapshot

# What fits at 1920x1080 in type readable across a hall; longer lists page every REFRESH seconds.
PROJECTOR_STANDINGS_ROWS = 15
PROJECTOR_SEATING_ROWS = 22
PROJECTOR_REFRESH_SECONDS = 10


def _standings_context(tournament_id: int, page: str = "public:standings") -> dict:
    """What the standings pages show; ``page`` (a URL name) is where the standings ask for
    themselves again. A public page holds back the rounds whose flags are not checked yet when the
    club asks for that (:mod:`tournament.review.publish`); the director's shows everything."""
    tournament = tournament_or_404(tournament_id)
    event_format = format_of(tournament)
    hold = None
    if page.startswith("public:"):
        hold = public_hold(tournament)
    # A progressive event's rows, a knockout's places: ranked once for every viewer (see .snapshot).
    through = hold.through if hold else None
    name = "standings" if hold is None else f"standings after {hold.through}"
    places = snapshot(tournament.pk, name, tournament.changed_at, lambda: _standings_values(tournament, through))
    current = tournament.current_round()
    return {
        "tournament": tournament,
        "hold": hold,
        **places.value,
        "as_of": places.built_at,
        "standings_partial": event_format.standings_partial,
        "standings_url": reverse(page, args=[tournament.pk]),
        "tiebreak": event_format.places_words(tournament),
        "current": current,
        "current_title": event_format.round_title(current) if current else "",
        "current_called": event_format.round_called(current) if current else "",
        "prize_divisions": tournament.prize_divisions(),
    }


def _standings_values(tournament: Tournament, through: int | None) -> dict:
    """The format's standings (with ``through``, as they stood after that round: a public page's
    rounds held back) and the chart of places after each round (see :mod:`tournament.charts`)."""
    event_format = format_of(tournament)
    if through is None:
        rows = event_format.standings_context(tournament)
    else:
        rows = event_format.standings_context_after(tournament, through) or {"rows": []}
    return {**rows, **places_drawn(tournament, through=through)}


def _format_page(request: HttpRequest, tournament_id: int, page: str) -> HttpResponse | None:
    """A redirect to the format's own page of that kind (``public_page``, ``projector_page`` or
    ``standings_page``: a knockout's bracket, a league's table) when it is not the page asked for,
    with the address's query (a projector's ``?theme=``); None when it is."""
    name = getattr(format_of(tournament_or_404(tournament_id)), page)
    if name == request.resolver_match.view_name:
        return None
    query = request.GET.urlencode()
    return redirect(reverse(name, args=[tournament_id]) + (f"?{query}" if query else ""))


@polled
def standings(request: HttpRequest, tournament_id: int) -> HttpResponse:
    if elsewhere := _format_page(request, tournament_id, "public_page"):
        return elsewhere
    context = _standings_context(tournament_id)
    template = context["standings_partial"] if request.htmx else "public/standings.html"
    return render(request, template, context)


@polled
def projector(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The seating of a round seated but not started (to find seats), else the standings and the
    tables still playing; one page at a time, the next one on each refresh."""
    if elsewhere := _format_page(request, tournament_id, "projector_page"):
        return elsewhere
    context = _standings_context(tournament_id)
    number, current = whole_number(request.GET.get("page"), 1), context["current"]
    if current is not None and current.status == Round.Status.PLANNED:
        context["seating"] = True
        context["page"] = page_of(round_places(current), number, PROJECTOR_SEATING_ROWS)
        context["next_page"] = context["page"].next_number
    else:
        context["page"] = page_of(context["rows"], number, PROJECTOR_STANDINGS_ROWS)
        # The chart of places after each round, when there is one, is a page after the standings'.
        pages = context["page"].count + bool(context["places_chart"])
        shown = (max(number, 1) - 1) % pages + 1
        context["chart_page"], context["next_page"] = shown > context["page"].count, shown % pages + 1
        running = current is not None and current.status == Round.Status.RUNNING
        # Plain rows for the tables_left filter, not models: a national round has 1,000 games.
        context["tables"] = (
            list(current.games.order_by("table__number").values_list("table__number", "status", "hands_played"))
            if running
            else []
        )
        context["clock"] = round_clock(current) if running else None
    context["refresh"] = PROJECTOR_REFRESH_SECONDS
    template = "public/projector.html#projector" if request.htmx else "public/projector.html"
    return render(request, template, context)


def find_seat(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """ "Find my seat": part of a name gives the table, seat, partner and opponents this round."""
    context = _standings_context(tournament_id)
    query = request.GET.get("q", "").strip()[:80]
    current = context["current"]
    context.update(query=query, places=find_places(current, query) if current and query else [])
    template = "public/standings.html#find_seat" if request.htmx else "public/standings.html"
    return render(request, template, context)


@director_required
def director_standings(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The standings as the format shows them (a progressive event's table, a knockout's places;
    a league's is its own page); to htmx, the format's standings alone (they ask for themselves)."""
    if elsewhere := _format_page(request, tournament_id, "standings_page"):
        return elsewhere
    context = _standings_context(tournament_id, "director:standings")
    return render(request, context["standings_partial"] if request.htmx else "director/standings.html", context)
