"""Each event's places, stored: what spans a club's events (a season's standings, a player's page)
reads them from :class:`~tournament.seasons.models.StoredPlaces` in one query, and works out again
only the events whose ``changed_at`` moved since (every write to an event stamps it, see
:mod:`tournament.locking`), so a restart or a cleared cache costs no standings worked out again.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import IntegrityError, transaction

from tournament.models import Tournament
from tournament.seasons.models import StoredPlaces
from tournament.standings.people import EventPlace, EventPlaces, event_places


def stored_places(events: Iterable[Tournament]) -> dict[int, EventPlaces]:
    """The places of each of ``events`` by tournament id: the stored ones whose stamp is the
    event's ``changed_at`` as read in ``events``, the rest worked out and stored (one query to read,
    one to store when any was worked out)."""
    events = list(events)
    rows = StoredPlaces.objects.filter(tournament__in=[e.pk for e in events])
    kept = {row.tournament_id: row for row in rows}
    found: dict[int, EventPlaces] = {}
    made: list[StoredPlaces] = []
    for event in events:
        row = kept.get(event.pk)
        if row is not None and row.made_from == event.changed_at:
            found[event.pk] = _places(row)
            continue
        # The stamp was read (with ``event``) before the standings: what is stored under it is
        # never older than the stamp says, so a write meanwhile only moves the stamp past it.
        found[event.pk] = places = event_places(event)
        made.append(_row(event, places))
    if made:
        _store(made)
    return found


def _store(rows: list[StoredPlaces]) -> None:
    # Derived data, written without the tournament's lock: taking it stamps ``changed_at``, which
    # would leave what we store stale at once, and a season page must not wait behind play. A row
    # is only ever read when its stamp equals the event's, so two readers storing at once (one
    # with an older stamp last) cost the next reader one event worked out again, never a wrong
    # place; an event deleted meanwhile (its row refused) is simply not stored.
    try:
        with transaction.atomic():
            StoredPlaces.objects.bulk_create(
                rows,
                update_conflicts=True,
                unique_fields=["tournament"],
                update_fields=["made_from", "individual", "places"],
            )
    except IntegrityError:
        pass


def _row(event: Tournament, places: EventPlaces) -> StoredPlaces:
    listed = [[p.place, p.total, p.entrant, p.name, list(p.people), p.withdrawn] for p in places.places]
    return StoredPlaces(tournament=event, made_from=event.changed_at, individual=places.individual, places=listed)


def _places(row: StoredPlaces) -> EventPlaces:
    places = tuple(
        EventPlace(place=place, total=total, entrant=entrant, name=name, people=tuple(people), withdrawn=withdrawn)
        for place, total, entrant, name, people, withdrawn in row.places
    )
    return EventPlaces(row.tournament_id, row.individual, places)
