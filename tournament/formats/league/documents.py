"""A league's documents: the season's schedule night by night, and the league table."""

from __future__ import annotations

from tournament.formats.league.models import settings_of
from tournament.formats.league.services import nights
from tournament.formats.league.standings import league_standings
from tournament.models import Tournament
from tournament.printing.documents import Document, base_context


def season_schedule(tournament: Tournament) -> Document:
    """A league's season night by night: every match, its table once seated, and who rests."""
    title = "Season schedule"
    context = {**base_context(tournament, title), "nights": nights(tournament), "season": settings_of(tournament)}
    return Document("season-schedule", title, "league/print_schedule.html", [context])


def league_table(tournament: Tournament) -> Document:
    title = "League table"
    context = {**base_context(tournament, title), "standings": league_standings(tournament)}
    return Document("league-table", title, "league/print_table.html", [context])
