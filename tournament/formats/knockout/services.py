"""Knockout services: draw the bracket, play its matches at tables, advance winners, place teams.

The bracket's shape and who meets whom come from the pure :mod:`.bracket`; this module loads and
saves around it. A knockout has one :class:`Round` that holds every match's games, so table
links, hand entry, corrections and disputes work as in a progressive round. After any change
to a match (a game's result, a walkover, a decision) :func:`advance` brings every match up to date
from the results: winners move on by themselves, byes pass, ready matches take free tables.

A league's championship is a knockout too (:mod:`tournament.formats.league` plays it with these).
Every write runs under the tournament's lock, which the entry points here take first.

Home sits North–South and away East–West in every game of a match.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q

from scoring import InvalidHand
from scoring.words import listed
from tournament.formats.knockout import bracket as pure
from tournament.formats.knockout.models import settings_of
from tournament.locking import lock_tournament
from tournament.matches import rules as matches
from tournament.models import Clock, Game, Match, Round, SeatingChange, Table, Team, Tournament

User = AbstractBaseUser | None
SINGLE = "single_elimination"
DOUBLE = "double_elimination"
BRACKET_STAGES = (Match.Stage.WINNERS, Match.Stage.LOSERS, Match.Stage.FINAL, Match.Stage.THIRD_PLACE)


def bracket_for(tournament: Tournament, teams: int) -> pure.Bracket:
    """The bracket for ``teams`` teams: a double elimination's, else a single elimination (a
    league's championship is one), with a third-place match when the settings ask for one."""
    if tournament.format == DOUBLE:
        return pure.double_elimination(teams)
    return pure.single_elimination(teams, third_place=settings_of(tournament).third_place_match)


def drawn_bracket(tournament: Tournament) -> pure.Bracket:
    """The bracket being played, which names its matches: the draw (or a league's championship)
    gives its teams their seeds, so it is the bracket for the seeded teams."""
    return bracket_for(tournament, tournament.teams.filter(seed__isnull=False).count())


def bracket_matches(tournament: Tournament):
    """The tournament's bracket matches (a league's championship: not its league matches)."""
    return tournament.matches.filter(stage__in=BRACKET_STAGES)


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
    tournament = lock_tournament(tournament.pk)
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
    create_matches(tournament, bracket_for(tournament, len(seeded)))
    tables = settings_of(tournament).tables_available or max(1, len(seeded) // 2)
    known = set(tournament.tables.values_list("number", flat=True))
    Table.objects.bulk_create(Table(tournament=tournament, number=n) for n in range(1, tables + 1) if n not in known)
    round_ = Round.objects.create(tournament=tournament, number=1)
    round_.start(called="The bracket")
    tournament.status = Tournament.Status.RUNNING
    tournament.save(update_fields=["status"])
    advance(tournament)
    return round_


@transaction.atomic
def set_seeds(*, tournament: Tournament, seeds: dict[int, int]) -> None:
    """The director's seeds (team id to seed), before the draw."""
    tournament = lock_tournament(tournament.pk)
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
    tournament = lock_tournament(tournament.pk)
    round_ = knockout_round(tournament)
    if round_ is None or not bracket_matches(tournament).exists():
        raise ValidationError("Draw the bracket first: before the draw, set the seeds instead.", code="not_drawn")
    first, second = (Team.objects.get(pk=team.pk) for team in (first, second))
    if first.pk == second.pk or first.seed is None or second.seed is None:
        raise ValidationError("Choose two different teams of the bracket.", code="not_in_bracket")
    involved = tournament.matches.filter(Q(home__in=[first, second]) | Q(away__in=[first, second]))
    for match in involved.exclude(status=Match.Status.BYE):
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
    """A match for every slot of ``shape``, placed after position ``after`` in the playing order,
    named as the bracket names it and played by the bracket's settings (a final's rule set).

    The real matches are numbered 1, 2, … through the whole bracket in playing order (the number
    the boards, sheets and the table's phone show); a bye has no number (0).
    """
    settings = settings_of(tournament)
    numbers = {slot.key: n for n, slot in enumerate(shape.matches, start=1)}
    Match.objects.bulk_create(
        Match(
            tournament=tournament,
            key=slot.key,
            stage=slot.stage.value,
            round=slot.round,
            number=numbers.get(slot.key, 0),
            name=shape.match_name(slot.stage, slot.round, numbers.get(slot.key, 0)),
            position=after + position,
            best_of=settings.final_best_of if slot.stage == pure.Stage.FINAL else settings.best_of,
            preset=settings.final_preset if slot.stage == pure.Stage.FINAL else "",
        )
        for position, slot in enumerate(shape.slots, start=1)
    )


def final_rules_changed(tournament: Tournament) -> None:
    """The bracket's settings may name another rule set for the final: its matches play by it from
    now, without the rules a final kept from its old preset (their games are scored again by the
    caller, as after any change of rules)."""
    preset = settings_of(tournament).final_preset
    bracket_matches(tournament).filter(stage=Match.Stage.FINAL).exclude(preset=preset).update(
        preset=preset, rule_overrides={}
    )


def round_words(round_: Round) -> str:
    """What a knockout round's games are, inside a sentence: the bracket's rounds its matches belong
    to ("semi-finals and final"), every match being played in one round; a round without bracket
    matches (a league's night) is named by its number."""
    stages = list(
        round_.games.filter(match__stage__in=BRACKET_STAGES)
        .order_by("match__position")
        .values_list("match__stage", "match__round")
    )
    if not stages:
        return f"night {round_.number}"
    bracket = drawn_bracket(round_.tournament)
    names = dict.fromkeys(bracket.column_title(stage, number) for stage, number in stages)
    return listed([name[0].lower() + name[1:] for name in names])


def knockout_round(tournament: Tournament) -> Round | None:
    """The round that holds the bracket's games: a knockout's only round, a league's championship
    (its last round)."""
    return tournament.rounds.order_by("-number").first()


def state(tournament: Tournament, matches: Sequence[Match] | None = None) -> pure.BracketState[int]:
    """The bracket's state from the saved results (team ids as the teams)."""
    seeds, results = _seeds_and_results(tournament, matches)
    return pure.resolve(bracket_for(tournament, len(seeds)), seeds, results)


def _seeds_and_results(tournament: Tournament, matches: Sequence[Match] | None) -> tuple[list[int], dict[str, int]]:
    matches = list(bracket_matches(tournament)) if matches is None else matches
    seeds = list(tournament.teams.filter(seed__isnull=False).order_by("seed").values_list("pk", flat=True))
    results = {m.key: m.winner_id for m in matches if m.status == Match.Status.FINISHED and m.stage in BRACKET_STAGES}
    return seeds, results


def advance(tournament: Tournament) -> None:
    """Bring every match up to date with the results; ready matches take free tables. Called
    under the tournament's lock."""
    matches = list(bracket_matches(tournament).order_by("position"))
    by_key = {m.key: m for m in matches}
    current = state(tournament, matches)
    order = max(tournament.matches.values_list("finished_order", flat=True).exclude(finished_order=None), default=0)
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
    busy = set(tournament.matches.filter(status=Match.Status.PLAYING).values_list("table_id", flat=True))
    free = [t for t in tournament.tables.order_by("number") if t.pk not in busy]
    for match, table in zip(waiting, free, strict=False):
        _put_at_table(tournament, match, table)


def _put_at_table(tournament: Tournament, match: Match, table: Table) -> None:
    match.tournament = tournament
    minutes = match.rules.time_limit_minutes
    if minutes and match.clock_id is None:
        match.clock = Clock.objects.create(tournament=tournament, minutes=minutes)
    match.table, match.status = table, Match.Status.PLAYING
    match.save(update_fields=["table", "status", "clock"])
    matches.new_game(match, number=1, round_=knockout_round(tournament))


@transaction.atomic
def assign_table(*, match: Match, table: Table) -> None:
    """The director puts a ready match at a table of their choice (it must be free)."""
    tournament = lock_tournament(match.tournament_id)
    match = Match.objects.get(pk=match.pk)
    if match.status != Match.Status.READY:
        raise ValidationError(f"{match.subject} is not waiting for a table.", code="not_ready")
    if Match.objects.filter(table=table, status=Match.Status.PLAYING).exists():
        raise ValidationError(f"Table {table.number} is in use.", code="table_busy")
    _put_at_table(tournament, match, table)


def game_changed(*, game: Game) -> None:
    """A hand was entered or corrected, a tie decided, or the rules changed, in one of a match's
    games: settle the match (next game, or its winner) and let the bracket move on. Called under
    the lock."""
    tournament = game.round.tournament
    match = Match.objects.get(pk=game.match_id)
    match.tournament = tournament
    games = list(match.games.select_related("round").order_by("match_game"))
    winner = matches.winner_from_games(match, games)
    if match.status == Match.Status.FINISHED:
        changed = winner is None or winner[0] != match.winner_id
        if winner is None and game.round.status == Round.Status.CLOSED:
            # Only a change of rules gets here (a correction must leave a closed round's game decided).
            raise InvalidHand(
                "its result would be undone, but the bracket is finished and its places given",
                field="hand",
                code="bracket_finished",
            )
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
    advance(tournament)


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


def _finish(tournament: Tournament) -> None:
    round_ = knockout_round(tournament)
    if round_ is not None and round_.status == Round.Status.RUNNING:
        round_.close(called="The bracket")
    tournament.status = Tournament.Status.FINISHED
    tournament.save(update_fields=["status"])


def places(tournament: Tournament) -> list[pure.Place[int]]:
    """Every team's place once the bracket is finished (team ids), best first."""
    return state(tournament).places()


def places_so_far(tournament: Tournament, matches: Sequence[Match] | None = None) -> list[pure.Place[int]]:
    """The places settled so far (team ids), best first: the teams out, and every team's at the end."""
    seeds, results = _seeds_and_results(tournament, matches)
    return pure.places_so_far(bracket_for(tournament, len(seeds)), seeds, results) if seeds else []
