"""The app's logging configuration: plain lines by default, one JSON object a line with
``LOG_FORMAT=json`` (for a log collector on a hosted service).

Every line goes to standard error (gunicorn's error log, the worker's output), from the loggers
that matter to an operator: server errors with their tracebacks (``django.request``), refused
requests (``django.security``), the app's own warnings (``tournament``) and, through the root
logger, any other library's warnings (the task worker's, the health checks').

No line carries a secret an address holds (:mod:`.secrets`): ``/table/…/``, not the table's token."""

from __future__ import annotations

import logging
from typing import Any

from pythonjsonlogger.json import JsonFormatter

from tournament.operations.secrets import scrub

FORMATS = ("plain", "json")


class RequestPath(logging.Filter):
    """Gives a request's record its path as ``path``, without the secret a table's, an invitation's
    or a reset link's address carries (:func:`~tournament.operations.secrets.scrub`): ``/table/…/``.
    It changes nothing else of the record (other handlers, Sentry's among them, read it too)."""

    def filter(self, record: logging.LogRecord) -> bool:
        request = getattr(record, "request", None)
        if request is not None:
            record.path = scrub(getattr(request, "path", ""))
        return True


class PlainLines(logging.Formatter):
    """A log record as a line of text, its traceback on the lines after; no address's secret in any."""

    def format(self, record: logging.LogRecord) -> str:
        return scrub(super().format(record))


class JsonLines(JsonFormatter):
    """A log record as one JSON object: ``time``, ``level``, ``logger``, ``message``; a request's
    ``path`` (from :class:`RequestPath`) and response ``status`` where Django's record carries them
    (``django.request``, ``django.server``); ``exc_info`` with the traceback of an error. Nothing
    else of the request (its headers and cookies stay out), and no address's secret anywhere in it
    ("Internal Server Error: /table/…/")."""

    def __init__(self) -> None:
        super().__init__(
            "{asctime}{levelname}{name}{message}",
            style="{",
            rename_fields={"asctime": "time", "levelname": "level", "name": "logger"},
        )

    def add_fields(self, log_data: dict[str, Any], record: logging.LogRecord, message_dict: dict[str, Any]) -> None:
        super().add_fields(log_data, record, message_dict)
        log_data.pop("request", None)
        if "status_code" in log_data:
            log_data["status"] = log_data.pop("status_code")

    def format(self, record: logging.LogRecord) -> str:
        return scrub(super().format(record))


def logging_config(log_format: str) -> dict[str, Any]:
    """The ``LOGGING`` setting for ``log_format`` (one of :data:`FORMATS`). The handler is named
    ``stderr`` and writes to standard error in both."""
    if log_format not in FORMATS:
        raise ValueError(f"LOG_FORMAT must be plain or json, not {log_format!r}")
    formatters = {
        "plain": {"()": PlainLines, "format": "{asctime} {levelname} {name}: {message}", "style": "{"},
        "json": {"()": JsonLines},
    }
    handler = {"class": "logging.StreamHandler", "formatter": log_format, "filters": ["path"]}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"path": {"()": RequestPath}},
        "formatters": {log_format: formatters[log_format]},
        # A second handler for the root logger at WARNING, so that Django's own INFO lines, which
        # propagate to the root, are not printed twice while developing.
        "handlers": {"stderr": handler, "others": {**handler, "level": "WARNING"}},
        "root": {"handlers": ["others"], "level": "WARNING"},
        "loggers": {
            "django.request": {"handlers": ["stderr"], "level": "ERROR", "propagate": False},
            # A request for a host name the app does not answer to (a misconfigured address, a scan).
            "django.security": {"handlers": ["stderr"], "level": "WARNING", "propagate": False},
            "tournament": {"handlers": ["stderr"], "level": "WARNING", "propagate": False},
            # The worker's own lines (`db_worker` sets their level by its --verbosity): that it started,
            # and each task it ran. Without a handler here they would reach only the root's, at WARNING.
            "django_tasks": {"handlers": ["stderr"], "propagate": False},
            "django_tasks_db": {"handlers": ["stderr"], "propagate": False},
        },
    }
