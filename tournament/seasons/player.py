"""A player's page: a roster person's events in the club, each with their place (from the event's
places as :mod:`tournament.seasons.places` stores them, so a long history costs no standings
worked out again) and their partners round by round: at an event of split partners the partner
changes every round; at one of fixed partners it is their teammate (or a substitute playing for
them)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from scoring import Seat
from tournament.models import RosterPlayer, Round, Seating, Tournament, playing_name
from tournament.review.publish import settled
from tournament.seasons.places import stored_places


@dataclass(frozen=True)
class PlayerEvent:
    """One event a person played: their place (None while unplaced) of ``entrants``, their
    entrant's points, whether it withdrew, and their partners in round order."""

    tournament: Tournament
    place: int | None
    entrants: int
    total: int | None
    withdrawn: bool
    partners: tuple[str, ...]


def player_events(person: RosterPlayer) -> list[PlayerEvent]:
    """``person``'s events in their club, the latest first."""
    events = Tournament.objects.filter(club=person.club_id, teams__players__roster=person).select_related("club")
    events = events.distinct()
    partners = partners_by_event(person)
    found = []
    events = list(events.order_by("-date", "-id"))
    stored = stored_places(events)
    for event in events:
        places = stored[event.pk].places
        entry = next((p for p in places if person.pk in p.people), None)
        others = [] if entry is None else [pk for pk in entry.people if pk != person.pk]
        # A place shows once the event's results are settled: not while it is played (or, when the
        # club shows checked rounds only, while its results are checked), as its seasons count it.
        found.append((event, entry if settled(event) else None, len(places), others))
    names = dict(RosterPlayer.objects.filter(pk__in={pk for *_, others in found for pk in others if pk})
                 .values_list("pk", "name"))  # fmt: skip
    lines = []
    for event, mine, entrants, others in found:
        partners_there = partners.get(event.pk) or [names[pk] for pk in others if pk in names]
        place, total = (mine.place, mine.total) if mine else (None, None)
        withdrawn = bool(mine and mine.withdrawn)
        lines.append(PlayerEvent(event, place, entrants, total, withdrawn, tuple(partners_there)))
    return lines


def partners_by_event(person: RosterPlayer) -> dict[int, list[str]]:
    """Each event's partners of ``person`` in the order of the rounds played (begun), each once,
    by tournament id (two queries). An event whose games seat nobody by round (a match between
    two teams) is absent."""
    mine = list(
        Seating.objects.filter(player__roster=person, round__tournament__club=person.club_id)
        .exclude(round__status=Round.Status.PLANNED)  # seated for a round not begun: not played with yet
        .values_list("round_id", "table_id", "seat", "round__tournament_id", "round__number")
    )
    wanted = {(round_id, table_id, Seat(seat).partner.value) for round_id, table_id, seat, _, _ in mine}
    names = {
        (round_id, table_id, seat): name
        for round_id, table_id, seat, name in Seating.objects.filter(
            round_id__in={m[0] for m in mine}, table_id__in={m[1] for m in mine}
        )
        .annotate(name=playing_name())
        .values_list("round_id", "table_id", "seat", "name")
        if (round_id, table_id, seat) in wanted
    }
    found: dict[int, list[str]] = defaultdict(list)
    for round_id, table_id, seat, tournament_id, _ in sorted(mine, key=lambda m: (m[3], m[4])):
        name = names.get((round_id, table_id, Seat(seat).partner.value))
        if name and name not in found[tournament_id]:
            found[tournament_id].append(name)
    return dict(found)
