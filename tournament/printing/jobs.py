"""Print jobs: a document's PDF, rendered by the print worker (``manage.py db_worker``), never in a
web request.

- :func:`produce` stores the job (its HTML, in chunks) and puts :func:`render_print_job` on the
  task queue (django-tasks' database backend, so every app server and worker shares it). A
  document whose HTML has not changed is served from the PDF rendered before.
- A worker starting a job takes its lease and renews it, as each chunk finishes and, from a
  thread of its own, every third of the lease while a chunk renders (WeasyPrint lays a chunk out
  in one call, which can outlast the lease): the lease runs out only when the worker's process
  stops. ``db_worker`` does not run again a task whose worker died, so a job whose lease ran out
  is taken over by the next request that looks at it (status poll, print page, the document's
  link): one UPDATE that only one caller can win puts it back in the queue, and another worker
  renders it from the HTML kept in its row. A worker that lost its lease (its database
  connection failed, say) stops at its next chunk rather than write over the new owner's work.
- A job still queued a lease after it was queued, with no task waiting for a worker or just
  taken by one (its worker died between taking the task and taking the job's lease, or the task
  failed before it), is put on the queue again the same way.
- When a job is done, the HTML it was made from is dropped, older PDFs of the same document
  are deleted (they are superseded), and PDFs older than ``SPADES_PRINT_KEEP_DAYS`` expire.
  ``manage.py prune_print_jobs`` does the expiry on demand.
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import logging
import threading
import uuid
from collections.abc import Iterator

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Max, Q, QuerySet
from django.utils import timezone
from django_tasks import TaskResultStatus, task
from django_tasks_db.models import DBTaskResult

from tournament.clubs import locale
from tournament.models import PrintJob, Tournament
from tournament.printing import pdf
from tournament.printing.documents import Document

log = logging.getLogger(__name__)

# A queued job waiting this long means no worker is free: if none has been seen working either,
# the page says to start one.
QUEUE_PATIENCE = datetime.timedelta(seconds=5)


class LeaseLost(Exception):
    """This worker's lease on a job ran out and another took the job over."""


def _lease() -> datetime.timedelta:
    return datetime.timedelta(seconds=settings.SPADES_PRINT_LEASE_SECONDS)


def _lease_until() -> datetime.datetime:
    return timezone.now() + _lease()


def _enqueue(job_id: int) -> None:
    # Called inside the transaction that queues the job: with the database backend the task's row
    # commits with the job's (the worker sees both or neither), so no crash between the two can
    # leave a queued job that no task will ever render.
    render_print_job.enqueue(job_id)


def produce(tournament: Tournament, document: Document) -> PrintJob:
    """The job for ``document``: an existing one for the same HTML (taken over if its worker
    stopped), else a new one, queued for the worker."""
    with locale.using(tournament.club):  # its club's times and currency, in a request or not
        chunks = pdf.render_html_chunks(document.template, document.contexts)
    key = hashlib.sha256("\x00".join([str(tournament.pk), document.template, *chunks]).encode()).hexdigest()
    job = PrintJob.objects.defer("pdf", "html").filter(key=key).first()
    if job and job.status != PrintJob.Status.FAILED:
        return look_after(job)
    with transaction.atomic():
        PrintJob.objects.filter(key=key).delete()
        job, created = PrintJob.objects.get_or_create(
            key=key,
            defaults={"tournament": tournament, "document": document.name, "title": document.title,
                      "chunks_total": len(chunks), "html": chunks},
        )  # fmt: skip
        if created:
            _enqueue(job.pk)
    job.refresh_from_db()  # a backend that runs tasks at once (the tests') has rendered it already
    return job


def look_after(job: PrintJob) -> PrintJob:
    """``job``, put back in the queue first if it was rendering and its lease ran out, or queued
    with no task left to render it (see :func:`_requeue_orphan`); by one UPDATE: of several
    servers looking at once, exactly one does it."""
    if job.status == PrintJob.Status.QUEUED:
        return _requeue_orphan(job)
    if job.status != PrintJob.Status.RENDERING or (job.lease_until and job.lease_until >= timezone.now()):
        return job
    with transaction.atomic():
        taken = PrintJob.objects.filter(PrintJob.lease_expired(), pk=job.pk).update(
            status=PrintJob.Status.QUEUED, queued_at=timezone.now(), lease_owner="", lease_until=None, chunks_done=0
        )
        if taken:
            log.warning("print job %s lost its worker; queued again", job.pk)
            _enqueue(job.pk)
    job.refresh_from_db()
    return job


def _requeue_orphan(job: PrintJob) -> PrintJob:
    """``job`` (queued), with a task put on the queue for it again if it has waited longer than
    the lease and no task that would render it is left: none waits for a worker, and none was
    taken by a worker within the lease (a live worker takes the job's lease as it starts the task,
    so one taken longer ago, with the job still queued, lost its worker)."""
    cutoff = timezone.now() - _lease()
    if job.queued_at >= cutoff:
        return job
    tasks = DBTaskResult.objects.filter(task_path=render_print_job.module_path, args_kwargs__args=[job.pk])
    live = Q(status=TaskResultStatus.READY) | Q(status=TaskResultStatus.RUNNING, started_at__gte=cutoff)
    if tasks.filter(live).exists():
        return job
    with transaction.atomic():
        taken = PrintJob.objects.filter(pk=job.pk, status=PrintJob.Status.QUEUED, queued_at__lt=cutoff).update(
            queued_at=timezone.now()
        )
        if taken:
            log.warning("print job %s was queued with no task left to render it; queued again", job.pk)
            _enqueue(job.pk)
    job.refresh_from_db()
    return job


def retry(job: PrintJob) -> bool:
    """Queue a failed job again; False if it was not failed (another request retried it first)."""
    with transaction.atomic():
        taken = PrintJob.objects.filter(pk=job.pk, status=PrintJob.Status.FAILED).update(
            status=PrintJob.Status.QUEUED, queued_at=timezone.now(), error="", chunks_done=0
        )
        if taken:
            _enqueue(job.pk)
    return bool(taken)


def worker_last_seen() -> datetime.datetime | None:
    """When a worker was last seen at work: a task started or finished, or a lease renewed."""
    tasks = DBTaskResult.objects.aggregate(started=Max("started_at"), finished=Max("finished_at"))
    leased = PrintJob.objects.filter(status=PrintJob.Status.RENDERING).aggregate(until=Max("lease_until"))["until"]
    renewed = leased - datetime.timedelta(seconds=settings.SPADES_PRINT_LEASE_SECONDS) if leased else None
    seen = [moment for moment in (tasks["started"], tasks["finished"], renewed) if moment]
    return max(seen, default=None)


def worker_missing(job: PrintJob) -> bool:
    """True when ``job`` has waited in the queue longer than a free worker would take to pick it
    up and no worker has been seen at work meanwhile (none holds a live lease, as one busy with a
    long print does): the page says to start one."""
    if not job.is_queued or job.waited() < QUEUE_PATIENCE:
        return False
    if PrintJob.objects.filter(status=PrintJob.Status.RENDERING, lease_until__gte=timezone.now()).exists():
        return False
    seen = worker_last_seen()
    return seen is None or seen < timezone.now() - QUEUE_PATIENCE


# --- in the worker ------------------------------------------------------------------------------------


@task()
def render_print_job(job_id: int) -> None:
    """Render a queued job under a lease (see the module's docstring). Does nothing if the job is
    gone (superseded) or no longer queued (another worker has it, or it is done)."""
    owner = uuid.uuid4().hex
    mine = PrintJob.objects.filter(pk=job_id, lease_owner=owner, status=PrintJob.Status.RENDERING)
    taken = PrintJob.objects.filter(pk=job_id, status=PrintJob.Status.QUEUED).update(
        status=PrintJob.Status.RENDERING, lease_owner=owner, lease_until=_lease_until(), chunks_done=0
    )
    if not taken:
        return
    chunks = PrintJob.objects.values_list("html", flat=True).get(pk=job_id)

    try:
        with _lease_kept(mine) as lost:

            def progress(done: int) -> None:
                if lost.is_set() or not mine.update(chunks_done=done, lease_until=_lease_until()):
                    raise LeaseLost

            data = pdf.pdf_from_chunks(chunks, on_progress=progress)
    except LeaseLost:
        log.warning("print job %s was taken over by another worker; stopping", job_id)
        return
    except Exception as error:
        log.exception("rendering print job %s failed", job_id)
        mine.update(status=PrintJob.Status.FAILED, error=str(error)[:2000], lease_until=None)
        return
    if mine.update(status=PrintJob.Status.DONE, pdf=data, html=[], finished_at=timezone.now(), lease_until=None):
        finished(job_id)


@contextlib.contextmanager
def _lease_kept(mine: QuerySet[PrintJob]) -> Iterator[threading.Event]:
    """While the body runs, a thread renews the lease of the job ``mine`` selects (while it is
    this worker's) every third of the lease, so that a chunk slower than the lease does not look
    like a dead worker. Yields an event set once the lease is found lost."""
    lost, done = threading.Event(), threading.Event()
    if connection.in_atomic_block:
        # Rendered inside the transaction that queued the job (a backend that runs tasks at once,
        # the tests'): no other connection sees the job, and one renewing it would wait on its row
        # until this transaction ends, which waits on that thread.
        yield lost
        return

    def renew() -> None:
        try:
            while not done.wait(settings.SPADES_PRINT_LEASE_SECONDS / 3):
                try:
                    if not mine.update(lease_until=_lease_until()):
                        lost.set()
                        return
                except Exception:  # a database hiccup: the next beat, or the next chunk, tries again
                    log.exception("renewing a print job's lease failed")
        finally:
            connection.close()  # this thread's own connection

    beat = threading.Thread(target=renew, name="print-lease", daemon=True)
    beat.start()
    try:
        yield lost
    finally:
        done.set()
        beat.join()


def finished(job_id: int) -> None:
    """A job is done: delete the PDFs it supersedes, let old ones expire."""
    job = PrintJob.objects.only("tournament_id", "document", "created_at").filter(pk=job_id).first()
    if job is None:
        return  # superseded itself while it rendered
    same = PrintJob.objects.filter(tournament_id=job.tournament_id, document=job.document)
    older = same.filter(created_at__lte=job.created_at).exclude(pk=job_id)
    older.filter(status__in=[PrintJob.Status.DONE, PrintJob.Status.FAILED]).delete()
    prune()


def prune(days: int | None = None) -> int:
    """Delete print jobs older than ``days`` (``SPADES_PRINT_KEEP_DAYS`` by default) but those a
    worker is rendering, and the task queue's records of renders finished before then; how many
    print jobs were deleted."""
    keep = settings.SPADES_PRINT_KEEP_DAYS if days is None else days
    cutoff = timezone.now() - datetime.timedelta(days=keep)
    old = PrintJob.objects.filter(created_at__lt=cutoff)
    deleted, _ = old.exclude(Q(status=PrintJob.Status.RENDERING) & ~PrintJob.lease_expired()).delete()
    renders = DBTaskResult.objects.finished().filter(task_path=render_print_job.module_path, finished_at__lt=cutoff)
    renders.delete()
    return deleted
