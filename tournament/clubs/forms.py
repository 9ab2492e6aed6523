"""Club forms and fields."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import QuerySet

from tournament.models import Club


class ClubChoiceField(forms.ModelChoiceField):
    """The club something new goes into, among ``clubs`` (those the director runs): not asked,
    and that club, when there is only one."""

    def __init__(self, clubs: QuerySet[Club], **kwargs: Any) -> None:
        super().__init__(queryset=clubs, empty_label=None, **kwargs)
        found = list(clubs[:2])
        self.only = found[0] if len(found) == 1 else None
        if self.only is not None:
            self.required = False
            self.widget = forms.HiddenInput()

    def clean(self, value: Any) -> Club | None:
        return super().clean(value) or self.only
