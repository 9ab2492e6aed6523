"""Loaded before Django (``-p tests.environment`` in pyproject): the suite runs the app in its
development mode, as ``make run`` does. The app's default is production, which refuses to
start without a secret key; tests of production mode set their own environment.

It also makes the deprecation warnings of the Django in use errors (on 5.2,
``RemovedInDjango60Warning``): what the next release removes fails the suite, whichever release
runs it (a warning's class that the installed Django lacks cannot be named in pyproject)."""

import inspect
import os

import pytest

os.environ.setdefault("DJANGO_DEBUG", "true")
# No backups queued as rounds start (nor written by a test's worker into the checkout) unless a
# test turns them on (tests/test_operations.py).
os.environ.setdefault("SPADES_BACKUP_MINUTES", "0")


def pytest_configure(config: pytest.Config) -> None:
    from django.utils import deprecation

    for name, warning in inspect.getmembers(deprecation, inspect.isclass):
        if name.startswith("RemovedIn") and issubclass(warning, DeprecationWarning):
            config.addinivalue_line("filterwarnings", f"error::{warning.__module__}.{name}")
