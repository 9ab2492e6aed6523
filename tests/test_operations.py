"""Operations: /health/ for load balancers, error reports to Sentry, JSON log lines, and backups
(on demand, and every few minutes from the worker while a club's round is in play)."""

import datetime
import gzip
import io
import json
import logging
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from wsgiref.util import setup_testing_defaults

import pytest
import sentry_sdk
from django.core.handlers.wsgi import WSGIHandler
from django.core.management import CommandError, call_command
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.urls import reverse
from django.utils import timezone
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult
from sentry_sdk.transport import Transport

from tests.conftest import a_club, finish_game, make_tournament
from tests.test_project import PRODUCTION
from tournament.models import Club, Round, Tournament
from tournament.operations import backups
from tournament.operations.errors import start_sentry
from tournament.operations.health import TaskBacklog
from tournament.operations.logs import FORMATS, JsonLines, RequestPath, logging_config
from tournament.operations.secrets import scrub
from tournament.play.rounds import close_round, start_play, start_round
from tournament.transfer.export import export_tournament

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _database_queue(settings):
    """This file tests the real queue (the backlog, what a worker picks up): the database backend,
    not the suite's default of running each task as it is queued."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


@pytest.fixture
def backup_dir(settings, tmp_path):
    """The backups' storage in the test's own folder, and backups every 15 minutes in play (the
    suite's environment turns them off)."""
    settings.SPADES_BACKUP_MINUTES = 15
    configured = settings.STORAGES["backups"]
    folder = tmp_path / "backups"  # made by the storage, as a fresh install's is
    settings.STORAGES = {
        **settings.STORAGES,
        "backups": {**configured, "OPTIONS": {**configured["OPTIONS"], "location": folder}},
    }
    return folder


def _late_task(minutes_ago: int) -> DBTaskResult:
    """A queued task, as if queued ``minutes_ago`` minutes ago and never picked up."""
    result = backups.backup_club.enqueue(club_id=0)
    queued_at = timezone.now() - datetime.timedelta(minutes=minutes_ago)
    DBTaskResult.objects.filter(pk=result.id).update(enqueued_at=queued_at)
    return DBTaskResult.objects.get(pk=result.id)


# --- /health/ --------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_health_answers_200_naming_the_database_cache_storage_and_task_queue_it_checked(client, backup_dir):
    response = client.get("/health/?format=json")
    assert response.status_code == 200
    assert response.json() == {
        "Database(alias='default')": "OK",
        "Cache(alias='default')": "OK",
        "BackupStorage(alias='backups')": "OK",
        "TaskBacklog(minutes=5)": "OK",
    }
    assert list(backup_dir.iterdir()) == []  # the storage probe leaves nothing behind
    asked_by_header = client.get("/health/", HTTP_ACCEPT="application/json")
    assert asked_by_header.status_code == 200 and "TaskBacklog(minutes=5)" in asked_by_header.json()


@pytest.mark.django_db
def test_health_page_for_a_person_lists_each_check_in_the_apps_own_look(client, backup_dir):
    response = client.get("/health/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "System status: all well" in page and "css/app.css" in page
    for label in ("Database", "Cache", "Backup storage", "Task queue (waiting over 5 minutes)"):
        assert f"<strong>{label}</strong>: OK" in page
    assert "alias=" not in page and "TaskBacklog" not in page
    assert "<style" not in page  # the CSP refuses inline styles


@pytest.mark.django_db
def test_health_needs_no_login_and_answers_plain_http_when_every_other_page_redirects_to_https(client, settings):
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/health/?format=json").status_code == 200
    assert client.get("/health/server/?format=json").status_code == 200
    assert client.get(reverse("login")).status_code == 301


@pytest.mark.django_db
def test_the_backlog_counts_tasks_waiting_longer_than_the_threshold_for_a_worker(settings):
    _late_task(minutes_ago=6)
    _late_task(minutes_ago=7)
    _late_task(minutes_ago=1)
    deferred = backups.backup_club.using(run_after=timezone.now() - datetime.timedelta(minutes=10)).enqueue(club_id=0)
    running = _late_task(minutes_ago=30)
    DBTaskResult.objects.filter(pk=running.pk).update(status=TaskResultStatus.RUNNING)
    assert TaskBacklog(minutes=5).late_tasks() == 3  # two queued long ago, one deferred to 10 minutes ago
    DBTaskResult.objects.filter(pk=deferred.id).update(run_after=timezone.now() + datetime.timedelta(minutes=10))
    assert TaskBacklog(minutes=5).late_tasks() == 2  # a task deferred to later is not late
    settings.SPADES_TASK_BACKLOG_MINUTES = 10
    assert TaskBacklog().late_tasks() == 0


def _as_a_server_asks(client, url: str):
    """``client.get(url)`` from a thread of its own, as a WSGI server's: a browser test earlier in
    the run leaves Playwright's event loop running in the test's thread, where a failing check's
    report (async code the view calls through async_to_sync) refuses to run."""
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(client.get, url).result()


# The checks run in threads of their own, which see only what is committed.
@pytest.mark.django_db(transaction=True)
def test_a_task_queue_nobody_works_fails_health_naming_how_many_wait_but_not_the_servers_own_check(client):
    _late_task(minutes_ago=6)
    response = _as_a_server_asks(client, "/health/?format=json")
    assert response.status_code == 500
    assert response.json()["TaskBacklog(minutes=5)"] == (
        "Warning: 1 task has waited more than 5 minutes for a worker: is `manage.py db_worker` running?"
    )
    assert response.json()["Database(alias='default')"] == "OK"
    server = _as_a_server_asks(client, "/health/server/?format=json")
    assert server.status_code == 200 and "TaskBacklog(minutes=5)" not in server.json()


# --- Sentry ----------------------------------------------------------------------------------------


class CapturingTransport(Transport):
    """Sentry's transport with the network taken out: it keeps each envelope it is given."""

    def __init__(self) -> None:
        super().__init__()
        self.envelopes = []

    def capture_envelope(self, envelope) -> None:
        self.envelopes.append(envelope)


@pytest.fixture
def sentry():
    transport = CapturingTransport()
    start_sentry(dsn="https://public@sentry.example/1", environment="test", release="spades@1", transport=transport)
    yield transport
    sentry_sdk.get_client().close()
    sentry_sdk.get_global_scope().set_client(None)  # off again for the tests after this one


@pytest.mark.django_db
def test_an_error_in_a_view_reaches_sentry_without_the_users_cookies(sentry, director_client, tournament, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("the ledger broke")

    monkeypatch.setattr("tournament.money.views.ledger", broken)
    director_client.raise_request_exception = False
    assert director_client.get(reverse("director:fees", args=[tournament.pk])).status_code == 500
    sentry_sdk.flush()
    events = [envelope.get_event() for envelope in sentry.envelopes if envelope.get_event() is not None]
    errors = [e for e in events if e.get("exception")]
    assert errors, "no error reached the transport"
    event = errors[0]
    assert event["exception"]["values"][-1]["type"] == "RuntimeError"
    assert event["exception"]["values"][-1]["value"] == "the ledger broke"
    assert (event["environment"], event["release"]) == ("test", "spades@1")
    assert event["transaction"] == "/t/{tournament_id}/fees/"  # the page, by its route
    assert "cookies" not in event["request"] and "Cookie" not in event["request"].get("headers", {})
    assert "user" not in event


SECRET = "Zq3xK9pLm2vB7tRw"  # a table's, an invitation's or a reset link's token in an address

# Each address that carries a secret, the view function its request breaks, and what is reported.
SECRET_ADDRESSES = [
    (f"/table/{SECRET}/round/2/preview/", "tournament.play.phone._game_for_link_or_404", "/table/…/round/2/preview/"),
    (f"/table/{SECRET}/", "tournament.play.phone._table_for_token_or_404", "/table/…/"),
    (f"/join/{SECRET}/", "tournament.clubs.views.token_digest", "/join/…/"),
]


def _broken(*args, **kwargs):
    raise RuntimeError("the ledger broke")


def _served(path: str) -> int:
    """``path`` asked of the app as a WSGI server (gunicorn) asks it, Referer and all: Sentry
    reads the request's address and headers there; returns the status."""
    environ = {"PATH_INFO": path, "HTTP_REFERER": f"http://127.0.0.1{path}"}
    setup_testing_defaults(environ)
    answered = []
    # As Django's test client does: the test's database connection stays open across the request.
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    try:
        WSGIHandler()(environ, lambda status, headers: answered.append(status))
    finally:
        for signal in (request_started, request_finished):
            signal.connect(close_old_connections)
    return int(answered[0].split()[0])


@pytest.mark.django_db
@pytest.mark.parametrize(("path", "breaks", "reported"), SECRET_ADDRESSES)
def test_an_error_reaches_sentry_without_the_token_its_address_carried(
    sentry, tournament, monkeypatch, path, breaks, reported
):
    monkeypatch.setattr(breaks, _broken)
    monkeypatch.setattr(logging.getLogger("django.request"), "handlers", [])  # the test's output stays quiet
    assert _served(path) == 500
    sentry_sdk.flush()
    events = [envelope.get_event() for envelope in sentry.envelopes if envelope.get_event() is not None]
    [error] = [e for e in events if e.get("exception")]
    assert error["exception"]["values"][-1]["value"] == "the ledger broke"
    assert error["request"]["url"] == f"http://127.0.0.1{reported}"
    assert error["request"]["headers"]["Referer"] == f"http://127.0.0.1{reported}"
    # Nor anywhere else: the messages, breadcrumbs, the frames' variables (the token passed along).
    assert SECRET not in json.dumps(events)


@pytest.mark.parametrize(
    ("text", "scrubbed"),
    [
        *[(path, reported) for path, _, reported in SECRET_ADDRESSES],
        (f"<WSGIRequest: GET '/reset/MQ/{SECRET}/'>", "<WSGIRequest: GET '/reset/…/'>"),
        (f"https://spades.example/table/{SECRET}?waiting=director", "https://spades.example/table/…?waiting=director"),
        ("/reset/done/", "/reset/done/"),
        ("/table/sw.js", "/table/sw.js"),
        ("/password-reset/sent/", "/password-reset/sent/"),
        ("/t/3/rounds/2/links/", "/t/3/rounds/2/links/"),
    ],
)
def test_only_the_secret_in_an_address_is_cut_out(text, scrubbed):
    assert scrub(text) == scrubbed


@pytest.mark.django_db
def test_without_a_dsn_nothing_is_sent(director_client, tournament):
    assert sentry_sdk.get_client().dsn is None and not sentry_sdk.get_client().is_active()


def _settings_in_a_fresh_process(env: dict[str, str], code: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "SENTRY", "LOG_"))}
    return subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"], cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "tournament.settings", **PRODUCTION, **env},
        capture_output=True, text=True, check=False,
    )  # fmt: skip


@pytest.mark.slow  # Django started in processes of its own
def test_sentry_is_on_only_when_sentry_dsn_is_set_and_a_malformed_one_stops_start_up():
    code = "import sentry_sdk; print(sentry_sdk.get_client().dsn)"
    assert _settings_in_a_fresh_process({}, code).stdout.strip() == "None"
    on = _settings_in_a_fresh_process({"SENTRY_DSN": "https://public@sentry.example/1"}, code)
    assert on.stdout.strip() == "https://public@sentry.example/1", on.stderr
    bad = _settings_in_a_fresh_process({"SENTRY_DSN": "sentry.example"}, code)
    assert bad.returncode != 0 and "SENTRY_DSN must be a Sentry DSN" in bad.stderr


# --- logs ------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_server_error_logs_one_json_line_with_time_level_logger_message_path_and_status(
    director_client, tournament, monkeypatch
):
    assert logging_config("json")["formatters"]["json"]["()"] is JsonLines
    captured = io.StringIO()
    handler = logging.StreamHandler(captured)
    handler.addFilter(RequestPath())
    handler.setFormatter(JsonLines())
    logger = logging.getLogger("django.request")
    logger.addHandler(handler)

    def broken(*args, **kwargs):
        raise RuntimeError("the ledger broke")

    monkeypatch.setattr("tournament.money.views.ledger", broken)
    director_client.raise_request_exception = False
    try:
        director_client.get(reverse("director:fees", args=[tournament.pk]))
    finally:
        logger.removeHandler(handler)
    lines = captured.getvalue().splitlines()
    assert len(lines) == 1  # the traceback inside the one line, not on lines of its own
    line = json.loads(lines[0])
    path = f"/t/{tournament.pk}/fees/"
    assert line["level"] == "ERROR" and line["logger"] == "django.request"
    assert line["message"] == f"Internal Server Error: {path}"
    assert (line["path"], line["status"]) == (path, 500)
    assert datetime.datetime.strptime(line["time"], "%Y-%m-%d %H:%M:%S,%f")
    assert "RuntimeError: the ledger broke" in line["exc_info"]
    assert "request" not in line  # nothing else of the request: no headers, no cookies


@pytest.mark.django_db
@pytest.mark.parametrize("log_format", FORMATS)
@pytest.mark.parametrize(("path", "breaks", "reported"), SECRET_ADDRESSES[::2])
def test_a_server_errors_log_line_carries_its_path_without_the_token(
    client, tournament, monkeypatch, log_format, path, breaks, reported
):
    configured = logging_config(log_format)
    captured = io.StringIO()
    handler = logging.StreamHandler(captured)
    handler.addFilter(configured["filters"]["path"]["()"]())
    formatter = configured["formatters"][log_format]
    handler.setFormatter(
        formatter["()"](**({} if log_format == "json" else {"fmt": formatter["format"], "style": "{"}))
    )
    monkeypatch.setattr(logging.getLogger("django.request"), "handlers", [handler])
    monkeypatch.setattr(breaks, _broken)
    client.raise_request_exception = False
    assert client.get(path).status_code == 500
    written = captured.getvalue()
    assert SECRET not in written and f"Internal Server Error: {reported}" in written
    if log_format == "json":
        assert json.loads(written)["path"] == reported


@pytest.mark.slow  # Django started in processes of its own
def test_log_format_json_makes_every_line_a_json_object_and_plain_stays_the_default():
    code = "import logging; logging.getLogger('tournament.x').warning('table %s went quiet', 4)"
    json_run = _settings_in_a_fresh_process({"LOG_FORMAT": "json"}, code)
    line = json.loads(json_run.stderr.strip())
    assert {k: line[k] for k in ("level", "logger", "message")} == {
        "level": "WARNING", "logger": "tournament.x", "message": "table 4 went quiet"
    }  # fmt: skip
    assert "time" in line
    library = _settings_in_a_fresh_process({"LOG_FORMAT": "json"}, "import logging; logging.getLogger('x').error('y')")
    assert json.loads(library.stderr.strip())["logger"] == "x"  # other libraries' lines too
    plain = _settings_in_a_fresh_process({}, code)
    assert plain.stderr.strip().endswith("WARNING tournament.x: table 4 went quiet")
    bad = _settings_in_a_fresh_process({"LOG_FORMAT": "xml"}, "")
    assert bad.returncode != 0 and "LOG_FORMAT must be plain or json, not 'xml'" in bad.stderr


# --- backups ---------------------------------------------------------------------------------------


def _without_tokens(data):
    """An export with its table links left out: a restore into the same database issues new ones."""
    if isinstance(data, dict):
        return {k: _without_tokens(v) for k, v in data.items() if k != "token"}
    if isinstance(data, list):
        return [_without_tokens(v) for v in data]
    return data


@pytest.fixture
def playing(running_round):
    """A club's event in play: round 1 running, one table's game finished, the others not."""
    finish_game(running_round.games.order_by("table__number").first())
    return running_round.tournament


def _to_the_millisecond(export):
    return json.loads(re.sub(r"(T[\d:]{8}\.\d{3})\d{3}", r"\g<1>000", json.dumps(export)))


def _files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.json.gz"))


@pytest.mark.django_db
def test_backup_command_writes_a_dated_club_file_that_restores_each_event_into_another_club(playing, tmp_path):
    second = make_tournament(name="Second night")
    out = io.StringIO()
    call_command("backup", "--club", str(playing.club_id), "--dir", str(tmp_path), stdout=out)
    [file] = _files(tmp_path)
    assert file.name.startswith("club-") and "-test-club-" in file.name
    assert out.getvalue().strip() == f"Wrote {file}"
    data = json.loads(gzip.decompress(file.read_bytes()))
    assert [e["tournament"]["name"] for e in data["tournaments"]] == ["Club night", "Second night"]

    other = Club.objects.create(name="Other club")
    out = io.StringIO()
    call_command("restore_backup", str(file), "--club", str(other.pk), stdout=out)
    restored = {t.name: t for t in other.tournaments.all()}
    assert set(restored) == {"Club night", "Second night"}
    for original in (playing, second):
        assert _without_tokens(export_tournament(restored[original.name])) == _without_tokens(
            export_tournament(original)
        )
    assert out.getvalue().splitlines()[-1] == "2 events restored."


@pytest.mark.django_db
def test_backup_command_asks_for_a_club_or_all_and_names_a_missing_club(tmp_path):
    with pytest.raises(CommandError, match="one of the arguments --club --all is required"):
        call_command("backup", "--dir", str(tmp_path))
    with pytest.raises(CommandError, match="--club: there is no club with id 999"):
        call_command("backup", "--club", "999", "--dir", str(tmp_path))
    assert _files(tmp_path) == []


@pytest.mark.django_db
def test_restore_refuses_a_file_that_is_no_club_backup_and_restores_nothing_of_a_damaged_one(playing, tmp_path):
    club = Club.objects.create(name="Other club")
    make_tournament(name="Second night")
    name = backups.write_club_backup(club=a_club(), storage=backups.backup_storage(tmp_path))
    data = json.loads(gzip.decompress((tmp_path / name).read_bytes()))
    data["tournaments"][1]["teams"][0]["status"] = "asleep"
    damaged = tmp_path / "damaged.json.gz"
    damaged.write_bytes(gzip.compress(json.dumps(data).encode()))
    with pytest.raises(CommandError, match=r"Event 2 \(Second night\): Team 1.*status.*Nothing was restored"):
        call_command("restore_backup", str(damaged), "--club", str(club.pk))
    assert not club.tournaments.exists()  # the first event, valid, was not kept either

    not_gzip = tmp_path / "notes.txt"
    not_gzip.write_text("hello")
    with pytest.raises(CommandError, match="not a backup"):
        call_command("restore_backup", str(not_gzip), "--club", str(club.pk))
    with pytest.raises(CommandError, match="cannot read"):
        call_command("restore_backup", str(tmp_path / "missing.json.gz"), "--club", str(club.pk))
    with pytest.raises(CommandError, match="--club: there is no club with id 999"):
        call_command("restore_backup", str(tmp_path / name), "--club", "999")


# flush and loaddata, as on a freshly migrated empty database, need a test of their own transactions.
@pytest.mark.django_db(transaction=True)
def test_a_whole_database_backup_loads_into_an_empty_database_with_loaddata(playing, director, tmp_path):
    before = export_tournament(playing)
    call_command("backup", "--all", "--dir", str(tmp_path), stdout=io.StringIO())
    [file] = _files(tmp_path)
    assert file.name.startswith("all-")
    call_command("flush", "--noinput")
    assert not Tournament.objects.exists()
    call_command("loaddata", str(file), verbosity=0)
    # Table links included; times to the millisecond (as dumpdata writes them).
    assert export_tournament(Tournament.objects.get()) == _to_the_millisecond(before)
    assert Club.objects.get().members.get().user.username == director.username


@pytest.mark.django_db
def test_old_backups_are_pruned_but_each_kinds_newest_and_other_files_stay(tmp_path):
    storage = backups.backup_storage(tmp_path)
    names = [
        "club-1-a-20261101-100000.json.gz", "club-1-a-20261102-100000.json.gz", "club-1-a-20261126-100000.json.gz",
        "club-2-b-20261101-100000.json.gz", "all-20261101-100000.json.gz", "all-20261101-100000.json_Ab3dE9x.gz",
        "notes.txt",
    ]  # fmt: skip
    for name in names:
        (tmp_path / name).write_bytes(b"x")
    for name in names[:2] + names[3:]:
        old = (timezone.now() - datetime.timedelta(days=20)).timestamp() + names.index(name)
        os.utime(tmp_path / name, (old, old))
    deleted = backups.prune(storage=storage, days=14)
    assert sorted(deleted) == [names[4], names[0], names[1]]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([names[2], names[3], names[5], "notes.txt"])


@pytest.fixture
def usual_umask():
    """The usual umask, which leaves the files a process makes readable by everyone."""
    previous = os.umask(0o022)
    yield
    os.umask(previous)


@pytest.mark.django_db
def test_backup_files_and_the_folder_made_for_them_are_readable_by_their_owner_alone(
    playing, backup_dir, tmp_path, usual_umask
):
    scheduled = backup_dir / backups.backup_club.call(club_id=playing.club_id)
    assert backup_dir.stat().st_mode & 0o777 == 0o700
    assert scheduled.stat().st_mode & 0o777 == 0o600
    for which in (["--club", str(playing.club_id)], ["--all"]):
        call_command("backup", *which, "--dir", str(tmp_path / "elsewhere"), stdout=io.StringIO())
    assert (tmp_path / "elsewhere").stat().st_mode & 0o777 == 0o700
    assert [f.stat().st_mode & 0o777 for f in _files(tmp_path / "elsewhere")] == [0o600, 0o600]


# --- backups every few minutes while a round is in play --------------------------------------------


@pytest.mark.django_db
def test_a_scheduled_backup_holds_only_the_clubs_events_in_play_and_the_command_every_event(
    playing, backup_dir, tmp_path
):
    make_tournament(name="Last season")  # the club's history: finished long ago
    Tournament.objects.exclude(pk=playing.pk).update(changed_at=timezone.now() - datetime.timedelta(days=30))
    make_tournament(name="Elsewhere", club=a_club("Another club"))
    Round.objects.filter(tournament__name="Elsewhere").update(status=Round.Status.RUNNING)
    scheduled = backup_dir / backups.backup_club.call(club_id=playing.club_id)
    assert scheduled.name.startswith("in-play-")
    data = backups.read_club_backup(scheduled.read_bytes())
    assert data["events"] == "in play" and [e["tournament"]["name"] for e in data["tournaments"]] == ["Club night"]

    call_command("backup", "--club", str(playing.club_id), "--dir", str(tmp_path), stdout=io.StringIO())
    [full] = _files(tmp_path)
    data = backups.read_club_backup(full.read_bytes())
    assert data["events"] == "all"
    assert sorted(e["tournament"]["name"] for e in data["tournaments"]) == ["Club night", "Last season"]


@pytest.mark.django_db
def test_the_backup_after_a_clubs_last_round_closed_holds_that_event_then_no_other_is_queued(
    finished_round, backup_dir
):
    event = finished_round.tournament
    before_the_close = timezone.now()
    close_round(round_=finished_round)
    name = backups.backup_club.call(club_id=event.club_id, since=before_the_close.isoformat())
    data = backups.read_club_backup((backup_dir / name).read_bytes())
    [held] = data["tournaments"]
    assert [r["status"] for r in held["rounds"]][:1] == ["closed"]
    # The close came within a minute of that backup: one more is queued, in case it read too early.
    [following] = backups.queued_backups(club_id=event.club_id)
    following.delete()
    Tournament.objects.filter(pk=event.pk).update(changed_at=timezone.now() - datetime.timedelta(minutes=20))
    quiet = backups.backup_club.call(club_id=event.club_id, since=following.args_kwargs["kwargs"]["since"])
    assert backups.read_club_backup((backup_dir / quiet).read_bytes())["tournaments"] == []
    assert not backups.queued_backups(club_id=event.club_id).exists()


@pytest.mark.django_db
def test_starting_rounds_queues_one_backup_for_their_club_however_many_start(
    tournament, backup_dir, django_capture_on_commit_callbacks
):
    other = make_tournament(name="Second room")
    elsewhere = make_tournament(name="Elsewhere", club=a_club("Another club"))
    with django_capture_on_commit_callbacks(execute=True):
        for event in (tournament, other, elsewhere):
            start_round(round_=start_play(tournament=event))
    assert backups.queued_backups(club_id=tournament.club_id).count() == 1
    assert backups.queued_backups(club_id=elsewhere.club_id).count() == 1


@pytest.mark.django_db
def test_no_backup_is_queued_when_scheduled_backups_are_off(tournament, settings, django_capture_on_commit_callbacks):
    settings.SPADES_BACKUP_MINUTES = 0
    with django_capture_on_commit_callbacks(execute=True):
        start_round(round_=start_play(tournament=tournament))
    assert not DBTaskResult.objects.exists()


# The worker closes its database connections between tasks, as a process of its own does.
@pytest.mark.django_db(transaction=True)
def test_the_worker_backs_up_a_club_in_play_and_queues_the_next_in_n_minutes_and_the_file_restores(
    backup_dir, settings, playing
):
    settings.SPADES_BACKUP_MINUTES = 10
    assert backups.queued_backups(club_id=playing.club_id).count() == 1  # queued as the round started
    assert not backups.schedule(club_id=playing.club_id)  # never two waiting
    call_command("db_worker", "--batch", "--interval", "0", verbosity=0)  # runs what is due, then stops
    done = DBTaskResult.objects.get(status=TaskResultStatus.SUCCESSFUL)
    [file] = _files(backup_dir)
    assert done.return_value == file.name
    [following] = backups.queued_backups(club_id=playing.club_id)
    ten = datetime.timedelta(minutes=10)
    assert done.started_at + ten <= following.run_after <= done.finished_at + ten

    fresh = Club.objects.create(name="Fresh club")
    [restored] = backups.restore_club_backup(data=backups.read_club_backup(file.read_bytes()), club=fresh)
    assert _without_tokens(export_tournament(restored)) == _without_tokens(export_tournament(playing))


@pytest.mark.django_db
def test_once_no_round_is_in_play_the_last_backup_queues_no_other(playing, backup_dir):
    an_hour_ago = timezone.now() - datetime.timedelta(hours=1)
    Round.objects.filter(tournament=playing).update(status=Round.Status.CLOSED)
    Tournament.objects.filter(pk=playing.pk).update(changed_at=an_hour_ago)
    assert backups.backup_club.call(club_id=playing.club_id) is not None
    assert len(_files(backup_dir)) == 1
    assert not backups.queued_backups(club_id=playing.club_id).exists()
    assert backups.backup_club.call(club_id=999) is None  # a club deleted meanwhile: nothing to do


@pytest.mark.django_db
def test_a_backup_that_cannot_be_queued_is_logged_and_the_round_starts_all_the_same(
    tournament, backup_dir, monkeypatch, django_capture_on_commit_callbacks, caplog
):
    def database_gone(**kwargs):
        raise RuntimeError("the queue is unreachable")

    monkeypatch.setattr(backups, "schedule", database_gone)
    round_ = start_play(tournament=tournament)
    with django_capture_on_commit_callbacks(execute=True):
        start_round(round_=round_)
    assert Round.objects.get(pk=round_.pk).status == Round.Status.RUNNING
    assert "the queue is unreachable" in caplog.text
