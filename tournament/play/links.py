"""Table links and their QR codes, addressed by the venue's base URL (``SPADES_BASE_URL``)."""

from __future__ import annotations

import io
import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

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


# How to serve an event to the room: the README's recipe ("Running an event", step 3), word for word
# (a test holds the two together). The pages that warn of links phones cannot open give it: the
# debug server is for one machine, never for a room of phones.
SERVE_PORT = 8000  # the port the recipe serves on
SERVE_EXAMPLE_HOST = "192.168.1.20"  # the address the recipe gives as its example
SERVE_COMMANDS = f"""make install
export DJANGO_SECRET_KEY=... DJANGO_ALLOWED_HOSTS=192.168.1.20 DATABASE_URL=... DATABASE_CONN_MAX_AGE=60
.venv/bin/python manage.py migrate
.venv/bin/python manage.py collectstatic --noinput
.venv/bin/python manage.py first_owner --club "My club" --base-url http://192.168.1.20:8000  # the owner's one-use link
.venv/bin/python manage.py check --deploy
.venv/bin/python manage.py db_worker --no-reload 2>&1 | tee -a spades-worker.log &   # the print worker
.venv/bin/gunicorn tournament.wsgi --bind 0.0.0.0:{SERVE_PORT} --workers 2 \\
    --access-logfile - --error-logfile - 2>&1 | tee -a spades.log"""


@dataclass(frozen=True)
class Unreachable:
    """Links made at a loopback address (127.0.0.1, localhost, ::1): no phone can open them.
    ``network_url`` is this computer's address on the network, when found, at the port the
    README's recipe (:data:`SERVE_COMMANDS`) serves on."""

    address: str
    network_url: str
    network_host: str

    @property
    def serve_commands(self) -> str:
        """The README's commands that serve the app to the room (:data:`SERVE_COMMANDS`), with this
        computer's network address in place of the recipe's example one when it was found, so the
        commands name the same address as the words above them."""
        return SERVE_COMMANDS.replace(SERVE_EXAMPLE_HOST, self.network_host or SERVE_EXAMPLE_HOST)


def unreachable_by_phones(base: str) -> Unreachable | None:
    """Why phones cannot open links made at ``base`` (it names this computer itself), or None."""
    parts = urlsplit(base)
    host = parts.hostname or ""
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if not loopback:
        return None
    found = network_address()
    return Unreachable(base, f"http://{found}:{SERVE_PORT}" if found else "", found or "")


def network_address() -> str | None:
    """This computer's IPv4 address on its network, or None (no network). Connecting a UDP socket
    sends nothing: it only asks the system which interface it would route by."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never a real host
            address = probe.getsockname()[0]
    except OSError:
        return None
    return None if ipaddress.ip_address(address).is_loopback else address
