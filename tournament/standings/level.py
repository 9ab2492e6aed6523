"""Tables ranked by a record and then by tiebreaks the director chose (a Swiss event's standings,
a league table): splitting each level group into places and saying how, in words. Pure (no Django).

Each format keeps its own criteria, values and words; this module holds what they share: a
tiebreak that separates some of a level group but not all sends the teams still level through the
tiebreaks again among themselves, head to head first when the director chose it (a smaller group
changes who beat whom; the other tiebreaks already asked are equal within it). Teams still level
after every tiebreak share a place.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from scoring.words import listed, ordinal

T = TypeVar("T", bound=Hashable)
R = TypeVar("R")


class Criterion(Protocol):
    """A tiebreak: its name in a sentence."""

    @property
    def label(self) -> str: ...


C = TypeVar("C", bound=Criterion)


def then_in_order(criteria: Sequence[Criterion]) -> str:
    """The tiebreaks' part of a table's ranking rule: " Then a, b and c, in that order." (or nothing)."""
    return f" Then {listed([c.label for c in criteria])}, in that order." if criteria else ""


@dataclass(frozen=True)
class Splitter(Generic[T, C]):
    """How one table splits a level group: each team's value of a criterion (larger is better),
    that value in words, a team's name, and the head-to-head criterion asked again in a smaller
    group (None when the director did not choose it)."""

    values: Callable[[C, list[T]], dict[T, int]]
    show: Callable[[C, int], str]
    name: Callable[[T], str]
    head_to_head: C | None

    def order(self, group: list[T], criteria: tuple[C, ...]) -> tuple[list[list[T]], list[str]]:
        """``group`` split into places best first, and the notes saying how."""
        notes: list[str] = []
        if len(group) == 1:
            return [group], notes
        for index, criterion in enumerate(criteria):
            values = self.values(criterion, group)
            if len(set(values.values())) == 1:
                notes.append(f"{criterion.label} level ({self.show(criterion, values[group[0]])} each)")
                continue
            ordered = sorted(group, key=lambda t: values[t], reverse=True)
            notes.append(
                f"{criterion.label} " + ", ".join(f"{self.name(t)} {self.show(criterion, values[t])}" for t in ordered)
            )
            again = criteria[index + 1 :]
            if self.head_to_head is not None and self.head_to_head not in again:
                again = (self.head_to_head, *again)
            places: list[list[T]] = []
            for value in sorted(set(values.values()), reverse=True):
                level = [t for t in ordered if values[t] == value]
                sub_places, sub_notes = self.order(level, again)
                places.extend(sub_places)
                if sub_notes:
                    notes.append(f"between {listed([self.name(t) for t in level])}: {', '.join(sub_notes)}")
            return places, notes
        return [group], notes

    def rank(
        self, groups: Sequence[tuple[str, list[T]]], criteria: Sequence[C], row: Callable[[int, T], R]
    ) -> tuple[tuple[R, ...], tuple[str, ...]]:
        """Rows best first and one sentence per level group. ``groups`` are the teams level on the
        record, best record first, each with that record in words ("3 won"); ``row`` makes a team's
        row at a rank (teams sharing a place share it)."""
        rows: list[R] = []
        ties: list[str] = []
        for record, group in groups:
            places, notes = self.order(group, tuple(criteria))
            first = len(rows) + 1
            for place in places:
                rank = len(rows) + 1
                rows.extend(row(rank, t) for t in place)
                if len(place) > 1 and len(places) > 1:
                    notes.append(f"{listed([self.name(t) for t in place])} share {ordinal(rank)}")
            if len(group) > 1:
                level = f"{listed([self.name(t) for t in group])} are level on {record}"
                if len(places) > 1:
                    ties.append(f"{level}: {'; '.join(notes)}.")
                else:
                    every = f" and on {listed([c.label for c in criteria])}" if criteria else ""
                    ties.append(f"{level}{every}: they share {ordinal(first)}.")
        return tuple(rows), tuple(ties)
