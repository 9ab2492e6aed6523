"""Swiss services: pairing and seating each round, closing it, the director's changes before a
round starts (two teams swap places), late teams and withdrawals.

Who meets whom comes from the pure :func:`.pairing.pair_round` over the standings so far
(:mod:`.standings`); this module saves what it returns. Each pairing is a :class:`Match` (one
game, or the best of N) at a table, the best-ranked pairing at table 1; a bye is a match of status
"bye" with its one team. A round is a :class:`Round` of the same number, seated when the round
before it closes, so table links, QR codes, hand entry, corrections, disputes and the clock work
as in every other round. The higher-ranked team of a pairing sits North–South. Every write runs
under the tournament's lock, which the entry points here take first.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max, Q

from scoring import Seat
from tournament.formats.swiss.models import LateEntry, settings_of
from tournament.formats.swiss.pairing import RoundPairing, pair_round
from tournament.formats.swiss.standings import STAGE, seeding, swiss_matches, swiss_standings
from tournament.locking import lock_tournament
from tournament.matches.rules import settle_after_game
from tournament.models import Clock, Game, Match, Round, RoundNotReady, Seating, SeatingChange, Table, Team, Tournament

User = AbstractBaseUser | None
SWISS = "swiss"
BYE_NUMBER = 0  # a bye's match number: it has no table


@transaction.atomic
def start(*, tournament: Tournament, by: User = None) -> Round:
    """Pair and seat round 1 from the seeding (seeds, registration order or the draw) and start
    the event."""
    tournament = lock_tournament(tournament.pk)
    if tournament.rounds.exists():
        raise ValidationError("Round 1 is paired already.", code="already_started")
    if tournament.teams.filter(status=Team.Status.ACTIVE).count() < 2:
        raise ValidationError("A Swiss event needs at least two teams.", code="too_few_teams")
    tournament.status = Tournament.Status.RUNNING
    tournament.save(update_fields=["status"])
    return _seat(tournament, Round.objects.create(tournament=tournament, number=1))


def _pairing(tournament: Tournament, number: int) -> RoundPairing:
    """Round ``number``'s pairing: the playing teams in standings order (round 1: the seeding),
    the pairs already met, and who has had a bye."""
    teams = {t.pk: t for t in tournament.teams.all()}
    if number == 1:
        ranked = [t.pk for t in seeding(tournament, teams.values())]
    else:
        ranked = swiss_standings(tournament).ranked()
    playing = [pk for pk in ranked if teams[pk].status == Team.Status.ACTIVE]
    earlier = swiss_matches(tournament).filter(round__lt=number)
    met = {frozenset(pair) for pair in earlier.filter(away__isnull=False).values_list("home_id", "away_id")}
    had_bye = set(earlier.filter(status=Match.Status.BYE).values_list("home_id", flat=True))
    return pair_round(playing, met, had_bye)


def _seat(tournament: Tournament, round_: Round) -> Round:
    """Pair ``round_`` (planned, nothing seated) and seat it: each pairing at a table in rank
    order, its first game, seats and clock; the bye as a match won without play."""
    number = round_.number
    pairing = _pairing(tournament, number)
    if len(pairing.pairs) < 1:
        raise ValidationError("A Swiss round needs at least two teams still playing.", code="too_few_teams")
    known = set(tournament.tables.values_list("number", flat=True))
    Table.objects.bulk_create(
        Table(tournament=tournament, number=n) for n in range(1, len(pairing.pairs) + 1) if n not in known
    )
    tables = {t.number: t for t in tournament.tables.all()}
    players = _players(tournament)
    minutes = tournament.rules.time_limit_minutes
    best_of = settings_of(tournament).best_of
    first = _first_position(tournament)
    for table_number, (home, away) in enumerate(pairing.pairs, start=1):
        table = tables[table_number]
        match = Match.objects.create(
            tournament=tournament, stage=STAGE, key=f"S{number}-{table_number}", name=f"Round {number}, match "
            f"{table_number}", round=number, number=table_number, position=first + table_number,
            home_id=home, away_id=away, best_of=best_of, status=Match.Status.PLAYING, table=table,
            clock=Clock.objects.create(tournament=tournament, minutes=minutes) if minutes else None,
        )  # fmt: skip
        Game.objects.create(round=round_, table=table, match=match, match_game=1, clock=match.clock)
        _seat_players(round_, table, players[home], players[away])
    if pairing.bye is not None:
        Match.objects.create(
            tournament=tournament, stage=STAGE, key=f"S{number}-B", name=f"Round {number}, bye", round=number,
            number=BYE_NUMBER, position=first, home_id=pairing.bye, winner_id=pairing.bye,
            status=Match.Status.BYE, best_of=best_of,
        )  # fmt: skip
    return round_


def _first_position(tournament: Tournament) -> int:
    """Where a new round's matches start in the event's playing order (its bye there, table n at
    ``n`` after it): after every Swiss match made before, so no size of field makes one round's
    positions run into the next's."""
    top = swiss_matches(tournament).aggregate(top=Max("position"))["top"]
    return 0 if top is None else top + 1


def _players(tournament: Tournament) -> dict[int, list[int]]:
    players: dict[int, list[int]] = {}
    for team_id, player_id in tournament.teams.values_list("pk", "players__pk").order_by("pk", "players__pk"):
        players.setdefault(team_id, []).append(player_id)
    return players


def _seat_players(round_: Round, table: Table, home: list[int], away: list[int]) -> None:
    """The home team North–South, the away team East–West."""
    north, south = home
    east, west = away
    Seating.objects.bulk_create(
        Seating(round=round_, table=table, seat=seat, player_id=player)
        for seat, player in zip(Seat, (north, east, south, west), strict=True)
    )


def _unseat(round_: Round) -> None:
    """Take every pairing of a round seated but not started (no hand entered) off its table."""
    matches = swiss_matches(round_.tournament).filter(round=round_.number)
    clocks = [m.clock_id for m in matches if m.clock_id]
    round_.seatings.all().delete()
    round_.games.all().delete()
    matches.delete()
    Clock.objects.filter(pk__in=clocks).delete()


def close_round(round_: Round) -> Round | None:
    """Close a round whose pairings are all decided (:class:`RoundNotReady` says which are not)
    and pair the next, or finish the event after the last round; the caller holds the lock."""
    tournament = round_.tournament
    called = f"Round {round_.number}"
    undecided = swiss_matches(tournament).filter(round=round_.number, status=Match.Status.PLAYING)
    tables = sorted(undecided.values_list("table__number", flat=True))
    round_.close(called=called)  # names the tables still playing, tied or disputed
    if tables:
        raise RoundNotReady(
            f"{called} cannot close: the match at table {', '.join(map(str, tables))} is not decided "
            "(play on, or decide it).",
            code="match_open",
        )
    if round_.number >= settings_of(tournament).rounds:
        tournament.status = Tournament.Status.FINISHED
        tournament.save(update_fields=["status"])
        return None
    return _seat(tournament, Round.objects.create(tournament=tournament, number=round_.number + 1))


def game_changed(*, game: Game) -> None:
    """A hand was entered or corrected, or a tie decided, in a pairing's game: the match goes on to
    its next game or is decided (best of N, time), as every format's matches are. Called under the lock."""
    settle_after_game(game=game, round_word="round")


# --- the director's changes ---------------------------------------------------------------------


def planned_round(tournament: Tournament) -> Round | None:
    """The round paired and seated but not started, if any: the one changes still reach."""
    return tournament.rounds.filter(status=Round.Status.PLANNED).first()


def next_round_number(tournament: Tournament) -> int | None:
    """The first round a change of entrants reaches: the one seated but not started, else the one
    after the round being played; None before round 1 is paired and once the last has been."""
    last = tournament.rounds.order_by("-number").first()
    if last is None:
        return None
    if last.is_planned:
        return last.number
    following = last.number + 1
    return following if following <= settings_of(tournament).rounds else None


@transaction.atomic
def swap_teams(*, tournament: Tournament, first: Team, second: Team, by: User = None) -> str:
    """Before a round starts: two teams exchange their places in its pairings (a table, or the
    bye), their players' seats following. Returns what happened, in words."""
    tournament = lock_tournament(tournament.pk)
    round_ = planned_round(tournament)
    if round_ is None:
        raise ValidationError("Teams swap places only in a round paired but not started.", code="not_planned")
    if first.pk == second.pk:
        raise ValidationError({"second": "Choose two different teams."}, code="same_team")
    matches = list(swiss_matches(tournament).filter(round=round_.number).filter(
        Q(home__in=[first, second]) | Q(away__in=[first, second])))  # fmt: skip
    places = {}
    for match in matches:
        for side in ("home", "away"):
            if getattr(match, f"{side}_id") in (first.pk, second.pk):
                places[getattr(match, f"{side}_id")] = (match, side)
    for team in (first, second):
        if team.pk not in places:
            raise ValidationError(f"Team {team.number} is not paired in round {round_.number}.", code="not_paired")
    (match_a, side_a), (match_b, side_b) = places[first.pk], places[second.pk]
    if match_a.pk == match_b.pk:
        raise ValidationError(
            f"Teams {first.number} and {second.number} play each other: swap one of them with a team at another table.",
            code="same_match",
        )
    setattr(match_a, f"{side_a}_id", second.pk)
    setattr(match_b, f"{side_b}_id", first.pk)
    for match in (match_a, match_b):
        if match.is_bye:
            match.winner_id = match.home_id
        match.save(update_fields=["home", "away", "winner"])
    _reseat(round_, [m for m in (match_a, match_b) if not m.is_bye])
    what = (f"Teams {first.number} and {second.number} swapped places: team {first.number} to {_where(match_b)}, "
            f"team {second.number} to {_where(match_a)}.")  # fmt: skip
    SeatingChange.objects.create(round=round_, changed_by=by, description=what)
    return what


def _where(match: Match) -> str:
    return "the bye" if match.is_bye else f"table {match.number}"


def _reseat(round_: Round, matches: list[Match]) -> None:
    players = _players(round_.tournament)
    tables = [m.table_id for m in matches]
    Seating.objects.filter(round=round_, table_id__in=tables).delete()
    for match in matches:
        _seat_players(round_, match.table, players[match.home_id], players[match.away_id])


def entrants_changed(*, tournament: Tournament, reason: str, by: User = None) -> None:
    """A team registered late, withdrew or came back (under the lock): a late team joins from the
    next round (its missed rounds a loss each until the director scores them otherwise), a
    withdrawn team is paired no more, and a round paired but not started is paired again."""
    following = next_round_number(tournament)
    if following is None:
        return
    in_play = set(swiss_matches(tournament).values_list("home_id", flat=True)) | set(
        swiss_matches(tournament).values_list("away_id", flat=True)
    )
    for team in tournament.teams.filter(status=Team.Status.ACTIVE, swiss_late_entry__isnull=True):
        if team.pk not in in_play and following > 1:
            LateEntry.objects.create(team=team, joined_round=following)
    tournament.teams.filter(status=Team.Status.WITHDRAWN, withdrawn_night__isnull=True).update(
        withdrawn_night=following
    )
    tournament.teams.filter(status=Team.Status.ACTIVE, withdrawn_night__isnull=False).update(withdrawn_night=None)
    round_ = planned_round(tournament)
    if round_ is not None:
        _unseat(round_)
        _seat(tournament, round_)
        SeatingChange.objects.create(
            round=round_, changed_by=by, description=f"{reason}: round {round_.number} paired again."
        )


@transaction.atomic
def score_missed_rounds(
    *, entry: LateEntry, won: bool, points_for: int, points_against: int, by: User = None
) -> LateEntry:
    """The director's score for each round a late team missed (a loss with no points until then)."""
    lock_tournament(entry.team.tournament_id)
    entry = LateEntry.objects.select_related("team").get(pk=entry.pk)
    entry.won, entry.points_for, entry.points_against = won, points_for, points_against
    entry.full_clean()
    entry.save(update_fields=["won", "points_for", "points_against"])
    return entry
