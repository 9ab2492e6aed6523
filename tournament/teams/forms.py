"""The registration desk's forms: a couple by their two names, a player's details, a substitute."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.urls import reverse_lazy

from tournament.models import Player, Team


def roster_field(name: str) -> dict[str, Any]:
    """A name field that offers the club roster's names as they are typed (htmx fills its list)."""
    return {
        "list": f"roster-{name}",
        "autocomplete": "off",
        "hx-get": reverse_lazy("director:roster_search"),
        "hx-trigger": "input changed delay:200ms",
        "hx-target": f"#roster-{name}",
        "hx-swap": "innerHTML",
        "hx-sync": "this:replace",
    }


class RegistrationForm(forms.Form):
    """Two names (and optional divisions) register a team.

    ``autofocus`` puts the cursor in the first name when a page loads. A form htmx swaps in
    goes without it: htmx focuses a swapped-in autofocus field, which after a check-in further
    down the list would scroll the page back up to the form. After a registration the page's
    script puts the cursor in the first name (``data-focus-after-swap``)."""

    first = forms.CharField(label="Player 1", max_length=80, widget=forms.TextInput(attrs=roster_field("first")))
    second = forms.CharField(label="Player 2", max_length=80, widget=forms.TextInput(attrs=roster_field("second")))
    first_division = forms.CharField(label="Division", max_length=40, required=False)
    second_division = forms.CharField(label="Division", max_length=40, required=False)

    def __init__(self, *args: Any, autofocus: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if autofocus:
            self.fields["first"].widget.attrs["autofocus"] = True

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        first, second = data.get("first", "").strip(), data.get("second", "").strip()
        if first and first.casefold() == second.casefold():
            self.add_error("second", ValidationError("The two players need different names.", code="same_name"))
        return data

    def names(self) -> list[str]:
        return [self.cleaned_data["first"], self.cleaned_data["second"]]

    def divisions(self) -> list[str]:
        return [self.cleaned_data["first_division"], self.cleaned_data["second_division"]]


class PlayerForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = ["name", "division"]


class SubstituteForm(forms.Form):
    """Who plays in a player's place, from which round to the end of the event."""

    player = forms.ModelChoiceField(queryset=Player.objects.none(), widget=forms.RadioSelect, label="Replace")
    substitute = forms.CharField(max_length=80, label="Substitute's name")
    from_round = forms.IntegerField(min_value=1, max_value=50, label="From round")

    def __init__(self, *args: Any, team: Team, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = team.players.all()
