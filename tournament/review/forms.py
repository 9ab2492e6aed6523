"""The director's "checked" on a flag: which flag (its key) and an optional note."""

from django import forms


class FlagCheckForm(forms.Form):
    key = forms.CharField(
        max_length=200,
        error_messages={
            "required": "Say which flag is checked.",
            "max_length": "That flag is not one of this round's.",
        },
    )
    note = forms.CharField(
        max_length=300, required=False, label="Note",
        error_messages={"max_length": "Note: keep it to 300 characters."},
    )  # fmt: skip
