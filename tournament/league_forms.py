"""The league's forms (issue 12): moving a match, a late joiner, a withdrawal."""

from __future__ import annotations

from django import forms

from tournament.models import Team
from tournament.schedule import Missed, PlayedResults


class PostponeForm(forms.Form):
    night = forms.IntegerField(min_value=1, max_value=500, label="Move to night")


class LateTeamForm(forms.Form):
    team = forms.ModelChoiceField(queryset=Team.objects.none(), label="Team joining late")
    missed = forms.ChoiceField(
        choices=[
            (Missed.MAKE_UP.value, "Make up the missed matches on later nights"),
            (Missed.FORFEIT.value, "Count the missed matches as forfeits"),
        ],
        label="Matches on nights already played",
    )

    def __init__(self, *args, teams, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["team"].queryset = teams

    def clean_missed(self) -> Missed:
        return Missed(self.cleaned_data["missed"])


class WithdrawTeamForm(forms.Form):
    team = forms.ModelChoiceField(queryset=Team.objects.none(), label="Team withdrawing")
    played = forms.ChoiceField(
        choices=[
            (PlayedResults.STAND.value, "Its played results stand"),
            (PlayedResults.VOID.value, "Its played results are voided"),
        ],
        label="Matches already played",
    )

    def __init__(self, *args, teams, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["team"].queryset = teams

    def clean_played(self) -> PlayedResults:
        return PlayedResults(self.cleaned_data["played"])
