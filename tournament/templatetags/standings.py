"""Standings cells, built in Python: a 400-player table has 3,200 of them and the template
loop alone cost most of the page's time."""

from django import template
from django.utils.html import format_html_join
from django.utils.safestring import SafeString

from tournament.standings import Standing

register = template.Library()


@register.filter
def round_cells(standing: Standing) -> SafeString:
    """One ``<td>`` per round of the event: the points (* when sat out), blank if not played."""
    return format_html_join(
        "",
        '<td class="num round-col">{}{}</td>',
        (("", "") if s is None else (s.points, "*" if s.sat_out else "") for s in standing.rounds),
    )
