"""The director's writes to a match: settling it without play, and moving it to another table
before it starts. Each takes the tournament's lock first (:mod:`tournament.locking`)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction

from scoring import Side
from tournament.formats.registry import format_of
from tournament.locking import lock_tournament
from tournament.matches.rules import finish_match, refuse_if_started
from tournament.models import Game, Match, Seating, SeatingChange, Table, Team

User = AbstractBaseUser | None


@transaction.atomic
def settle_match(*, match: Match, winner: Team, reason: str, outcome: str, by: User = None) -> Match:
    """A walkover (a team did not show) or the director's decision (over time and level, say):
    ``winner`` wins the match, the reason on the record; games under way end there. The format
    hears of it (:meth:`~tournament.formats.registry.EventFormat.match_settled`: a knockout's bracket moves
    on). Returns the finished match."""
    tournament = lock_tournament(match.tournament_id)
    match = Match.objects.get(pk=match.pk)
    match.tournament = tournament
    if not reason.strip():
        raise ValidationError(
            {"reason": ValidationError("Give the reason: it goes on the record.", code="reason_required")}
        )
    if not match.is_open:
        raise ValidationError(f"{match.subject} is {match.get_status_display().lower()}.", code="not_open")
    if winner.pk not in (match.home_id, match.away_id):
        raise ValidationError({"winner": ValidationError("Choose one of the match's two teams.", code="not_in_match")})
    side = Side.NS if winner.pk == match.home_id else Side.EW
    for game in match.games.exclude(status=Game.Status.FINISHED):
        game.status, game.winner = Game.Status.FINISHED, side
        game.decided_by = f"{Match.Outcome(outcome).label}: {reason.strip()}"[:200]
        game.save(update_fields=["status", "winner", "decided_by"])
    finish_match(match, winner=winner.pk, outcome=outcome, reason=reason.strip())
    format_of(tournament).match_settled(match=match, by=by)
    return match


@transaction.atomic
def move_to_table(*, match: Match, table: Table, by: User = None) -> Match | None:
    """Move a match seated but not started to ``table``. A match not started at that table takes
    this one's table in exchange (returned); a table in use by a started match is refused.
    Recorded in the round's changes."""
    lock_tournament(match.tournament_id)
    match = Match.objects.select_related("table").get(pk=match.pk)
    if match.status != Match.Status.PLAYING or match.table_id is None:
        raise ValidationError(f"{match.subject} has no table yet: seat it first.", code="not_seated")
    if table.pk == match.table_id:
        raise ValidationError(f"{match.subject} is at table {table.number} already.", code="same_table")
    refuse_if_started(match, "it stays at its table")
    other = Match.objects.filter(table=table, status=Match.Status.PLAYING).first()
    if other is not None:
        refuse_if_started(other, f"table {table.number} is in use")
    round_ = match.games.get(match_game=1).round
    old = match.table
    moves = [(match, old, table)] + ([(other, table, old)] if other is not None else [])
    # Every seat at both tables is lifted before any is put down: a seat is unique per table and round.
    seats = [
        (new, s.seat, s.player_id) for _, was, new in moves for s in Seating.objects.filter(round=round_, table=was)
    ]
    Seating.objects.filter(round=round_, table__in=[old, table]).delete()
    for m, _, new in moves:
        m.table = new
        m.save(update_fields=["table"])
        m.games.update(table=new)
    Seating.objects.bulk_create(Seating(round=round_, table=t, seat=seat, player_id=p) for t, seat, p in seats)
    if other is not None:
        what = f"{match.subject} and {other.in_sentence} swapped tables {old.number} and {table.number}."
    else:
        what = f"{match.subject} moved from table {old.number} to table {table.number}."
    SeatingChange.objects.create(round=round_, changed_by=by, description=what)
    return other
