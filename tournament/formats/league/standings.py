"""A league's places read back: the league table (the pure :mod:`.table`'s order over the
decided matches), the championship's places, the season's champion. Read-only."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Max, Q, Sum

from scoring.words import listed, ordinal
from tournament.formats.knockout import services as knockout
from tournament.formats.knockout.bracket import Place
from tournament.formats.league.models import settings_of
from tournament.formats.league.table import LeagueRow, MatchResult, league_table, order_text
from tournament.models import Game, Match, Round, Team, Tournament
from tournament.standings.ranking import Standing
from tournament.standings.rows import StandingRow, TeamLine


def league_matches(tournament: Tournament):
    """The season's matches (not the championship's)."""
    return Match.objects.filter(tournament=tournament, stage=Match.Stage.LEAGUE)


def last_night(tournament: Tournament) -> int:
    """The season's last night (0 before the schedule is made)."""
    return league_matches(tournament).aggregate(n=Max("round"))["n"] or 0


def is_championship(round_: Round) -> bool:
    """Whether ``round_`` is the championship: the round played after the season's last night."""
    last = last_night(round_.tournament)
    return bool(last) and round_.number > last


def night_title(round_: Round) -> str:
    """What a league calls ``round_``: "Night 3", or "Championship" after the season's nights."""
    return "Championship" if is_championship(round_) else f"Night {round_.number}"


def championship_matches(tournament: Tournament):
    return knockout.bracket_matches(tournament)


def season_over(tournament: Tournament) -> bool:
    """Whether the season's schedule is made and every league match in it decided."""
    matches = league_matches(tournament)
    return matches.exists() and not matches.exclude(status=Match.Status.FINISHED).exists()


@dataclass(frozen=True)
class LeagueStandings:
    lines: list[TeamLine[LeagueRow[int]]]
    ties: tuple[str, ...]
    order: str


def league_standings(tournament: Tournament, *, through: int | None = None) -> LeagueStandings:
    """The league table: every team of the season ranked, each tie explained, the order in words;
    with ``through``, as it stood once night ``through`` was over (a team that joined after that
    night is not in it)."""
    in_league = set(league_matches(tournament).values_list("home_id", flat=True)) | set(
        league_matches(tournament).values_list("away_id", flat=True)
    )
    teams = {t.pk: t for t in tournament.teams.prefetch_related("players").order_by("number") if t.pk in in_league}
    if through is not None:
        teams = {pk: team for pk, team in teams.items() if (team.joined_night or 0) <= through}
    names = {pk: team.names for pk, team in teams.items()}
    tiebreakers = settings_of(tournament).league_tiebreakers
    table = league_table(list(teams), results(tournament, through=through), tiebreakers, name=names.__getitem__)
    lines = [TeamLine(row, names[row.team], _note(teams[row.team]), teams[row.team].withdrawn_night is not None)
             for row in table.rows]  # fmt: skip
    return LeagueStandings(lines, table.ties, order_text(tiebreakers))


def _note(team: Team) -> str:
    notes = []
    if team.joined_night:
        notes.append(f"joined at night {team.joined_night}")
    if team.withdrawn_night:
        kept = "voided" if team.results_voided else "stand"
        notes.append(f"withdrew before night {team.withdrawn_night}: played results {kept}, the rest walkovers")
    return "; ".join(notes)


def results(tournament: Tournament, *, through: int | None = None) -> list[MatchResult[int]]:
    """Every decided league match that counts (not voided): winner, game points and bags per team;
    with ``through``, of the nights up to that one only.

    A walkover counts from its night on: once that night is opened, or once the season has nothing
    left to play (its last nights may hold only walkovers). So a withdrawal's walkovers on later
    nights do not show as matches played before those nights come."""
    matches = league_matches(tournament)
    decided = matches.filter(status=Match.Status.FINISHED, void=False, winner__isnull=False)
    if through is not None:
        decided = decided.filter(round__lte=through)
    if matches.exclude(status=Match.Status.FINISHED).exists():
        opened = tournament.rounds.values("number")
        decided = decided.filter(~Q(outcome=Match.Outcome.WALKOVER) | Q(round__in=opened))
    totals = {
        g["match_id"]: g
        for g in Game.objects.filter(match__in=decided)
        .values("match_id")
        .annotate(home=Sum("ns_score"), away=Sum("ew_score"), home_bags=Sum("ns_bags"), away_bags=Sum("ew_bags"))
    }
    out = []
    for m in decided.values("pk", "home_id", "away_id", "winner_id", "outcome"):
        t = totals.get(m["pk"], {})
        out.append(
            MatchResult(
                m["home_id"],
                m["away_id"],
                m["winner_id"],
                t.get("home") or 0,
                t.get("away") or 0,
                t.get("home_bags") or 0,
                t.get("away_bags") or 0,
                walkover=m["outcome"] == Match.Outcome.WALKOVER,
            )
        )
    return out


def standing_rows(tournament: Tournament) -> list[StandingRow]:
    """The places prizes go by: the championship's (champion, finalist, semi-finalists) once it is
    played, then everyone else in league-table order; without a championship, the league table."""
    table = league_standings(tournament)
    teams = {t.pk: t for t in tournament.teams.prefetch_related("players")}
    placed = [(place.place, team) for place in _championship(tournament) for team in place.teams]
    done = {team for _, team in placed}
    offset = len(placed)
    first_rank = None
    for line in table.lines:
        if line.row.team in done:
            continue
        first_rank = line.row.rank if first_rank is None else first_rank
        placed.append((offset + line.row.rank - first_rank + 1, line.row.team))
    return [
        _standing_row(rank, teams[team], {line.row.team: line.row.won for line in table.lines}) for rank, team in placed
    ]


def standing_rows_after(tournament: Tournament, night: int) -> list[StandingRow]:
    """The league table once night ``night`` was over, as standings rows (the championship's
    places are not in it: a night past the season's last gives the table after every night)."""
    table = league_standings(tournament, through=night)
    teams = {t.pk: t for t in tournament.teams.prefetch_related("players")}
    won = {line.row.team: line.row.won for line in table.lines}
    return [_standing_row(line.row.rank, teams[line.row.team], won) for line in table.lines]


def _championship(tournament: Tournament) -> list[Place[int]]:
    """The championship's places (team ids), best first; none until its final is decided."""
    if not championship_matches(tournament).exists():
        return []
    bracket = knockout.state(tournament)
    return bracket.places() if bracket.finished else []


@dataclass(frozen=True)
class ChampionshipPlace:
    place: int
    names: list[str]

    @property
    def ordinal(self) -> str:
        return ordinal(self.place)


def championship_places(tournament: Tournament) -> list[ChampionshipPlace]:
    """The champion and the other places the championship decided, for the league's pages; empty
    until the final is decided."""
    names = {t.pk: t.names for t in tournament.teams.prefetch_related("players")}
    return [ChampionshipPlace(p.place, [names[t] for t in p.teams]) for p in _championship(tournament)]


@dataclass(frozen=True)
class LeagueChampion:
    """Who won the season, for the league's pages: ``team`` (its names) and the championship's
    ``places`` when its final is decided; in a league without a championship, the top of the final
    league table and no places, or no ``team`` while ``level`` teams share first place."""

    team: str
    places: list[ChampionshipPlace]
    level: str = ""


def champion(tournament: Tournament, standings: LeagueStandings | None = None) -> LeagueChampion | None:
    """The season's champion, or None before it is known: the championship's winner once its
    final is decided; without a championship, the top of the league table once every league match
    is decided. Teams level at the top after every tiebreaker make no champion: the director
    decides between them (``level`` names them). ``standings``: the league table, if already read."""
    places = championship_places(tournament)
    if places:
        return LeagueChampion(" and ".join(places[0].names), places)
    if settings_of(tournament).championship_teams or not season_over(tournament):
        return None
    top = [line.name for line in (standings or league_standings(tournament)).lines if line.row.rank == 1]
    if len(top) == 1:
        return LeagueChampion(top[0], [])
    return LeagueChampion("", [], level=listed(top))


def _standing_row(rank: int, team: Team, won: dict[int, int]) -> StandingRow:
    divisions = {p.division for p in team.players.all()}
    wins = won.get(team.pk, 0)
    return StandingRow(
        Standing(rank, team.pk, wins, wins, (), (rank,)),
        team.names,
        divisions.pop() if len(divisions) == 1 else "",
        team.status == Team.Status.WITHDRAWN,
    )
