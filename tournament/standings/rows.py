"""A standings row: what every format's places are made of (see
:meth:`tournament.formats.registry.EventFormat.standings`), and what prizes are awarded from; and
a team's line in a format's own table."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from tournament.standings.ranking import Standing

R = TypeVar("R")


@dataclass(frozen=True)
class StandingRow:
    standing: Standing[int]
    name: str
    division: str
    withdrawn: bool


@dataclass(frozen=True)
class TeamLine(Generic[R]):
    """One team's line in a format's table (a Swiss event's standings, a league table): its ranked
    row, its name, and a note when it joined late or withdrew."""

    row: R
    name: str
    note: str
    withdrawn: bool
