"""A league season's schedule (rule text 004): every team meets every other once a leg, as pure functions.

The round robin is built by the circle method: the teams stand in a circle with the first one fixed;
each night pairs the team in place *i* with the team in place *n − 1 − i*, and then everyone but
the fixed team moves one place round. With an odd field a "bye" stands in the circle and the team
drawn against it rests that night. So a leg takes N − 1 nights for an even field and N for an odd
one, each team plays at most once a night, and every pair meets exactly once. A second leg repeats
the first with home and away exchanged.

Changes during the season are operations on the schedule that return a new one:

- ``postpone`` moves one match to another night (or to a new night after the last), where neither
  team already plays; the match remembers the night it was first set for.
- ``add_team`` brings in a late joiner. The matches it would have played on nights already past are
  made up on later nights or counted as forfeits (walkovers to the opponent), the director's choice.
  With an odd field the joiner simply takes the bye, so the announced nights stay as they are; with
  an even field everyone already plays every night, so the matches from ``from_night`` on are
  re-planned.
- ``withdraw`` takes a team out: its matches from ``from_night`` on become walkovers to the
  opponent; its matches before that stand or are voided, the director's choice.

Teams are any hashable ids; nothing here touches the database.
"""

from __future__ import annotations

import enum
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Generic, TypeVar

T = TypeVar("T", bound=Hashable)


class ScheduleError(ValueError):
    """A change the schedule cannot take (the message says why, in the director's words)."""


class Missed(enum.StrEnum):
    """What happens to a late joiner's matches on nights already past."""

    MAKE_UP = "make-up"
    FORFEIT = "forfeit"


class PlayedResults(enum.StrEnum):
    """What happens to a withdrawn team's matches already played."""

    STAND = "stand"
    VOID = "void"


@dataclass(frozen=True)
class Fixture(Generic[T]):
    """One league match: ``home`` against ``away`` on ``night`` in ``leg`` (1 or 2).

    ``postponed_from`` is the night the match was first set for, when it was moved; ``walkover_to``
    names the winner of a match decided without play (a forfeit, or the opponent withdrew); ``void``
    marks a played match whose result no longer counts; ``make_up`` a late joiner's missed match
    played on a later night.
    """

    leg: int
    night: int
    home: T
    away: T
    postponed_from: int | None = None
    walkover_to: T | None = None
    void: bool = False
    make_up: bool = False

    @property
    def key(self) -> tuple[int, T, T]:
        """Names the match for the whole season: each pair meets once a leg."""
        return (self.leg, self.home, self.away)

    @property
    def teams(self) -> tuple[T, T]:
        return (self.home, self.away)

    @property
    def to_play(self) -> bool:
        """True while the match is still to be played at a table (not a walkover, not voided)."""
        return self.walkover_to is None and not self.void

    def opponent(self, team: T) -> T:
        return self.away if team == self.home else self.home


@dataclass(frozen=True)
class Schedule(Generic[T]):
    """The season: the field, the number of legs, and every match in night order.

    ``joined`` gives the first night of each late joiner; ``withdrawn`` the night each withdrawn
    team's walkovers start from.
    """

    teams: tuple[T, ...]
    legs: int
    fixtures: tuple[Fixture[T], ...]
    joined: tuple[tuple[T, int], ...] = ()
    withdrawn: tuple[tuple[T, int], ...] = ()

    @property
    def nights(self) -> int:
        return max((f.night for f in self.fixtures), default=0)

    def on_night(self, night: int) -> tuple[Fixture[T], ...]:
        return tuple(f for f in self.fixtures if f.night == night)

    def playing_on(self, night: int) -> set[T]:
        """Teams with a match to play at a table on ``night``."""
        return {team for f in self.fixtures if f.night == night and f.to_play for team in f.teams}

    def resting_on(self, night: int) -> tuple[T, ...]:
        """Teams in the league that night with no match on it (the bye), in field order: a team
        given a walkover that night has its match (won without play), so it is not resting."""
        joined, withdrawn = dict(self.joined), dict(self.withdrawn)
        busy = {team for f in self.fixtures if f.night == night for team in f.teams}
        return tuple(
            t
            for t in self.teams
            if t not in busy and joined.get(t, 1) <= night and (t not in withdrawn or night < withdrawn[t])
        )

    def fixture(self, key: tuple[int, T, T]) -> Fixture[T]:
        for f in self.fixtures:
            if f.key == key:
                return f
        raise ScheduleError("There is no such match in the schedule.")

    def of(self, team: T) -> tuple[Fixture[T], ...]:
        return tuple(f for f in self.fixtures if team in f.teams)


def round_robin(teams: Sequence[T], *, legs: int = 1) -> Schedule[T]:
    """The season for ``teams`` (in the order given) by the circle method, ``legs`` = 1 or 2."""
    field = tuple(teams)
    if len(field) < 2:
        raise ScheduleError("A league needs at least two teams.")
    if len(set(field)) != len(field):
        raise ScheduleError("A team is listed twice.")
    if legs not in (1, 2):
        raise ScheduleError("A season has one leg or two (home and away).")
    fixtures = [
        Fixture(leg, (leg - 1) * per_leg + night, *((home, away) if leg == 1 else (away, home)))
        for leg in range(1, legs + 1)
        for night, home, away, per_leg in _circle(field)
    ]
    return Schedule(field, legs, tuple(fixtures))


def postpone(schedule: Schedule[T], key: tuple[int, T, T], *, to_night: int) -> Schedule[T]:
    """The schedule with one match moved to ``to_night`` (an existing night, or the next new one)."""
    match = schedule.fixture(key)
    if not match.to_play:
        raise ScheduleError("That match is decided already; only a match still to play can be moved.")
    if to_night == match.night:
        raise ScheduleError(f"That match is already on night {to_night}.")
    if not 1 <= to_night <= schedule.nights + 1:
        raise ScheduleError(f"Choose night 1 to {schedule.nights + 1} (a new night after the last).")
    busy = schedule.playing_on(to_night)
    for team in match.teams:
        if team in busy:
            raise ScheduleError(f"{team} already plays on night {to_night}.")
    first = match.postponed_from or match.night
    moved = replace(match, night=to_night, postponed_from=None if first == to_night else first)
    rest = [f for f in schedule.fixtures if f.key != key]
    return replace(schedule, fixtures=_in_night_order([*rest, moved]))


def free_nights(schedule: Schedule[T], *, first: int) -> dict[tuple[int, T, T], int]:
    """For each match still to play, the first night from ``first`` on, other than its own, where
    neither of its teams plays: where :func:`postpone` can move it (a new night after the last if
    no night is free)."""
    busy: dict[int, set[T]] = {}
    for f in schedule.fixtures:
        if f.to_play:
            busy.setdefault(f.night, set()).update(f.teams)
    free = {}
    for f in schedule.fixtures:
        if f.to_play:
            night = first
            while night <= schedule.nights and (night == f.night or busy.get(night, set()) & set(f.teams)):
                night += 1
            free[f.key] = night
    return free


def add_team(schedule: Schedule[T], team: T, *, from_night: int, missed: Missed) -> Schedule[T]:
    """The schedule with ``team`` joining before ``from_night`` (see the module docstring)."""
    if team in schedule.teams:
        raise ScheduleError(f"{team} is in the league already.")
    if not 1 <= from_night <= schedule.nights + 1:
        raise ScheduleError(f"A team can join before night 1 to {schedule.nights + 1}.")
    teams = (*schedule.teams, team)
    circle = {frozenset((home, away)): (night, home, away, per_leg) for night, home, away, per_leg in _circle(teams)}
    joiner = [
        Fixture(leg, (leg - 1) * per_leg + night, *((home, away) if leg == 1 else (away, home)))
        for leg in range(1, schedule.legs + 1)
        for night, home, away, per_leg in circle.values()
        if team in (home, away)
    ]
    past = [f for f in schedule.fixtures if f.night < from_night or not f.to_play]
    missed_matches = [f for f in joiner if f.night < from_night]
    if missed is Missed.FORFEIT:
        past += [replace(f, walkover_to=f.opponent(team)) for f in missed_matches]
    coming = [f for f in schedule.fixtures if f.night >= from_night and f.to_play]
    if len(schedule.teams) % 2 == 0:
        # Everyone already plays every night: re-plan the rest of the season around the joiner.
        coming = [replace(f, night=_circle_night(circle, f)) for f in coming]
    wanted = sorted([*coming, *(f for f in joiner if f.night >= from_night)], key=lambda f: f.night)
    placed = _place(past, wanted, from_night)
    if missed is Missed.MAKE_UP:
        placed = _place(placed, [replace(f, make_up=True) for f in missed_matches], from_night)
    return replace(
        schedule, teams=teams, fixtures=_in_night_order(placed), joined=(*schedule.joined, (team, from_night))
    )


def withdraw(schedule: Schedule[T], team: T, *, from_night: int, played: PlayedResults) -> Schedule[T]:
    """The schedule with ``team`` gone from ``from_night``: later matches walkovers, earlier ones per ``played``."""
    if team not in schedule.teams:
        raise ScheduleError(f"{team} is not in the league.")
    if team in dict(schedule.withdrawn):
        raise ScheduleError(f"{team} has withdrawn already.")

    def after(f: Fixture[T]) -> Fixture[T]:
        if team not in f.teams or not f.to_play:
            return f
        if f.night >= from_night:
            return replace(f, walkover_to=f.opponent(team))
        return replace(f, void=played is PlayedResults.VOID)

    return replace(
        schedule,
        fixtures=tuple(after(f) for f in schedule.fixtures),
        withdrawn=(*schedule.withdrawn, (team, from_night)),
    )


def _circle(teams: Sequence[T]) -> Iterable[tuple[int, T, T, int]]:
    """(night, home, away, nights per leg) of one leg by the circle method; the bye is left out."""
    slots: list[T | None] = [*teams, None] if len(teams) % 2 else list(teams)
    n = len(slots)
    rest = slots[1:]
    for r in range(n - 1):
        turned = rest[len(rest) - r :] + rest[: len(rest) - r]
        circle = [slots[0], *turned]
        for i in range(n // 2):
            home, away = circle[i], circle[n - 1 - i]
            if i == 0 and r % 2:
                home, away = away, home  # the fixed team alternates home and away
            if home is not None and away is not None:
                yield r + 1, home, away, n - 1


def _circle_night(circle: dict[frozenset, tuple[int, T, T, int]], f: Fixture[T]) -> int:
    night, _, _, per_leg = circle[frozenset(f.teams)]
    return (f.leg - 1) * per_leg + night


def _place(fixed: Sequence[Fixture[T]], wanted: Sequence[Fixture[T]], first: int) -> list[Fixture[T]]:
    """``fixed`` plus each of ``wanted`` in turn on its own night if both teams are free there,
    else on the earliest night from ``first`` on where they are (a new night if none)."""
    busy: dict[int, set[T]] = {}
    for f in fixed:
        if f.to_play:
            busy.setdefault(f.night, set()).update(f.teams)
    placed = list(fixed)
    for f in wanted:
        night = max(f.night, first)
        if busy.get(night, set()) & set(f.teams):
            night = first
            while busy.get(night, set()) & set(f.teams):
                night += 1
        busy.setdefault(night, set()).update(f.teams)
        placed.append(f if night == f.night else replace(f, night=night))
    return placed


def _in_night_order(fixtures: Iterable[Fixture[T]]) -> tuple[Fixture[T], ...]:
    """Stable: within a night, matches keep their order (a moved match comes last)."""
    return tuple(sorted(fixtures, key=lambda f: f.night))
