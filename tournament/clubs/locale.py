"""A club's time zone and currency symbol, active while one of its pages, sheets or exports is made.

:class:`tournament.clubs.middleware.ClubLocaleMiddleware` activates them for every request that
names a club's event (or the club); :func:`using` does it around work done outside a request.
Django's own :func:`django.utils.timezone.activate` carries the zone, so ``|date``, ``|time`` and
``timezone.localtime`` follow it; the currency is held here the same way (per thread and per
asyncio task), and :func:`format_money` (the ``|money`` filter) reads it. Outside a club the
server's ``TIME_ZONE`` and "$" (a new club's default) apply.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal, InvalidOperation
from typing import Protocol

from asgiref.local import Local
from django.utils import timezone

DEFAULT_CURRENCY = "$"
_active = Local()


class HasLocale(Protocol):
    time_zone: str
    currency: str


def activate(*, time_zone: str, currency: str) -> None:
    """Make ``time_zone`` and ``currency`` the current ones (until :func:`deactivate`)."""
    timezone.activate(zoneinfo.ZoneInfo(time_zone))
    _active.currency = currency


def deactivate() -> None:
    """Back to the server's time zone and the default symbol."""
    timezone.deactivate()
    if hasattr(_active, "currency"):
        del _active.currency


def currency() -> str:
    """The current currency symbol."""
    return getattr(_active, "currency", DEFAULT_CURRENCY)


@contextmanager
def using(club: HasLocale) -> Iterator[None]:
    """``club``'s zone and symbol inside the block; whatever was current before, after it."""
    before = getattr(_active, "currency", None)
    _active.currency = club.currency
    try:
        with timezone.override(zoneinfo.ZoneInfo(club.time_zone)):
            yield
    finally:
        if before is None:
            del _active.currency
        else:
            _active.currency = before


def format_money(value: object, symbol: str | None = None) -> str:
    """``value`` as an amount with two decimals and a thousands comma, after ``symbol`` (the current
    one by default): "$1,250.00", "€20.00", "−£5.00". A symbol ending in a letter or a full stop
    is a code or an abbreviation and is set apart by a space: "CHF 20.00", "Fr. 5.00". Not a
    number: ""."""
    try:
        amount = Decimal(str(value if value is not None else 0)).quantize(Decimal("0.01"))
    except InvalidOperation:
        return ""
    symbol = currency() if symbol is None else symbol
    prefix = f"{symbol} " if symbol[-1:].isalpha() or symbol.endswith(".") else symbol
    return f"−{prefix}{-amount:,.2f}" if amount < 0 else f"{prefix}{amount:,.2f}"
