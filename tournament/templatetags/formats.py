"""What the event's format adds to the director's pages (see :mod:`tournament.formats`)."""

from django import template

from tournament.formats.registry import Nav, format_of
from tournament.models import Tournament

register = template.Library()


@register.simple_tag
def format_tabs(tournament: Tournament) -> list[Nav]:
    """The tabs where the format runs play: a progressive event's current round, the bracket, the league."""
    return format_of(tournament).tabs(tournament)


@register.filter
def format_label(tournament: Tournament) -> str:
    """The name of the format ``tournament`` is played in, as the tournament form offers it."""
    return format_of(tournament).label
