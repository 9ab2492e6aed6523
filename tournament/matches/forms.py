"""The director's forms for a match: settle it without playing it, move it to another table."""

from __future__ import annotations

from typing import Any

from django import forms

from tournament.formats.registry import format_of
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
        self.words = format_of(match.tournament).match_words(match)
        self.fields["winner"].label = self.words.winner
        self.fields["reason"].help_text = f"Kept on the record and shown in {self.words.shown}."
        teams = [t for t in (match.home, match.away) if t is not None]
        self.fields["winner"].choices = [(t.pk, t.names) for t in teams]

    def winner_team(self) -> Team:
        chosen = self.cleaned_data["winner"]
        return self.match.home if self.match.home_id == chosen else self.match.away


class MoveMatchForm(forms.Form):
    """A match seated but not started moves to another table (a match not started there swaps)."""

    match = forms.ModelChoiceField(queryset=Match.objects.none(), label="Move match")
    table = forms.ModelChoiceField(queryset=Table.objects.none(), label="to table")

    def __init__(self, *args: Any, matches: Any, tables: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["match"].queryset = matches
        self.fields["match"].label_from_instance = lambda m: f"Table {m.table.number}: {m}"
        self.fields["table"].queryset = tables
        self.fields["table"].label_from_instance = lambda table: str(table.number)


class SwapTeamsForm(forms.Form):
    """Two teams exchange their places (a bracket's matches, tables and byes) before either plays."""

    first = forms.ModelChoiceField(queryset=Team.objects.none(), label="Swap team")
    second = forms.ModelChoiceField(queryset=Team.objects.none(), label="with team")

    def __init__(self, *args: Any, teams: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("first", "second"):
            self.fields[name].queryset = teams
            self.fields[name].label_from_instance = self.team_label

    @staticmethod
    def team_label(team: Team) -> str:
        """A team as the choices name it. A bracket names teams by seed, so they do too ("(1) Xena Cole")."""
        return f"({team.seed}) {team.names}" if team.seed else f"{team.number}. {team.names}"

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("first") is not None and data.get("first") == data.get("second"):
            self.add_error("second", forms.ValidationError("Choose two different teams.", code="same_team"))
        return data
