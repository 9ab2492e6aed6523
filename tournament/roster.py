"""The club roster, read side: names to pick from as they are typed, and a person's events."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.db.models import Count, Max, QuerySet

from tournament.models import Player, RosterPlayer, Tournament, roster_key
from tournament.reports import standings_rows

SUGGESTIONS = 8


@dataclass(frozen=True)
class Suggestion:
    person: RosterPlayer
    events: int
    last_played: date | None


def suggestions(text: str, tournaments: QuerySet[Tournament]) -> list[Suggestion]:
    """Roster names containing ``text`` among people who played in ``tournaments`` (the ones the
    director may see), the most recently seen first."""
    key = roster_key(text)
    if len(key) < 2:
        return []
    people = (
        RosterPlayer.objects.filter(key__contains=key, entries__team__tournament__in=tournaments)
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
        rows = standings_rows(tournament)
        wanted = entry.pk if tournament.split_partners else entry.team_id
        row = next((r for r in rows if r.standing.entrant == wanted), None)
        partner = " & ".join(p.name for p in entry.team.players.all() if p.pk != entry.pk)
        lines.append(
            EventLine(
                tournament=tournament,
                name=entry.name,
                partner=partner,
                team=entry.team.number,
                rank=row.standing.rank if row and row.standing.rounds else None,
                total=row.standing.total if row and row.standing.rounds else None,
                entrants=len(rows),
            )
        )
    return lines
