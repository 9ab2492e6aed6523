"""Read-side views of a knockout: the bracket by columns and the matches now playing, with clocks.

A fixed number of queries however large the bracket is.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Q

from tournament.formats.knockout.services import BRACKET_STAGES, DOUBLE, bracket_matches, drawn_bracket, places_so_far
from tournament.models import Clock, Game, Match, Player, Team, Tournament


@dataclass
class MatchCard:
    match: Match
    home: str
    away: str
    games: list[Game] = field(default_factory=list)
    disputed: int = 0

    @property
    def current_game(self) -> Game | None:
        return next((g for g in self.games if g.status != Game.Status.FINISHED), None)

    @property
    def wins(self) -> tuple[int, int]:
        finished = [g for g in self.games if g.status == Game.Status.FINISHED]
        return sum(g.winner == "NS" for g in finished), sum(g.winner == "EW" for g in finished)

    @property
    def clock(self) -> Clock | None:
        return self.match.clock


@dataclass
class Column:
    title: str
    cards: list[MatchCard]


@dataclass
class BracketView:
    columns: list[Column]
    playing: list[MatchCard]
    ready: list[MatchCard]
    champion: str
    double: bool

    @property
    def clocks_to_start(self) -> int:
        return sum(1 for card in self.playing if card.clock is not None and not card.clock.started)


def _names(tournament: Tournament) -> dict[int, str]:
    return _teams(tournament)[0]


def _teams(tournament: Tournament) -> tuple[dict[int, str], dict[int, str]]:
    """Each team's names ("Ada & Ben") and its division (when its players share one)."""
    names: dict[int, list[str]] = {}
    divisions: dict[int, set[str]] = {}
    for team_id, name, division in Player.objects.filter(team__tournament=tournament).values_list(
        "team_id", "name", "division"
    ):
        names.setdefault(team_id, []).append(name)
        divisions.setdefault(team_id, set()).add(division)
    shared = {team: next(iter(d)) if len(d) == 1 else "" for team, d in divisions.items()}
    return {team: " & ".join(players) for team, players in names.items()}, shared


def bracket_view(tournament: Tournament) -> BracketView:
    """The bracket in columns (winners' rounds, losers' rounds, finals) and the live matches."""
    names = _names(tournament)
    seeds = dict(tournament.teams.filter(seed__isnull=False).values_list("pk", "seed"))

    def name(team_id: int | None) -> str:
        return f"({seeds.get(team_id, '')}) {names[team_id]}" if team_id else ""

    matches = list(bracket_matches(tournament).select_related("table", "clock").order_by("position"))
    games: dict[int, list[Game]] = {}
    disputed: dict[int, int] = {}
    for game in (
        Game.objects.filter(match__tournament=tournament, match__stage__in=BRACKET_STAGES)
        .annotate(disputes=Count("hands", filter=Q(hands__disputed=True)))
        .order_by("match_game")
    ):
        games.setdefault(game.match_id, []).append(game)
        disputed[game.match_id] = disputed.get(game.match_id, 0) + game.disputes
    cards = {
        m.pk: MatchCard(m, name(m.home_id), name(m.away_id), games.get(m.pk, []), disputed.get(m.pk, 0))
        for m in matches
    }
    double = tournament.format == DOUBLE
    bracket = drawn_bracket(tournament)
    order = {Match.Stage.WINNERS: 0, Match.Stage.LOSERS: 1, Match.Stage.THIRD_PLACE: 2, Match.Stage.FINAL: 3}
    columns: dict[tuple[int, int], Column] = {}
    for m in matches:
        slot = (order[m.stage], m.round)
        if slot not in columns:
            columns[slot] = Column(bracket.column_title(m.stage, m.round), [])
        columns[slot].cards.append(cards[m.pk])
    final = [m for m in matches if m.stage == Match.Stage.FINAL and m.status == Match.Status.FINISHED]
    playing = sorted((cards[m.pk] for m in matches if m.status == Match.Status.PLAYING), key=_by_table)
    return BracketView(
        columns=[columns[key] for key in sorted(columns)],
        playing=playing,
        ready=[cards[m.pk] for m in matches if m.status == Match.Status.READY],
        champion=names[final[-1].winner_id] if final and tournament.status == Tournament.Status.FINISHED else "",
        double=double,
    )


def _by_table(card: MatchCard) -> int:
    return card.match.table.number if card.match.table else 0


# What fits the projector (1920×1080, and 1366×768 with long names) in type readable across a
# hall; more pages in turn.
PROJECTOR_PLAYING_ROWS = 6
PROJECTOR_COLUMNS = 4
PROJECTOR_CARDS = 4


def projector_columns(view: BracketView) -> list[Column]:
    """The bracket's columns cut to at most :data:`PROJECTOR_CARDS` matches each (a long round
    goes on in further columns, "Round 1 (2/4)"); a page of the projector shows a few of them."""
    pieces = []
    for column in view.columns:
        parts = [column.cards[i : i + PROJECTOR_CARDS] for i in range(0, len(column.cards), PROJECTOR_CARDS)]
        for n, cards in enumerate(parts, start=1):
            title = f"{column.title} ({n}/{len(parts)})" if len(parts) > 1 else column.title
            pieces.append(Column(title, cards))
    return pieces


@dataclass(frozen=True)
class PlaceRow:
    """A team's line in a knockout's standings: its place (None while it is still in), where it
    went out ("Semi-finals"; "Champion"), and its matches won and points scored over its games."""

    place: int | None
    team: int
    name: str
    went_out: str
    matches_won: int
    points: int
    withdrawn: bool
    division: str = ""


def place_rows(tournament: Tournament) -> list[PlaceRow]:
    """The knockout's standings from the bracket: the teams still in first (in seed order), then
    every team out by its place (see :func:`.services.places_so_far`). Four queries whatever the bracket's size."""
    names, divisions = _teams(tournament)
    teams = dict(tournament.teams.filter(seed__isnull=False).order_by("seed").values_list("pk", "status"))
    matches = list(bracket_matches(tournament).order_by("position"))
    bracket = drawn_bracket(tournament)
    points: dict[int, int] = dict.fromkeys(teams, 0)
    sides = {m.pk: (m.home_id, m.away_id) for m in matches}
    for match_id, ns, ew in Game.objects.filter(match_id__in=sides).values_list("match_id", "ns_score", "ew_score"):
        home, away = sides[match_id]
        points[home] += ns
        points[away] += ew
    won: dict[int, int] = dict.fromkeys(teams, 0)
    went_out: dict[int, str] = {}
    for m in matches:
        if m.status == Match.Status.FINISHED:
            won[m.winner_id] += 1
            loser = m.away_id if m.winner_id == m.home_id else m.home_id
            went_out[loser] = bracket.column_title(m.stage, m.round)  # the last loss counts
    placed = places_so_far(tournament, matches)
    champion = placed[0].teams[0] if placed and tournament.is_finished else None
    if champion is not None:
        went_out[champion] = "Champion"
    out = {team for p in placed for team in p.teams}

    def row(place: int | None, team: int) -> PlaceRow:
        withdrawn = teams[team] == Team.Status.WITHDRAWN
        return PlaceRow(
            place, team, names[team], went_out.get(team, ""), won[team], points[team], withdrawn, divisions[team]
        )

    return [row(None, team) for team in teams if team not in out] + [
        row(p.place, team) for p in placed for team in p.teams
    ]
