"""The progressive format's forms: its rules on the tournament form (what a sitter-out is credited
with, what the hand breaking a tied round counts for), and swapping two players or two teams
before a round starts."""

from __future__ import annotations

from typing import Any

from django import forms

from scoring.rules import RuleSet
from tournament.models import Player, Team, Tournament

CREDIT_CHOICES = [
    ("round_average", "The round's average side score"),
    ("winners_average", "The average of the round's winning sides"),
    ("none", "Nothing"),
]

TIE_HAND_CHOICES = [
    ("False", "Only decides who wins the table and moves on"),
    ("True", "Counts toward the players' totals like any hand"),
]


class ProgressiveRulesForm(forms.Form):
    """The progressive rules a director sets beside the format (rule-set fields the format alone
    reads). Shown with the tournament's rules, or the defaults for a new tournament; saved into
    the tournament's rule overrides only where they differ from its preset's. A field not sent
    (a form of before these fields) leaves its rule as it is."""

    sit_out_credit = forms.ChoiceField(
        choices=CREDIT_CHOICES,
        required=False,
        label="Sitting out a round earns",
        help_text="With an odd number of couples someone sits out each round; this is their score for it.",
    )
    tie_hand_counts = forms.TypedChoiceField(
        choices=TIE_HAND_CHOICES,
        coerce=lambda value: value == "True",
        empty_value=None,
        required=False,
        label="A tied round's extra hand",
    )

    def __init__(self, data: Any = None, *, rules: RuleSet, **kwargs: Any) -> None:
        initial = {"sit_out_credit": rules.sit_out_credit, "tie_hand_counts": str(rules.tie_hand_counts)}
        super().__init__(data, initial=initial, **kwargs)

    def overrides(self, tournament: Tournament, preset_rules: RuleSet) -> dict[str, Any]:
        """``tournament``'s rule overrides with these fields set: each kept only where it differs
        from ``preset_rules`` (so the preset's reading stays marked as ours on the handout)."""
        overrides = dict(tournament.rule_overrides)
        for name in self.base_fields:
            value = self.cleaned_data[name]
            if value in ("", None):
                continue
            if value == getattr(preset_rules, name):
                overrides.pop(name, None)
            else:
                overrides[name] = value
        return overrides


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
