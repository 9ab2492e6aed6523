"""Knockout services: draw the bracket, play its matches at tables, advance winners, place teams.

The bracket's shape and who meets whom come from the pure :mod:`tournament.bracket`; this module
loads and saves around it. A knockout has one :class:`Round` that holds every match's games, so
table links, hand entry, corrections and disputes work as in a progressive round. After any change
to a match (a game's result, a walkover, a decision) :func:`advance` brings every match up to date
from the results: winners move on by themselves, byes pass, ready matches take free tables.

Home sits North–South and away East–West in every game of a match.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q

from scoring import InvalidHand
from tournament import bracket as pure
from tournament import matches
from tournament.models import Clock, Game, Match, Round, SeatingChange, Table, Team, Tournament

User = AbstractBaseUser | None


def _entrants(tournament: Tournament) -> list[Team]:
    """The teams that play: checked in (every active team if nobody is checked in yet)."""
    teams = list(tournament.teams.filter(status=Team.Status.ACTIVE).order_by("number"))
    if any(team.checked_in for team in teams):
        teams = [team for team in teams if team.checked_in]
    return teams


def _seeded(tournament: Tournament, teams: list[Team]) -> list[Team]:
    order = tournament.seating_order
    if order == Tournament.SeatingOrder.RANDOM:
        return pure.random_seeding(teams, tournament.seating_seed)
    if order == Tournament.SeatingOrder.DIRECTOR:
        try:
            return pure.director_seeding(teams, {team: team.seed for team in teams})
        except ValueError:
            raise ValidationError(
                f"Give every playing team a seed from 1 to {len(teams)}, each number once (Teams page).",
                code="seeds",
            ) from None
    return teams


@transaction.atomic
def draw_bracket(*, tournament: Tournament, by: User = None) -> Round:
    """Seed the teams, build the bracket and start it: the first matches take their tables."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.rounds.exists():
        raise ValidationError("The bracket is already drawn.", code="already_drawn")
    teams = _entrants(tournament)
    if len(teams) < 2:
        raise ValidationError("A knockout needs at least two teams present.", code="too_few_teams")
    seeded = _seeded(tournament, teams)
    tournament.teams.update(seed=None)  # a team not playing keeps no seed
    for seed, team in enumerate(seeded, start=1):
        team.seed = seed
    Team.objects.bulk_update(seeded, ["seed"])
    create_matches(tournament, tournament.bracket_for(len(seeded)))
    tables = tournament.tables_available or max(1, len(seeded) // 2)
    known = set(tournament.tables.values_list("number", flat=True))
    Table.objects.bulk_create(Table(tournament=tournament, number=n) for n in range(1, tables + 1) if n not in known)
    round_ = Round.objects.create(tournament=tournament, number=1)
    round_.start()
    tournament.status = Tournament.Status.RUNNING
    tournament.save(update_fields=["status"])
    advance(tournament)
    return round_


@transaction.atomic
def set_seeds(*, tournament: Tournament, seeds: dict[int, int]) -> None:
    """The director's seeds (team id to seed), before the draw."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.rounds.exists():
        raise ValidationError("The bracket is drawn: seeds can no longer change.", code="already_drawn")
    teams = list(tournament.teams.filter(pk__in=seeds))
    for team in teams:
        team.seed = seeds[team.pk]
    Team.objects.bulk_update(teams, ["seed"])


@transaction.atomic
def swap_teams(*, tournament: Tournament, first: Team, second: Team, by: User = None) -> None:
    """Exchange two teams' places in the drawn bracket (their seeds) before either has played: each
    takes the other's match, table and bye. Refused once a hand is entered in a match of either, or
    either has a result. Recorded in the round's changes."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    round_ = knockout_round(tournament)
    if round_ is None or not tournament.matches.exclude(stage=Match.Stage.LEAGUE).exists():
        raise ValidationError("Draw the bracket first: before the draw, set the seeds instead.", code="not_drawn")
    first, second = (Team.objects.select_for_update().get(pk=team.pk) for team in (first, second))
    if first.pk == second.pk or first.seed is None or second.seed is None:
        raise ValidationError("Choose two different teams of the bracket.", code="not_in_bracket")
    involved = (
        tournament.matches.select_for_update()
        .filter(Q(home__in=[first, second]) | Q(away__in=[first, second]))
        .exclude(status=Match.Status.BYE)
    )
    for match in involved:
        matches.refuse_if_started(match, "its teams can no longer be swapped")
    first.seed, second.seed = second.seed, first.seed
    Team.objects.bulk_update([first, second], ["seed"])
    advance(tournament)
    SeatingChange.objects.create(
        round=round_,
        changed_by=by,
        description=f"Swapped teams {first.number} and {second.number} in the bracket "
        f"(now seeds {first.seed} and {second.seed}).",
    )


def playing_teams(tournament: Tournament) -> list[Team]:
    return _entrants(tournament)


def create_matches(tournament: Tournament, shape: pure.Bracket, *, after: int = 0) -> None:
    """A match for every slot of ``shape``, placed after position ``after`` in the playing order.

    The real matches are numbered 1, 2, … through the whole bracket in playing order (the number
    the boards, sheets and the table's phone show); a bye has no number (0).
    """
    numbers = {slot.key: n for n, slot in enumerate(shape.matches, start=1)}
    Match.objects.bulk_create(
        Match(
            tournament=tournament,
            key=slot.key,
            stage=slot.stage.value,
            round=slot.round,
            number=numbers.get(slot.key, 0),
            position=after + position,
            best_of=tournament.final_best_of if slot.stage == pure.Stage.FINAL else tournament.best_of,
        )
        for position, slot in enumerate(shape.slots, start=1)
    )


def knockout_round(tournament: Tournament) -> Round | None:
    """The round that holds the bracket's games: a knockout's only round, a league's championship
    (its last round)."""
    return tournament.rounds.order_by("-number").first()


def state(tournament: Tournament, matches: Sequence[Match] | None = None) -> pure.BracketState[int]:
    """The bracket's state from the saved results (team ids as the teams)."""
    seeds, results = _seeds_and_results(tournament, matches)
    return pure.resolve(tournament.bracket_for(len(seeds)), seeds, results)


def _seeds_and_results(tournament: Tournament, matches: Sequence[Match] | None) -> tuple[list[int], dict[str, int]]:
    matches = list(tournament.matches.all()) if matches is None else matches
    seeds = list(tournament.teams.filter(seed__isnull=False).order_by("seed").values_list("pk", flat=True))
    results = {
        m.key: m.winner_id for m in matches if m.status == Match.Status.FINISHED and m.stage != Match.Stage.LEAGUE
    }
    return seeds, results


def advance(tournament: Tournament) -> None:
    """Bring every match up to date with the results; ready matches take free tables."""
    matches = list(tournament.matches.select_for_update().order_by("position"))
    by_key = {m.key: m for m in matches}
    current = state(tournament, matches)
    order = max((m.finished_order or 0 for m in matches), default=0)
    changed = []
    for ms in current.matches:
        match = by_key[ms.slot.key]
        before = (match.home_id, match.away_id, match.status, match.winner_id)
        match.home_id, match.away_id = ms.teams
        if ms.status == pure.Status.BYE:
            if match.status != Match.Status.BYE:
                order += 1
                match.status, match.finished_order = Match.Status.BYE, order
            match.winner_id = ms.winner  # a swap of seeds may give the bye to another team
        elif ms.status == pure.Status.NOT_NEEDED:
            match.status = Match.Status.NOT_NEEDED
        elif ms.status == pure.Status.READY and match.status in (Match.Status.WAITING, Match.Status.NOT_NEEDED):
            match.status = Match.Status.READY
        elif ms.status == pure.Status.WAITING:
            match.status = Match.Status.WAITING
        if before != (match.home_id, match.away_id, match.status, match.winner_id):
            changed.append(match)
    Match.objects.bulk_update(changed, ["home", "away", "status", "winner", "finished_order"])
    _assign_free_tables(tournament, matches)
    if current.finished:
        _finish(tournament)


def _assign_free_tables(tournament: Tournament, matches: list[Match]) -> None:
    """Each ready match, in bracket order, takes the lowest-numbered free table."""
    waiting = [m for m in matches if m.status == Match.Status.READY and m.table_id is None]
    if not waiting:
        return
    busy = {m.table_id for m in matches if m.status == Match.Status.PLAYING}
    free = [t for t in tournament.tables.order_by("number") if t.pk not in busy]
    for match, table in zip(waiting, free, strict=False):
        _put_at_table(match, table)


def _put_at_table(match: Match, table: Table) -> None:
    tournament = match.tournament
    rules = tournament.final_rules if match.stage == Match.Stage.FINAL else tournament.rules
    minutes = rules.time_limit_minutes
    if minutes and match.clock_id is None:
        match.clock = Clock.objects.create(tournament_id=match.tournament_id, minutes=minutes)
    match.table, match.status = table, Match.Status.PLAYING
    match.save(update_fields=["table", "status", "clock"])
    matches.new_game(match, number=1, round_=knockout_round(tournament))


@transaction.atomic
def assign_table(*, match: Match, table: Table) -> None:
    """The director puts a ready match at a table of their choice (it must be free)."""
    match = Match.objects.select_for_update().select_related("tournament").get(pk=match.pk)
    if match.status != Match.Status.READY:
        raise ValidationError(f"{match.subject} is not waiting for a table.", code="not_ready")
    if Match.objects.filter(table=table, status=Match.Status.PLAYING).exists():
        raise ValidationError(f"Table {table.number} is in use.", code="table_busy")
    _put_at_table(match, table)


def game_changed(*, game: Game) -> None:
    """A hand was entered or corrected, or a tie decided, in one of a match's games: settle the
    match (next game, or its winner) and let the bracket move on."""
    match = Match.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=game.match_id)
    games = list(match.games.select_related("round").order_by("match_game"))
    winner = matches.winner_from_games(match, games)
    if match.status == Match.Status.FINISHED:
        changed = winner is None or winner[0] != match.winner_id
        if changed and _later_matches_started(match):
            raise InvalidHand(
                "this correction would change who won the match, but the winner's next match has started; "
                "the director decides the match instead",
                field="hand",
                code="bracket_moved_on",
            )
        if changed:
            _reopen(match)
    if winner is not None:
        matches.finish_match(match, winner=winner[0], outcome=winner[1])
    else:
        matches.next_game(match, games)
    advance(match.tournament)


def _later_matches(match: Match):
    teams = [match.home_id, match.away_id]
    return Match.objects.filter(
        Q(home_id__in=teams) | Q(away_id__in=teams), tournament_id=match.tournament_id, position__gt=match.position
    )


def _later_matches_started(match: Match) -> bool:
    return Game.objects.filter(match__in=_later_matches(match), hands__isnull=False).exists()


def _reopen(match: Match) -> None:
    """A correction undid the match's result: it is playing again, and the matches it had filled
    (none has a hand yet) give their tables back until the bracket fills them again."""
    match.status, match.winner, match.outcome, match.finished_order = Match.Status.PLAYING, None, "", None
    match.save(update_fields=["status", "winner", "outcome", "finished_order"])
    later = _later_matches(match).filter(status=Match.Status.PLAYING)
    Game.objects.filter(match__in=later).delete()
    later.update(status=Match.Status.WAITING, table=None)


@transaction.atomic
def walkover(*, match: Match, winner: Team, reason: str, by: User = None) -> None:
    """A team did not show: the other goes through without playing."""
    _settle(match, winner, reason, Match.Outcome.WALKOVER)


@transaction.atomic
def decide_match(*, match: Match, winner: Team, reason: str, by: User = None) -> None:
    """The director decides a match (over time and level, say); games under way end there."""
    _settle(match, winner, reason, Match.Outcome.DECISION)


def _settle(match: Match, winner: Team, reason: str, outcome: str) -> None:
    match = matches.settle(match=match, winner=winner, reason=reason, outcome=outcome)
    if not match.is_league:  # a league match moves no bracket on
        advance(match.tournament)


def _finish(tournament: Tournament) -> None:
    round_ = knockout_round(tournament)
    if round_ is not None and round_.status == Round.Status.RUNNING:
        round_.close(hold_games=False)  # called under the tournament's matches (see advance)
    tournament.status = Tournament.Status.FINISHED
    tournament.save(update_fields=["status"])


def places(tournament: Tournament) -> list[pure.Place[int]]:
    """Every team's place once the bracket is finished (team ids), best first."""
    return state(tournament).places()


def places_so_far(tournament: Tournament, matches: Sequence[Match] | None = None) -> list[pure.Place[int]]:
    """The places settled so far (team ids), best first: the teams out, and every team's at the end."""
    seeds, results = _seeds_and_results(tournament, matches)
    return pure.places_so_far(tournament.bracket_for(len(seeds)), seeds, results) if seeds else []
