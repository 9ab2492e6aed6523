"""The round page's forms: swapping two players or two teams before the round starts."""

from __future__ import annotations

from typing import Any

from django import forms

from tournament.models import Player, Team


class SwapPlayersForm(forms.Form):
    first = forms.ModelChoiceField(queryset=Player.objects.none())
    second = forms.ModelChoiceField(queryset=Player.objects.none())

    def __init__(self, *args: Any, players: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["first"].queryset = self.fields["second"].queryset = players


class SwapTeamsForm(forms.Form):
    first = forms.ModelChoiceField(queryset=Team.objects.none())
    second = forms.ModelChoiceField(queryset=Team.objects.none())

    def __init__(self, *args: Any, teams: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["first"].queryset = self.fields["second"].queryset = teams
