"""The Swiss format as the core sees it (see :class:`tournament.formats.registry.EventFormat`)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.urls import reverse

from scoring.describe import Section
from tournament.formats.registry import Document, EventFormat, MatchWords, Nav, User
from tournament.formats.swiss import checks, documents, services, urls
from tournament.formats.swiss import standings as swiss
from tournament.formats.swiss.forms import SwissSettingsForm
from tournament.formats.swiss.models import LateEntry, SwissSettings, settings_of
from tournament.formats.swiss.simulation import SIMULATION
from tournament.models import Game, Match, Round, Team, Tournament
from tournament.standings.rows import StandingRow
from tournament.transfer.rows import settings_row, settings_values

SWISS_WORDS = MatchWords("Won the match", "the Swiss standings", "won the match", "win the match")


class Swiss(EventFormat):
    """Rounds paired from the standings so far (Monrad), tables in rank order (see :mod:`.services`)."""

    key = services.SWISS
    label = "Swiss: every team plays every round, paired by the standings (fixed partners)"
    start_label = "Pair and seat round 1"
    start_text = "Pair round 1 when every team is registered: the next rounds are paired from the standings."
    uses = ("seating_order", "prize_ties")
    places_text = "Places are the final Swiss standings: rounds won, then the tiebreaks in the order the director set."
    public_page = "public:swiss"
    projector_page = "public:swiss_projector"
    standings_page = "director:swiss_standings"
    public_title = "Live Swiss standings"
    no_team_swaps = "Teams swap places on the Swiss page, in a round paired but not started."
    urls = urls
    # Scoring a late team's missed rounds moves standings and prizes: the director's call.
    assistant_pages = frozenset({"swiss", "swiss_swap", "swiss_standings"})
    plays_matches = True
    documents_title = "The Swiss"
    simulation = SIMULATION

    def start(self, *, tournament: Tournament, by: User = None) -> Round:
        return services.start(tournament=tournament, by=by)

    def game_changed(self, *, game: Game, winner_before: str, by: User = None) -> str:
        if game.match_id is not None:
            services.game_changed(game=game)
        return ""

    def entrants_changed(self, *, tournament: Tournament, reason: str, by: User = None) -> None:
        services.entrants_changed(tournament=tournament, reason=reason, by=by)

    def late_entry(self, team: Team, current: Round) -> str:
        following = services.next_round_number(team.tournament)
        if following is None:
            return f"Team {team.number} plays no round: every round has been paired."
        return (f"Team {team.number} is paired from round {following}; each round it missed counts as a loss "
                "unless you score them otherwise on the Swiss page.")  # fmt: skip

    def close_round(self, *, round_: Round, by: User = None) -> Round | None:
        return services.close_round(round_)

    def closed(self, tournament: Tournament, round_: Round, following: Round | None) -> tuple[str, str]:
        if following is None:
            return f"Round {round_.number} closed: the tournament is over.", reverse(
                self.standings_page, args=[tournament.pk]
            )
        return (f"Round {round_.number} closed; round {following.number} is paired from the standings.",
                reverse("director:swiss", args=[tournament.pk]))  # fmt: skip

    def play_url(self, tournament: Tournament, round_: Round) -> str:
        """The Swiss page runs the round being paired or played; a closed round's board is the core's."""
        latest = tournament.rounds.order_by("-number").first()
        if latest is not None and latest.pk == round_.pk:
            return reverse("director:swiss", args=[tournament.pk])
        return super().play_url(tournament, round_)

    def progress(self, tournament: Tournament) -> tuple[int, int, str]:
        closed = tournament.rounds.filter(status=Round.Status.CLOSED).count()
        return closed, settings_of(tournament).rounds, "rounds played"

    def swap_teams(self, *, tournament: Tournament, first: Team, second: Team, by: User = None) -> None:
        services.swap_teams(tournament=tournament, first=first, second=second, by=by)

    def match_words(self, match: Match) -> MatchWords:
        return SWISS_WORDS

    def tabs(self, tournament: Tournament) -> list[Nav]:
        return [Nav("Swiss", reverse("director:swiss", args=[tournament.pk]), "swiss")]

    def standings(self, tournament: Tournament) -> list[StandingRow]:
        return swiss.standing_rows(tournament)

    def standings_after(self, tournament: Tournament, number: int) -> list[StandingRow] | None:
        return swiss.standing_rows(tournament, through=number)

    def settings_form(self, tournament: Tournament | None, data: Any = None) -> forms.Form | None:
        instance = settings_of(tournament) if tournament else None
        teams = tournament.teams.count() if tournament else 0
        return SwissSettingsForm(data, instance=instance, teams=teams, prefix="swiss")

    def save_settings(self, *, tournament: Tournament, form: forms.Form) -> None:
        settings = form.save(commit=False)
        settings.tournament = tournament
        settings.save()

    def documents(self, tournament: Tournament) -> list[Document]:
        return [
            Document("swiss-standings", "Swiss standings", "every team's wins and tiebreaks, each tie explained",
                     lambda t, base: documents.standings_sheet(t)),
            Document("swiss-pairings", "Pairings", "the round paired, table by table in rank order",
                     lambda t, base: documents.pairings_sheet(t),
                     offered=_paired(tournament)),
        ]  # fmt: skip

    def handout_sections(self, tournament: Tournament) -> list[Section]:
        return [Section("How pairings are made", documents.pairing_words(tournament))]

    def export(self, tournament: Tournament) -> dict[str, Any]:
        late = LateEntry.objects.filter(team__tournament=tournament).select_related("team").order_by("team__number")
        entries = [{"team": e.team.number, "joined_round": e.joined_round, "won": e.won, "points_for": e.points_for,
                    "points_against": e.points_against} for e in late]  # fmt: skip
        return {**settings_values(settings_of(tournament)), "swiss_late_entries": entries}

    def read_import(self, plan: Any, data: dict[str, Any]) -> None:
        plan.format_settings = (settings_row(data, SwissSettings), checks.read_late_entries(data))

    def check_import(self, plan: Any) -> None:
        checks.check_swiss(plan)

    def import_settings(self, *, tournament: Tournament, plan: Any) -> None:
        settings, late = plan.format_settings
        SwissSettings.objects.update_or_create(tournament=tournament, defaults=settings_values(settings))
        teams = {team.number: team for team in tournament.teams.all()}
        LateEntry.objects.bulk_create(
            LateEntry(team=teams[entry.pop("team")], **entry) for entry in (dict(e) for e in late)
        )


def _paired(tournament: Tournament) -> bool:
    """Whether a round has been paired: the pairings sheet has something to print."""
    return tournament.rounds.exists()
