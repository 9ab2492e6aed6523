"""A game's chart: each side's running score after each hand, for the director's game page, the
phone once the game is over and the printed sheet of a played game."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from scoring import words
from tournament.charts.svg import Chart, Series


def game_chart(scored: Iterable[tuple[int, int, int]], *, ns: str, ew: str, table: int | None) -> Chart | None:
    """The chart of a game whose scored hands are ``scored`` (hand number, North–South's score
    and East–West's after it, in order; a misdeal scores nothing and is left out by the caller),
    its sides' players ``ns`` and ``ew``; None before a hand is scored."""
    hands = list(scored)
    if not hands:
        return None
    labels = tuple(f"H{number}" for number, _, _ in hands)
    last, ns_last, ew_last = hands[-1]
    where = f"Table {table}" if table else "This table"
    return Chart(
        title=f"{where}: the score after each hand",
        description=(
            f"North–South ({ns}) and East–West ({ew}), their running scores over {len(hands)} "
            f"hand{'' if len(hands) == 1 else 's'}: after hand {last}, "
            f"{words.number(ns_last)} to {words.number(ew_last)}."
        ),
        x_labels=labels,
        series=(
            Series(f"North–South: {ns}", tuple(float(n) for _, n, _ in hands)),
            Series(f"East–West: {ew}", tuple(float(e) for _, _, e in hands)),
        ),
        x_title="Hand",
        y_title="Score",
    )


def sheet_chart(sheet: dict[str, Any], table: int | None) -> Chart | None:
    """:func:`game_chart` of a game's sheet as :func:`tournament.play.board.game_sheet` makes it."""
    scored = ((row.hand.number, row.result.teams[0].score, row.result.teams[1].score)
              for row in sheet["rows"] if row.result is not None)  # fmt: skip
    return game_chart(scored, ns=sheet["sides"]["NS"], ew=sheet["sides"]["EW"], table=table)
