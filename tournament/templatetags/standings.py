"""Standings rows and the projector's tables, built in Python: a 400-player table has 400 rows
and 3,200 round cells, and the template loop alone cost most of the page's time (see
bench/tournament_scale.py); a national round has 1,000 tables."""

from collections.abc import Collection, Iterable
from html import escape  # Django's, less its lazy-text check and SafeString: 4,000 names a page

from django import template
from django.utils.safestring import SafeString, mark_safe

from tournament.models import Game
from tournament.standings.ranking import RoundScore, Standing, round_mark, round_note, round_notes
from tournament.standings.rows import StandingRow
from tournament.templatetags.wording import score

register = template.Library()


@register.filter
def round_cells(standing: Standing) -> SafeString:
    """One ``<td>`` per round of the event: the points (a true minus sign; * when sat out, † when
    an extra hand broke a tie, its note as the cell's title), blank if not played."""
    return mark_safe(_round_cells(standing.rounds, _Cells()))  # numbers, and notes escaped


@register.filter
def standing_notes(rows: Iterable[StandingRow]) -> list[str]:
    """What the marks in ``rows``' round cells stand for, a line a round and note
    (:func:`tournament.standings.ranking.round_notes`)."""
    return round_notes(row.standing.rounds for row in rows)


class _Cells(dict):
    """Round cells' HTML by what they show: the points, or the RoundScore itself when it has a
    note, or None for a round not played. Each is written on first asking and kept for the next
    line: 4,000 lines of 8 rounds hold few different cells."""

    def __missing__(self, key: int | RoundScore | None) -> str:
        if key is None:
            cell = '<td class="num round-col"></td>'
        elif isinstance(key, RoundScore):
            note = escape(round_note(key))
            cell = f'<td class="num round-col" title="{note}">{score(key.points)}{round_mark(key)}</td>'
        else:
            cell = f'<td class="num round-col">{score(key)}</td>'
        self[key] = cell
        return cell


def _round_cells(rounds: Iterable[RoundScore | None], cells: _Cells) -> str:
    """The cells of :func:`round_cells`, written by ``cells``."""
    return "".join([cells[None if r is None else r if r.sat_out or r.tie_hand else r.points] for r in rounds])


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
