"""The import's form: a tournament export, as a new tournament or in place of one."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError

from tournament.clubs.forms import ClubChoiceField
from tournament.models import Tournament
from tournament.transfer.rows import max_upload_bytes


class ImportForm(forms.Form):
    """A tournament export to import: as a new tournament, or in place of one the user directs."""

    file = forms.FileField(
        label="Tournament export (.json)", error_messages={"required": "Choose the tournament's .json file to import."}
    )
    replace = forms.ModelChoiceField(
        queryset=Tournament.objects.none(),
        required=False,
        empty_label="As a new tournament",
        label="Import",
        help_text="In place of a tournament: the backup replaces everything in it, and its table links stay.",
    )

    def __init__(self, *args: Any, directed: Any, clubs: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["club"] = ClubChoiceField(
            clubs, label="Into the club", help_text="The club a new tournament belongs to (a restore stays in its own)."
        )
        self.fields["club"].required = False  # a restore needs none: clean() asks it of a new tournament
        self.fields["replace"].queryset = directed
        self.fields["replace"].label_from_instance = lambda t: f"In place of {t}"
        limit = settings.SPADES_IMPORT_MAX_MB
        self.fields["file"].help_text = f"At most {limit} MB; a 1,000-table event of 8 rounds exports about 25 MB."

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not data.get("replace") and not data.get("club") and "club" not in self.errors:
            self.add_error("club", ValidationError("Choose the club the new tournament goes into.", code="required"))
        return data

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > max_upload_bytes():
            size = upload.size / 1024 / 1024
            limit = max_upload_bytes() // 1024 // 1024
            raise ValidationError(f"The file is {size:.1f} MB; an export is at most {limit} MB.", code="too_large")
        return upload
