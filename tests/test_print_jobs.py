"""Print jobs keep the database small (superseded PDFs deleted, old ones expire) and survive a
worker that stops mid-render (noticed and rendered again, by whichever server sees it first)."""

import datetime
import time

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from tests.conftest import make_tournament
from tournament.models import PrintJob
from tournament.printing.catalog import EVENT_DOCUMENTS
from tournament.printing.jobs import claim, finished, is_stale
from tournament.printing.pdf import render_html_chunks
from tournament.teams.services import register_team


def _standings_url(tournament) -> str:
    return reverse("director:print_document", args=[tournament.pk, "standings"])


@pytest.mark.django_db
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


@pytest.mark.django_db
def test_old_pdfs_expire_by_command_and_when_a_job_finishes(director_client, tournament, capsys):
    old = timezone.now() - datetime.timedelta(days=4)
    for name in ("a", "b"):
        PrintJob.objects.create(tournament=tournament, document=name, title=name, key=name, created_at=old,
                                status=PrintJob.Status.DONE, pdf=b"%PDF")  # fmt: skip
    PrintJob.objects.create(tournament=tournament, document="c", title="c", key="c", status=PrintJob.Status.DONE)
    call_command("prune_print_jobs", "--days", "5")
    assert PrintJob.objects.count() == 3
    call_command("prune_print_jobs")
    assert "Deleted 2 print jobs older than 3 days." in capsys.readouterr().out
    PrintJob.objects.create(tournament=tournament, document="d", title="d", key="d", created_at=old,
                            status=PrintJob.Status.DONE)  # fmt: skip
    director_client.get(_standings_url(tournament))  # a job finishing prunes too
    assert sorted(PrintJob.objects.values_list("document", flat=True)) == ["c", "standings"]


def _stopped_job(tournament, *, seconds_silent: int) -> PrintJob:
    document = EVENT_DOCUMENTS["standings"](tournament, None)
    chunks = render_html_chunks(document.template, document.contexts)
    return PrintJob.objects.create(
        tournament=tournament, document="standings", title="Standings", key="k" * 64, html=chunks,
        heartbeat_at=timezone.now() - datetime.timedelta(seconds=seconds_silent),
    )  # fmt: skip


@pytest.mark.django_db(transaction=True)
def test_a_job_whose_process_stopped_is_noticed_and_rendered_again(director_client):
    tournament = make_tournament(couples=4)
    job = _stopped_job(tournament, seconds_silent=120)
    status = reverse("director:print_job", args=[tournament.pk, job.pk])
    assert director_client.get(status).status_code == 200
    for _ in range(300):
        job.refresh_from_db()
        if job.status != PrintJob.Status.RUNNING:
            break
        time.sleep(0.1)
    assert job.status == PrintJob.Status.DONE and bytes(job.pdf).startswith(b"%PDF")
    assert director_client.get(status)["Location"].endswith(f"/print/jobs/{job.pk}/pdf/")


@pytest.mark.django_db
def test_a_job_still_beating_is_left_to_its_own_process(director_client, tournament):
    job = _stopped_job(tournament, seconds_silent=2)
    assert not is_stale(job)
    assert director_client.get(reverse("director:print_job", args=[tournament.pk, job.pk])).status_code == 200
    job.refresh_from_db()
    assert job.status == PrintJob.Status.RUNNING and job.chunks_done == 0


@pytest.mark.django_db
def test_the_progress_polls_as_a_fragment_and_opened_directly_is_the_whole_page(director_client, tournament):
    status = reverse("director:print_job", args=[tournament.pk, _stopped_job(tournament, seconds_silent=2).pk])
    fragment = director_client.get(status, HTTP_HX_REQUEST="true").content.decode()
    assert fragment.lstrip().startswith('<div id="print-progress"') and 'hx-trigger="every 1s"' in fragment
    assert "<html" not in fragment
    page = director_client.get(status).content.decode()
    assert "<html" in page and "css/app.css" in page and "0 of 1 parts done" in page


@pytest.mark.django_db
def test_only_one_server_claims_a_stopped_job(tournament):
    job = _stopped_job(tournament, seconds_silent=120)
    other_server_view = PrintJob.objects.get(pk=job.pk)
    assert claim(job) is True
    assert claim(other_server_view) is False  # its heartbeat is fresh again


@pytest.mark.django_db
def test_a_job_deleted_while_it_rendered_finishes_quietly(tournament):
    finished(999_999)  # nothing to do, nothing raised
    assert PrintJob.objects.count() == 0
