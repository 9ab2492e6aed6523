"""The director's form for a clock: start, pause, or give extra minutes."""

from __future__ import annotations

from typing import Any

from django import forms

from tournament.clocks.services import MAX_EXTRA_MINUTES


class ClockForm(forms.Form):
    ACTIONS = [("start", "Start"), ("pause", "Pause"), ("extra", "Give extra minutes")]

    action = forms.ChoiceField(choices=ACTIONS)
    minutes = forms.IntegerField(required=False, min_value=-MAX_EXTRA_MINUTES, max_value=MAX_EXTRA_MINUTES)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("action") == "extra" and not data.get("minutes"):
            self.add_error("minutes", forms.ValidationError("How many minutes?", code="minutes_required"))
        return data
