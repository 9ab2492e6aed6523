"""The knockout format as the core sees it (see :class:`tournament.formats.registry.EventFormat`)."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.urls import reverse

from scoring.describe import Section
from tournament.formats.knockout import checks, services, urls
from tournament.formats.knockout.documents import bracket_sheet, match_sheets, played_match_sheets
from tournament.formats.knockout.forms import BracketSettingsForm
from tournament.formats.knockout.models import KnockoutSettings, settings_of
from tournament.formats.knockout.reports import place_rows
from tournament.formats.knockout.simulation import SIMULATION
from tournament.formats.registry import Document, EventFormat, Nav, RulePart, User
from tournament.models import Game, Match, Round, Team, Tournament
from tournament.standings.ranking import Standing
from tournament.standings.rows import StandingRow
from tournament.transfer.rows import settings_row, settings_values

PLACES_TEXT = (
    "Places come from the bracket: the champion, the final's loser, then third (the third-place match, "
    "or the semi-final losers sharing it); further teams share a place with those knocked out in the same round."
)


def final_rule_parts(tournament: Tournament, title: str) -> list[RulePart]:
    """The bracket's final, called ``title`` in the rule handout, when the bracket's settings name a
    rule set for it (a knockout's, and a league's championship's): once drawn, with the changes its
    match keeps to that rule set."""
    preset = settings_of(tournament).final_preset
    if not preset:
        return []
    final = services.bracket_matches(tournament).filter(stage=Match.Stage.FINAL, preset=preset).first()
    return [RulePart(title, preset, json.dumps(final.rule_overrides if final else {}, sort_keys=True))]


def bracket_documents(tournament: Tournament, of: str = "") -> list[Document]:
    """The bracket's documents on the Print tab (a knockout's, and a league's championship's, whose
    titles start with ``of``): the bracket, the open matches' sheets, the played matches' record."""
    matches = services.bracket_matches(tournament)
    open_ = matches.filter(status__in=[Match.Status.READY, Match.Status.PLAYING]).count()
    played = matches.filter(status=Match.Status.FINISHED).count()
    sheets = (
        f"a blank page for each of the {open_} match{'es' if open_ != 1 else ''} now playing or waiting "
        "for a table, with the time-limit rule"
        if open_
        else "No match is playing or waiting for a table: no blank match sheets to print."
    )

    def titled(title: str) -> str:
        return f"{of} {title[0].lower()}{title[1:]}" if of else title

    return [
        Document("bracket", titled("Bracket"), "one landscape page, with results so far",
                 lambda t, base: bracket_sheet(t)),
        Document("match-sheets", titled("Match score sheets"), sheets, match_sheets, offered=bool(open_)),
        Document(
            "played-match-sheets",
            titled("Played match score sheets"),
            f"{played} match{'es' if played != 1 else ''}, a page per game, in the order they finished: "
            "every game's hands, bids and tricks, totals and winner",
            played_match_sheets,
            offered=bool(played),
        ),
    ]  # fmt: skip


class Knockout(EventFormat):
    """A bracket: each match at a free table; a match's result moves its winner on at once."""

    start_label = "Draw the bracket and start"
    start_text = "Draw the bracket when the teams are here; the first matches take their tables at once."
    uses = ("seating_order",)
    public_page = "public:bracket"
    projector_page = "public:bracket_projector"
    public_title = "Live bracket"
    places_text = PLACES_TEXT
    standings_partial = "knockout/standings.html#places"
    urls = urls
    assistant_pages = frozenset({"bracket", "match_table"})
    plays_matches = True
    prints_rounds = False
    documents_title = "The bracket"
    simulation = SIMULATION

    def __init__(self, *, double: bool) -> None:
        self.double = double
        self.key = services.DOUBLE if double else services.SINGLE
        kind = "double" if double else "single"
        self.label = f"Knockout: {kind} elimination (fixed partners)"

    def start(self, *, tournament: Tournament, by: User = None) -> Round:
        return services.draw_bracket(tournament=tournament, by=by)

    def game_changed(self, *, game: Game, winner_before: str, by: User = None) -> str:
        if game.match_id is not None:
            services.game_changed(game=game)
        return ""

    def match_settled(self, *, match: Match, by: User = None) -> None:
        services.advance(match.tournament)

    def close_round(self, *, round_: Round, by: User = None) -> Round | None:
        raise ValidationError("A knockout's round closes by itself when the final is decided.", code="closes_itself")

    def standings(self, tournament: Tournament) -> list[StandingRow]:
        """The teams out so far (every team at the end) by their bracket place: the standing's
        total is the points they scored, its rounds won the matches they won."""
        return [
            StandingRow(
                Standing(r.place, r.team, r.points, r.matches_won, (), (r.place,)), r.name, r.division, r.withdrawn
            )
            for r in place_rows(tournament)
            if r.place is not None
        ]

    def standings_context(self, tournament: Tournament) -> dict[str, Any]:
        return {"places": place_rows(tournament)}

    def prize_ties(self, tournament: Tournament) -> str:
        return "tiebreak"  # the bracket is the only tiebreak: teams sharing a place share its prizes

    def play_url(self, tournament: Tournament, round_: Round) -> str:
        return reverse("director:bracket", args=[tournament.pk])

    def progress(self, tournament: Tournament) -> tuple[int, int, str]:
        """Matches played of those to play: byes never count, a second final only once it is needed."""
        real = tournament.matches.filter(number__gt=0).exclude(status__in=[Match.Status.BYE, Match.Status.NOT_NEEDED])
        done = real.filter(status=Match.Status.FINISHED).count()
        return done, real.count(), "matches played"

    def swap_teams(self, *, tournament: Tournament, first: Team, second: Team, by: User = None) -> None:
        services.swap_teams(tournament=tournament, first=first, second=second, by=by)

    def tabs(self, tournament: Tournament) -> list[Nav]:
        return [Nav("Bracket", reverse("director:bracket", args=[tournament.pk]), "bracket")]

    def dashboard_links(self, tournament: Tournament) -> list[Nav]:
        return [Nav("Set the seeds", reverse("director:seeds", args=[tournament.pk]))]

    def waiting(self, tournament: Tournament, table_number: int, current: Round | None) -> tuple[str, str]:
        if current is not None:
            return (
                f"No match at table {table_number} just now",
                "This table is free until the bracket's next match takes it. Keep the page open: it opens by "
                "itself when a match is seated here.",
            )
        return (
            "The bracket is not drawn yet",
            "This page opens for scoring by itself once the director draws the bracket and a first match takes "
            "this table.",
        )

    def starts(self) -> str:
        return "play"

    def round_words(self, round_: Round) -> str:
        return services.round_words(round_)

    def settings_form(self, tournament: Tournament | None, data: Any = None) -> forms.Form | None:
        return BracketSettingsForm(data, instance=settings_of(tournament) if tournament else None, prefix="knockout")

    def save_settings(self, *, tournament: Tournament, form: forms.Form) -> None:
        settings = form.save(commit=False)
        settings.tournament = tournament
        settings.save()

    def rules_changed(self, *, tournament: Tournament) -> None:
        services.final_rules_changed(tournament)

    def documents(self, tournament: Tournament) -> list[Document]:
        return bracket_documents(tournament)

    def handout_sections(self, tournament: Tournament) -> list[Section]:
        decides = (
            "a team is out after its second lost match."
            if self.double
            else "the winner of a match goes on to the next round and the loser is out."
        )
        return [Section("The knockout", (f"Partners stay together throughout. Teams meet in matches drawn on "
                                         f"the bracket; {decides}",))]  # fmt: skip

    def rule_parts(self, tournament: Tournament) -> list[RulePart]:
        return final_rule_parts(tournament, "The final")

    def export(self, tournament: Tournament) -> dict[str, Any]:
        return settings_values(settings_of(tournament))

    def read_import(self, plan: Any, data: dict[str, Any]) -> None:
        plan.format_settings = settings_row(data, KnockoutSettings)
        checks.play_finals_by(plan.format_settings, plan)

    def check_import(self, plan: Any) -> None:
        checks.check_knockout(plan)

    def import_settings(self, *, tournament: Tournament, plan: Any) -> None:
        KnockoutSettings.objects.update_or_create(tournament=tournament, defaults=settings_values(plan.format_settings))
