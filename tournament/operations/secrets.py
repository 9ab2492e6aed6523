"""Secrets that travel in addresses, kept out of error reports and logs: a table's link
(``/table/<token>/…``) lets whoever holds it enter scores, an invitation's (``/join/<token>/``)
makes an account in a club, a password reset link (``/reset/<uid>/<token>/``) opens one."""

from __future__ import annotations

import re
from typing import Any

# A token runs to the next slash, query, fragment, space or quote (a path inside a repr, a message).
_PART = r"[^/?#\s'\"]+"
SECRET_PATHS = re.compile(
    rf"(?P<table>/table/)(?!sw\.js\b)(?P<table_token>{_PART})"
    rf"|(?P<join>/join/)(?P<join_token>{_PART})"
    rf"|(?P<reset>/reset/)(?!done/){_PART}/(?P<reset_token>(?!set-password\b){_PART})"
)
# The app's tokens are 32 characters and more; a shorter "token" (a mistyped or probed address)
# opens nothing, and cutting it out everywhere would cut out ordinary words.
SHORTEST_SECRET = 16


def scrub(text: str) -> str:
    """``text`` with the secret in each such address replaced by "…": ``/table/…/round/2/hands/``,
    ``/join/…/``, ``/reset/…/``. Anything else is left as it was."""
    return SECRET_PATHS.sub(lambda found: f"{found['table'] or found['join'] or found['reset']}…", text)


def scrub_all(value: Any) -> Any:
    """``value`` (an error report: its message, request, breadcrumbs, stack frames' variables) with
    :func:`scrub` applied to every string in it, through dicts, lists and tuples; and each secret
    found in an address cut out wherever else it appears too (a view's ``token`` argument, passed
    along in a frame's ``args``, is the same string without its address)."""
    found: set[str] = set()
    _collect(value, found)
    secrets = sorted((secret for secret in found if len(secret) >= SHORTEST_SECRET), key=len, reverse=True)
    elsewhere = re.compile("|".join(map(re.escape, secrets))) if secrets else None
    return _replace(value, elsewhere)


def _collect(value: Any, found: set[str]) -> None:
    if isinstance(value, str):
        for match in SECRET_PATHS.finditer(value):
            found.add(match["table_token"] or match["join_token"] or match["reset_token"])
    elif isinstance(value, dict):
        for item in value.values():
            _collect(item, found)
    elif isinstance(value, list | tuple):
        for item in value:
            _collect(item, found)


def _replace(value: Any, elsewhere: re.Pattern[str] | None) -> Any:
    if isinstance(value, str):
        text = scrub(value)
        return elsewhere.sub("…", text) if elsewhere else text
    if isinstance(value, dict):
        return {key: _replace(item, elsewhere) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_replace(item, elsewhere) for item in value)
    return value
