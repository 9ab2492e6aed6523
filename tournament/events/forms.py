"""The event's forms: the tournament's settings (with its format's own, see
:meth:`tournament.formats.registry.EventFormat.settings_form`)."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.utils import timezone

from scoring import InvalidRules, RuleSet, rules_from_json
from scoring.presets import FINAL_PRESETS, PRESETS
from tournament.clubs.forms import ClubChoiceField
from tournament.formats.registry import EventFormat, all_formats, choices, format_named
from tournament.models import Club, Tournament

# The core's fields that only some formats use (EventFormat.uses), with their group's legend.
USED_BY_SOME = {"rounds_planned": "Rounds", "seating_order": "Seating", "prize_ties": "Prizes"}


class TournamentForm(forms.ModelForm):
    """A tournament's settings. The format's own settings are a form of the format's (one for each
    kind of settings, shown beside the format that uses it); the chosen format's is validated and
    saved with the tournament (:meth:`chosen_settings`)."""

    format = forms.ChoiceField(choices=choices)
    rule_overrides = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text='Optional changes to the preset as JSON, e.g. {"bag_limit": 6, "nil_points": 50}. '
        "Changing the rules during play scores every hand again.",
    )

    class Meta:
        model = Tournament
        fields = [
            "name", "date", "venue", "preset", "format", "rounds_planned", "entry_fee",
            "seating_order", "seating_seed", "prize_ties", "require_confirmation", "paper_size", "rule_overrides",
        ]  # fmt: skip
        widgets = {"date": forms.DateInput(attrs={"type": "date"})}
        error_messages = {"preset": {"required": "Choose the rules of play: a preset (change single rules below)."}}

    def __init__(self, *args: Any, clubs: QuerySet[Club] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if clubs is not None:  # a new tournament: the club that owns it, among those the director runs
            self.fields["club"] = ClubChoiceField(
                clubs, help_text="The club whose people run it and whose roster it uses."
            )
            self.order_fields(["club"])
            home = _home_club(clubs, self.initial.get("club"))
            if home is not None:  # the event's day is its club's today, not the server's
                self.initial["date"] = timezone.localdate(timezone=home.zone)
        if self.instance.pk and self.instance.rule_overrides:
            own = format_named(self.instance.format).rule_fields  # the format's own form shows those
            shown = {name: value for name, value in self.instance.rule_overrides.items() if name not in own}
            self.initial["rule_overrides"] = json.dumps(shown) if shown else ""
        if not self.instance.pk:
            # A new tournament's final takes the rule set its preset's text names for it
            # (static/js/app.js fills it in when the preset is chosen; the director may change it).
            self.fields["preset"].widget.attrs["data-final-presets"] = json.dumps(FINAL_PRESETS)
        for name in USED_BY_SOME:  # a format that does not use one keeps its default
            self.fields[name].required = False
        stored = self.instance if self.instance.pk else None
        self.settings_forms: dict[str, forms.Form] = {}  # by format key; formats with the same settings share one
        shared: dict[type, forms.Form] = {}
        for event_format in all_formats():
            form = event_format.settings_form(stored, self.data if self.is_bound else None)
            if form is not None:
                self.settings_forms[event_format.key] = shared.setdefault(type(form), form)
                self._default_final_preset(form)

    def _default_final_preset(self, form: forms.Form) -> None:
        if not self.instance.pk and "final_preset" in form.fields:
            form.initial["final_preset"] = FINAL_PRESETS.get(self.initial.get("preset"), "")

    def fieldsets(self) -> list[tuple[str, str, list[forms.BoundField]]]:
        """The fields as the page groups them: (legend, the formats using them separated by
        spaces, or "" for every format, fields), every format's first."""
        formats = list(all_formats())
        # A hidden field (the club, when the director runs only one) goes with form.hidden_fields.
        shown = [self[name] for name in self.fields if name not in USED_BY_SOME and not self[name].is_hidden]
        common = ("Every format", "", shown)
        groups = [common]
        for name, legend in USED_BY_SOME.items():
            users = " ".join(f.key for f in formats if name in f.uses)
            groups.append((legend, users, [self[name]]))
        seen: list[forms.Form] = []
        for form in self.settings_forms.values():
            if any(form is other for other in seen):
                continue
            seen.append(form)
            users = [f for f in formats if self.settings_forms.get(f.key) is form]
            legend = " and ".join(dict.fromkeys(_kind(f) for f in users))
            groups.append((legend, " ".join(f.key for f in users), list(form)))
        return groups

    def refused_labels(self) -> list[str]:
        """The labels of the fields shown for the chosen format whose input was refused, in the
        page's order: the note at the top of a long form names them."""
        if not self.is_bound:
            return []
        chosen = self.data.get("format") or self.instance.format
        return [
            str(field.label)
            for _, formats, fields in self.fieldsets()
            if not formats or chosen in formats.split()
            for field in fields
            if field.errors
        ]

    def chosen_settings(self) -> forms.Form | None:
        """The chosen format's settings form (validated with the tournament's), or None."""
        return self.settings_forms.get(self.cleaned_data.get("format") or self.instance.format)

    def is_valid(self) -> bool:
        valid = super().is_valid()
        settings = self.chosen_settings() if valid else None
        return valid and (settings is None or settings.is_valid())

    def clean_rule_overrides(self) -> dict[str, Any]:
        text = self.cleaned_data["rule_overrides"].strip()
        if not text:
            return {}
        try:
            overrides = json.loads(text)
        except json.JSONDecodeError as error:
            raise ValidationError(f"Not valid JSON: {error.msg}.", code="json") from None
        except RecursionError:  # the parser's own limit: no rule set nests anything at all
            raise ValidationError("Nested far too deep: give an object of rule fields.", code="json") from None
        if not isinstance(overrides, dict) or "preset" in overrides:
            raise ValidationError("Give an object of rule fields (the preset is chosen above).", code="json")
        return overrides

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for name in USED_BY_SOME:
            if data.get(name) in (None, ""):
                data[name] = getattr(self.instance, name)
        seated = self.instance.pk and self.instance.rounds.exists()
        if seated and data.get("format") and data["format"] != self.instance.format:
            message = "The format cannot change once round 1 is seated: the movement depends on it."
            self.add_error("format", ValidationError(message, code="format_locked"))
        if not data.get("preset") or "rule_overrides" not in data:
            return data
        try:
            rules = rules_from_json({"preset": data["preset"], **data["rule_overrides"]})
        except InvalidRules as error:
            self.add_error("rule_overrides", ValidationError(f"{error.field}: {error.message}.", code="rules"))
            return data
        if data.get("format") and not self._as_stored(data):
            self._check_partners(rules, data)
        if data.get("format"):
            self._leave_to_the_format(data)
        return data

    def _leave_to_the_format(self, data: dict[str, Any]) -> None:
        """Rule fields the chosen format's own settings set are set there, not in the JSON (which
        does not show them, so the stored ones are kept until those settings change them)."""
        own = format_named(data["format"]).rule_fields
        settings = self.chosen_settings()
        given = [name for name in own if name in data["rule_overrides"]]
        if given and settings is not None:
            labels = ", ".join(f'{name} ("{settings.fields[name].label}")' for name in given)
            message = f"{labels}: set with its own field in this format's settings, not here."
            self.add_error("rule_overrides", ValidationError(message, code="format_rule_field"))
            return
        stored = self.instance.rule_overrides if self.instance.pk else {}
        data["rule_overrides"] = {**data["rule_overrides"], **{n: stored[n] for n in own if n in stored}}

    def _as_stored(self, data: dict[str, Any]) -> bool:
        """Whether the rules and format are the saved tournament's: a tournament the form can
        show (an imported one too) can always be saved again."""
        stored = self.instance
        return bool(stored.pk) and (data["preset"], data["format"], data["rule_overrides"]) == (
            stored.preset,
            stored.format,
            stored.rule_overrides,
        )

    def _check_partners(self, rules: RuleSet, data: dict[str, Any]) -> None:
        """The format's partners must be the rules' (the preset's, or the rule changes' ``partners``)."""
        fixed_format = format_named(data["format"]).partners == "fixed"
        if (rules.partners == "fixed") == fixed_format:
            return
        partners = "fixed partners" if rules.partners == "fixed" else "partners who split each round"
        source = "These rules are" if "partners" in data["rule_overrides"] else f"{PRESETS[data['preset']].title} is"
        message = f"{source} played with {partners}: choose the matching format."
        self.add_error("format", ValidationError(message, code="partners_mismatch"))


def _kind(event_format: EventFormat) -> str:
    """A format's kind for a legend: "Knockout" of "Knockout: single elimination (…)"."""
    return event_format.label.split(":")[0].split(",")[0]


def _home_club(clubs: QuerySet[Club], chosen: object) -> Club | None:
    """The club a new event goes into, if already known: the one asked for, else the only one."""
    picked = list(clubs.filter(pk=chosen)[:1]) if str(chosen or "").isdigit() else list(clubs[:2])
    return picked[0] if len(picked) == 1 else None
