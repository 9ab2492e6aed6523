"""Printing: the list of documents and recent prints, and each document as a PDF, rendered by the
print worker (queued, rendering with its progress, ready, or failed with a retry)."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from tournament.formats.registry import format_of
from tournament.models import PrintJob, Round, Tournament
from tournament.pages import director_required, render_page, round_or_404, tournament_or_404, whole_number
from tournament.play.links import base_url, unreachable_by_phones
from tournament.printing import jobs
from tournament.printing.catalog import ROUND_DOCUMENTS, event_document


def _pdf_response(job: PrintJob) -> HttpResponse:
    response = HttpResponse(bytes(job.pdf), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{job.document}.pdf"'
    return response


def _job_context(tournament: Tournament, job: PrintJob) -> dict:
    missing = jobs.worker_missing(job)
    return {"tournament": tournament, "job": job, "worker_missing": missing,
            "worker_seen": jobs.worker_last_seen() if missing else None}  # fmt: skip


@director_required
@require_GET
def documents(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = tournament_or_404(tournament_id)
    event_format = format_of(tournament)
    rounds = list(tournament.rounds.order_by("number"))
    for round_ in rounds:
        round_.title = event_format.round_title(round_)
    recent = [jobs.look_after(job) for job in tournament.print_jobs.defer("pdf", "html")[:10]]
    missing = any(jobs.worker_missing(job) for job in recent)
    context = {"tournament": tournament, "event_format": event_format,
               "format_documents": event_format.documents(tournament),
               "rounds": [r for r in rounds if r.status != Round.Status.CLOSED],
               "finished": [r for r in reversed(rounds) if r.status == Round.Status.CLOSED],
               "jobs": recent, "worker_missing": missing, "worker_seen": jobs.worker_last_seen() if missing else None,
               "unreachable": unreachable_by_phones(base_url(request))}  # fmt: skip
    return render(request, "director/print.html", context)


@director_required
@require_GET
def document(request: HttpRequest, tournament_id: int, name: str) -> HttpResponse:
    tournament = tournament_or_404(tournament_id)
    if name in ROUND_DOCUMENTS:
        round_ = round_or_404(tournament, whole_number(request.GET.get("round")))
        doc = ROUND_DOCUMENTS[name](round_, base_url(request))
    else:
        doc = event_document(tournament, name, base_url(request))
    if doc is None:
        raise Http404("No such document.")
    job = jobs.produce(tournament, doc)
    if job.status == PrintJob.Status.DONE:
        return _pdf_response(job)
    return render(request, "director/print_job.html", _job_context(tournament, job), status=202)


@director_required
@require_GET
def job_status(request: HttpRequest, tournament_id: int, job_id: int) -> HttpResponse:
    tournament = tournament_or_404(tournament_id)
    job = jobs.look_after(get_object_or_404(PrintJob.objects.defer("pdf", "html"), pk=job_id, tournament=tournament))
    if job.status == PrintJob.Status.DONE:
        target = reverse("director:print_job_pdf", args=[tournament.pk, job.pk])
        if request.htmx:
            response = HttpResponse(status=200)
            response["HX-Redirect"] = target
            return response
        return redirect(target)
    return render_page(request, "director/print_job.html", "progress", _job_context(tournament, job))


@director_required
@require_POST
def job_retry(request: HttpRequest, tournament_id: int, job_id: int) -> HttpResponse:
    tournament = tournament_or_404(tournament_id)
    job = get_object_or_404(PrintJob.objects.defer("pdf", "html"), pk=job_id, tournament=tournament)
    jobs.retry(job)
    return redirect("director:print_job", tournament.pk, job.pk)


@director_required
@require_GET
def job_pdf(request: HttpRequest, tournament_id: int, job_id: int) -> HttpResponse:
    tournament = tournament_or_404(tournament_id)
    job = get_object_or_404(PrintJob, pk=job_id, tournament=tournament, status=PrintJob.Status.DONE)
    return _pdf_response(job)
