"""Club forms and fields."""

from __future__ import annotations

import zoneinfo
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import ValidationError
from django.db.models import QuerySet

from tournament.models import Club, ClubMember

Role = ClubMember.Role


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


def _time_zone_choices() -> list[tuple[str, str]]:
    return [(name, name.replace("_", " ")) for name in sorted(zoneinfo.available_timezones())]


class ClubSettingsForm(forms.Form):
    """A club's name, time zone, currency symbol, what it publishes and how its paper sheets are keyed
    (its owner's to change)."""

    name = forms.CharField(max_length=120, label="Club name")
    time_zone = forms.ChoiceField(
        choices=_time_zone_choices, label="Time zone", help_text="Times on the club's pages, sheets and exports."
    )
    currency = forms.CharField(
        max_length=8, label="Currency symbol", help_text="Printed before amounts of money, e.g. $, £ or €."
    )
    ratings_public = forms.BooleanField(
        required=False, label="Ratings on the public pages",
        help_text="Players' ratings show on the club's public pages; unticked, only the club's people see them.",
    )  # fmt: skip
    double_keying = forms.BooleanField(
        required=False,
        label="Key paper sheets twice",
        help_text="A hand keyed from a paper sheet counts only once a second person keys the same values.",
    )
    publish_checked_only = forms.BooleanField(
        required=False,
        label="Show a round publicly only once its flags are checked",
        help_text="The public standings and the projector hold a round's results until every flag raised on "
        "its board is marked checked.",
    )

    def clean_currency(self) -> str:
        value = self.cleaned_data["currency"].strip()
        if not value:
            raise ValidationError("Give a currency symbol, e.g. $, £ or €.", code="currency_blank")
        return value


class RoleForm(forms.Form):
    """A member's new role; "owner" hands them the ownership."""

    role = forms.ChoiceField(
        choices=[
            (Role.DIRECTOR, "Director"),
            (Role.ASSISTANT, "Assistant"),
            (Role.OWNER, "Owner (hand over the ownership)"),
        ],
        label="Role",
    )


class InvitationForm(forms.Form):
    """Whom a new invitation makes (a director or an assistant), how long its link works, and
    (when the site sends email) where to send it."""

    role = forms.ChoiceField(choices=[(Role.DIRECTOR, "Director"), (Role.ASSISTANT, "Assistant")], label="Invite as")
    days = forms.IntegerField(
        min_value=1, max_value=30, initial=7, label="Link works for (days)", help_text="From 1 to 30 days."
    )
    email = forms.EmailField(required=False, label="Send it to (optional)", help_text="The link is emailed there too.")

    def __init__(self, *args: Any, email: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not email:
            del self.fields["email"]


class SignUpForm(UserCreationForm):
    """A new account for whoever opens an invitation: a user name and a password, twice, checked
    by the site's password validators; when the site sends email, an address for password resets."""

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")
        labels = {"username": "User name", "email": "Email (optional: for resetting your password)"}

    def __init__(self, *args: Any, email: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["username"].help_text = "Letters, digits and @ . + - _ only; you log in with it."
        self.fields[
            "password1"
        ].help_text = "At least 8 characters, not all digits, not a common password and not like your user name."
        self.fields["password2"].label = "The password again"
        self.fields["password2"].help_text = ""
        if not email:
            del self.fields["email"]
