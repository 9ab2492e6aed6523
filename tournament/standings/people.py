"""An event's places by the club's people: each standings row with the roster entries of the
players it stands for, so that what spans events (a season's standings, a player's page) can
follow the same person, or the same partnership, from one event to the next."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from tournament.formats.registry import format_of
from tournament.models import Player, Tournament


@dataclass(frozen=True)
class EventPlace:
    """One entrant's final (or latest) place in an event: its ``place`` (equal entrants share
    one) and ``total`` as the format's standings give them, ``entrant`` the event's player or
    team id, and ``people`` the roster ids of the players it stands for, in registration order
    (one for a player of split partners, two for a team; None for a player not on the roster)."""

    place: int
    total: int
    entrant: int
    name: str
    people: tuple[int | None, ...]
    withdrawn: bool


@dataclass(frozen=True)
class EventPlaces:
    """An event's places: ``individual`` when its standings rank players (split partners)."""

    tournament_id: int
    individual: bool
    places: tuple[EventPlace, ...]


def event_places(tournament: Tournament) -> EventPlaces:
    """``tournament``'s standings as its format ranks them, each row with its people (two queries
    beyond the standings' own)."""
    event_format = format_of(tournament)
    individual = event_format.entrants_are_players(tournament)
    rows = event_format.standings(tournament)
    players = Player.objects.filter(team__tournament=tournament).order_by("team_id", "id")
    people: dict[int, list[int | None]] = defaultdict(list)
    for player_id, team_id, roster_id in players.values_list("id", "team_id", "roster_id"):
        people[player_id if individual else team_id].append(roster_id)
    places = tuple(
        EventPlace(
            place=row.standing.rank,
            total=row.standing.total,
            entrant=row.standing.entrant,
            name=row.name,
            people=tuple(people.get(row.standing.entrant, ())),
            withdrawn=row.withdrawn,
        )
        for row in rows
    )
    return EventPlaces(tournament.pk, individual, places)
