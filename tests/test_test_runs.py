"""The suite's own hygiene: two runs in one checkout (`make check` while `make test` runs, say)
never share a SQLite database, so neither deletes the other's (see tests/conftest.py)."""

import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow  # it runs a second pytest
def test_a_second_run_in_the_same_checkout_leaves_this_runs_database_alone(db):
    if connection.vendor != "sqlite":
        pytest.skip("a PostgreSQL run's databases are named by pytest-django")
    ours = Path(connection.settings_dict["NAME"])
    # The other run as a developer would start it: none of this run's pytest or database variables.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "DATABASE_URL"))}
    other = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         "tests/test_project.py::test_logged_out_visitor_is_sent_to_login"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert other.returncode == 0, other.stdout + other.stderr
    # Its database came and went; ours is where it was, tables and all, for this run's next connection.
    assert ours.is_file()
    with closing(sqlite3.connect(ours)) as fresh:
        tables = {name for (name,) in fresh.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "tournament_tournament" in tables
