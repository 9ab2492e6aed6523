"""Every page of a club's event in the club's time zone and currency (:mod:`tournament.clubs.locale`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse

from tournament.clubs import locale
from tournament.models import Club, Tournament
from tournament.models.clubs import token_digest

# How a view's address names the club: each keyword argument, and the club's zone and symbol it
# leads to (with, for an event, its change stamp: see ClubLocaleMiddleware). A table's token is
# a table's only in the "table" namespace; an invitation's link (the "join" page) leads to its club by
# the token's digest (the first owner's invitation has no club yet: no zone but the server's).
_LOCALE_BY_KWARG: dict[str, Callable[[Any], QuerySet[Any]]] = {
    "tournament_id": lambda pk: Tournament.objects.filter(pk=pk).values_list(
        "club__time_zone", "club__currency", "changed_at"
    ),
    "club_id": lambda pk: Club.objects.filter(pk=pk).values_list("time_zone", "currency"),
    "person_id": lambda pk: Club.objects.filter(roster__pk=pk).values_list("time_zone", "currency"),
}


def locale_query(request: HttpRequest, kwargs: dict[str, Any]) -> QuerySet[Any] | None:
    """The club's (time zone, currency[, event's change stamp]) a view's address leads to, as a
    query not run yet; None when the address names no club."""
    match = request.resolver_match
    if "token" in kwargs and match is not None and match.namespace == "table":
        return Club.objects.filter(tournaments__tables__token=kwargs["token"]).values_list("time_zone", "currency")
    if "token" in kwargs and match is not None and match.view_name == "join":
        digest = token_digest(kwargs["token"])
        return Club.objects.filter(invitations__digest=digest).values_list("time_zone", "currency")
    return next((find(kwargs[name]) for name, find in _LOCALE_BY_KWARG.items() if name in kwargs), None)


class ClubLocaleMiddleware:
    """Activates the club's zone and symbol for a view of its event or of the club (one query)
    and deactivates them when the response is made, so no request sees another's.

    An event's row is read for them, so its change stamp comes along and is kept as
    ``request.tournament_changed_at``: a polled page's snapshot (:mod:`tournament.standings.snapshot`)
    needs no read of its own."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            return self.get_response(request)
        finally:
            locale.deactivate()

    def process_view(
        self, request: HttpRequest, view: Callable[..., HttpResponse], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> None:
        query = locale_query(request, kwargs)
        for time_zone, currency, *changed_at in query.order_by()[:1] if query is not None else []:
            locale.activate(time_zone=time_zone, currency=currency)
            if changed_at:
                request.tournament_changed_at = changed_at[0]
