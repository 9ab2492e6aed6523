"""Print jobs: a document rendered as a PDF, at once or in a background thread with its progress.

- A job being rendered beats a heartbeat into its row every few seconds. A running job whose
  heartbeat stopped (its worker was restarted mid-render, or it ran on another app server that
  went away) is stale: the next request that looks at it claims it, by an atomic update only
  one server can win, and renders it again from the HTML kept in the row. So several app
  servers on one PostgreSQL share the jobs, whichever of them a request lands on.
- When a job is done, the HTML it was made from is dropped, older PDFs of the same document
  are deleted (they are superseded), and PDFs older than ``SPADES_PRINT_KEEP_DAYS`` expire.
  ``manage.py prune_print_jobs`` does the expiry on demand.
"""

from __future__ import annotations

import datetime
import hashlib
import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from django.conf import settings
from django.db import DatabaseError, close_old_connections, connection, transaction
from django.db.models import Q
from django.utils import timezone

from tournament.clubs import locale
from tournament.models import PrintJob, Tournament
from tournament.printing import pdf
from tournament.printing.documents import Document

log = logging.getLogger(__name__)
HEARTBEAT_SECONDS = 5


def _cutoff() -> datetime.datetime:
    return timezone.now() - datetime.timedelta(seconds=settings.SPADES_PRINT_STALE_SECONDS)


def _stale_filter() -> Q:
    cutoff = _cutoff()
    return Q(status=PrintJob.Status.RUNNING) & (
        Q(heartbeat_at__lt=cutoff) | Q(heartbeat_at__isnull=True, created_at__lt=cutoff)
    )


def is_stale(job: PrintJob) -> bool:
    """A running job nobody has rendered for a while: its process stopped."""
    beat = job.heartbeat_at or job.created_at
    return job.status == PrintJob.Status.RUNNING and beat < _cutoff()


def claim(job: PrintJob) -> bool:
    """Take over a stale job; True for exactly one of several servers (or threads) trying."""
    taken = PrintJob.objects.filter(_stale_filter(), pk=job.pk).update(heartbeat_at=timezone.now(), chunks_done=0)
    return taken == 1


@contextmanager
def heartbeat(job_id: int) -> Iterator[None]:
    """Beat the job's heartbeat while the block renders it."""
    PrintJob.objects.filter(pk=job_id).update(heartbeat_at=timezone.now())
    stop = threading.Event()

    def beat() -> None:
        try:
            while not stop.wait(HEARTBEAT_SECONDS):
                PrintJob.objects.filter(pk=job_id).update(heartbeat_at=timezone.now())
        except DatabaseError:
            log.warning("print job %s: heartbeat stopped", job_id, exc_info=True)
        finally:
            connection.close()

    thread = threading.Thread(target=beat, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=1)


def resume_if_stale(job: PrintJob, render: Callable[[int, list[str]], None]) -> bool:
    """Render ``job`` again (in a background thread, with ``render(job_id, chunks)``) if its
    process stopped and this request wins the claim. True if it was resumed."""
    if not is_stale(job) or not job.html or not claim(job):
        return False
    log.warning("print job %s was left unfinished; rendering it again", job.pk)
    threading.Thread(target=render, args=(job.pk, list(job.html)), daemon=True).start()
    return True


def finished(job_id: int) -> None:
    """A job is done: drop its HTML, delete the PDFs it supersedes, let old ones expire."""
    job = PrintJob.objects.only("tournament_id", "document", "created_at").filter(pk=job_id).first()
    if job is None:
        return  # superseded itself while it rendered
    PrintJob.objects.filter(pk=job_id).update(html=[])
    same = PrintJob.objects.filter(tournament_id=job.tournament_id, document=job.document)
    same.filter(created_at__lte=job.created_at).exclude(pk=job_id).exclude(status=PrintJob.Status.RUNNING).delete()
    prune()


def prune(days: int | None = None) -> int:
    """Delete print jobs older than ``days`` (``SPADES_PRINT_KEEP_DAYS`` by default) that are not
    being rendered; how many were deleted."""
    keep = settings.SPADES_PRINT_KEEP_DAYS if days is None else days
    old = PrintJob.objects.filter(created_at__lt=timezone.now() - datetime.timedelta(days=keep))
    deleted, _ = old.filter(~Q(status=PrintJob.Status.RUNNING) | _stale_filter()).delete()
    return deleted


# --- rendering ----------------------------------------------------------------------------------------


def produce(tournament: Tournament, document: Document, *, background: bool = True) -> PrintJob:
    """The job for ``document``: an existing one for the same HTML, else a new one, rendered now
    (one chunk, or ``background`` off) or in a background thread."""
    with locale.using(tournament.club):  # its club's times and currency, in a request or not
        chunks = pdf.render_html_chunks(document.template, document.contexts)
    key = hashlib.sha256("\x00".join([str(tournament.pk), document.template, *chunks]).encode()).hexdigest()
    job = PrintJob.objects.filter(key=key).first()
    if job and job.status != PrintJob.Status.FAILED and not is_stale(job):
        return job
    with transaction.atomic():
        PrintJob.objects.filter(key=key).delete()
        job, created = PrintJob.objects.get_or_create(
            key=key,
            defaults={"tournament": tournament, "document": document.name, "title": document.title,
                      "chunks_total": len(chunks), "html": chunks},
        )  # fmt: skip
    if not created:
        return job  # a second request for the same document got here first
    if len(chunks) == 1 or not background:
        _render(job.pk, chunks)
        job.refresh_from_db()
    else:
        threading.Thread(target=_render_in_thread, args=(job.pk, chunks), daemon=True).start()
    return job


def _render(job_id: int, chunks: list[str]) -> None:
    def progress(done: int) -> None:
        PrintJob.objects.filter(pk=job_id).update(chunks_done=done)

    try:
        with heartbeat(job_id):
            data = pdf.pdf_from_chunks(chunks, on_progress=progress)
    except Exception as error:
        log.exception("rendering print job %s failed", job_id)
        PrintJob.objects.filter(pk=job_id).update(status=PrintJob.Status.FAILED, error=str(error)[:2000])
        return
    PrintJob.objects.filter(pk=job_id).update(status=PrintJob.Status.DONE, pdf=data, finished_at=timezone.now())
    finished(job_id)


def _render_in_thread(job_id: int, chunks: list[str]) -> None:
    close_old_connections()
    try:
        _render(job_id, chunks)
    finally:
        connection.close()


def resume(job: PrintJob) -> None:
    """Render ``job`` again if the process rendering it stopped (see the module's docstring)."""
    resume_if_stale(job, _render_in_thread)
