"""Error reports to Sentry, when ``SENTRY_DSN`` names a project (off otherwise: nothing is sent
anywhere). A server error in a view, a failed task in the worker and any error logged are
reported; no personal data is (no user, cookie, header or form value), and no secret an address
carries (a table's, an invitation's or a reset link's token: :mod:`.secrets`)."""

from __future__ import annotations

from typing import Any

import sentry_sdk
from django.core.exceptions import ImproperlyConfigured
from sentry_sdk.integrations.django import DjangoIntegration
from sentry_sdk.utils import BadDsn

from tournament.operations.secrets import scrub_all


def start_sentry(*, dsn: str, environment: str, release: str | None, transport: Any = None) -> None:
    """Report errors to the Sentry project ``dsn``, labelled with ``environment`` and ``release``.
    ``transport`` replaces the network for tests (a :class:`sentry_sdk.transport.Transport`).
    A ``dsn`` that is not a Sentry DSN stops start-up (:class:`ImproperlyConfigured`)."""
    try:
        sentry_sdk.init(
            dsn=dsn,
            environment=environment,
            release=release,
            integrations=[DjangoIntegration()],
            # Left at Sentry's default, which sends no personal data: no user, cookie or address.
            # Errors only: performance tracing would send a share of every request.
            traces_sample_rate=0,
            # The request's address, its Referer, the log message naming the path, a frame's
            # ``request`` variable: every string of the report, with the tokens in addresses cut out.
            before_send=_without_secrets,
            transport=transport,
        )
    except BadDsn:
        example = "https://key@o1.ingest.sentry.io/2"
        raise ImproperlyConfigured(f"SENTRY_DSN must be a Sentry DSN, such as {example}") from None


def _without_secrets(event: dict[str, Any], hint: dict[str, Any]) -> dict[str, Any]:
    return scrub_all(event)
