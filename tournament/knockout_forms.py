"""Forms of a knockout's director: settle a match without playing it, seat it, run its clock."""

from __future__ import annotations

from typing import Any

from django import forms

from tournament.clocks import MAX_EXTRA_MINUTES
from tournament.models import Match, Table, Team


class DecideMatchForm(forms.Form):
    """A walkover (a team did not show) or the director's decision, always with a reason."""

    KINDS = [("walkover", "Walkover: the other team did not show"), ("decision", "Director's decision")]

    kind = forms.ChoiceField(choices=KINDS, widget=forms.RadioSelect, initial="decision")
    winner = forms.TypedChoiceField(coerce=int, label="Goes through")
    reason = forms.CharField(max_length=200, help_text="Kept on the record and shown on the bracket.")

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.match = match
        teams = [t for t in (match.home, match.away) if t is not None]
        self.fields["winner"].choices = [(t.pk, t.names) for t in teams]

    def winner_team(self) -> Team:
        chosen = self.cleaned_data["winner"]
        return self.match.home if self.match.home_id == chosen else self.match.away


class AssignTableForm(forms.Form):
    table = forms.ModelChoiceField(queryset=Table.objects.none(), empty_label=None)

    def __init__(self, *args: Any, free: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["table"].queryset = free


class ClockForm(forms.Form):
    ACTIONS = [("start", "Start"), ("pause", "Pause"), ("extra", "Give extra minutes")]

    action = forms.ChoiceField(choices=ACTIONS)
    minutes = forms.IntegerField(required=False, min_value=-MAX_EXTRA_MINUTES, max_value=MAX_EXTRA_MINUTES)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("action") == "extra" and not data.get("minutes"):
            self.add_error("minutes", forms.ValidationError("How many minutes?", code="minutes_required"))
        return data
