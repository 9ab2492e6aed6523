"""``{% if request|may_open:"fees" %}``, ``{% if request|may_print:"payouts" %}``: a link to a director
page or document only for those who may open it."""

from django import template
from django.http import HttpRequest

from tournament import access

register = template.Library()


@register.filter
def may_open(request: HttpRequest, page: str) -> bool:
    """Whether this request's user may open director page ``page`` of the tournament shown (its
    role was read when the page was checked, see :func:`tournament.pages.director_required`)."""
    return access.may_open(getattr(request, "role", ""), page)


@register.filter
def may_print(request: HttpRequest, document: str) -> bool:
    """Whether this request's user may print ``document`` (a document name) of the tournament shown:
    money documents are the director's, like the pages they come from."""
    return access.may_open(getattr(request, "role", ""), "print_document", {"name": document})
