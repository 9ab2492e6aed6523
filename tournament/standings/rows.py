"""A standings row: what every format's places are made of (see
:meth:`tournament.formats.registry.EventFormat.standings`), and what prizes are awarded from."""

from __future__ import annotations

from dataclasses import dataclass

from tournament.standings.ranking import Standing


@dataclass(frozen=True)
class StandingRow:
    standing: Standing[int]
    name: str
    division: str
    withdrawn: bool
