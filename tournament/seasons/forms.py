"""A season's settings as the director types them: name, rule, points table, best N, events."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils.formats import date_format

from tournament.models import Club, Tournament
from tournament.seasons.models import Season
from tournament.seasons.points import BEST_N, PLACES

MOST_PLACES = 64  # points for at most this many places; a place past the table scores 0


class EventChoiceField(forms.ModelMultipleChoiceField):
    """The club's events, each named with its date as the app's pages write dates."""

    def label_from_instance(self, obj: Tournament) -> str:
        return f"{obj.name} ({date_format(obj.date)})"


class SeasonForm(forms.Form):
    name = forms.CharField(
        max_length=80, label="Season name", help_text="e.g. Fall 2026 Fridays",
        error_messages={"required": "Give the season a name."},
    )  # fmt: skip
    rule = forms.ChoiceField(choices=Season.Rule.choices, label="Season standings by")
    points_table = forms.CharField(
        max_length=400, required=False, label="Points by place",
        help_text="The winner's points first, separated by commas: 10, 8, 6, 5, 4, 3, 2, 1. "
        "A place past the end scores 0; tied places share the average of their points.",
    )  # fmt: skip
    best_n = forms.IntegerField(
        min_value=1, max_value=999, required=False, label="Best N events count",
        help_text="Only for the rule \"best N events\": each entrant's best N events count.",
    )  # fmt: skip
    events = EventChoiceField(
        queryset=Tournament.objects.none(), required=False, widget=forms.CheckboxSelectMultiple,
        label="Events in the season",
        help_text="An event belongs to one season at most: those already in another season are not listed.",
        error_messages={"invalid_choice": "Choose among the club's events that are in no other season."},
    )  # fmt: skip

    def __init__(self, *args: Any, club: Club, season: Season | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.club, self.season = club, season
        free = Q(season_event__isnull=True) | Q(season_event__season=season) if season else Q(season_event__isnull=True)
        self.fields["events"].queryset = Tournament.objects.filter(free, club=club).order_by("-date", "-id")

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        taken = Season.objects.filter(club=self.club, name=name)
        if self.season is not None:
            taken = taken.exclude(pk=self.season.pk)
        if not name:
            raise ValidationError("Give the season a name.", code="required")
        if taken.exists():
            raise ValidationError("The club has a season of that name already.", code="name_taken")
        return name

    def clean_points_table(self) -> list[int]:
        text = self.cleaned_data["points_table"].strip()
        parts = [p.strip() for p in text.replace(";", ",").split(",") if p.strip()]
        if not all(p.isascii() and p.isdecimal() for p in parts):
            raise ValidationError(
                "Points by place are whole numbers separated by commas, e.g. 10, 8, 6, 5.", code="points_not_numbers"
            )
        if len(parts) > MOST_PLACES:
            raise ValidationError(f"Points for at most {MOST_PLACES} places.", code="points_too_many")
        return [int(p) for p in parts]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        rule = data.get("rule")
        if rule in (PLACES, BEST_N) and "points_table" in data and not data["points_table"]:
            self.add_error("points_table", ValidationError("Give the points for each place.", code="points_required"))
        if rule == BEST_N and not data.get("best_n") and "best_n" not in self.errors:
            self.add_error("best_n", ValidationError("Give how many events count.", code="best_n_required"))
        return data
