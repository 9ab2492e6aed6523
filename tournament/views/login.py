"""The page a locked-out login gets (django-axes calls :func:`locked_out`)."""

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone


def locked_out(request: HttpRequest, original_response: Any = None, credentials: Any = None) -> HttpResponse:
    """429 with when to retry. The lock lasts the cool-off from the last failed attempt, so
    now plus the cool-off is the latest moment it ends."""
    cool_off = settings.AXES_COOLOFF_TIME
    context = {
        "failure_limit": settings.AXES_FAILURE_LIMIT,
        "minutes": round(cool_off.total_seconds() / 60),
        "retry_at": timezone.localtime() + cool_off,
    }
    response = render(request, "registration/locked_out.html", context, status=429)
    response["Retry-After"] = str(int(cool_off.total_seconds()))
    return response
