"""The pages everyone watches, served from a snapshot: built again at most every few seconds after
the event changes, not for every viewer.

Two hundred phones and a projector polling the standings of a 1,000-table evening every few
seconds would otherwise rank 4,000 players for each of them. A snapshot is kept in this process
(each app server keeps its own) with the tournament's ``changed_at`` it was built from (every write
stamps it as it takes the tournament's lock, see :mod:`tournament.locking`): while nothing has
changed it is served as it is; once something has, it is built again, but not before it is
``SPADES_SNAPSHOT_SECONDS`` old. The pages say when their snapshot was made.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from datetime import datetime
from functools import wraps
from typing import Any, Generic, TypeVar

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import timezone

from tournament.models import Tournament

T = TypeVar("T")
KEPT = 256  # snapshots kept in a process: the pages of a few events at once


@dataclass(frozen=True)
class Snapshot(Generic[T]):
    value: T
    changed_at: datetime  # the tournament's stamp it was built from
    built_at: datetime
    built: float  # time.monotonic() when built


_kept: OrderedDict[Hashable, Snapshot] = OrderedDict()
_lock = threading.Lock()


def snapshot(key: Hashable, changed_at: datetime, build: Callable[[], T]) -> Snapshot[T]:
    """The snapshot of ``key`` (a tournament's id first), built by ``build`` unless the one kept is
    of the tournament as it is (``changed_at``) or younger than ``SPADES_SNAPSHOT_SECONDS``. With
    that setting 0, every page is built for its viewer and nothing is kept."""
    if settings.SPADES_SNAPSHOT_SECONDS <= 0:
        return Snapshot(build(), changed_at, timezone.now(), time.monotonic())
    with _lock:
        kept = _kept.get(key)
        if kept is not None:
            _kept.move_to_end(key)
    if kept is not None and (
        kept.changed_at >= changed_at or time.monotonic() - kept.built < settings.SPADES_SNAPSHOT_SECONDS
    ):
        return kept
    made = Snapshot(build(), changed_at, timezone.now(), time.monotonic())
    with _lock:
        _kept[key] = made
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
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
        changed_at = Tournament.objects.filter(pk=tournament_id).values_list("changed_at", flat=True).first()
        if changed_at is None:
            raise Http404("No such tournament.")

        def build() -> tuple[bytes, str]:
            response = view(request, tournament_id, *args, **kwargs)
            if response.status_code != 200:
                raise _NotKept(response)
            return response.content, response["Content-Type"]

        try:
            kept = snapshot((tournament_id, view.__name__, request.get_full_path()), changed_at, build)
        except _NotKept as not_kept:
            return not_kept.response
        content, content_type = kept.value
        return HttpResponse(content, content_type=content_type)

    return wrapper
