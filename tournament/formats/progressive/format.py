"""The progressive format as the core sees it (see :class:`tournament.formats.registry.EventFormat`)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.urls import reverse

from scoring.describe import Section
from scoring.presets import preset_rules
from scoring.rules import RuleSet
from tournament.formats.progressive import movement, urls
from tournament.formats.progressive.forms import ProgressiveRulesForm
from tournament.formats.progressive.handout import handout_section, sit_out_sentence, tie_hand_sentence
from tournament.formats.progressive.simulation import SIMULATION
from tournament.formats.progressive.standings import standings_rows
from tournament.formats.registry import EventFormat, Nav, User
from tournament.models import Game, Round, Team, Tournament
from tournament.standings.ranking import TIEBREAK_TEXT
from tournament.standings.rows import StandingRow


class Progressive(EventFormat):
    """Progressive tables: a movement seats each round; results move players when it closes."""

    uses = ("rounds_planned", "seating_order", "prize_ties")
    rule_fields = ("sit_out_credit", "tie_hand_counts")
    places_text = TIEBREAK_TEXT
    standings_partial = "progressive/standings.html#standings"
    urls = urls
    assistant_pages = frozenset({"round", "round_swap"})
    simulation = SIMULATION

    def __init__(self, *, split: bool) -> None:
        self.key = movement.SPLIT if split else movement.FIXED
        self.partners = "split" if split else "fixed"
        self.label = (
            "Progressive tables, partners split (individual scores)"
            if split
            else "Progressive tables, fixed partners (team scores)"
        )

    def late_entry(self, team: Team, current: Round) -> str:
        joins = current.number if current.status == Round.Status.PLANNED else current.number + 1
        return f"Team {team.number} joins in round {joins}, at the highest table or sitting out, as the movement says."

    def settings_form(self, tournament: Tournament | None, data: Any = None) -> forms.Form | None:
        rules = tournament.rules if tournament is not None else RuleSet()
        return ProgressiveRulesForm(data, rules=rules, prefix="progressive")

    def save_settings(self, *, tournament: Tournament, form: forms.Form) -> None:
        assert isinstance(form, ProgressiveRulesForm)
        tournament.rule_overrides = form.overrides(tournament, preset_rules(tournament.preset))
        tournament.save(update_fields=["rule_overrides"])

    def start(self, *, tournament: Tournament, by: User = None) -> Round:
        return movement.seat_first_round(tournament=tournament, by=by)

    def game_changed(self, *, game: Game, winner_before: str, by: User = None) -> str:
        # A round's close reads every table's result; only a closed round's changed result moves anything.
        if game.round.status != Round.Status.CLOSED or game.winner == winner_before:
            return ""
        return movement.result_changed(game, by=by)

    def entrants_changed(self, *, tournament: Tournament, reason: str, by: User = None) -> None:
        movement.replan(tournament, by=by, reason=reason)

    def close_round(self, *, round_: Round, by: User = None) -> Round | None:
        return movement.close_round(round_, called=f"{self.round_name} {round_.number}")

    def play_url(self, tournament: Tournament, round_: Round) -> str:
        return reverse("director:round", args=[tournament.pk, round_.number])

    def closed(self, tournament: Tournament, round_: Round, following: Round | None) -> tuple[str, str]:
        if following is None:
            return super().closed(tournament, round_, following)
        return f"Round {round_.number} closed. Here is round {following.number}'s movement.", self.play_url(
            tournament, following
        )

    def standings(self, tournament: Tournament) -> list[StandingRow]:
        return standings_rows(tournament)

    def standings_after(self, tournament: Tournament, number: int) -> list[StandingRow] | None:
        return standings_rows(tournament, through=number)

    def standings_context(self, tournament: Tournament) -> dict[str, Any]:
        return {"rows": self.standings(tournament), "entrant_word": self._entrant_word}

    def standings_context_after(self, tournament: Tournament, number: int) -> dict[str, Any] | None:
        return {"rows": standings_rows(tournament, through=number), "entrant_word": self._entrant_word}

    @property
    def _entrant_word(self) -> str:
        return "Player" if self.partners == "split" else "Team"

    def tabs(self, tournament: Tournament) -> list[Nav]:
        current = tournament.current_round()
        if current is None:
            return []
        url = reverse("director:round", args=[tournament.pk, current.number])
        return [Nav(f"Round {current.number}", url, "round", current.number)]

    def places_words(self, tournament: Tournament) -> str:
        split, rules = self.partners == "split", tournament.rules
        sentences = (self.places_text, sit_out_sentence(rules, split=split), tie_hand_sentence(rules, split=split))
        return " ".join(filter(None, sentences))

    def handout_sections(self, tournament: Tournament) -> list[Section]:
        return [handout_section(tournament, key=self.key)]
