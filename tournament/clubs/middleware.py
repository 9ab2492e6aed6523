"""Every page of a club's event in the club's time zone and currency (:mod:`tournament.clubs.locale`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse

from tournament.clubs import locale
from tournament.models import Club

# How a view's address names the club: each keyword argument, and the club it leads to. A table's
# token is a table's only in the "table" namespace (other links carry tokens of their own).
_CLUB_BY_KWARG: dict[str, Callable[[Any], QuerySet[Club]]] = {
    "tournament_id": lambda pk: Club.objects.filter(tournaments__pk=pk),
    "club_id": lambda pk: Club.objects.filter(pk=pk),
    "person_id": lambda pk: Club.objects.filter(roster__pk=pk),
}


def club_query(request: HttpRequest, kwargs: dict[str, Any]) -> QuerySet[Club] | None:
    """The club a view's address names, as a query (not run yet); None when it names none."""
    match = request.resolver_match
    if "token" in kwargs and match is not None and match.namespace == "table":
        return Club.objects.filter(tournaments__tables__token=kwargs["token"])
    return next((find(kwargs[name]) for name, find in _CLUB_BY_KWARG.items() if name in kwargs), None)


class ClubLocaleMiddleware:
    """Activates the club's zone and symbol for a view of its event (one query for the two
    fields) and deactivates them when the response is made, so no request sees another's."""

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
        query = club_query(request, kwargs)
        found = query.order_by().values_list("time_zone", "currency")[:1] if query is not None else []
        for time_zone, currency in found:
            locale.activate(time_zone=time_zone, currency=currency)
