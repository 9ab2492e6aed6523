"""The director's form for a clock: start, pause, give extra minutes, or set the minutes left."""

from __future__ import annotations

from typing import Any

from django import forms

from tournament.clocks.services import MAX_EXTRA_MINUTES, MAX_MINUTES_LEFT


class ClockForm(forms.Form):
    ACTIONS = [("start", "Start"), ("pause", "Pause"), ("extra", "Give extra minutes"), ("set", "Set the minutes left")]

    action = forms.ChoiceField(choices=ACTIONS)
    minutes = forms.IntegerField(required=False, min_value=-MAX_EXTRA_MINUTES, max_value=MAX_EXTRA_MINUTES)
    minutes_left = forms.IntegerField(
        required=False,
        label="Minutes left",
        min_value=0,
        max_value=MAX_MINUTES_LEFT,
        error_messages={
            "invalid": "Minutes left must be a whole number of minutes.",
            "min_value": "Minutes left cannot be below 0 (0 calls time now).",
            "max_value": f"Minutes left can be at most {MAX_MINUTES_LEFT}.",
        },
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("action") == "extra" and not data.get("minutes"):
            self.add_error("minutes", forms.ValidationError("How many minutes?", code="minutes_required"))
        if data.get("action") == "set" and data.get("minutes_left") is None and "minutes_left" not in self.errors:
            message = "How many minutes should be left? Give a number from 0 up."
            self.add_error("minutes_left", forms.ValidationError(message, code="minutes_left_required"))
        return data
