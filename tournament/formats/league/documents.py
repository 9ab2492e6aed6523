"""A league's documents: the season's schedule night by night, the league table, and the
championship's rule sheet (its bracket and match sheets are the knockout's)."""

from __future__ import annotations

from scoring.describe import Section, summary
from tournament.formats.knockout.models import settings_of as bracket_settings
from tournament.formats.league.models import settings_of
from tournament.formats.league.services import nights
from tournament.formats.league.standings import champion, league_standings
from tournament.formats.registry import RulePart
from tournament.models import Tournament
from tournament.printing.documents import Document, base_context, handout_document, rules_part, tournament_part


def season_schedule(tournament: Tournament) -> Document:
    """A league's season night by night: every match, its table once seated, and who rests."""
    title = "Season schedule"
    context = {**base_context(tournament, title), "nights": nights(tournament), "season": settings_of(tournament)}
    return Document("season-schedule", title, "league/print_schedule.html", [context])


def league_table(tournament: Tournament) -> Document:
    """The league table with each tie explained, under the season's champion once it is known."""
    title = "League table"
    standings = league_standings(tournament)
    context = {**base_context(tournament, title), "standings": standings, "champion": champion(tournament, standings),
               "bracket": bracket_settings(tournament)}  # fmt: skip
    return Document("league-table", title, "league/print_table.html", [context])


def championship_rules(tournament: Tournament) -> Document:
    """The championship's rule sheet: who plays it and how, then the rules of its final (its own
    rule set, or the season's)."""
    final = bracket_settings(tournament).final_preset
    section = Section("The championship", _championship_words(tournament))
    if final:
        part = rules_part(RulePart("The championship", final), [section], alone=True)
    else:
        part = tournament_part(tournament, "The championship: rules of play", [section])
    return handout_document(tournament, "championship-rules", "Championship rules", [part])


def _championship_words(tournament: Tournament) -> tuple[str, ...]:
    teams = settings_of(tournament).championship_teams
    bracket = bracket_settings(tournament)
    stages = "semi-finals (1st v 4th, 2nd v 3rd), then a final" if teams == 4 else "a final"
    words = [f"After the season, the top {teams} of the league table play the championship: {stages}. "
             "Partners stay together; the winner of a match goes on and the loser is out."]  # fmt: skip
    if teams == 4 and bracket.best_of > 1:
        words.append(f"A semi-final is the best of {bracket.best_of} games.")
    if bracket.final_best_of > 1:
        words.append(f"The final is the best of {bracket.final_best_of} games.")
    season = summary(tournament.rules)
    if not bracket.final_preset:
        words.append(f"The championship is played under the season's rules ({season}), as on this sheet.")
    elif teams == 4:
        words.append(f"The semi-finals are played under the season's rules ({season}); the final under the rules "
                     "on this sheet.")  # fmt: skip
    else:
        words.append(f"The final is played under the rules on this sheet, not the season's ({season}).")
    return tuple(words)
