"""``{% if request|may_open:"fees" %}``: a link to a director page only for those who may open it."""

from django import template
from django.http import HttpRequest

from tournament import access

register = template.Library()


@register.filter
def may_open(request: HttpRequest, page: str) -> bool:
    """Whether this request's user may open director page ``page`` of the tournament shown (its
    role was read when the page was checked, see :func:`tournament.pages.director_required`)."""
    return access.may_open(getattr(request, "role", ""), page)
