"""Table links and their QR codes, addressed by the venue's base URL (``SPADES_BASE_URL``)."""

from __future__ import annotations

import io

import segno
from django.conf import settings
from django.urls import reverse

from tournament.models import Game


def table_url(game: Game) -> str:
    """The absolute address a scorekeeper's phone opens for ``game``."""
    return settings.SPADES_BASE_URL + reverse("table:page", args=[game.token])


def qr_svg(url: str, *, scale: int = 4) -> str:
    """The QR code of ``url`` as inline SVG (no XML declaration), dark on white."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=scale, xmldecl=False, svgns=True, border=2)
    return out.getvalue().decode()
