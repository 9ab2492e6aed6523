"""Matches of every format that plays them (a knockout's bracket, a league's nights): one game or
the best of N between two teams at a table.

What a match's games decide (:func:`winner_from_games`), finishing it, starting its next game,
settling it without play (a walkover or the director's decision), and the director's changes
before it starts (moving it to another table). What a finished match then moves on is the format's
business (:mod:`tournament.knockout` advances the bracket; a league match moves nothing).

Home sits North–South and away East–West in every game of a match.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from scoring import Side
from scoring.seats import draw_first_dealer
from tournament.models import Game, Match, Round, Seating, SeatingChange, Table, Team

User = AbstractBaseUser | None


def winner_from_games(match: Match, games: list[Game]) -> tuple[int, str] | None:
    """(winning team id, outcome), or None while the match goes on.

    A team that wins a majority of the games wins. Once time is called the game under way is the
    last one (rule text 004: games not started are not played): more games won wins, then more
    points over the match's games; still level, the director decides.
    """
    wins = {match.home_id: 0, match.away_id: 0}
    points = {match.home_id: 0, match.away_id: 0}
    for g in games:
        points[match.home_id] += g.ns_score
        points[match.away_id] += g.ew_score
        if g.status == Game.Status.FINISHED:
            wins[match.home_id if g.winner == Side.NS else match.away_id] += 1
    last = games[-1] if games else None
    for team, won in wins.items():
        if won >= match.games_to_win:
            return team, Match.Outcome.TIME if last.time_called else Match.Outcome.PLAYED  # type: ignore[union-attr]
    if last is None or last.status != Game.Status.FINISHED or not any(g.time_called for g in games):
        return None
    home, away = match.home_id, match.away_id
    if wins[home] != wins[away]:
        return (home if wins[home] > wins[away] else away), Match.Outcome.TIME
    if points[home] != points[away]:
        return (home if points[home] > points[away] else away), Match.Outcome.TIME
    return None


def finish_match(match: Match, *, winner: int, outcome: str, reason: str = "") -> None:
    """Record ``match``'s result: it is the next to finish in the tournament's order of results."""
    last = Match.objects.filter(tournament_id=match.tournament_id).aggregate(top=Max("finished_order"))["top"] or 0
    match.status, match.winner_id, match.outcome, match.reason = Match.Status.FINISHED, winner, outcome, reason
    match.finished_order, match.finished_at = last + 1, timezone.now()
    match.save(update_fields=["status", "winner", "outcome", "reason", "finished_order", "finished_at"])


def new_game(match: Match, *, number: int, round_: Round) -> Game:
    """Game ``number`` of ``match`` at its table in ``round_``, its first dealer drawn from the
    tournament's seed (the same draw every time)."""
    dealer = draw_first_dealer(match.tournament.seating_seed, "match", match.pk, number)
    return Game.objects.create(
        round=round_, table_id=match.table_id, match=match, match_game=number, clock_id=match.clock_id,
        first_dealer=dealer,
    )  # fmt: skip


def next_game(match: Match, games: list[Game]) -> Game | None:
    """Start the match's next game when its last one has finished and no winner is known yet."""
    if match.status == Match.Status.PLAYING and games[-1].status == Game.Status.FINISHED:
        return new_game(match, number=games[-1].match_game + 1, round_=games[-1].round)
    return None


def settle(*, match: Match, winner: Team, reason: str, outcome: str) -> Match:
    """A walkover or the director's decision: ``winner`` goes through, the reason on the record;
    games under way end there. Returns the locked, finished match."""
    match = Match.objects.select_for_update().select_related("tournament").get(pk=match.pk)
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
    return match


# --- changes before a match starts -----------------------------------------------------------------


def refuse_if_started(match: Match, change: str) -> None:
    """A match has started once a hand is entered in one of its games (or it has a result)."""
    if match.status == Match.Status.FINISHED:
        raise ValidationError(f"{match.subject} is finished: {change}.", code="match_finished")
    game = match.games.filter(hands__isnull=False).select_related("table").first()
    if game is not None:
        raise ValidationError(
            f"{match.subject} has started (a hand is entered at table {game.table.number}): {change}.",
            code="match_started",
        )


@transaction.atomic
def move_to_table(*, match: Match, table: Table, by: User = None) -> Match | None:
    """Move a match seated but not started to ``table``. A match not started at that table takes
    this one's table in exchange (returned); a table in use by a started match is refused.
    Recorded in the round's changes."""
    match = Match.objects.select_for_update(of=("self",)).select_related("table").get(pk=match.pk)
    if match.status != Match.Status.PLAYING or match.table_id is None:
        raise ValidationError(f"{match.subject} has no table yet: seat it first.", code="not_seated")
    if table.pk == match.table_id:
        raise ValidationError(f"{match.subject} is at table {table.number} already.", code="same_table")
    refuse_if_started(match, "it stays at its table")
    other = Match.objects.select_for_update().filter(table=table, status=Match.Status.PLAYING).first()
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
