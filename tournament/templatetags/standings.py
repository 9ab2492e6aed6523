"""Standings rows, built in Python: a 400-player table has 400 rows and 3,200 round cells, and
the template loop alone cost most of the page's time (see bench/tournament_scale.py)."""

from collections.abc import Collection, Iterable

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from tournament.reports import StandingRow
from tournament.standings import Standing
from tournament.templatetags.wording import score

register = template.Library()


@register.filter
def round_cells(standing: Standing) -> SafeString:
    """One ``<td>`` per round of the event: the points (* when sat out; a true minus sign), blank if not played."""
    return mark_safe(  # numbers only
        "".join(
            '<td class="num round-col"></td>'
            if r is None
            else f'<td class="num round-col">{score(r.points)}{"*" if r.sat_out else ""}</td>'
            for r in standing.rounds
        )
    )


@register.filter
def standing_rows(rows: Iterable[StandingRow], prize_divisions: Collection[str] = ()) -> SafeString:
    """One ``<tr>`` per entrant: rank, name (its division when a division prize names it;
    withdrawn), points, rounds won, then one cell per round of the event with its points (* when
    sat out), blank if not played."""
    html = []
    for row in rows:
        s = row.standing
        name = escape(row.name)
        if row.division and row.division in prize_divisions:
            name += f' <small class="muted">{escape(row.division)}</small>'
        if row.withdrawn:
            name += ' <small class="muted">(withdrawn)</small>'
        cells = round_cells(s)
        opening = '<tr class="withdrawn">' if row.withdrawn else "<tr>"
        html.append(
            opening
            + f'<td class="num">{int(s.rank)}</td><td>{name}</td><td class="num"><strong>{score(s.total)}</strong></td>'
            f'<td class="num">{int(s.rounds_won)}</td>{cells}</tr>'
        )
    return mark_safe("\n".join(html))  # every value above is escaped, or a number
