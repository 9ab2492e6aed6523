"""Standings rows and the projector's tables, built in Python: a 400-player table has 400 rows
and 3,200 round cells, and the template loop alone cost most of the page's time (see
bench/tournament_scale.py); a national round has 1,000 tables."""

from collections.abc import Collection, Iterable
from html import escape  # Django's, less its lazy-text check and SafeString: 4,000 names a page

from django import template
from django.utils.safestring import SafeString, mark_safe

from tournament.models import Game
from tournament.standings.ranking import RoundScore, Standing
from tournament.standings.rows import StandingRow
from tournament.templatetags.wording import score

register = template.Library()


@register.filter
def round_cells(standing: Standing) -> SafeString:
    """One ``<td>`` per round of the event: the points (* when sat out; a true minus sign), blank if not played."""
    return mark_safe(_round_cells(standing.rounds, _Cells()))  # numbers only


class _Cells(dict):
    """Round cells' HTML by what they show: the points and whether they were sat out, or None
    for a round not played. Each is written on first asking and kept for the next line: 4,000
    lines of 8 rounds hold few different cells."""

    def __missing__(self, key: tuple[int, bool] | None) -> str:
        text = "" if key is None else f"{score(key[0])}{'*' if key[1] else ''}"
        cell = self[key] = f'<td class="num round-col">{text}</td>'
        return cell


def _round_cells(rounds: Iterable[RoundScore | None], cells: _Cells) -> str:
    """The cells of :func:`round_cells`, written by ``cells``."""
    return "".join([cells[None if r is None else (r.points, r.sat_out)] for r in rounds])


@register.filter
def standing_rows(rows: Iterable[StandingRow], prize_divisions: Collection[str] = ()) -> SafeString:
    """One ``<tr>`` per entrant: rank, name (its division when a division prize names it;
    withdrawn), points, rounds won, then one cell per round of the event with its points (* when
    sat out), blank if not played."""
    html: list[str] = []
    cells = _Cells()
    for row in rows:
        s = row.standing
        name = escape(row.name)
        if row.division and row.division in prize_divisions:
            name += f' <small class="muted">{escape(row.division)}</small>'
        if row.withdrawn:
            name += ' <small class="muted">(withdrawn)</small>'
        line = _round_cells(s.rounds, cells)
        opening = '<tr class="withdrawn">' if row.withdrawn else "<tr>"
        html.append(
            opening
            + f'<td class="num">{int(s.rank)}</td><td>{name}</td><td class="num"><strong>{score(s.total)}</strong></td>'
            f'<td class="num">{int(s.rounds_won)}</td>{line}</tr>'
        )
    return mark_safe("\n".join(html))  # every value above is escaped, or a number


@register.filter
def tables_left(tables: Iterable[tuple[int, str, int]]) -> SafeString:
    """One ``<li>`` per table of the round, given as (table number, game status, hands played):
    the table and its game's state (done, tied, or the hand being played)."""
    finished, tied = Game.Status.FINISHED, Game.Status.TIED
    return mark_safe(  # every value is escaped, or a number
        "".join(
            f'<li class="state-{escape(status)}">Table {int(number)} · '
            f"{'done' if status == finished else 'tied' if status == tied else f'hand {int(hands) + 1}'}</li>"
            for number, status, hands in tables
        )
    )
