"""Table links and their QR codes, addressed by the venue's base URL (``SPADES_BASE_URL``)."""

from __future__ import annotations

import io

import segno
from django.conf import settings
from django.http import HttpRequest
from django.urls import reverse

from tournament.models import Table


def base_url(request: HttpRequest | None = None) -> str:
    """Where phones reach the app: ``SPADES_BASE_URL`` when set, else the address the director's
    browser used (right for whatever host and port the app is served on)."""
    if settings.SPADES_BASE_URL:
        return settings.SPADES_BASE_URL
    if request is not None:
        return request.build_absolute_uri("/").rstrip("/")
    return "http://127.0.0.1:8000"


def table_url(table: Table, base: str | None = None) -> str:
    """The absolute address a scorekeeper's phone opens at ``table``, the same all event."""
    return (base or base_url()) + reverse("table:page", args=[table.token])


def qr_svg(url: str, *, scale: int = 4) -> str:
    """The QR code of ``url`` as inline SVG (no XML declaration), dark on white."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=scale, xmldecl=False, svgns=True, border=2)
    return out.getvalue().decode()
