"""The foundation: settings, the demo, login, offline assets and the deploy checks."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from tournament.models import Tournament
from tournament.simulation.demo import DEMO_PASSWORD, DEMO_USERNAME

ROOT = Path(__file__).resolve().parent.parent


def _manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        check=False,
    )


PRODUCTION = {
    "DJANGO_DEBUG": "false",
    "DJANGO_SECRET_KEY": "a-long-random-test-value-" + "x" * 40,
    "DJANGO_ALLOWED_HOSTS": "spades.example.org",
}


@pytest.mark.slow  # manage.py in a process of its own
def test_production_settings_pass_check_deploy():
    done = _manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


@pytest.mark.slow  # manage.py in a process of its own
def test_production_refuses_to_start_without_a_secret_key():
    done = _manage("check", env={**PRODUCTION, "DJANGO_SECRET_KEY": ""})
    assert done.returncode != 0
    assert "DJANGO_SECRET_KEY must be set" in done.stderr


@pytest.mark.slow  # manage.py in a process of its own
@pytest.mark.parametrize(
    ("name", "value"), [("DJANGO_DEBUG", "maybe"), ("DATABASE_CONN_MAX_AGE", "forever"), ("DJANGO_HTTPS", "2")]
)
def test_a_malformed_setting_stops_start_up_naming_the_variable(name, value):
    done = _manage("check", env={"DJANGO_DEBUG": "true", name: value})
    assert done.returncode != 0
    assert name in done.stderr


@pytest.mark.slow  # manage.py in a process of its own
def test_demo_is_refused_under_production_settings():
    done = _manage("demo", env={**PRODUCTION, "DATABASE_URL": "sqlite:///:memory:"})
    assert done.returncode != 0
    assert "local use only" in done.stderr


@pytest.mark.django_db
def test_the_demos_printout_names_the_port_it_is_served_on(capsys, monkeypatch):
    monkeypatch.setattr("tournament.management.commands.demo.network_address", lambda: "192.168.1.20")
    call_command("demo", port=8123)
    out = capsys.readouterr().out
    assert "Director login at http://127.0.0.1:8123/login/" in out
    assert re.findall(r":(\d{2,5})\b", out) == ["8123"]  # no other port, none the server is not on
    assert "runserver" not in out and "Running an event" in out


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_run_passes_one_port_to_the_demo_and_the_server():
    planned = subprocess.run(["make", "-n", "run", "PORT=8123"], cwd=ROOT, capture_output=True, text=True, check=True)
    assert "manage.py demo --port 8123" in planned.stdout
    assert "manage.py runserver 127.0.0.1:8123" in planned.stdout and "8000" not in planned.stdout


@pytest.mark.django_db
def test_demo_loads_a_tournament_and_a_director_once(capsys):
    call_command("demo")
    first = capsys.readouterr().out
    assert f"{DEMO_USERNAME} / {DEMO_PASSWORD}" in first
    call_command("demo")
    assert "no demo loaded" in capsys.readouterr().out
    tournament = Tournament.objects.get()
    assert tournament.teams.count() == 8
    assert tournament.rules.hands_per_round == 4


@pytest.mark.django_db
def test_logged_out_visitor_is_sent_to_login(client):
    response = client.get(reverse("director:home"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


@pytest.mark.django_db
def test_director_logs_in_and_sees_the_demo_tournament(client):
    call_command("demo")
    response = client.post(reverse("login"), {"username": DEMO_USERNAME, "password": DEMO_PASSWORD}, follow=True)
    assert response.status_code == 200
    assert b"Friday Night Progressive (demo)" in response.content


@pytest.mark.django_db
def test_pages_load_htmx_from_the_app_not_a_cdn(client):
    html = client.get(reverse("login")).content.decode()
    assert "/static/django-htmx/htmx" in html or "/static/django_htmx/htmx" in html
    assert "https://" not in html and "http://" not in html.replace("http://www.w3.org", "")
    script = html.split('src="')[1].split('"')[0]
    assert client.get(script).status_code == 200


def test_scoring_never_imports_django():
    code = "import sys, scoring, scoring.__main__, scoring.random_hands; sys.exit('django' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=False).returncode == 0
