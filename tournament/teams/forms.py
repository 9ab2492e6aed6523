"""The registration desk's forms: a couple by their two names, a player's details, a substitute."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from tournament.models import Player, Team


def roster_field(name: str) -> dict[str, Any]:
    """A name field that offers the club roster's names as they are typed (htmx fills its list
    from the tournament's roster search, which :class:`RegistrationForm` names)."""
    return {
        "list": f"roster-{name}",
        "autocomplete": "off",
        "hx-trigger": "input changed delay:200ms",
        "hx-target": f"#roster-{name}",
        "hx-swap": "innerHTML",
        "hx-sync": "this:replace",
    }


class DivisionField(forms.ChoiceField):
    """A player's division, chosen from ``divisions`` (those the tournament's division prizes
    name) or none: a division no prize names would win nothing, and one typed slightly otherwise
    ("Female" for "female") would miss its prize. A division sent in another case is taken as the
    prize spells it."""

    def __init__(self, *, divisions: Collection[str], **kwargs: Any) -> None:
        super().__init__(required=False, **kwargs)
        self.choices = [("", "None"), *((name, name) for name in sorted(divisions, key=str.casefold))]

    def to_python(self, value: Any) -> str:
        text = super().to_python(value).strip()
        return next((name for name, _ in self.choices if name.casefold() == text.casefold()), text)

    def validate(self, value: str) -> None:
        if not self.valid_value(value):
            raise ValidationError(
                'No prize is for the division "%(value)s": choose one of the prizes\' divisions, or none '
                "(the Prizes tab adds a division prize).",
                code="unknown_division",
                params={"value": value},
            )


class RegistrationForm(forms.Form):
    """Two names (and their divisions, from those the prizes name) register a team.

    ``autofocus`` puts the cursor in the first name when a page loads. A form htmx swaps in
    goes without it: htmx focuses a swapped-in autofocus field, which after a check-in further
    down the list would scroll the page back up to the form. After a registration the page's
    script puts the cursor in the first name (``data-focus-after-swap``)."""

    first = forms.CharField(label="Player 1", max_length=80, widget=forms.TextInput(attrs=roster_field("first")))
    second = forms.CharField(label="Player 2", max_length=80, widget=forms.TextInput(attrs=roster_field("second")))

    def __init__(
        self, *args: Any, search_url: str, divisions: Collection[str] = (), autofocus: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        for name in ("first", "second"):  # the roster of the tournament's club
            self.fields[name].widget.attrs["hx-get"] = search_url
        self.fields["first_division"] = DivisionField(divisions=divisions, label="Player 1's division")
        self.fields["second_division"] = DivisionField(divisions=divisions, label="Player 2's division")
        self.has_divisions = bool(divisions)
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
    """A player's name and division. The division is one the prizes name, or the one the player
    already has (kept, not lost, when only the name is corrected)."""

    class Meta:
        model = Player
        fields = ["name", "division"]

    def __init__(self, *args: Any, divisions: Collection[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        current = self.instance.division
        known = {name.casefold() for name in divisions}
        kept = [current] if current and current.casefold() not in known else []
        field = self.fields["division"] = DivisionField(divisions=[*divisions, *kept], label="Division")
        self.initial["division"] = field.to_python(current)  # as the prize spells it, so it shows chosen


class SubstituteForm(forms.Form):
    """Who plays in a player's place, from which round to the end of the event."""

    player = forms.ModelChoiceField(queryset=Player.objects.none(), widget=forms.RadioSelect, label="Replace")
    substitute = forms.CharField(max_length=80, label="Substitute's name")
    from_round = forms.IntegerField(min_value=1, max_value=50, label="From round")

    def __init__(self, *args: Any, team: Team, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = team.players.all()
