"""A season's standings: its events' places (stored while each does not change, see
:mod:`tournament.seasons.places`), then ranked by :mod:`tournament.seasons.points` in two tables.

- **Players**: the events whose standings rank players (split partners); each roster person.
- **Teams**: the events of fixed partnerships (a progressive event of fixed partners, a knockout,
  a league, a Swiss); a team is the same two roster people, whatever their order of registration.

An entrant with a player not on the club's roster cannot be followed from one event to the next
and is left out of the season (the page says how many). Our reading of a withdrawn entrant: it
keeps the place its event's standings give it, as it keeps its results there.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction

from django.core.cache import cache

from tournament.models import RosterPlayer, Tournament
from tournament.review.publish import settled
from tournament.seasons import points
from tournament.seasons.models import Season
from tournament.seasons.places import stored_places
from tournament.standings.people import EventPlaces

KEEP_SECONDS = 7 * 24 * 3600  # a finished event's places change only when a hand is corrected


@dataclass(frozen=True)
class Line:
    """A line of a season table: its standing, who it is (roster ids and names)."""

    standing: points.SeasonStanding
    people: tuple[int, ...]
    names: tuple[str, ...]
    cells: tuple[points.EventScore | None, ...]  # a cell an event of its table, None where not played

    @property
    def name(self) -> str:
        return " & ".join(self.names)

    @property
    def who(self) -> tuple[tuple[int, str], ...]:
        """Each person of the line: (roster id, name)."""
        return tuple(zip(self.people, self.names, strict=True))


@dataclass(frozen=True)
class Table:
    """One of a season's two tables: its events (in season order) and its lines, ranked."""

    events: tuple[Tournament, ...]
    lines: tuple[Line, ...]
    left_out: int  # entrants with someone not on the roster


@dataclass(frozen=True)
class SeasonTables:
    season: Season
    players: Table
    teams: Table
    # The season's events that do not count yet: being played, or (when the club shows checked
    # rounds only) with results still being checked (tournament.review.publish.settled).
    waiting: tuple[Tournament, ...] = ()

    @property
    def events(self) -> int:
        return len(self.players.events) + len(self.teams.events)


def season_events(season: Season) -> list[Tournament]:
    """The season's events, by date (then as created)."""
    return list(Tournament.objects.filter(season_event__season=season).select_related("club").order_by("date", "id"))


def season_tables(season: Season) -> SeasonTables:
    """Both tables of ``season`` by its rule. The ranking is kept in the cache under the season's
    settings and each event's ``changed_at``: while no event changes, it is read, not worked out
    (the names are read fresh, so a corrected roster name shows at once). An event counts once its
    results are settled (:attr:`SeasonTables.waiting` holds the others)."""
    events, waiting = [], []
    for event in season_events(season):
        (events if settled(event) else waiting).append(event)
    stamp = [(e.pk, e.changed_at.timestamp()) for e in events]
    made = json.dumps([season.pk, season.rule, season.points_table, season.best_n, stamp])
    key = f"season-ranking:{hashlib.sha256(made.encode()).hexdigest()[:40]}"
    ranking = cache.get(key)
    if ranking is None:
        ranking = _ranking(season, events)
        cache.set(key, ranking, KEEP_SECONDS)
    players, teams = ranking
    people = {p for _, ranked, _ in ranking for s in ranked for p in s.entrant}
    names = dict(RosterPlayer.objects.filter(pk__in=people).values_list("pk", "name"))
    by_id = {e.pk: e for e in events}  # the events as read now, with the ranking's own order
    return SeasonTables(season, _named(players, names, by_id), _named(teams, names, by_id), tuple(waiting))


Ranked = tuple[tuple[int, ...], list[points.SeasonStanding], int]  # event ids, standings, left out


def _ranking(season: Season, events: list[Tournament]) -> tuple[Ranked, Ranked]:
    individual: list[EventPlaces] = []
    fixed: list[EventPlaces] = []
    stored = stored_places(events)
    for event in events:
        places = stored[event.pk]
        (individual if places.individual else fixed).append(places)
    return _rank(season, individual, lambda people: people), _rank(season, fixed, lambda people: tuple(sorted(people)))


def _rank(season: Season, events: list[EventPlaces], who) -> Ranked:
    results: dict[Hashable, list[points.EventScore]] = defaultdict(list)
    left_out = 0
    for number, places in enumerate(events):
        worth = points.place_points([p.place for p in places.places], season.points_table)
        for place in places.places:
            if None in place.people or not place.people:
                left_out += 1
                continue
            scored = Fraction(place.total) if season.rule == points.TOTAL else worth[place.place]
            results[who(place.people)].append(points.EventScore(number, place.place, scored))
    best_n = season.best_n if season.rule == points.BEST_N else None
    ranked = points.rank_season(results, events=len(events), best_n=best_n)
    return tuple(e.tournament_id for e in events), ranked, left_out


def _named(ranking: Ranked, names: dict[int, str], by_id: dict[int, Tournament]) -> Table:
    ids, ranked, left_out = ranking
    lines = tuple(Line(s, s.entrant, tuple(names[p] for p in s.entrant), _cells(s.events, len(ids))) for s in ranked)
    return Table(tuple(by_id[pk] for pk in ids), lines, left_out)


def _cells(scores: tuple[points.EventScore, ...], events: int) -> tuple[points.EventScore | None, ...]:
    at = {s.event: s for s in scores}
    return tuple(at.get(n) for n in range(events))


def places_of(tables: SeasonTables, person_id: int) -> list[tuple[str, Line, int]]:
    """The lines of ``tables`` a roster person stands in, each with its table's word and length:
    ("Players", their line, 40), ("Teams", each team's, 18)."""
    tabled = (("Players", tables.players), ("Teams", tables.teams))
    return [(word, line, len(t.lines)) for word, t in tabled for line in t.lines if person_id in line.people]
