"""A club's roster: names to pick from as they are typed, its people, a person's events in the
club, a name corrected. Each club has its own: nothing here reaches another club's."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, Max

from tournament.locking import lock_club
from tournament.models import Player, RosterPlayer, roster_key
from tournament.seasons.player import PlayerEvent, player_events

SUGGESTIONS = 8
LISTED = 100  # people on a roster page at once; a search finds the others


@dataclass(frozen=True)
class Suggestion:
    person: RosterPlayer
    events: int
    last_played: date | None


def suggestions(text: str, club_id: int) -> list[Suggestion]:
    """The club's roster names containing ``text``, the most recently seen first."""
    key = roster_key(text)
    if len(key) < 2:
        return []
    return people(club_id, key)[:SUGGESTIONS]


def people(club_id: int, key: str = "") -> list[Suggestion]:
    """The club's roster (the names containing ``key``, as :func:`roster_key` spells it), the
    most recently seen first: at most :data:`LISTED`."""
    found = (
        RosterPlayer.objects.filter(club_id=club_id, key__contains=key)
        .annotate(events=Count("entries__team__tournament", distinct=True), last=Max("entries__team__tournament__date"))
        .order_by("-last", "key")[:LISTED]
    )
    return [Suggestion(p, p.events, p.last) for p in found]


@dataclass(frozen=True)
class EventLine:
    """One of a person's events as the public player's page gives it (place, partners, score),
    with what the desk also wants: the name the event recorded and the team's number."""

    event: PlayerEvent
    name: str  # the name the event recorded
    team: int
    withdrawn: bool  # the team withdrew from the event


def history(person: RosterPlayer) -> list[EventLine]:
    """``person``'s events in their club, latest first: :func:`player_events`'s lines, each with
    the entry the person played under."""
    entries = {
        entry.team.tournament_id: entry
        for entry in Player.objects.filter(roster=person, team__tournament__club=person.club_id).select_related("team")
    }
    return [
        EventLine(event=line, name=entries[line.tournament.pk].name, team=entries[line.tournament.pk].team.number,
                  withdrawn=entries[line.tournament.pk].team.is_withdrawn)
        for line in player_events(person)
    ]  # fmt: skip


@transaction.atomic
def rename_roster_player(*, person: RosterPlayer, name: str) -> None:
    """Correct a name on the club's roster; every event keeps the name it was played under. The
    roster is the club's, not one tournament's: this takes the club's lock."""
    if not name.strip():
        raise ValidationError({"name": "Give the name."}, code="required")
    lock_club(person.club_id)
    RosterPlayer.objects.get(pk=person.pk).rename(name)
    person.refresh_from_db()
