"""Rounds of play, whatever the format: starting play, starting a seated round, closing one.

What starting play seats and what closing a round leads to is the format's business
(:class:`~tournament.formats.registry.EventFormat`); these take the tournament's lock first and ask it.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from tournament.clocks.services import start_round_clock
from tournament.formats.registry import format_of
from tournament.locking import lock_tournament
from tournament.models import Round, Tournament
from tournament.operations import backups
from tournament.review.services import record_phones_at_close

User = AbstractBaseUser | None


def called(round_: Round) -> str:
    """What the event calls ``round_``, by its format: "Round 3", "Night 3", "Championship"."""
    return format_of(round_.tournament).round_title(round_)


@transaction.atomic
def start_play(*, tournament: Tournament, by: User = None) -> Round:
    """Seat the first round (or wave) of play as the format does; returns that round."""
    locked = lock_tournament(tournament.pk)
    # A knockout's bracket starts playing here, not through start_round: its backups start here too
    # (robust: a backup that cannot be queued is logged, and play starts all the same).
    transaction.on_commit(lambda: backups.schedule(club_id=locked.club_id), robust=True)
    return format_of(locked).start(tournament=locked, by=by)


@transaction.atomic
def start_round(*, round_: Round, start_clock: bool = False) -> None:
    """Start a seated round: the table links open its games; with ``start_clock`` (and a time
    limit in the rules), its clock starts at every table at the same moment."""
    tournament = lock_tournament(round_.tournament_id)
    locked = Round.objects.get(pk=round_.pk)
    locked.tournament = tournament
    locked.start(called=called(locked))
    if start_clock and tournament.rules.time_limit_minutes:
        start_round_clock(round_=locked)
    # While the club plays, the worker backs it up every few minutes (queued once per club).
    transaction.on_commit(lambda: backups.schedule(club_id=tournament.club_id), robust=True)
    round_.refresh_from_db()


@transaction.atomic
def close_round(*, round_: Round, by: User = None) -> Round | None:
    """Close a running round (refused while a table plays on, is tied or disputed); the format
    says what comes next: returns the next round, seated, if any."""
    tournament = lock_tournament(round_.tournament_id)
    locked = Round.objects.get(pk=round_.pk)
    locked.tournament = tournament
    following = format_of(tournament).close_round(round_=locked, by=by)
    # What each phone still held unsent at this moment: the results checks flag it (tournament.review).
    record_phones_at_close(round_=locked)
    return following
