"""The clock: a time limit (the rule set's ``time_limit_minutes``) that the director starts,
pauses and extends, for a match or every table of a round.

When a clock has run out, the next hand entered at its table is the last of the game (rule text
004, see :meth:`tournament.models.Game.rescore`); the pages count down from :meth:`Clock.deadline`.
Every change takes the tournament's lock first (:mod:`tournament.locking`).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Literal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from tournament.locking import lock_tournament
from tournament.models import Clock, Game, Match, Round, Tournament

MAX_EXTRA_MINUTES = 120
MAX_MINUTES_LEFT = 600
"""The most minutes the director may leave on a clock by setting it (ten hours: a typing slip
beyond it, not a plan)."""


def _minutes(round_: Round) -> int:
    minutes = round_.tournament.rules.time_limit_minutes
    if not minutes:
        raise ValidationError("This rule set has no time limit, so there is no clock to start.", code="no_limit")
    return minutes


@transaction.atomic
def start_round_clock(*, round_: Round) -> int:
    """Start (or resume) the clock at every table of a running round; returns how many run."""
    tournament = lock_tournament(round_.tournament_id)
    round_ = Round.objects.get(pk=round_.pk)
    round_.tournament = tournament
    if round_.status != Round.Status.RUNNING:
        raise ValidationError(f"Round {round_.number} is not running.", code="round_not_running")
    now = timezone.now()
    games = list(round_.games.exclude(status=Game.Status.FINISHED).select_related("clock"))
    for game in games:
        if game.clock is None:
            game.clock = Clock.objects.create(tournament_id=round_.tournament_id, minutes=_minutes(round_))
            game.save(update_fields=["clock"])
        _start(game.clock, now)
    return len(games)


@transaction.atomic
def pause_round_clock(*, round_: Round) -> None:
    lock_tournament(round_.tournament_id)
    now = timezone.now()
    timed = Game.objects.filter(round=round_).values("clock_id")
    for clock in Clock.objects.filter(pk__in=timed):
        clock.pause(now)
        clock.save(update_fields=["paused_at"])


def _start(clock: Clock, now: datetime.datetime) -> None:
    clock.start(now)
    clock.save(update_fields=["started_at", "paused_at", "paused_seconds"])


@transaction.atomic
def start_match_clocks(*, tournament: Tournament) -> int:
    """Start the clock of every match now at a table whose clock has not started; returns how many."""
    lock_tournament(tournament.pk)
    now = timezone.now()
    waiting = Clock.objects.filter(
        match__tournament=tournament, match__status=Match.Status.PLAYING, started_at__isnull=True
    )
    count = 0
    for clock in waiting:
        _start(clock, now)
        count += 1
    return count


@transaction.atomic
def start_clock(*, clock: Clock) -> None:
    """Start a match's clock, or resume it after a pause."""
    lock_tournament(clock.tournament_id)
    _start(Clock.objects.get(pk=clock.pk), timezone.now())


@transaction.atomic
def pause_clock(*, clock: Clock) -> None:
    lock_tournament(clock.tournament_id)
    clock = Clock.objects.get(pk=clock.pk)
    clock.pause(timezone.now())
    clock.save(update_fields=["paused_at"])


@transaction.atomic
def add_minutes(*, clock: Clock, minutes: int) -> None:
    """Give one table (or match) extra minutes; taking them back is giving a negative number."""
    lock_tournament(clock.tournament_id)
    clock = Clock.objects.get(pk=clock.pk)
    total = clock.extra_minutes + minutes
    if not 0 <= total <= MAX_EXTRA_MINUTES:
        message = f"Extra time adds up to between 0 and {MAX_EXTRA_MINUTES} minutes a table."
        raise ValidationError({"minutes": ValidationError(message, code="extra_minutes")})
    clock.extra_minutes = total
    clock.save(update_fields=["extra_minutes"])


@transaction.atomic
def set_minutes_left(*, clock: Clock, minutes: int) -> None:
    """Leave ``minutes`` (0 to :data:`MAX_MINUTES_LEFT`, as the form checks) on one started clock,
    a match's or one table's in a round, counted from now: to shorten a table's time as well as
    to lengthen it; 0 runs it out. The clock keeps its limit and extra minutes; what changes is
    the time it counts as gone: its pauses count for more (or less), and past them it counts as
    started earlier. A paused clock stays paused."""
    lock_tournament(clock.tournament_id)
    clock = Clock.objects.get(pk=clock.pk)
    remaining = clock.remaining_seconds()
    if remaining is None:
        message = "This clock has not started: start it first, then set the time left."
        raise ValidationError(message, code="clock_not_started")
    paused = clock.paused_seconds + minutes * 60 - remaining
    if paused < 0:
        clock.started_at -= datetime.timedelta(seconds=-paused)  # type: ignore[operator]
        paused = 0
    clock.paused_seconds = paused
    clock.save(update_fields=["started_at", "paused_seconds"])


def apply_time_limits(*, tournament: Tournament) -> int:
    """The rule sets' time limits as they are now (set, changed or taken away during play) apply
    to every match at a table and every unfinished game of a progressive round not closed: a match
    without a clock gets one (not started: the director starts it), a clock keeps its start, pauses
    and extra minutes under the new limit, and no limit leaves no clock. Matches not at a table yet
    take the limit when they sit down; a progressive table's clock is made when the round's clock
    starts. Call under the tournament's lock; returns how many clocks changed."""
    changed = 0
    playing = tournament.matches.filter(status=Match.Status.PLAYING)
    for match in playing.select_related("clock"):
        match.tournament = tournament
        clock, differs = _with_limit(tournament, match.clock, match.rules.time_limit_minutes)
        if clock is not match.clock:
            match.clock = clock
            match.save(update_fields=["clock"])
            match.games.exclude(status=Game.Status.FINISHED).update(clock=clock)
        changed += differs
    tables = (
        Game.objects.filter(round__tournament=tournament, match__isnull=True, clock__isnull=False)
        .exclude(round__status=Round.Status.CLOSED)
        .exclude(status=Game.Status.FINISHED)
    )
    for game in tables.select_related("clock"):
        changed += _with_limit(tournament, game.clock, tournament.rules.time_limit_minutes)[1]
    return changed


def _with_limit(tournament: Tournament, clock: Clock | None, minutes: int | None) -> tuple[Clock | None, bool]:
    """``clock`` counting down ``minutes`` (a new clock if there was none; none without a limit),
    and whether that changed anything."""
    if not minutes:
        if clock is not None:
            clock.delete()  # its games and match let go of it (SET_NULL)
        return None, clock is not None
    if clock is None:
        return Clock.objects.create(tournament=tournament, minutes=minutes), True
    if clock.minutes == minutes:
        return clock, False
    clock.minutes = minutes
    clock.save(update_fields=["minutes"])
    return clock, True


@dataclass(frozen=True)
class RoundClock:
    """The clock of a round's tables still playing, as the director's controls read it:
    ``stopped`` (not started), ``running``, ``paused`` (with the minutes left, rounded up),
    ``up`` (run out at every table still playing: nothing to start or pause) or ``done`` (no table
    plays on)."""

    state: Literal["stopped", "running", "paused", "up", "done"]
    minutes_left: int | None = None


def round_clock_state(round_: Round, now: datetime.datetime | None = None) -> RoundClock:
    """The state of ``round_``'s clock (see :class:`RoundClock`); a clock still counting at any
    table playing is running, else a paused one is paused (that of the tables with the least
    extra time, as the pages show it)."""
    now = now or timezone.now()
    unfinished = round_.games.exclude(status=Game.Status.FINISHED)
    if not unfinished.exists():
        return RoundClock("done")
    clocks = list(Clock.objects.filter(pk__in=unfinished.values("clock_id")).order_by("extra_minutes", "pk"))
    if any(clock.running and not clock.expired(now) for clock in clocks):
        return RoundClock("running")
    paused = [clock for clock in clocks if clock.paused_at is not None]
    if paused:
        return RoundClock("paused", max(0, -(-paused[0].remaining_seconds(now) // 60)))  # type: ignore[operator]
    return RoundClock("up" if any(clock.started for clock in clocks) else "stopped")


def round_clock(round_: Round) -> Clock | None:
    """The clock of a progressive round as one: that of the tables still playing with the least
    extra time (tables given extra minutes count down their own at the table)."""
    playing = Game.objects.filter(round=round_).exclude(status=Game.Status.FINISHED).values("clock_id")
    return Clock.objects.filter(pk__in=playing).order_by("extra_minutes", "pk").first()


def clock_text(clock: Clock | None, now: datetime.datetime | None = None) -> str:
    """ "12:34", "Time" or "" (no clock, or not started), for pages without scripts and for PDFs."""
    remaining = clock.remaining_seconds(now) if clock else None
    if remaining is None:
        return ""
    if remaining <= 0:
        return "Time"
    return f"{remaining // 60}:{remaining % 60:02d}"
