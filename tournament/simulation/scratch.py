"""A throw-away database for simulations and benchmarks: the real one is never touched."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection


@contextmanager
def throwaway_database() -> Iterator[None]:
    """Switch the default connection to a fresh, migrated scratch database and drop it after.

    SQLite: an in-memory database of this process alone. Others: Django's test database beside
    the configured one (``test_<name>``).
    """
    original = connection.settings_dict["NAME"]
    if connection.vendor == "sqlite":
        connection.settings_dict["TEST"] = {**connection.settings_dict.get("TEST", {}), "NAME": None}
    connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        yield
    finally:
        connection.creation.destroy_test_db(original, verbosity=0)
