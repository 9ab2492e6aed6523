"""A club's roster: names to pick from as they are typed, its people, a person's events in the
club, a name corrected. Each club has its own: nothing here reaches another club's."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, Max

from tournament.formats.registry import format_of
from tournament.locking import lock_club
from tournament.models import Player, RosterPlayer, Tournament, roster_key

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
    tournament: Tournament
    name: str  # the name the event recorded
    partner: str
    team: int
    withdrawn: bool  # the team withdrew from the event
    rank: int | None
    total: int | None
    entrants: int


def history(person: RosterPlayer) -> list[EventLine]:
    """``person``'s events in their club, latest first, each with their place in it."""
    entries = (
        Player.objects.filter(roster=person, team__tournament__club=person.club_id)
        .select_related("team__tournament")
        .prefetch_related("team__players")
        .order_by("-team__tournament__date", "-team__tournament_id")
    )
    lines = []
    for entry in entries:
        tournament = entry.team.tournament
        event_format = format_of(tournament)
        rows = event_format.standings(tournament)
        wanted = entry.pk if event_format.entrants_are_players(tournament) else entry.team_id
        row = next((r for r in rows if r.standing.entrant == wanted), None)
        # Placed once it has played (a progressive event's row lists its rounds; a bracket's or a
        # league's lists only those placed).
        placed = row is not None and (not row.standing.rounds or any(row.standing.rounds))
        partner = " & ".join(p.name for p in entry.team.players.all() if p.pk != entry.pk)
        lines.append(
            EventLine(
                tournament=tournament,
                name=entry.name,
                partner=partner,
                team=entry.team.number,
                withdrawn=entry.team.is_withdrawn,
                rank=row.standing.rank if placed else None,
                total=row.standing.total if placed else None,
                entrants=len(rows),
            )
        )
    return lines


@transaction.atomic
def rename_roster_player(*, person: RosterPlayer, name: str) -> None:
    """Correct a name on the club's roster; every event keeps the name it was played under. The
    roster is the club's, not one tournament's: this takes the club's lock."""
    if not name.strip():
        raise ValidationError({"name": "Give the name."}, code="required")
    lock_club(person.club_id)
    RosterPlayer.objects.get(pk=person.pk).rename(name)
    person.refresh_from_db()
