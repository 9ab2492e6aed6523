"""The club roster: names to pick from as they are typed, a person's events, a name corrected."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, Max, QuerySet

from tournament.formats.registry import format_of
from tournament.models import Club, Player, RosterPlayer, Tournament, roster_key

SUGGESTIONS = 8


@dataclass(frozen=True)
class Suggestion:
    person: RosterPlayer
    events: int
    last_played: date | None


def suggestions(text: str, clubs: QuerySet[Club]) -> list[Suggestion]:
    """Roster names containing ``text`` on the rosters of ``clubs`` (the ones the director may
    see), the most recently seen first."""
    key = roster_key(text)
    if len(key) < 2:
        return []
    people = (
        RosterPlayer.objects.filter(key__contains=key, club__in=clubs)
        .annotate(events=Count("entries__team__tournament", distinct=True), last=Max("entries__team__tournament__date"))
        .order_by("-last", "key")[:SUGGESTIONS]
    )
    return [Suggestion(p, p.events, p.last) for p in people]


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


def history(person: RosterPlayer, tournaments: QuerySet[Tournament]) -> list[EventLine]:
    """``person``'s events among ``tournaments``, latest first, each with their place in it."""
    entries = (
        Player.objects.filter(roster=person, team__tournament__in=tournaments)
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
    """Correct a name on the club roster; every event keeps the name it was played under. The
    roster is the club's, not one tournament's: this takes no tournament's lock."""
    if not name.strip():
        raise ValidationError({"name": "Give the name."}, code="required")
    RosterPlayer.objects.get(pk=person.pk).rename(name)
    person.refresh_from_db()
