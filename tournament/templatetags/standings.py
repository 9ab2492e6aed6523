"""Standings rows, built in Python: a 400-player table has 400 rows and 3,200 round cells, and
the template loop alone cost most of the page's time (see bench/tournament_scale.py)."""

from collections.abc import Collection, Iterable

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from tournament.reports import StandingRow
from tournament.standings import RoundScore, Standing
from tournament.templatetags.wording import score

register = template.Library()


@register.filter
def round_cells(standing: Standing) -> SafeString:
    """One ``<td>`` per round of the event: the points (* when sat out; a true minus sign), blank if not played."""
    return mark_safe(_round_cells(standing.rounds, {}))  # numbers only


def _round_cells(rounds: Iterable[RoundScore | None], written: dict[tuple[int, bool] | None, str]) -> str:
    """The cells of :func:`round_cells`; ``written`` keeps each cell's HTML by what it shows (the
    points and whether they were sat out; None for a round not played), for the next line: 4,000
    lines of 8 rounds hold few different cells."""
    html = []
    for r in rounds:
        key = None if r is None else (r.points, r.sat_out)
        cell = written.get(key)
        if cell is None:
            text = "" if r is None else f"{score(r.points)}{'*' if r.sat_out else ''}"
            cell = written[key] = f'<td class="num round-col">{text}</td>'
        html.append(cell)
    return "".join(html)


@register.filter
def standing_rows(rows: Iterable[StandingRow], prize_divisions: Collection[str] = ()) -> SafeString:
    """One ``<tr>`` per entrant: rank, name (its division when a division prize names it;
    withdrawn), points, rounds won, then one cell per round of the event with its points (* when
    sat out), blank if not played."""
    html: list[str] = []
    written: dict[tuple[int, bool] | None, str] = {}
    for row in rows:
        s = row.standing
        name = escape(row.name)
        if row.division and row.division in prize_divisions:
            name += f' <small class="muted">{escape(row.division)}</small>'
        if row.withdrawn:
            name += ' <small class="muted">(withdrawn)</small>'
        cells = _round_cells(s.rounds, written)
        opening = '<tr class="withdrawn">' if row.withdrawn else "<tr>"
        html.append(
            opening
            + f'<td class="num">{int(s.rank)}</td><td>{name}</td><td class="num"><strong>{score(s.total)}</strong></td>'
            f'<td class="num">{int(s.rounds_won)}</td>{cells}</tr>'
        )
    return mark_safe("\n".join(html))  # every value above is escaped, or a number
