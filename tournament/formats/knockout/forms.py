"""A knockout's forms: its settings, the seeds before the draw, two teams swapping places, a
ready match seated at a table of the director's choice."""

from __future__ import annotations

from typing import Any

from django import forms

from tournament.formats.knockout.models import KnockoutSettings
from tournament.models import Table, Team


class BracketSettingsForm(forms.ModelForm):
    """How the bracket is played: a knockout's settings, and a league's championship's."""

    class Meta:
        model = KnockoutSettings
        fields = ["best_of", "final_best_of", "final_preset", "third_place_match", "tables_available"]


class AssignTableForm(forms.Form):
    table = forms.ModelChoiceField(queryset=Table.objects.none(), empty_label=None)

    def __init__(self, *args: Any, free: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["table"].queryset = free


class SeedsForm(forms.Form):
    """The director's seeds: every playing team a different number from 1 (the top seed) to N."""

    def __init__(self, *args: Any, teams: list[Team], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.teams = teams
        for team in teams:
            self.fields[f"seed-{team.pk}"] = forms.IntegerField(
                label=f"{team.number}. {team.names}", min_value=1, max_value=len(teams), initial=team.seed
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        taken: dict[int, str] = {}
        for team in self.teams:
            seed = data.get(f"seed-{team.pk}")
            if seed in taken:
                message = f"Seed {seed} is given to {taken[seed]} already."
                self.add_error(f"seed-{team.pk}", forms.ValidationError(message, code="seed_taken"))
            elif seed is not None:
                taken[seed] = team.names
        return data

    def seeds(self) -> dict[int, int]:
        return {team.pk: self.cleaned_data[f"seed-{team.pk}"] for team in self.teams}
