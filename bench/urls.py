"""The app's URLs and ``/bench/write/``: a bare view doing one database write (the baseline)."""

from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.urls import include, path
from django.views.decorators.http import require_POST


@require_POST
def write(request: HttpRequest) -> HttpResponse:
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO bench_write (note) VALUES (%s)", ["x"])
    return HttpResponse("ok")


urlpatterns = [path("bench/write/", write), path("", include("tournament.urls"))]
