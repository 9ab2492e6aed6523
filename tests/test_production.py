"""Production settings: debug off by default, errors logged, SQLite in WAL mode, security headers."""

import io
import logging
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.urls import reverse

from tests.test_project import PRODUCTION
from tournament.models import Game

ROOT = Path(__file__).resolve().parent.parent


def _settings_in_a_fresh_process(env: dict[str, str], expression: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    code = f"import django; django.setup(); from django.conf import settings; print({expression})"
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env={**clean, "DJANGO_SETTINGS_MODULE": "tournament.settings", **env},
        capture_output=True, text=True, check=False,
    )  # fmt: skip


@pytest.mark.slow  # Django started in processes of its own
def test_debug_is_off_unless_django_debug_says_true():
    assert _settings_in_a_fresh_process(PRODUCTION | {"DJANGO_DEBUG": ""}, "settings.DEBUG").stdout.strip() == "False"
    assert _settings_in_a_fresh_process({"DJANGO_DEBUG": "true"}, "settings.DEBUG").stdout.strip() == "True"


@pytest.mark.slow  # Django started in a process of its own
def test_forgetting_every_variable_refuses_to_start_instead_of_running_in_debug_mode():
    done = _settings_in_a_fresh_process({}, "settings.DEBUG")
    assert done.returncode != 0
    assert "DJANGO_SECRET_KEY must be set" in done.stderr


@pytest.mark.slow  # Django started in processes of its own
def test_a_write_waits_at_most_five_seconds_for_its_tournaments_lock_on_either_database():
    env = PRODUCTION | {"DATABASE_URL": "postgres://spades@db.example:5432/spades"}
    done = _settings_in_a_fresh_process(env, "settings.DATABASES['default']['OPTIONS']['options']")
    assert done.stdout.strip() == "-c lock_timeout=5000", done.stderr
    sqlite = _settings_in_a_fresh_process(PRODUCTION, "settings.DATABASES['default']['OPTIONS']['timeout']")
    assert sqlite.stdout.strip() == "5", sqlite.stderr


@pytest.mark.django_db
def test_postgresql_plans_a_statement_a_connection_runs_again_once_not_at_every_run():
    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's")
    for _ in range(3):
        assert not Game.objects.filter(pk=0, round__tournament__name="a save's read").exists()
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s", ["%a save's read%"])
        assert cursor.fetchone()[0] == 0  # its values are sent apart from it: the statement has $1, $2
        cursor.execute(
            "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s",
            ['%FROM "tournament_game"%"tournament_tournament"."name" = $%'],
        )
        assert cursor.fetchone()[0] == 1


@pytest.mark.django_db
def test_sqlite_runs_in_wal_mode_with_normal_sync():
    if connection.vendor != "sqlite":
        pytest.skip("WAL is SQLite's; PostgreSQL has its own write-ahead log")
    with connection.cursor() as cursor:
        assert cursor.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert cursor.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL


@pytest.mark.django_db
def test_a_server_error_is_logged_to_stderr_with_its_traceback(director_client, tournament, monkeypatch):
    # A StreamHandler with no stream named writes to standard error, where gunicorn keeps its log.
    handler = next(h for h in logging.getLogger("django.request").handlers if h.name == "stderr")
    assert type(handler) is logging.StreamHandler and "stream" not in settings.LOGGING["handlers"]["stderr"]
    captured = io.StringIO()
    monkeypatch.setattr(handler, "stream", captured)

    def broken(*args, **kwargs):
        raise RuntimeError("the ledger broke")

    monkeypatch.setattr("tournament.money.views.ledger", broken)
    director_client.raise_request_exception = False
    response = director_client.get(reverse("director:fees", args=[tournament.pk]))
    assert response.status_code == 500
    log = captured.getvalue()
    assert "Internal Server Error: /t/" in log and "Traceback" in log and "RuntimeError: the ledger broke" in log


def test_a_rejected_host_header_is_logged_to_stderr(client, monkeypatch):
    handler = next(h for h in logging.getLogger("django.security").handlers if h.name == "stderr")
    captured = io.StringIO()
    monkeypatch.setattr(handler, "stream", captured)
    response = client.get("/login/", HTTP_HOST="spades.attacker.example")
    assert response.status_code == 400
    assert "django.security.DisallowedHost" in captured.getvalue()
    assert "spades.attacker.example" in captured.getvalue()


# --- headers ---------------------------------------------------------------------------------------


@pytest.fixture
def pages(director_client, finished_round):
    tournament = finished_round.tournament
    game = finished_round.games.get(table__number=1)
    return {
        "home": reverse("director:home"),
        "dashboard": reverse("director:dashboard", args=[tournament.pk]),
        "teams": reverse("director:teams", args=[tournament.pk]),
        "round": reverse("director:round", args=[tournament.pk, 1]),
        "game": reverse("director:game", args=[tournament.pk, game.pk]),
        "prizes": reverse("director:prizes", args=[tournament.pk]),
        "print": reverse("director:print", args=[tournament.pk]),
        "standings pdf": reverse("director:print_document", args=[tournament.pk, "standings"]),
        "public standings": reverse("public:standings", args=[tournament.pk]),
        "table": reverse("table:page", args=[game.table.token]),
    }


# A JSON data block (Django's json_script: type="application/json") is data the browser never runs.
INLINE_SCRIPT = re.compile(
    r'<script(?![^>]*\bsrc=)(?![^>]*\btype="application/json")[^>]*>|\son[a-z]+\s*=|\shx-on[:-]|\sstyle\s*=|javascript:',
    re.I,
)


def test_every_page_has_a_csp_that_forbids_inline_script_and_uses_none(client, director_client, pages):
    for name, target in pages.items():
        response = director_client.get(target)
        assert response.status_code == 200, name
        policy = response["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy and "unsafe-eval" not in policy, name
        assert "frame-ancestors 'none'" in policy
        if response["Content-Type"].startswith("text/html"):
            assert not INLINE_SCRIPT.findall(response.content.decode()), name
    assert client.get(reverse("login"))["X-Content-Type-Options"] == "nosniff"


def test_director_pages_and_pdfs_are_never_cached_but_public_pages_may_be(director_client, pages):
    for name in ("home", "dashboard", "game", "prizes", "standings pdf"):
        control = director_client.get(pages[name])["Cache-Control"]
        assert "private" in control and "no-store" in control, name
    assert "no-store" not in director_client.get(pages["public standings"]).get("Cache-Control", "")


@pytest.mark.django_db
def test_the_page_script_is_served_by_the_app(client):
    html = client.get(reverse("login")).content.decode()
    script = re.search(r'<script src="([^"]*app\.js)"', html).group(1)
    assert client.get(script).status_code == 200


@pytest.mark.slow  # manage.py in a process of its own
def test_check_deploy_is_clean_under_production_settings_with_the_new_apps():
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env={**clean, **PRODUCTION}, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
