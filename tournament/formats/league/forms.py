"""The league's forms: its settings, moving a match, a late joiner, a withdrawal."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from tournament.formats.knockout.models import KnockoutSettings
from tournament.formats.league.models import LeagueSettings
from tournament.formats.league.schedule import Missed, PlayedResults
from tournament.formats.league.table import Tiebreaker
from tournament.models import Team

TIEBREAKER_FIELDS = ("tiebreaker_1", "tiebreaker_2", "tiebreaker_3", "tiebreaker_4")
BRACKET_FIELDS = ("best_of", "final_best_of", "final_preset", "third_place_match")


class LeagueSettingsForm(forms.ModelForm):
    """A season's settings, and how its matches and championship are played (the bracket's
    settings, :class:`KnockoutSettings`): both saved by :meth:`save_both`."""

    class Meta:
        model = LeagueSettings
        fields = ["legs", "championship_teams", "fee_per"]

    def __init__(self, *args: Any, bracket: KnockoutSettings, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.bracket = bracket
        model_fields = forms.models.fields_for_model(KnockoutSettings, fields=BRACKET_FIELDS)
        for name in BRACKET_FIELDS:
            self.fields[name] = model_fields[name]
            self.initial.setdefault(name, getattr(bracket, name))
        chosen = self.instance.league_tiebreakers
        for index, name in enumerate(TIEBREAKER_FIELDS):
            self.fields[name] = forms.ChoiceField(
                label=f"League tiebreaker {index + 1}",
                choices=[("", "none"), *((t.value, t.label) for t in Tiebreaker)],
                required=False,
                initial=chosen[index].value if index < len(chosen) else "",
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        chosen = [data.get(name) for name in TIEBREAKER_FIELDS]
        chosen = [name for name in chosen if name]
        if len(set(chosen)) != len(chosen):
            error = ValidationError("Choose each league tiebreaker at most once.", code="tiebreaker_repeated")
            self.add_error(TIEBREAKER_FIELDS[0], error)
        else:
            self.instance.tiebreakers = ",".join(chosen)
        return data

    def save_both(self, tournament: Any) -> None:
        """Save the season's settings and the bracket's for ``tournament``."""
        settings = self.save(commit=False)
        settings.tournament = tournament
        settings.save()
        for name in BRACKET_FIELDS:
            setattr(self.bracket, name, self.cleaned_data[name])
        self.bracket.tournament = tournament
        self.bracket.save()


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
