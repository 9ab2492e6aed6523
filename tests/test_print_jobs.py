"""Print jobs: queued for the print worker (never rendered in a request), rendered under a lease
that another worker takes over when it runs out, failed jobs retried, the print pages in every
state, and the database kept small (superseded PDFs deleted, old ones expire).

Most tests here queue on the real database backend (``db``), where nothing runs until a worker
does; the worker's step is called as the worker calls it. tests/test_print_worker.py runs real
``db_worker`` processes."""

import datetime
import time

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from tests.conftest import a_club, make_tournament
from tournament.models import PrintJob
from tournament.printing import jobs, pdf
from tournament.printing.catalog import EVENT_DOCUMENTS
from tournament.printing.jobs import finished, look_after, render_print_job
from tournament.teams.services import register_team

pytestmark = pytest.mark.django_db


@pytest.fixture
def db_queue(settings):
    """The production task backend: a print waits in the database for a worker."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


def _standings_url(tournament) -> str:
    return reverse("director:print_document", args=[tournament.pk, "standings"])


def _status_url(job) -> str:
    return reverse("director:print_job", args=[job.tournament_id, job.pk])


def _job(tournament, status=PrintJob.Status.QUEUED, **fields) -> PrintJob:
    document = EVENT_DOCUMENTS["standings"](tournament, None)
    chunks = pdf.render_html_chunks(document.template, document.contexts)
    fields = {"document": "standings", "title": "Standings", "key": f"{status}-{len(fields)}", "html": chunks,
              "chunks_total": len(chunks), **fields}  # fmt: skip
    return PrintJob.objects.create(tournament=tournament, status=status, **fields)


def _ago(seconds: float) -> datetime.datetime:
    return timezone.now() - datetime.timedelta(seconds=seconds)


# --- queued, not rendered in the request --------------------------------------------------------------


def test_a_print_is_queued_for_the_worker_and_not_rendered_in_the_request(director_client, tournament, db_queue):
    response = director_client.get(_standings_url(tournament))
    assert response.status_code == 202 and b"Waiting for the print worker" in response.content
    job = PrintJob.objects.get()
    assert job.status == PrintJob.Status.QUEUED and job.pdf is None
    task = DBTaskResult.objects.get()
    assert task.status == "READY" and task.args_kwargs["args"] == [job.pk]
    assert director_client.get(_standings_url(tournament)).status_code == 202  # the same job, not a second
    assert (PrintJob.objects.count(), DBTaskResult.objects.count()) == (1, 1)


def test_the_worker_renders_a_queued_job_and_the_status_page_then_opens_the_pdf(director_client, tournament, db_queue):
    director_client.get(_standings_url(tournament))
    job = PrintJob.objects.get()
    render_print_job.call(job.pk)
    job.refresh_from_db()
    assert job.status == PrintJob.Status.DONE and job.chunks_done == job.chunks_total and job.html == []
    assert job.lease_until is None
    polled = director_client.get(_status_url(job), HTTP_HX_REQUEST="true")
    assert polled["HX-Redirect"] == reverse("director:print_job_pdf", args=[tournament.pk, job.pk])
    assert director_client.get(_status_url(job))["Location"] == polled["HX-Redirect"]
    again = director_client.get(_standings_url(tournament))  # unchanged: opens at once from the kept PDF
    assert again.status_code == 200 and again.content.startswith(b"%PDF")


def test_a_job_no_longer_queued_is_left_alone_by_a_second_task(tournament):
    job = _job(tournament, status=PrintJob.Status.RENDERING, lease_owner="a" * 32, lease_until=_ago(-60))
    render_print_job.call(job.pk)
    render_print_job.call(999_999)  # superseded and deleted: nothing to do, nothing raised
    job.refresh_from_db()
    assert job.status == PrintJob.Status.RENDERING and job.lease_owner == "a" * 32


# --- no worker seen -----------------------------------------------------------------------------------


def test_a_job_waiting_with_no_worker_ever_seen_says_to_start_one(director_client, tournament, db_queue):
    job = _job(tournament, queued_at=_ago(10))
    page = director_client.get(_status_url(job)).content.decode()
    assert "No print worker has been seen yet: start it with <code>manage.py db_worker</code>" in page
    assert "<code>make run</code> starts it" in page
    print_page = director_client.get(reverse("director:print", args=[tournament.pk])).content.decode()
    assert "No print worker has been seen yet" in print_page


def test_a_job_waiting_since_the_worker_was_last_seen_minutes_ago_says_how_long(director_client, tournament, db_queue):
    render_print_job.enqueue(0)
    DBTaskResult.objects.update(status="SUCCESSFUL", started_at=_ago(200), finished_at=_ago(185))
    job = _job(tournament, queued_at=_ago(10))
    assert "No print worker has been seen for 3\xa0minutes" in director_client.get(_status_url(job)).content.decode()


def test_a_job_just_queued_or_behind_a_working_worker_says_nothing_of_a_missing_worker(director_client, tournament):
    fresh = _job(tournament, queued_at=_ago(1))
    assert "No print worker" not in director_client.get(_status_url(fresh)).content.decode()
    waiting = _job(tournament, queued_at=_ago(30), key="waiting")
    _job(tournament, PrintJob.Status.RENDERING, key="busy", lease_until=timezone.now() + datetime.timedelta(seconds=5))
    assert jobs.worker_missing(waiting) is False  # a worker busy with a long chunk still holds its lease
    assert "No print worker" not in director_client.get(_status_url(waiting)).content.decode()


# --- the lease ----------------------------------------------------------------------------------------


def test_a_rendering_job_whose_lease_ran_out_is_queued_again_by_exactly_one_of_two_servers(tournament, db_queue):
    job = _job(tournament, status=PrintJob.Status.RENDERING, lease_owner="dead" * 8, lease_until=_ago(1), chunks_done=1)
    other_server_view = PrintJob.objects.get(pk=job.pk)
    assert look_after(job).status == PrintJob.Status.QUEUED
    assert look_after(other_server_view).status == PrintJob.Status.QUEUED
    assert DBTaskResult.objects.count() == 1  # queued once, by the first
    job.refresh_from_db()
    assert (job.chunks_done, job.lease_owner, job.lease_until) == (0, "", None)
    render_print_job.call(job.pk)  # another worker
    job.refresh_from_db()
    assert job.status == PrintJob.Status.DONE and bytes(job.pdf).startswith(b"%PDF")


def test_a_status_poll_takes_over_a_job_whose_worker_stopped(director_client, tournament, db_queue):
    job = _job(tournament, status=PrintJob.Status.RENDERING, lease_until=None)  # left by the old in-server renderer
    page = director_client.get(_status_url(job)).content.decode()
    assert "Waiting for the print worker" in page
    assert PrintJob.objects.get(pk=job.pk).status == PrintJob.Status.QUEUED and DBTaskResult.objects.count() == 1


def test_a_job_under_a_live_lease_is_left_to_its_worker(director_client, tournament, db_queue):
    job = _job(tournament, status=PrintJob.Status.RENDERING, lease_owner="b" * 32,
               lease_until=timezone.now() + datetime.timedelta(seconds=30), chunks_done=1, chunks_total=2)  # fmt: skip
    page = director_client.get(_status_url(job)).content.decode()
    assert "Rendering the PDF: 1 of 2 parts done" in page and 'hx-trigger="every 1s"' in page
    job.refresh_from_db()
    assert job.status == PrintJob.Status.RENDERING and job.lease_owner == "b" * 32
    assert DBTaskResult.objects.count() == 0


def test_each_finished_chunk_renews_the_lease(tournament, monkeypatch):
    job = _job(tournament)
    seen = []

    def two_chunks(chunks, on_progress=None):
        for done in (1, 2):
            on_progress(done)
            seen.append(PrintJob.objects.values_list("chunks_done", "lease_until").get(pk=job.pk))
        return b"%PDF-1.7"

    monkeypatch.setattr(pdf, "pdf_from_chunks", two_chunks)
    render_print_job.call(job.pk)
    assert [done for done, _ in seen] == [1, 2]
    assert all(until > timezone.now() + datetime.timedelta(seconds=50) for _, until in seen)


def test_a_worker_that_lost_its_lease_stops_without_touching_the_new_owners_job(tournament, monkeypatch):
    job = _job(tournament)

    def taken_over_meanwhile(chunks, on_progress=None):
        PrintJob.objects.filter(pk=job.pk).update(lease_owner="new" + "0" * 29, chunks_done=0)
        on_progress(1)
        return b"%PDF-stale"

    monkeypatch.setattr(pdf, "pdf_from_chunks", taken_over_meanwhile)
    render_print_job.call(job.pk)
    job.refresh_from_db()
    assert job.status == PrintJob.Status.RENDERING and job.pdf is None and job.lease_owner.startswith("new")


@pytest.mark.django_db(transaction=True)  # the worker renews its lease from a thread, on a connection of its own
def test_a_worker_keeps_its_lease_while_a_chunk_slower_than_the_lease_renders(
    tournament, settings, monkeypatch, db_queue
):
    settings.SPADES_PRINT_LEASE_SECONDS = 1
    job = _job(tournament)
    polled = []

    def slow_chunk(html):
        time.sleep(1.6)  # past the lease taken as the chunk began
        polled.append(look_after(PrintJob.objects.defer("pdf", "html").get(pk=job.pk)))  # a status poll meanwhile
        return b"%PDF-1.7 slow"

    monkeypatch.setattr(pdf, "html_to_pdf", slow_chunk)
    render_print_job.call(job.pk)
    assert polled[0].status == PrintJob.Status.RENDERING and polled[0].lease_until > timezone.now()
    job.refresh_from_db()
    assert job.status == PrintJob.Status.DONE and bytes(job.pdf) == b"%PDF-1.7 slow"
    assert DBTaskResult.objects.count() == 0  # never queued again for another worker


# --- a queued job whose task was lost -----------------------------------------------------------------


def _task_of(job, **fields) -> DBTaskResult:
    render_print_job.enqueue(job.pk)
    task = DBTaskResult.objects.filter(args_kwargs__args=[job.pk]).latest("enqueued_at")
    DBTaskResult.objects.filter(pk=task.pk).update(**fields)
    return task


def test_a_queued_job_whose_worker_died_before_its_lease_is_queued_again_by_exactly_one_server(tournament, db_queue):
    job = _job(tournament, queued_at=_ago(120))
    _task_of(job, status="RUNNING", started_at=_ago(110))  # the worker took the task, then died
    other_server_view = PrintJob.objects.get(pk=job.pk)
    assert look_after(job).queued_at > _ago(5)
    new = DBTaskResult.objects.get(status="READY")
    assert new.args_kwargs["args"] == [job.pk]
    DBTaskResult.objects.filter(pk=new.pk).update(status="FAILED")  # so only the job's row can stop the second
    look_after(other_server_view)
    assert DBTaskResult.objects.count() == 2  # queued again once, by the first
    render_print_job.call(job.pk)
    assert PrintJob.objects.get(pk=job.pk).status == PrintJob.Status.DONE


def test_a_status_poll_queues_again_a_job_whose_task_failed_before_it_started(director_client, tournament, db_queue):
    job = _job(tournament, queued_at=_ago(120))
    _task_of(job, status="FAILED", started_at=_ago(110), finished_at=_ago(110))
    assert "Waiting for the print worker" in director_client.get(_status_url(job)).content.decode()
    assert DBTaskResult.objects.filter(status="READY", args_kwargs__args=[job.pk]).count() == 1


def test_a_queued_job_with_a_task_waiting_or_just_taken_or_queued_lately_is_left_alone(tournament, db_queue):
    waiting = _job(tournament, queued_at=_ago(120), key="waiting")
    _task_of(waiting)  # no worker free yet: the task waits its turn
    taken = _job(tournament, queued_at=_ago(120), key="taken")
    _task_of(taken, status="RUNNING", started_at=_ago(2))  # a worker is about to take its lease
    fresh = _job(tournament, queued_at=_ago(10), key="fresh")  # its task is not in the table yet
    orphan = _job(tournament, queued_at=_ago(120), key="orphan")  # another job's live task is not its own
    before = {job.pk: job.queued_at for job in (waiting, taken, fresh, orphan)}
    requeued = [look_after(job).queued_at != before[job.pk] for job in (waiting, taken, fresh, orphan)]
    assert requeued == [False, False, False, True]
    assert DBTaskResult.objects.count() == 3 and DBTaskResult.objects.filter(args_kwargs__args=[orphan.pk]).exists()


# --- failed, retried ----------------------------------------------------------------------------------


def test_a_failed_render_shows_its_error_and_a_retry_renders_it_again(director_client, tournament, monkeypatch):
    def broken(chunks, on_progress=None):
        raise ValueError("font missing")

    real = pdf.pdf_from_chunks
    monkeypatch.setattr(pdf, "pdf_from_chunks", broken)
    response = director_client.get(_standings_url(tournament))
    job = PrintJob.objects.get()
    assert job.status == PrintJob.Status.FAILED and job.error == "font missing"
    page = response.content.decode()
    retry = reverse("director:print_job_retry", args=[tournament.pk, job.pk])
    assert "Rendering failed: font missing" in page and f'action="{retry}"' in page and "Try again" in page
    assert "hx-trigger" not in page  # nothing more to wait for
    monkeypatch.setattr(pdf, "pdf_from_chunks", real)
    assert director_client.post(retry)["Location"] == _status_url(job)
    job.refresh_from_db()
    assert job.status == PrintJob.Status.DONE and job.error == ""


def test_a_retry_of_a_job_that_is_not_failed_changes_nothing(director_client, tournament, db_queue):
    job = _job(tournament, status=PrintJob.Status.DONE, pdf=b"%PDF")
    assert director_client.post(reverse("director:print_job_retry", args=[tournament.pk, job.pk])).status_code == 302
    assert PrintJob.objects.get(pk=job.pk).status == PrintJob.Status.DONE and DBTaskResult.objects.count() == 0


def test_a_failed_document_asked_for_again_is_queued_afresh(director_client, tournament, db_queue):
    director_client.get(_standings_url(tournament))
    PrintJob.objects.update(status=PrintJob.Status.FAILED, error="worker ran out of memory")
    assert director_client.get(_standings_url(tournament)).status_code == 202
    assert PrintJob.objects.get().status == PrintJob.Status.QUEUED and DBTaskResult.objects.count() == 2


# --- the pages ----------------------------------------------------------------------------------------


def test_the_print_page_lists_recent_prints_in_each_state(director_client, tournament):
    _job(tournament, title="Queued one", queued_at=_ago(1))
    _job(tournament, PrintJob.Status.RENDERING, title="Half done", key="r", chunks_done=1, chunks_total=2,
         lease_until=timezone.now() + datetime.timedelta(seconds=30))  # fmt: skip
    done = _job(tournament, PrintJob.Status.DONE, title="Ready one", key="d", pdf=b"%PDF")
    failed = _job(tournament, PrintJob.Status.FAILED, title="Broken one", key="f", error="font missing")
    page = director_client.get(reverse("director:print", args=[tournament.pk])).content.decode()
    assert "Recent prints" in page and "Waiting for the print worker" in page and "Rendering 50%" in page
    assert f'href="{reverse("director:print_job_pdf", args=[tournament.pk, done.pk])}">Ready one</a>' in page
    assert f'href="{_status_url(failed)}">Broken one</a>' in page and "Failed: font missing" in page
    assert "No print worker" not in page


def test_the_progress_polls_as_a_fragment_and_opened_directly_is_the_whole_page(director_client, tournament):
    job = _job(tournament, PrintJob.Status.RENDERING, lease_until=timezone.now() + datetime.timedelta(seconds=30))
    fragment = director_client.get(_status_url(job), HTTP_HX_REQUEST="true").content.decode()
    assert fragment.lstrip().startswith('<div id="print-progress"') and 'hx-trigger="every 1s"' in fragment
    assert "<html" not in fragment
    page = director_client.get(_status_url(job)).content.decode()
    assert "<html" in page and "css/app.css" in page and "0 of 1 parts done" in page


def test_print_job_pages_refuse_the_wrong_method(director_client, tournament):
    job = _job(tournament, PrintJob.Status.FAILED, error="x")
    assert director_client.post(_status_url(job)).status_code == 405
    assert director_client.post(_standings_url(tournament)).status_code == 405
    assert director_client.get(reverse("director:print_job_retry", args=[tournament.pk, job.pk])).status_code == 405
    assert PrintJob.objects.get(pk=job.pk).status == PrintJob.Status.FAILED


def test_print_job_pages_answer_404_for_a_missing_job(director_client, tournament):
    for name in ("print_job", "print_job_pdf", "print_job_retry"):
        url = reverse(f"director:{name}", args=[tournament.pk, 999_999])
        response = director_client.post(url) if name == "print_job_retry" else director_client.get(url)
        assert response.status_code == 404, name
    queued = _job(tournament)
    assert director_client.get(reverse("director:print_job_pdf", args=[tournament.pk, queued.pk])).status_code == 404


def test_another_clubs_print_jobs_answer_404(client, django_user_model, tournament):
    user = django_user_model.objects.create_user("other", password="a-long-password-1", is_staff=True)
    a_club("Other club").members.create(user=user, role="owner")
    client.force_login(user)
    job = _job(tournament, PrintJob.Status.FAILED, error="x")
    for name in ("print_job", "print_job_pdf"):
        assert client.get(reverse(f"director:{name}", args=[tournament.pk, job.pk])).status_code == 404, name
    assert client.post(reverse("director:print_job_retry", args=[tournament.pk, job.pk])).status_code == 404
    assert PrintJob.objects.get(pk=job.pk).status == PrintJob.Status.FAILED
    mine = make_tournament(couples=2, club=a_club("Other club"))
    assert client.get(reverse("director:print_job", args=[mine.pk, job.pk])).status_code == 404  # not this event's


# --- keeping the database small -----------------------------------------------------------------------


def test_a_new_pdf_of_a_document_deletes_the_one_it_supersedes(director_client, tournament):
    director_client.get(_standings_url(tournament))
    first = PrintJob.objects.get()
    director_client.get(reverse("director:print_document", args=[tournament.pk, "rules"]))
    register_team(tournament=tournament, names=["Late", "Comer"])
    response = director_client.get(_standings_url(tournament))
    assert response.status_code == 200 and response.content.startswith(b"%PDF")
    documents = sorted(PrintJob.objects.values_list("document", flat=True))
    assert documents == ["rules", "standings"]
    assert not PrintJob.objects.filter(pk=first.pk).exists()
    assert PrintJob.objects.get(document="standings").html == []  # the HTML is dropped once done


def test_old_pdfs_expire_by_command_and_when_a_job_finishes(director_client, tournament, capsys):
    old = timezone.now() - datetime.timedelta(days=4)
    for name in ("a", "b"):
        PrintJob.objects.create(tournament=tournament, document=name, title=name, key=name, created_at=old,
                                status=PrintJob.Status.DONE, pdf=b"%PDF")  # fmt: skip
    PrintJob.objects.create(tournament=tournament, document="c", title="c", key="c", status=PrintJob.Status.DONE)
    PrintJob.objects.create(tournament=tournament, document="e", title="e", key="e", created_at=old,
                            status=PrintJob.Status.RENDERING, lease_until=_ago(-60))  # fmt: skip
    call_command("prune_print_jobs", "--days", "5")
    assert PrintJob.objects.count() == 4
    call_command("prune_print_jobs")
    assert "Deleted 2 print jobs older than 3 days." in capsys.readouterr().out  # not the one rendering
    PrintJob.objects.create(tournament=tournament, document="d", title="d", key="d", created_at=old,
                            status=PrintJob.Status.DONE)  # fmt: skip
    director_client.get(_standings_url(tournament))  # a job finishing prunes too
    assert sorted(PrintJob.objects.values_list("document", flat=True)) == ["c", "e", "standings"]


def test_pruning_deletes_the_task_queues_records_of_old_renders_only(tournament, db_queue):
    for _ in range(3):
        render_print_job.enqueue(0)
    old, recent, waiting = DBTaskResult.objects.all()
    DBTaskResult.objects.filter(pk=old.pk).update(status="SUCCESSFUL", finished_at=_ago(4 * 86400))
    DBTaskResult.objects.filter(pk=recent.pk).update(status="SUCCESSFUL", finished_at=_ago(60))
    call_command("prune_print_jobs")
    assert set(DBTaskResult.objects.values_list("pk", flat=True)) == {recent.pk, waiting.pk}


def test_a_job_deleted_while_it_rendered_finishes_quietly(tournament):
    finished(999_999)  # nothing to do, nothing raised
    assert PrintJob.objects.count() == 0
