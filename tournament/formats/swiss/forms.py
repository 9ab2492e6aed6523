"""A Swiss event's forms: its settings (prefixed "swiss" on the tournament form), two teams
swapping places before a round starts, and the score of a late team's missed rounds."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from tournament.formats.swiss.models import MAX_ROUNDS, LateEntry, SwissSettings, suggested_rounds
from tournament.formats.swiss.table import Tiebreak
from tournament.matches.forms import SwapTeamsForm
from tournament.models import Team

TIEBREAK_FIELDS = ("tiebreak_1", "tiebreak_2", "tiebreak_3", "tiebreak_4")


class SwissSettingsForm(forms.ModelForm):
    """Rounds, the bye's score, the tiebreaks in order and games a pairing."""

    class Meta:
        model = SwissSettings
        fields = ["rounds", "bye_points_for", "bye_points_against", "best_of"]

    def __init__(self, *args: Any, teams: int = 0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        rounds = self.fields["rounds"]
        rounds.widget.attrs.update(min=1, max=MAX_ROUNDS)
        if teams > 1:
            rounds.help_text = (f"Every team plays every round. Suggested for {teams} teams: {suggested_rounds(teams)} "
                                "(enough to separate a winner: ⌈log2 teams⌉ + 1).")  # fmt: skip
        else:
            rounds.help_text = "Every team plays every round. Suggested: ⌈log2 teams⌉ + 1 (5 for 16 teams)."
        chosen = self.instance.swiss_tiebreaks
        for index, name in enumerate(TIEBREAK_FIELDS):
            self.fields[name] = forms.ChoiceField(
                label=f"Swiss tiebreak {index + 1}",
                choices=[("", "none"), *((t.value, t.label) for t in Tiebreak)],
                required=False,
                initial=chosen[index].value if index < len(chosen) else "",
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        chosen = [name for name in (data.get(field) for field in TIEBREAK_FIELDS) if name]
        if len(set(chosen)) != len(chosen):
            error = ValidationError("Choose each Swiss tiebreak at most once.", code="tiebreak_repeated")
            self.add_error(TIEBREAK_FIELDS[0], error)
        else:
            self.instance.tiebreaks = ",".join(chosen)
        return data


class SwapForm(SwapTeamsForm):
    """Two teams of the round paired but not started exchange places."""

    @staticmethod
    def team_label(team: Team) -> str:
        """A Swiss pairs by standing, not by seed: its choices name teams by number."""
        return f"{team.number}. {team.names}"


class MissedRoundsForm(forms.ModelForm):
    """What each round a late team missed counts as."""

    won = forms.TypedChoiceField(
        choices=[("False", "A round lost"), ("True", "A round won")],
        coerce=lambda value: value == "True",
        label="Each missed round counts as",
    )

    class Meta:
        model = LateEntry
        fields = ["won", "points_for", "points_against"]
        labels = {"points_for": "scored", "points_against": "to"}
