"""The league format as the core sees it (see :class:`tournament.formats.registry.EventFormat`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.template.defaultfilters import pluralize
from django.urls import reverse

from tournament.formats.knockout import services as knockout
from tournament.formats.knockout.checks import play_finals_by
from tournament.formats.knockout.documents import bracket_sheet
from tournament.formats.knockout.format import bracket_documents, final_rule_parts
from tournament.formats.knockout.models import KnockoutSettings
from tournament.formats.knockout.models import settings_of as bracket_settings
from tournament.formats.league import checks, services, urls
from tournament.formats.league import standings as season
from tournament.formats.league.documents import championship_rules, league_table, season_schedule
from tournament.formats.league.forms import LeagueSettingsForm
from tournament.formats.league.models import LeagueSettings, settings_of
from tournament.formats.league.simulation import SIMULATION
from tournament.formats.registry import Document, EventFormat, MatchWords, Nav, RulePart, User
from tournament.models import Game, Match, Round, Team, Tournament
from tournament.standings.rows import StandingRow
from tournament.transfer.rows import settings_row, settings_values

LEAGUE_WORDS = MatchWords("Won the match", "the league table", "won the match", "win the match")


class League(EventFormat):
    """A season of nights: each night seats its scheduled matches; the top teams then play the
    championship as a small knockout (see :mod:`.services`)."""

    key = services.ROUND_ROBIN
    label = "League: round robin over several nights (fixed partners)"
    round_name = "Night"
    start_label = "Make the schedule and seat night 1"
    start_text = "Make the season's schedule when every team is registered; night 1's tables are seated at once."
    uses = ("prize_ties",)
    places_text = (
        "Places come from the championship (the champion, the finalist, then the semi-finalists), "
        "then the league table for everyone else."
    )
    public_page = "public:league"
    projector_page = "public:league_projector"
    public_title = "Live league table"
    # One ranking: the league table, headed by the championship's places once they are decided.
    standings_page = "director:league_table"
    no_team_swaps = (
        "In a league the schedule decides who meets whom, and the league table seeds the championship: "
        "move a match to another night (Postpone) or to another table instead."
    )
    urls = urls
    assistant_pages = frozenset({
        "league_schedule", "league_build", "league_postpone", "league_join", "league_withdraw", "league_night",
        "league_night_open", "league_table", "league_championship",
    })  # fmt: skip
    plays_matches = True
    documents_title = "The season"
    simulation = SIMULATION

    def start(self, *, tournament: Tournament, by: User = None) -> Round:
        services.build_schedule(tournament=tournament, by=by)
        return services.open_night(tournament=tournament, night=1, by=by)

    def game_changed(self, *, game: Game, winner_before: str, by: User = None) -> str:
        if game.match_id is None:
            return ""
        if game.match.stage == Match.Stage.LEAGUE:
            services.game_changed(game=game)
        else:
            knockout.game_changed(game=game)  # the championship is a knockout
        return ""

    def match_settled(self, *, match: Match, by: User = None) -> None:
        if match.stage != Match.Stage.LEAGUE:  # a league match moves nothing on: the table reads it
            knockout.advance(match.tournament)

    def late_entry(self, team: Team, current: Round) -> str:
        return (f"Team {team.number} plays no league match yet: add it to the season on the League page, "
                "from a night not opened yet.")  # fmt: skip

    def check_team_status(self, *, team: Team, status: str) -> None:
        if season.league_matches(team.tournament).exists():
            raise ValidationError(
                "In a league, a team withdraws on the League page, where its remaining matches become walkovers.",
                code="league_withdrawal",
            )

    def close_round(self, *, round_: Round, by: User = None) -> Round | None:
        services.close_night(round_)
        return None  # the director opens the next night from the schedule

    def round_title(self, round_: Round) -> str:
        return season.night_title(round_)

    def round_called(self, round_: Round) -> str:
        return "the championship" if season.is_championship(round_) else super().round_called(round_)

    def closed(self, tournament: Tournament, round_: Round, following: Round | None) -> tuple[str, str]:
        return f"{self.round_title(round_)} closed.", reverse("director:league_schedule", args=[tournament.pk])

    def play_url(self, tournament: Tournament, round_: Round) -> str:
        if season.league_matches(tournament).filter(round=round_.number).exists():
            return reverse("director:league_night", args=[tournament.pk, round_.number])
        return reverse("director:league_schedule", args=[tournament.pk]) + "#championship"

    def progress(self, tournament: Tournament) -> tuple[int, int, str]:
        """Nights closed of the season's nights (the championship after them is not a night)."""
        nights = services.load_schedule(tournament).nights
        return tournament.rounds.filter(number__lte=nights, status=Round.Status.CLOSED).count(), nights, "nights played"

    def rounds_heading(self, tournament: Tournament) -> str:
        """The season's nights and, after them, the championship: "6 nights and the championship"."""
        nights = services.load_schedule(tournament).nights
        counted = f"{nights} night{pluralize(nights)}" if nights else "Nights"
        return f"{counted} and the championship" if settings_of(tournament).championship_teams else counted

    def match_words(self, match: Match) -> MatchWords:
        return LEAGUE_WORDS if match.is_league else super().match_words(match)  # the championship is a knockout

    def standings(self, tournament: Tournament) -> list[StandingRow]:
        return season.standing_rows(tournament)

    def standings_after(self, tournament: Tournament, number: int) -> list[StandingRow] | None:
        return season.standing_rows_after(tournament, number)

    def fee_units(self, tournament: Tournament, teams: Sequence[int]) -> dict[int, int]:
        """Once a season, or once for each night a team has been seated at a table."""
        if settings_of(tournament).fee_per != LeagueSettings.FeePer.NIGHT:
            return super().fee_units(tournament, teams)
        seated = season.league_matches(tournament).filter(table__isnull=False).values_list("home_id", "away_id")
        nights = Counter(team for pair in seated for team in pair)
        return {team: nights[team] for team in teams}

    def fee_basis(self, tournament: Tournament) -> str:
        night = settings_of(tournament).fee_per == LeagueSettings.FeePer.NIGHT
        return "a team each night it plays" if night else "a team"

    def tabs(self, tournament: Tournament) -> list[Nav]:
        return [Nav("League", reverse("director:league_schedule", args=[tournament.pk]), "league")]

    def waiting(self, tournament: Tournament, table_number: int, current: Round | None) -> tuple[str, str]:
        if current is not None:
            on = "in the championship" if season.is_championship(current) else f"on night {current.number}"
            return (
                f"No game at table {table_number} {on}",
                "This table is not used tonight. Keep the page open: it opens by itself when a game is seated here.",
            )
        return (
            "The next night is not seated yet",
            "This page opens for scoring by itself once the director seats and starts the night.",
        )

    def round_words(self, round_: Round) -> str:
        return knockout.round_words(round_)

    def settings_form(self, tournament: Tournament | None, data: Any = None) -> forms.Form | None:
        bracket = bracket_settings(tournament) if tournament else KnockoutSettings()
        instance = settings_of(tournament) if tournament else None
        return LeagueSettingsForm(data, instance=instance, bracket=bracket, prefix="league")

    def save_settings(self, *, tournament: Tournament, form: forms.Form) -> None:
        form.save_both(tournament)

    def rules_changed(self, *, tournament: Tournament) -> None:
        knockout.final_rules_changed(tournament)

    def documents(self, tournament: Tournament) -> list[Document]:
        """The season's schedule and table; with a championship, its rule sheet, and once it has
        started its bracket and match sheets (the knockout's documents)."""
        season_documents = [
            Document("season-schedule", "Season schedule", "every night's matches and who rests",
                     lambda t, base: season_schedule(t)),
            Document("league-table", "League table", "with each tie explained, and the champion once known",
                     lambda t, base: league_table(t)),
        ]  # fmt: skip
        teams = settings_of(tournament).championship_teams
        if not teams:
            return season_documents
        rules = Document("championship-rules", "Championship rules",
                         f"who plays it (the top {teams}) and the rules of its final",
                         lambda t, base: championship_rules(t))  # fmt: skip
        if season.championship_matches(tournament).exists():
            return [*season_documents, rules, *bracket_documents(tournament, "Championship")]
        waiting = Document("bracket", "Championship bracket", "The championship's bracket and match score sheets "
                           "print here once it starts, after the season.", lambda t, base: bracket_sheet(t),
                           offered=False)  # fmt: skip
        return [*season_documents, rules, waiting]

    def rule_parts(self, tournament: Tournament) -> list[RulePart]:
        if not settings_of(tournament).championship_teams:
            return []
        return final_rule_parts(tournament, "The championship final")

    def export(self, tournament: Tournament) -> dict[str, Any]:
        return {**settings_values(bracket_settings(tournament)), **settings_values(settings_of(tournament))}

    def read_import(self, plan: Any, data: dict[str, Any]) -> None:
        plan.format_settings = (settings_row(data, LeagueSettings), settings_row(data, KnockoutSettings))
        play_finals_by(plan.format_settings[1], plan)

    def check_import(self, plan: Any) -> None:
        checks.check_league(plan)

    def import_settings(self, *, tournament: Tournament, plan: Any) -> None:
        league, bracket = plan.format_settings
        LeagueSettings.objects.update_or_create(tournament=tournament, defaults=settings_values(league))
        KnockoutSettings.objects.update_or_create(tournament=tournament, defaults=settings_values(bracket))
