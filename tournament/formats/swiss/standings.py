"""A Swiss event's standings read back from its matches (the pure :mod:`.table`'s order), the
seeding round 1 is paired in, and each round's pairings as the pages show them. Read-only."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Sum

from tournament.formats.swiss.models import LateEntry, settings_of
from tournament.formats.swiss.table import Alone, Played, SwissRow, order_text, swiss_table
from tournament.models import Game, Match, Player, Round, Team, Tournament
from tournament.standings.ranking import Standing
from tournament.standings.rows import StandingRow, TeamLine

# A Swiss pairing's match: of a numbered round (Match.in_round), named "round 3, match 2".
STAGE = Match.Stage.SWISS


def swiss_matches(tournament: Tournament):
    """Every pairing and bye of every round."""
    return Match.objects.filter(tournament=tournament, stage=STAGE)


def seeding(tournament: Tournament, teams: Iterable[Team]) -> list[Team]:
    """The order round 1 is paired in (and teams level after every tiebreak keep): the director's
    seeds, registration order, or a draw from the tournament's seed, as its seating order says."""
    by_number = sorted(teams, key=lambda t: t.number)
    if tournament.seating_order == Tournament.SeatingOrder.DIRECTOR:
        return sorted(by_number, key=lambda t: (t.seed is None, t.seed or 0))
    if tournament.is_random_draw:
        random.Random(tournament.seating_seed).shuffle(by_number)
    return by_number


@dataclass(frozen=True)
class SwissStandings:
    lines: list[TeamLine[SwissRow[int]]]
    ties: tuple[str, ...]
    order: str

    def ranked(self) -> list[int]:
        """The teams' ids best first: the order the next round is paired in."""
        return [line.row.team for line in self.lines]


def swiss_standings(tournament: Tournament, *, through: int | None = None) -> SwissStandings:
    """Every team ranked by its results so far, each tie explained, the order in words; with
    ``through``, as they stood once round ``through`` was over (a team that joined after it is
    not in them)."""
    late = {e.team_id: e for e in LateEntry.objects.filter(team__tournament=tournament)}
    joined_after = {team for team, entry in late.items() if through is not None and entry.joined_round > through}
    teams = seeding(tournament, tournament.teams.exclude(pk__in=joined_after))
    names = team_names(tournament)
    settings = settings_of(tournament)
    played, alone = results(tournament, late, through=through)
    table = swiss_table([t.pk for t in teams], played, alone, settings.swiss_tiebreaks, name=names.__getitem__)
    by_pk = {team.pk: team for team in teams}
    lines = [TeamLine(row, names[row.team], _note(by_pk[row.team], late.get(row.team)), by_pk[row.team].is_withdrawn)
             for row in table.rows]  # fmt: skip
    return SwissStandings(lines, table.ties, order_text(settings.swiss_tiebreaks))


def team_names(tournament: Tournament) -> dict[int, str]:
    """Each team's names as :attr:`Team.names` gives them, in one query: a 256-team field's
    prefetched players cost more than the whole ranking."""
    players: dict[int, list[str]] = {}
    for team, name in (
        Player.objects.filter(team__tournament=tournament).order_by("team", "id").values_list("team_id", "name")
    ):
        players.setdefault(team, []).append(name)
    return {team: " & ".join(names) for team, names in players.items()}


def _note(team: Team, late: LateEntry | None) -> str:
    notes = []
    if late is not None:
        counted = "won" if late.won else "lost"
        notes.append(f"joined at round {late.joined_round}; rounds missed count as {counted} "
                     f"{late.points_for} to {late.points_against}")  # fmt: skip
    if team.is_withdrawn:
        notes.append(f"withdrew before round {team.withdrawn_night}" if team.withdrawn_night else "withdrew")
    return "; ".join(notes)


def results(
    tournament: Tournament, late: dict[int, LateEntry], *, through: int | None = None
) -> tuple[list[Played[int]], list[Alone[int]]]:
    """Every decided pairing (game points summed over its games; a walkover's count for nobody),
    every bye (won by the settings' score) and every round a late team missed; with ``through``,
    of rounds up to that one only."""
    matches = swiss_matches(tournament)
    if through is not None:
        matches = matches.filter(round__lte=through)
    decided = matches.filter(status=Match.Status.FINISHED, winner__isnull=False, away__isnull=False)
    totals = {
        g["match_id"]: (g["home"] or 0, g["away"] or 0)
        for g in Game.objects.filter(match__in=decided)
        .values("match_id")
        .annotate(home=Sum("ns_score"), away=Sum("ew_score"))
    }
    played = []
    for m in decided.values("pk", "round", "home_id", "away_id", "winner_id", "outcome"):
        home, away = (0, 0) if m["outcome"] == Match.Outcome.WALKOVER else totals.get(m["pk"], (0, 0))
        played.append(Played(m["round"], m["home_id"], m["away_id"], m["winner_id"], home, away))
    settings = settings_of(tournament)
    # A bye counts once its round has started, as the pairings at the tables do.
    started = tournament.rounds.exclude(status=Round.Status.PLANNED).values("number")
    byes = matches.filter(status=Match.Status.BYE, round__in=started).values_list("round", "home_id")
    alone = [Alone(number, team, True, settings.bye_points_for, settings.bye_points_against) for number, team in byes]
    for entry in late.values():
        if through is not None and entry.joined_round > through:
            continue  # not yet in the event (see swiss_standings)
        alone.extend(Alone(n, entry.team_id, entry.won, entry.points_for, entry.points_against, bye=False)
                     for n in range(1, entry.joined_round))  # fmt: skip
    return played, alone


def standing_rows(tournament: Tournament, *, through: int | None = None) -> list[StandingRow]:
    """The places prizes go by: the final standings; with ``through``, those once round
    ``through`` was over."""
    table = swiss_standings(tournament, through=through)
    teams = {t.pk: t for t in tournament.teams.prefetch_related("players")}
    rows = []
    for line in table.lines:
        team = teams[line.row.team]
        divisions = {p.division for p in team.players.all()}
        standing = Standing(line.row.rank, team.pk, line.row.won, line.row.won, (), (line.row.rank,))
        rows.append(StandingRow(standing, line.name, divisions.pop() if len(divisions) == 1 else "", line.withdrawn))
    return rows


@dataclass(frozen=True)
class RoundPlan:
    """One round's pairings as the pages show them: its matches at their tables in rank order
    (with ``home_names``/``away_names``, and ``home_points``/``away_points`` summed over their
    games), and the bye."""

    number: int
    matches: list[Match]
    bye: str


def round_plan(tournament: Tournament, number: int) -> RoundPlan:
    """Round ``number``'s pairings, in a fixed number of queries."""
    matches = list(
        swiss_matches(tournament)
        .filter(round=number)
        .select_related("table", "clock")
        .annotate(home_points=Sum("games__ns_score"), away_points=Sum("games__ew_score"))
        .order_by("number")
    )
    names = team_names(tournament)
    for m in matches:
        m.home_names, m.away_names = names[m.home_id], names.get(m.away_id, "")
    bye = next((m.home_names for m in matches if m.is_bye), "")
    return RoundPlan(number, [m for m in matches if not m.is_bye], bye)
