"""Matches of every format that plays them (a knockout's bracket, a league's nights): one game or
the best of N between two teams at a table.

What a match's games decide (:func:`winner_from_games`), finishing it, starting its next game,
and whether it has started. The writes that use these run under the tournament's lock, taken by
their callers: :mod:`tournament.matches.services`, and the formats that play matches. What a
finished match then moves on is the format's business (a knockout's bracket advances; a league
match moves nothing).

Home sits North–South and away East–West in every game of a match.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db.models import Max
from django.utils import timezone

from scoring import InvalidHand, Side
from scoring.seats import draw_first_dealer
from tournament.models import Game, Match, Round


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


def settle_after_game(*, game: Game, round_word: str) -> None:
    """A hand was entered or corrected, or a tie decided, in ``game`` of a match that moves nothing
    on when it finishes (a Swiss pairing, a league match): the match goes on to its next game or is
    decided (best of N, time). A correction that leaves the match undecided in a closed round is
    refused with an :class:`InvalidHand` naming the round as the format calls it (``round_word``:
    "round", "night"; code ``<round_word>_closed``). Called under the tournament's lock."""
    match = Match.objects.get(pk=game.match_id)
    match.tournament = game.round.tournament
    games = list(match.games.select_related("round").order_by("match_game"))
    result = winner_from_games(match, games)
    if result is not None:
        if (match.status, match.winner_id, match.outcome) != (Match.Status.FINISHED, *result):
            finish_match(match, winner=result[0], outcome=result[1])
        # A correction that decides the match sooner leaves its next game unneeded.
        match.games.exclude(status=Game.Status.FINISHED).filter(hands__isnull=True).delete()
        return
    if games[-1].round.status == Round.Status.CLOSED:
        raise InvalidHand(
            f"this correction leaves the match undecided, but {round_word} {games[-1].round.number} is closed; "
            "the director decides the match instead",
            field="hand",
            code=f"{round_word}_closed",
        )
    if match.status == Match.Status.FINISHED:  # a correction (or new rules) undid the result
        match.status, match.winner, match.outcome, match.finished_order = Match.Status.PLAYING, None, "", None
        match.save(update_fields=["status", "winner", "outcome", "finished_order"])
    if games[-1].status == Game.Status.FINISHED:
        next_game(match, games)


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
