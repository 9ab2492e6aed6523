"""League services: the season's schedule as matches, nights as rounds, the championship.

Who meets whom on which night comes from the pure :mod:`.schedule`; this module loads its values
from the records and saves what it returns. Every write runs under the tournament's lock
(:mod:`tournament.locking`), which the entry points here take first. A league match is a
:class:`Match` of stage "league" whose ``round`` is its night; a night is a :class:`Round` of the
same number, seated when the director opens it, so table links, QR codes, hand entry,
corrections, disputes and the clock work as in every other round. Home sits North–South and away
East–West.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max, Q, Sum

from scoring import Seat
from tournament.formats.knockout import services as knockout
from tournament.formats.knockout.models import settings_of as bracket_settings
from tournament.formats.league import schedule as pure
from tournament.formats.league.models import settings_of
from tournament.formats.league.standings import (
    championship_matches,
    last_night,
    league_matches,
    league_standings,
    night_title,
    season_over,
)
from tournament.locking import lock_tournament
from tournament.matches.rules import settle_after_game
from tournament.models import Clock, Game, Match, Round, RoundNotReady, Seating, Table, Team, Tournament

User = AbstractBaseUser | None
ROUND_ROBIN = "round_robin"
STAGE = Match.Stage.LEAGUE
CHAMPIONSHIP_POSITION = 10_000  # championship matches come after every league match in playing order


def load_schedule(
    tournament: Tournament, matches: list[Match] | None = None, teams: dict[int, Team] | None = None
) -> pure.Schedule[Team]:
    """The saved season as the schedule module's value; the teams are :class:`Team` rows, so the
    schedule's messages name them."""
    if matches is None:
        matches = list(league_matches(tournament).order_by("round", "number"))
    if teams is None:
        teams = {t.pk: t for t in tournament.teams.prefetch_related("players")}
    in_league = {m.home_id for m in matches} | {m.away_id for m in matches}
    field = sorted((teams[pk] for pk in in_league), key=lambda t: t.number)
    fixtures = tuple(
        pure.Fixture(
            leg=m.leg,
            night=m.round,
            home=teams[m.home_id],
            away=teams[m.away_id],
            postponed_from=m.postponed_from,
            walkover_to=teams[m.winner_id] if m.outcome == Match.Outcome.WALKOVER else None,
            void=m.void,
            make_up=m.make_up,
        )
        for m in matches
    )
    return pure.Schedule(
        teams=tuple(field),
        legs=settings_of(tournament).legs,
        fixtures=fixtures,
        joined=tuple((t, t.joined_night) for t in field if t.joined_night),
        withdrawn=tuple((t, t.withdrawn_night) for t in field if t.withdrawn_night),
    )


def _save_schedule(tournament: Tournament, schedule: pure.Schedule[Team], reason: str = "") -> None:
    """Write ``schedule`` over the saved league matches: moved ones move, new ones are created."""
    existing = {(m.leg, m.home_id, m.away_id): m for m in league_matches(tournament)}
    changed, created = [], []
    for night in range(1, schedule.nights + 1):
        for number, f in enumerate(schedule.on_night(night), start=1):
            match = existing.get((f.leg, f.home.pk, f.away.pk)) or Match(
                tournament=tournament,
                stage=STAGE,
                key=f"L{f.leg}-{f.home.number}-{f.away.number}",
                leg=f.leg,
                home=f.home,
                away=f.away,
                best_of=bracket_settings(tournament).best_of,
                status=Match.Status.READY,
            )
            before = (match.round, match.number, match.postponed_from, match.void, match.make_up, match.winner_id)
            match.round, match.number, match.position = night, number, night * 100 + number
            match.name = f"Night {night}, match {number}"
            match.postponed_from, match.void, match.make_up = f.postponed_from, f.void, f.make_up
            if f.walkover_to is not None and match.outcome != Match.Outcome.WALKOVER:
                match.status, match.winner, match.outcome = (
                    Match.Status.FINISHED,
                    f.walkover_to,
                    Match.Outcome.WALKOVER,
                )
                match.reason = reason or "Walkover"
            if match.pk is None:
                created.append(match)
            elif before != (
                match.round,
                match.number,
                match.postponed_from,
                match.void,
                match.make_up,
                match.winner_id,
            ):
                changed.append(match)
    fields = [
        "name",
        "round",
        "number",
        "position",
        "postponed_from",
        "void",
        "make_up",
        "status",
        "winner",
        "outcome",
        "reason",
    ]
    Match.objects.bulk_update(changed, fields)
    Match.objects.bulk_create(created)


@transaction.atomic
def build_schedule(*, tournament: Tournament, by: User = None) -> pure.Schedule[Team]:
    """Make the season's schedule for the playing teams (in registration order) and start the league."""
    tournament = lock_tournament(tournament.pk)
    if league_matches(tournament).exists():
        raise ValidationError("The schedule is already made.", code="already_scheduled")
    teams = list(tournament.teams.filter(status=Team.Status.ACTIVE).prefetch_related("players").order_by("number"))
    if len(teams) < 2:
        raise ValidationError("A league needs at least two teams.", code="too_few_teams")
    schedule = pure.round_robin(teams, legs=settings_of(tournament).legs)
    _save_schedule(tournament, schedule)
    tournament.status = Tournament.Status.RUNNING
    tournament.save(update_fields=["status"])
    return schedule


def nights_started(tournament: Tournament) -> int:
    """The last night that has been opened (0 before the first)."""
    return tournament.rounds.filter(number__lte=last_night(tournament)).aggregate(n=Max("number"))["n"] or 0


def _first_open_night(tournament: Tournament) -> int:
    """The first night from which the schedule may still change: the one after the last opened."""
    return nights_started(tournament) + 1


def _pure_call(function, *args, **kwargs):
    try:
        return function(*args, **kwargs)
    except pure.ScheduleError as error:
        raise ValidationError(str(error), code="schedule") from None


def can_postpone(match: Match, night: Round | None) -> bool:
    """A league match can move to another night while it is still to play: on a night not yet
    opened, or seated on a night opened but not started (a team calls in before play)."""
    if not match.is_league:
        return False
    return match.is_ready or (match.is_playing and night is not None and night.is_planned)


@transaction.atomic
def postpone_match(*, match: Match, to_night: int, by: User = None) -> None:
    """Move a league match not yet started to another night that has not been opened. A match
    seated on a night opened but not started leaves its table: its game, seats and clock go (no
    hand has been played at it), and the table is free for the director's other moves."""
    tournament = lock_tournament(match.tournament_id)
    match = Match.objects.get(pk=match.pk)
    night = tournament.rounds.filter(number=match.round).first()
    if not can_postpone(match, night):
        raise ValidationError(
            "Only a league match not yet started can be moved: its night is under way.", code="started"
        )
    if to_night <= nights_started(tournament):
        raise ValidationError(
            {"night": f"Night {to_night} has been opened already; choose a later night."}, code="night_opened"
        )
    schedule = load_schedule(tournament)
    if to_night > schedule.nights + 1:
        raise ValidationError(
            {"night": f"Move to night: the season has {schedule.nights} nights; choose night {schedule.nights} "
                      f"or earlier, or {schedule.nights + 1} for a new night after the last."},
            code="beyond_season",
        )  # fmt: skip
    key = (match.leg, match.home, match.away)  # teams compare by primary key
    schedule = _pure_call(pure.postpone, schedule, key, to_night=to_night)
    if match.is_playing:
        _unseat(match, night)
    _save_schedule(tournament, schedule)


def _unseat(match: Match, night: Round) -> None:
    """Take a seated match from its table on ``night`` (not started: its game has no hands)."""
    Seating.objects.filter(round=night, table=match.table).delete()
    clock = match.clock
    match.games.all().delete()
    match.table, match.clock, match.status = None, None, Match.Status.READY
    match.save(update_fields=["table", "clock", "status"])
    if clock is not None:
        clock.delete()


@transaction.atomic
def add_late_team(*, team: Team, missed: pure.Missed, by: User = None) -> int:
    """A team registered after the schedule was made joins from the next night not yet opened.

    Its matches on nights already opened are made up on later nights or forfeited (``missed``).
    Returns the night it joins from.
    """
    tournament = lock_tournament(team.tournament_id)
    schedule = load_schedule(tournament)
    if not schedule.fixtures:
        raise ValidationError("Make the schedule first; every registered team is in it.", code="no_schedule")
    from_night = _first_open_night(tournament)
    if from_night > schedule.nights:
        raise ValidationError(
            f"Every night of the season has been opened (the last is night {schedule.nights}): "
            "a team can no longer join.",
            code="season_over",
        )
    joined = _pure_call(pure.add_team, schedule, team, from_night=from_night, missed=missed)
    team.joined_night = from_night
    team.save(update_fields=["joined_night"])
    _save_schedule(tournament, joined, reason=f"Team {team.number} joined late (forfeit)")
    return from_night


@transaction.atomic
def withdraw_team(*, team: Team, played: pure.PlayedResults, by: User = None) -> int:
    """A team leaves the league: its matches still to play become walkovers to the opponent from the
    next night not yet opened; its played results stand or are voided. Returns that night."""
    tournament = lock_tournament(team.tournament_id)
    team = Team.objects.get(pk=team.pk)
    unfinished = league_matches(tournament).filter(Q(home=team) | Q(away=team), status=Match.Status.PLAYING)
    if unfinished.exists():
        raise ValidationError(
            f"Team {team.number} is playing a match tonight: finish or decide it first.", code="playing"
        )
    from_night = _first_open_night(tournament)
    schedule = load_schedule(tournament)
    if from_night > schedule.nights:
        raise ValidationError(
            f"The season is over (every night has been opened; the last is night {schedule.nights}): "
            "a team can no longer withdraw. A team that cannot play its championship match loses it by a "
            "walkover, on the match's page.",
            code="season_over",
        )
    schedule = _pure_call(pure.withdraw, schedule, team, from_night=from_night, played=played)
    team.status, team.withdrawn_night = Team.Status.WITHDRAWN, from_night
    team.results_voided = played is pure.PlayedResults.VOID
    team.save(update_fields=["status", "withdrawn_night", "results_voided"])
    _save_schedule(tournament, schedule, reason=f"Team {team.number} withdrew")
    return from_night


# --- nights ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class NightPlan:
    """One night of the schedule as the pages show it: its round once opened, its matches (with
    ``home_points``/``away_points`` summed over their games) and the teams resting."""

    number: int
    round: Round | None
    matches: list[Match]
    resting: list[str]


def nights(tournament: Tournament, only: int | None = None) -> list[NightPlan]:
    """The whole season night by night (or just night ``only``), in a fixed number of queries."""
    matches = (
        league_matches(tournament)
        .select_related("home", "away", "table")
        .annotate(home_points=Sum("games__ns_score"), away_points=Sum("games__ew_score"))
        .order_by("round", "number")
    )
    matches = list(matches if only is None else matches.filter(round=only))
    teams = {t.pk: t for t in tournament.teams.prefetch_related("players")}
    for m in matches:
        m.home, m.away = teams[m.home_id], teams[m.away_id]  # the prefetched players name them
    schedule = load_schedule(tournament, None if only else matches, teams)
    rounds = {r.number: r for r in tournament.rounds.all()}
    by_night: dict[int, list[Match]] = {}
    for m in matches:
        by_night.setdefault(m.round, []).append(m)
    started = max((n for n in rounds if n <= schedule.nights), default=0)
    free = pure.free_nights(schedule, first=started + 1)
    for m in matches:
        # What the schedule page offers: Postpone, to the first night both teams are free (when no
        # night of the season is, a new night after the last: the furthest a match can move).
        m.postponable = can_postpone(m, rounds.get(m.round))
        m.move_to = free.get((m.leg, m.home, m.away))
        m.last_night, m.move_to_max = schedule.nights, schedule.nights + 1
        m.move_adds_night = m.move_to == m.move_to_max
    numbers = [only] if only else range(1, schedule.nights + 1)
    return [
        NightPlan(n, rounds.get(n), by_night.get(n, []), [t.names for t in schedule.resting_on(n)]) for n in numbers
    ]


@transaction.atomic
def open_night(*, tournament: Tournament, night: int, by: User = None) -> Round:
    """Seat a night: each of its matches at a table (in schedule order), links ready; the director
    starts it as any round (:func:`services.start_round`)."""
    tournament = lock_tournament(tournament.pk)
    if tournament.rounds.exclude(status=Round.Status.CLOSED).exists():
        raise ValidationError("Close the night being played before opening another.", code="night_open")
    if tournament.rounds.filter(number=night).exists():
        raise ValidationError(f"Night {night} has been opened already.", code="night_opened")
    if night != nights_started(tournament) + 1:
        raise ValidationError(f"Nights open in order: next is night {nights_started(tournament) + 1}.", code="order")
    matches = list(
        league_matches(tournament)
        .filter(round=night, status=Match.Status.READY)
        .select_related("home", "away")
        .order_by("number")
    )
    round_ = Round.objects.create(tournament=tournament, number=night)
    known = set(tournament.tables.values_list("number", flat=True))
    Table.objects.bulk_create(
        Table(tournament=tournament, number=n) for n in range(1, len(matches) + 1) if n not in known
    )
    tables = {t.number: t for t in tournament.tables.all()}
    players = {}
    for team_id, player_id in tournament.teams.values_list("pk", "players__pk").order_by("pk", "players__pk"):
        players.setdefault(team_id, []).append(player_id)
    minutes = tournament.rules.time_limit_minutes
    for table_number, match in enumerate(matches, start=1):
        table = tables[table_number]
        match.table, match.status = table, Match.Status.PLAYING
        if minutes:
            match.clock = Clock.objects.create(tournament=tournament, minutes=minutes)
        match.save(update_fields=["table", "status", "clock"])
        Game.objects.create(round=round_, table=table, match=match, match_game=1, clock=match.clock)
        north, south = players[match.home_id]
        east, west = players[match.away_id]
        Seating.objects.bulk_create(
            Seating(round=round_, table=table, seat=seat, player_id=player)
            for seat, player in zip(Seat, (north, east, south, west), strict=True)
        )
    return round_


def close_night(round_: Round) -> None:
    """Close a night whose matches are all decided (:class:`RoundNotReady` says which are not);
    the caller holds the tournament's lock."""
    undecided = league_matches(round_.tournament).filter(round=round_.number, status=Match.Status.PLAYING)
    tables = sorted(undecided.values_list("table__number", flat=True))
    round_.close(called=night_title(round_))  # names the tables still playing, tied or disputed
    if tables:
        raise RoundNotReady(
            f"{night_title(round_)} cannot close: the match at table {', '.join(map(str, tables))} is not decided "
            "(play on, or decide it).",
            code="match_open",
        )
    tournament = round_.tournament
    if season_over(tournament) and not settings_of(tournament).championship_teams:
        tournament.status = Tournament.Status.FINISHED
        tournament.save(update_fields=["status"])


# --- matches: the next game, or the winner -----------------------------------------------------


def game_changed(*, game: Game) -> None:
    """A hand was entered or corrected, or a tie decided, in a league match's game: the match goes
    on to its next game or is decided, by the same match rules as a knockout's (best of N, time).
    A correction may change who won; the league table follows. Called under the lock."""
    settle_after_game(game=game, round_word="night")


# --- the championship and the places -------------------------------------------------------------


@transaction.atomic
def start_championship(*, tournament: Tournament, by: User = None) -> Round:
    """The season is over: the top two (a final) or four (semi-finals, then a final) of the league
    table play the championship, seeded by the table, in a round after the last night. The final is
    played under the tournament's final rule set (rule text 004: a game to 500)."""
    tournament = lock_tournament(tournament.pk)
    size = settings_of(tournament).championship_teams
    if not size:
        raise ValidationError("This league has no championship.", code="no_championship")
    if championship_matches(tournament).exists():
        raise ValidationError("The championship has started already.", code="started")
    undecided = league_matches(tournament).exclude(status=Match.Status.FINISHED).count()
    if undecided or tournament.rounds.exclude(status=Round.Status.CLOSED).exists():
        raise ValidationError(
            f"Finish the season first: {undecided} league matches are still to play, and every night must be closed.",
            code="season_open",
        )
    lines = [line for line in league_standings(tournament).lines if not line.withdrawn]
    if len(lines) < size:
        raise ValidationError(f"The championship needs {size} teams still in the league.", code="too_few")
    seeded = [line.row.team for line in lines[:size]]
    tournament.teams.update(seed=None)
    for seed, team_id in enumerate(seeded, start=1):
        Team.objects.filter(pk=team_id).update(seed=seed)
    knockout.create_matches(tournament, knockout.bracket_for(tournament, size), after=CHAMPIONSHIP_POSITION)
    round_ = Round.objects.create(
        tournament=tournament, number=(tournament.rounds.aggregate(n=Max("number"))["n"] or 0) + 1
    )
    round_.start(called="The championship")
    knockout.advance(tournament)
    return round_
