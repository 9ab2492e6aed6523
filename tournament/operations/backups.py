"""Backups as dated files: every event of a club in one file (each event's JSON export, the format
the import reads), or the whole database (Django's ``dumpdata``, restored with ``loaddata`` on an
empty database). Both are gzip-compressed JSON, written to the ``backups`` storage
(``SPADES_BACKUP_DIR``) and named by what they hold and when, in UTC:
``club-3-friday-club-20261127-201500.json.gz``, ``all-20261127-201500.json.gz``.

While a club has an event in play, the worker writes a backup of the club's events in play every
``SPADES_BACKUP_MINUTES`` (:func:`schedule`, called when a round starts, and :func:`backup_club`,
which queues itself again), named ``in-play-3-friday-club-20261127-201500.json.gz``: only the
events in play, so it stays small however long the club's history grows (the command's backups
hold every event). Files older than ``SPADES_BACKUP_KEEP_DAYS`` are deleted as new ones are
written, but never the newest of each kind: a club's last backup stays however old it is.

The folder holds secrets (the table links, which let anyone holding one enter scores, and in a
whole-database backup every password hash): files are written readable by their owner alone.
"""

from __future__ import annotations

import datetime
import gzip
import json
import re
import tempfile
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files import File
from django.core.files.base import ContentFile
from django.core.files.storage import FileSystemStorage, Storage, storages
from django.core.management import call_command
from django.db import connection, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.text import slugify
from django_tasks import task
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from tournament.locking import lock_club
from tournament.models import Club, Round, Tournament
from tournament.transfer.export import export_tournament
from tournament.transfer.rows import parse
from tournament.transfer.write import import_tournament

FORMAT = "spades-director-club-backup/1"
STORAGE = "backups"
# Left out of a whole-database backup: rows migrate makes again (content types, permissions),
# and what is no record of any event (sessions, the task queue, login throttling, cached PDFs).
NOT_IN_DATABASE_BACKUP = [
    "contenttypes", "auth.permission", "sessions", "django_tasks_database", "axes", "tournament.printjob",
]  # fmt: skip
# Storage.save adds "_" and seven characters before ".gz" to a name already taken.
NAME = re.compile(r"^(?P<kind>.+)-\d{8}-\d{6}\.json(?:_\w+)?\.gz$")


# Backup files and the folders made for them: their owner's alone (see the module's docstring).
FILE_MODE = 0o600
FOLDER_MODE = 0o700


def club_backup(club: Club, *, events: QuerySet[Tournament] | None = None) -> dict[str, Any]:
    """``events`` of ``club`` (every one of its events by default) as one JSON-ready document: each
    event's export, read as it stood at one moment (a hand saved meanwhile is in it whole or not at
    all). Its ``events`` says which: ``"all"``, or ``"in play"`` for a chosen few."""
    chosen = club.tournaments.all() if events is None else events
    ids = list(chosen.order_by("pk").values_list("pk", flat=True))
    return {
        "format": FORMAT,
        "club": {"name": club.name, "time_zone": club.time_zone, "currency": club.currency},
        "made_at": timezone.now().isoformat(),
        "events": "all" if events is None else "in play",
        "tournaments": [_consistent_export(pk) for pk in ids],
    }


def events_in_play(club: Club, *, since: datetime.datetime | None = None) -> QuerySet[Tournament]:
    """``club``'s events in play: those with a round running and, given ``since``, those changed
    since then (a round closed, the next one seated). A scheduled backup passes the time the one
    before it began, so what changed between two backups, an event's last round closing among it,
    is in the next one."""
    in_play = Q(rounds__status=Round.Status.RUNNING)
    if since is not None:
        in_play |= Q(changed_at__gte=since)
    return club.tournaments.filter(in_play).distinct()


def _consistent_export(tournament_id: int) -> dict[str, Any]:
    # One transaction, so the export's queries all read the same moment: PostgreSQL reads a
    # snapshot without blocking anyone; SQLite holds its write lock meanwhile (writes wait).
    snapshot = connection.vendor == "postgresql" and not connection.in_atomic_block
    with transaction.atomic():
        if snapshot:
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        return export_tournament(Tournament.objects.get(pk=tournament_id))


def backup_storage(directory: str | Path | None = None) -> Storage:
    """Where backups go: ``directory`` if given, else ``SPADES_BACKUP_DIR`` (the ``backups`` storage)."""
    if directory is None:
        return storages[STORAGE]
    return FileSystemStorage(
        location=directory, file_permissions_mode=FILE_MODE, directory_permissions_mode=FOLDER_MODE
    )


def write_club_backup(*, club: Club, storage: Storage | None = None) -> str:
    """Write every event of ``club`` (:func:`club_backup`) as a dated ``club-…`` file; returns its
    name in ``storage``."""
    return _write_club(club, prefix="club", document=club_backup(club), storage=storage)


def write_play_backup(*, club: Club, since: datetime.datetime | None = None, storage: Storage | None = None) -> str:
    """Write ``club``'s events in play (:func:`events_in_play`) as a dated ``in-play-…`` file;
    returns its name in ``storage``."""
    document = club_backup(club, events=events_in_play(club, since=since))
    return _write_club(club, prefix="in-play", document=document, storage=storage)


def _write_club(club: Club, *, prefix: str, document: dict[str, Any], storage: Storage | None) -> str:
    # A kind of its own for each prefix: pruning keeps the newest full backup and the newest in play.
    storage = storage or backup_storage()
    body = gzip.compress(json.dumps(document, separators=(",", ":")).encode())
    name = storage.save(_dated(f"{prefix}-{club.pk}-{slugify(club.name) or 'club'}"), ContentFile(body))
    prune(storage=storage)
    return name


def write_database_backup(*, storage: Storage | None = None) -> str:
    """Write the whole database (every club, user and event) as a dated ``dumpdata`` file, for
    ``loaddata`` on a freshly migrated empty database; returns its name in ``storage``."""
    storage = storage or backup_storage()
    with tempfile.TemporaryDirectory() as folder:
        dump = Path(folder) / "all.json.gz"  # dumpdata compresses by the file's extension
        call_command(
            "dumpdata", natural_foreign=True, natural_primary=True, exclude=NOT_IN_DATABASE_BACKUP,
            output=str(dump), verbosity=0,
        )  # fmt: skip
        with dump.open("rb") as file:
            name = storage.save(_dated("all"), File(file))
    prune(storage=storage)
    return name


def _dated(kind: str) -> str:
    return f"{kind}-{timezone.now():%Y%m%d-%H%M%S}.json.gz"


def prune(*, storage: Storage, days: int | None = None) -> list[str]:
    """Delete backups older than ``days`` (``SPADES_BACKUP_KEEP_DAYS``), keeping the newest of each
    kind (each club's, the whole database's); returns the names deleted. Other files stay."""
    days = settings.SPADES_BACKUP_KEEP_DAYS if days is None else days
    before = timezone.now() - datetime.timedelta(days=days)
    newest: dict[str, tuple[datetime.datetime, str]] = {}
    old = []
    for name in storage.listdir("")[1]:
        match = NAME.match(name)
        if match is None:
            continue
        made = storage.get_modified_time(name)
        kind = match["kind"]
        if kind not in newest or newest[kind] < (made, name):
            newest[kind] = (made, name)
        if made < before:
            old.append(name)
    keep = {name for _, name in newest.values()}
    deleted = [name for name in old if name not in keep]
    for name in deleted:
        storage.delete(name)
    return deleted


def read_club_backup(raw: bytes) -> dict[str, Any]:
    """Decode a club's backup file; :class:`ValidationError` if it is not one."""
    try:
        data = json.loads(gzip.decompress(raw))
    except (OSError, EOFError, ValueError):
        raise ValidationError("That file is not a backup (not gzip-compressed JSON).", code="not_backup") from None
    if isinstance(data, list):
        raise ValidationError(
            "That is a whole-database backup: restore it with `manage.py loaddata` on an empty database.",
            code="database_backup",
        )
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("tournaments"), list):
        raise ValidationError(f"That file is not a club's backup of format {FORMAT}.", code="format")
    return data


def restore_club_backup(*, data: dict[str, Any], club: Club, by: Any = None) -> list[Tournament]:
    """Import every event of a club's backup (:func:`read_club_backup`) into ``club`` as new
    tournaments; all of them or, if one is refused, none (:class:`ValidationError` names it)."""
    restored = []
    with transaction.atomic():
        for number, event in enumerate(data["tournaments"], start=1):
            try:
                restored.append(import_tournament(parse(json.dumps(event)), club=club, by=by))
            except ValidationError as error:
                name = event.get("tournament", {}).get("name", "?") if isinstance(event, dict) else "?"
                raise ValidationError(f"Event {number} ({name}): {'; '.join(error.messages)}", code="event") from None
    return restored


# --- every few minutes while an event plays --------------------------------------------------------


# A write stamps its event's changed_at as it takes the event's lock, and commits a moment later: a
# backup that read the event meanwhile missed the change. The next looks back this far before the
# time the one before it began, so it holds that event again.
OVERLAP = datetime.timedelta(minutes=1)


@task()
def backup_club(club_id: int, since: str | None = None) -> str | None:
    """The worker's backup of club ``club_id``'s events in play (:func:`write_play_backup`; those
    changed since the ISO time ``since`` too), then queue the next one ``SPADES_BACKUP_MINUTES`` on
    while the club has an event in play (a league night, a knockout's bracket; not the days between
    a league's nights), and once more after its last round closed, which then holds that round.
    Returns the file's name (None when the club is gone or scheduled backups are off)."""
    club = Club.objects.filter(pk=club_id).first()
    if club is None or settings.SPADES_BACKUP_MINUTES <= 0:
        return None
    began = timezone.now() - OVERLAP
    name = write_play_backup(club=club, since=datetime.datetime.fromisoformat(since) if since else None)
    if events_in_play(club, since=began).exists():
        schedule(club_id=club_id, minutes=settings.SPADES_BACKUP_MINUTES, since=began)
    return name


def schedule(*, club_id: int, minutes: int = 0, since: datetime.datetime | None = None) -> bool:
    """Queue club ``club_id``'s backup ``minutes`` from now (at once by default), unless one is
    queued already: a club never has two waiting. It holds the events in play and those changed
    since ``since`` (by default, now). Nothing when ``SPADES_BACKUP_MINUTES`` is 0. Returns
    whether one was queued."""
    if settings.SPADES_BACKUP_MINUTES <= 0:
        return False
    with transaction.atomic():
        # The club's lock: two app servers starting two of its rounds at once queue one backup.
        lock_club(club_id)
        if queued_backups(club_id=club_id).exists():
            return False
        now = timezone.now()
        when = now + datetime.timedelta(minutes=minutes)
        (backup_club.using(run_after=when) if minutes else backup_club).enqueue(
            club_id=club_id, since=(since or now).isoformat()
        )
    return True


def queued_backups(*, club_id: int):
    """Club ``club_id``'s backups waiting in the task queue."""
    return DBTaskResult.objects.filter(
        task_path=backup_club.module_path, status=TaskResultStatus.READY, args_kwargs__kwargs__club_id=club_id
    )
