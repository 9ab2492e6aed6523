"""Season points as pages show them (exact fractions, see :func:`tournament.seasons.points.show`)."""

from django import template

from tournament.models import ordinal
from tournament.seasons.points import show

register = template.Library()


@register.filter(name="season_points")
def season_points(value: object) -> str:
    return show(value)  # type: ignore[arg-type]


@register.filter(name="place")
def place(value: int) -> str:
    """A place as words say it: 1st, 2nd, 11th, 22nd."""
    return ordinal(value)
