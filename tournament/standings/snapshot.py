"""The pages everyone watches, served from a snapshot: built again at most every few seconds after
the event changes, not for every viewer.

Two hundred phones and a projector polling the standings of a 1,000-table evening every few
seconds would otherwise rank 4,000 players for each of them. A snapshot is kept in Django's cache
(``CACHES``: each app server's memory by default, or one cache the servers share) with the
tournament's ``changed_at`` it was built from (every write stamps it as it takes the tournament's
lock, see :mod:`tournament.locking`): while nothing has changed it is served as it is; once
something has, it is built again, but not before it is ``SPADES_SNAPSHOT_SECONDS`` old. The pages
say when their snapshot was made.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import wraps
from typing import Any, Generic, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import timezone

from tournament.models import Tournament

T = TypeVar("T")
KEEP_SECONDS = 3600  # an event nobody has looked at for an hour leaves the cache


@dataclass(frozen=True)
class Snapshot(Generic[T]):
    value: T
    changed_at: datetime  # the tournament's stamp it was built from
    built_at: datetime


def snapshot(tournament_id: int, name: str, changed_at: datetime, build: Callable[[], T]) -> Snapshot[T]:
    """The snapshot ``name`` of tournament ``tournament_id``, built by ``build`` unless the one kept
    is of the tournament as it is (``changed_at``) or younger than ``SPADES_SNAPSHOT_SECONDS``.
    With that setting 0, every page is built for its viewer and nothing is kept."""
    seconds = settings.SPADES_SNAPSHOT_SECONDS
    if seconds <= 0:
        return Snapshot(build(), changed_at, timezone.now())
    # A cache key is short and plain (memcached's rule): the name may be a page's full address.
    key = f"snapshot:{tournament_id}:{hashlib.sha256(name.encode()).hexdigest()[:32]}"
    kept: Snapshot[T] | None = cache.get(key)
    if kept is not None and (
        kept.changed_at >= changed_at or timezone.now() - kept.built_at < timedelta(seconds=seconds)
    ):
        return kept
    made = Snapshot(build(), changed_at, timezone.now())
    cache.set(key, made, KEEP_SECONDS)
    return made


class _NotKept(Exception):
    """A page that is not kept (a redirect, an error): answered as it is."""

    def __init__(self, response: HttpResponse) -> None:
        self.response = response


def polled(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A public page whose htmx poll (the same fragment for every viewer) is answered from the
    snapshot; a whole page is rendered for its viewer (it carries their login and CSRF token)."""

    @wraps(view)
    def wrapper(request: HttpRequest, tournament_id: int, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.htmx:
            return view(request, tournament_id, *args, **kwargs)
        # Read with the club's time zone by tournament.clubs.middleware; read here without it.
        changed_at = getattr(request, "tournament_changed_at", None) or (
            Tournament.objects.filter(pk=tournament_id).values_list("changed_at", flat=True).first()
        )
        if changed_at is None:
            raise Http404("No such tournament.")

        def build() -> tuple[bytes, str]:
            response = view(request, tournament_id, *args, **kwargs)
            if response.status_code != 200:
                raise _NotKept(response)
            return response.content, response["Content-Type"]

        try:
            kept = snapshot(tournament_id, f"{view.__name__} {request.get_full_path()}", changed_at, build)
        except _NotKept as not_kept:
            return not_kept.response
        content, content_type = kept.value
        return HttpResponse(content, content_type=content_type)

    return wrapper
