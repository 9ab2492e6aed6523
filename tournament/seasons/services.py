"""Writes to a season: each takes its club's lock first (:func:`tournament.locking.lock_club`)."""

from __future__ import annotations

from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction

from tournament.locking import lock_club
from tournament.models import Tournament
from tournament.seasons.models import Season, SeasonEvent
from tournament.seasons.points import BEST_N


@transaction.atomic
def save_season(
    *,
    club_id: int,
    season_id: int | None,
    name: str,
    rule: str,
    points_table: Sequence[int],
    best_n: int | None,
    events: Sequence[Tournament],
) -> Season:
    """Create (``season_id`` None) or change a season of club ``club_id``, with exactly ``events``
    in it. Raises :class:`ValidationError` for an event of another club or in another season."""
    lock_club(club_id)
    season = Season(club_id=club_id) if season_id is None else Season.objects.get(pk=season_id, club_id=club_id)
    ids = {event.pk for event in events}
    if Tournament.objects.filter(pk__in=ids).exclude(club_id=club_id).exists():
        raise ValidationError({"events": "A season holds only its own club's events."}, code="event_of_another_club")
    taken = SeasonEvent.objects.filter(tournament__in=ids)
    if season.pk is not None:
        taken = taken.exclude(season=season)
    if taken.exists():
        raise ValidationError({"events": "An event belongs to one season at most."}, code="event_in_another_season")
    season.name, season.rule, season.points_table = name, rule, list(points_table)
    season.best_n = best_n if rule == BEST_N else None
    season.save()
    season.season_events.exclude(tournament__in=ids).delete()
    have = set(season.season_events.values_list("tournament_id", flat=True))
    SeasonEvent.objects.bulk_create(SeasonEvent(season=season, tournament_id=pk) for pk in sorted(ids - have))
    return season
