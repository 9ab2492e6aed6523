"""The one write discipline: every write to a tournament takes that tournament's lock first.

A write opens a transaction, takes its tournament's lock (:func:`lock_tournament`: an UPDATE of
the tournament's row, which stamps when the event last changed and holds the row until the
transaction ends), then does plain ORM work. A write that spans several tournaments takes
their locks in id order (:func:`lock_tournaments`); a club-wide write (its people, its roster, its
settings) takes the club's lock first (:func:`lock_club`), then any tournaments' in id order.
There is no other lock anywhere, so no two
writes can each hold what the other waits for: no deadlock can form. Reads lock nothing. A
phone's "still here" report and a print job's progress are not writes to the tournament and
take no lock.

Serializing a tournament's writes costs nothing a person sees: even a 1,000-table evening writes
some tens of times a second, each write holding the lock for milliseconds. A write that waits
longer than ``settings.LOCK_WAIT_SECONDS`` (behind a restore or a rule change of a huge event) is
given up: PostgreSQL's ``lock_timeout`` and SQLite's busy timeout (both set in settings) raise,
and :class:`BusyMiddleware` answers 503, which the phone's queue of hands sends again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.conf import settings
from django.db import OperationalError, connection
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from tournament.models import Club, Tournament


class WriteOutsideTransaction(RuntimeError):
    """A lock taken outside a transaction would be let go at once: the caller's mistake."""


def lock_tournament(tournament_id: int) -> Tournament:
    """Take the write lock of tournament ``tournament_id`` in the caller's transaction (held until it
    ends) and return the tournament's row as read under the lock. Call it before any other read or
    write of the tournament, so that what the write reads is what the writes before it committed."""
    take_lock(tournament_id)
    return Tournament.objects.get(pk=tournament_id)


def take_lock(tournament_id: int) -> None:
    """:func:`lock_tournament` for a write that reads the tournament's row itself, together with
    what it reads next (a hand's save reads it with its game, in one query)."""
    if not connection.in_atomic_block:
        raise WriteOutsideTransaction("a tournament's lock is taken inside a transaction")
    # An UPDATE locks the row as SELECT … FOR UPDATE would, but as a "no key" update: a row added
    # elsewhere that refers to the tournament (a print job) need not wait for the lock.
    if not Tournament.objects.filter(pk=tournament_id).update(changed_at=timezone.now()):
        raise Tournament.DoesNotExist(f"tournament {tournament_id} does not exist")


def lock_tournaments(ids: Iterable[int]) -> list[Tournament]:
    """The locks of several tournaments, in id order (the one order every write takes them in)."""
    return [lock_tournament(pk) for pk in sorted(set(ids))]


def lock_club(club_id: int) -> Club:
    """Take the write lock of club ``club_id`` (its row, until the transaction ends) and return it
    as read under the lock. A club-wide write takes it before any tournament's lock."""
    if not connection.in_atomic_block:
        raise WriteOutsideTransaction("a club's lock is taken inside a transaction")
    # "No key": a tournament added to the club meanwhile checks its reference without waiting.
    return Club.objects.select_for_update(no_key=True).get(pk=club_id)


def waited_too_long(error: BaseException) -> bool:
    """Whether ``error`` is a write giving up its wait for a lock: PostgreSQL's lock_timeout
    (SQLSTATE 55P03, lock_not_available) or SQLite's busy timeout ("database is locked")."""
    if not isinstance(error, OperationalError):
        return False
    cause = error.__cause__
    return getattr(cause, "sqlstate", None) == "55P03" or "database is locked" in str(error)


class BusyMiddleware:
    """A write that waited too long for its tournament's lock is answered 503 with Retry-After,
    not a server error: the phone keeps the hand and sends it again, a person presses again."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not waited_too_long(exception):
            return None
        response = HttpResponse(
            "The tournament is busy with a long change (a restore, or new rules being applied to every hand). "
            "Nothing was saved yet: try again in a few seconds.",
            status=503,
            content_type="text/plain; charset=utf-8",
        )
        response["Retry-After"] = str(settings.LOCK_WAIT_SECONDS)
        return response
