"""Standings over rounds: the place of each of the top entrants after each round (a league's
night) played, from :meth:`tournament.formats.registry.EventFormat.standings_after`."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.safestring import SafeString, mark_safe

from tournament.charts.svg import Chart, Series, line_chart
from tournament.formats.registry import format_of
from tournament.models import Round, Tournament

TOP = 10  # entrants a chart of places follows: more lines than this no one can tell apart
# The plot's size (SVG units) on the public page and the projector, and on a phone held upright.
PLACES_PLOT, PLACES_NARROW = (560, 300), (340, 240)


def places_chart(
    tournament: Tournament, numbers: Sequence[int] | None = None, *, top: int = TOP, through: int | None = None
) -> Chart | None:
    """The places after each of rounds ``numbers`` (default: every closed round, in order, up to
    round ``through`` when given: a public page's rounds held back are not shown) of the ``top``
    entrants best placed after the last of them; None when no round is over or the format's
    places cannot be cut at a round (a knockout's)."""
    event_format = format_of(tournament)
    if numbers is None:
        closed = tournament.rounds.filter(status=Round.Status.CLOSED)
        if through is not None:
            closed = closed.filter(number__lte=through)
        numbers = list(closed.order_by("number").values_list("number", flat=True))
    if not numbers:
        return None
    after = [event_format.standings_after(tournament, number) for number in numbers]
    if any(rows is None for rows in after) or not after[-1]:
        return None
    leaders = after[-1][:top]
    places = [{row.standing.entrant: row.standing.rank for row in rows} for rows in after]
    word = event_format.round_name
    series = tuple(
        Series(
            row.name,
            tuple(None if row.standing.entrant not in at else float(at[row.standing.entrant]) for at in places),
        )
        for row in leaders
    )
    last = numbers[-1]
    return Chart(
        title=f"Places after each {word.lower()}: the top {len(leaders)}",
        description=(
            f"The place after each {word.lower()} of the {len(leaders)} best placed after {word.lower()} {last}, "
            f"1 at the top. First after {word.lower()} {last}: {leaders[0].name}."
        ),
        x_labels=tuple(f"{word[0]}{number}" for number in numbers),
        series=series,
        x_title=word,
        y_title="Place",
        positions=True,
    )


def places_svg(chart: Chart | None, *, narrow: bool = False) -> SafeString:
    """``chart`` drawn at the public page's and projector's size, or ``narrow`` for a phone held
    upright ("" without a chart); safe in a page as it is (:func:`~tournament.charts.svg.line_chart`
    escapes its texts). Made once for every viewer, in the standings' snapshot."""
    width, height = PLACES_NARROW if narrow else PLACES_PLOT
    return mark_safe(line_chart(chart, width=width, height=height) if chart else "")


def places_drawn(
    tournament: Tournament, numbers: Sequence[int] | None = None, *, top: int = TOP, through: int | None = None
) -> dict[str, Chart | SafeString | None]:
    """What a page shows the chart of places with (:func:`places_chart`'s arguments): the chart as
    ``places_chart`` (its text alternative) and its drawings, ``places_svg`` and ``places_narrow``
    (see ``templates/charts/_chart.html``)."""
    chart = places_chart(tournament, numbers, top=top, through=through)
    return {"places_chart": chart, "places_svg": places_svg(chart), "places_narrow": places_svg(chart, narrow=True)}
