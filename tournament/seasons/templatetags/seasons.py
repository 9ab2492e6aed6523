"""Season points as pages show them (exact fractions, see :func:`tournament.seasons.points.show`)."""

from django import template
from django.utils.safestring import SafeString, mark_safe

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


@register.filter(name="season_cells")
def season_cells(cells: tuple) -> SafeString:
    """A season line's event cells (a ``<td>`` an event: its points over its place; "–" where not
    played; an event best N leaves out in brackets), built here rather than by a template loop: a
    club's season has some 300 lines of 25 events, which the loop took most of a second over."""
    out = []
    for cell in cells:
        if cell is None:
            out.append('<td class="num">–</td>')
            continue
        points = show(cell.points) if cell.counted else f"({show(cell.points)})"
        dropped = "" if cell.counted else " dropped"
        out.append(f'<td class="num{dropped}">{points}<br><small class="muted">{ordinal(cell.place)}</small></td>')
    # Safe: numbers and ordinals only, nothing anyone typed.
    return mark_safe("".join(out))
