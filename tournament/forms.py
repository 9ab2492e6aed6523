"""Forms hold the input rules: bounds on fields, cross-field rules in ``clean()`` with error codes."""

from __future__ import annotations

import functools
import json
from decimal import Decimal
from typing import Any

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.urls import reverse_lazy

from scoring import HandEntry, InvalidHand, InvalidRules, RuleSet, Seat, Side, SideHand, rules_from_json
from scoring.describe import bid_name
from scoring.hand import BLIND_NIL, NIL, validate_hand
from scoring.rules import FINAL_PRESETS, MISDEAL_REASONS, PRESETS
from tournament.league_table import Tiebreaker
from tournament.models import SIDE_CHOICES, Payment, Player, Prize, Team, Tournament
from tournament.restore import max_upload_bytes

TIEBREAKER_FIELDS = ("tiebreaker_1", "tiebreaker_2", "tiebreaker_3", "tiebreaker_4")
LEAGUE_FIELDS = ("legs", "championship_teams", "fee_per")
KNOCKOUT_ONLY = ("best_of", "final_best_of")

_PROGRESSIVE = (Tournament.Format.PROGRESSIVE_SPLIT, Tournament.Format.PROGRESSIVE_FIXED)
_KNOCKOUT = (Tournament.Format.SINGLE_ELIMINATION, Tournament.Format.DOUBLE_ELIMINATION)
_LEAGUE = (Tournament.Format.ROUND_ROBIN,)
# The tournament form's fields that only some formats use, grouped by those formats (every other
# field is every format's). The page shows each group labelled; its script hides the groups the
# chosen format does not use. Only what is shown changes: the form validates every field as ever.
FORMAT_GROUPS = (
    ("Progressive tables", _PROGRESSIVE, ("rounds_planned",)),
    ("Progressive tables and knockouts", _PROGRESSIVE + _KNOCKOUT, ("seating_order",)),
    ("Progressive tables and leagues", _PROGRESSIVE + _LEAGUE, ("prize_ties",)),
    (
        "Knockouts, and a league's matches and championship",
        _KNOCKOUT + _LEAGUE,
        ("best_of", "final_best_of", "final_preset", "third_place_match"),
    ),
    ("Knockouts", _KNOCKOUT, ("tables_available",)),
    ("League season", _LEAGUE, (*LEAGUE_FIELDS, *TIEBREAKER_FIELDS)),
)


class TournamentForm(forms.ModelForm):
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
            "third_place_match", "best_of", "final_best_of", "final_preset", "tables_available",
            "legs", "championship_teams", "fee_per",
        ]  # fmt: skip
        widgets = {"date": forms.DateInput(attrs={"type": "date"})}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk and self.instance.rule_overrides:
            self.initial["rule_overrides"] = json.dumps(self.instance.rule_overrides)
        if not self.instance.pk:
            # A new tournament's final takes the rule set its preset's text names for it
            # (static/js/app.js fills it in when the preset is chosen; the director may change it).
            self.fields["preset"].widget.attrs["data-final-presets"] = json.dumps(FINAL_PRESETS)
            preset = self.initial.get("preset")
            self.initial.setdefault("final_preset", FINAL_PRESETS.get(preset, ""))
        for name in KNOCKOUT_ONLY:  # a progressive event's form need not say
            self.fields[name].required = False
        for name in LEAGUE_FIELDS:  # only a league asks for them; anything else keeps the defaults
            self.fields[name].required = False
        chosen = self.instance.league_tiebreakers
        for index, name in enumerate(TIEBREAKER_FIELDS):
            self.fields[name] = forms.ChoiceField(
                label=f"League tiebreaker {index + 1}",
                choices=[("", "none"), *((t.value, t.label) for t in Tiebreaker)],
                required=False,
                initial=chosen[index].value if index < len(chosen) else "",
            )

    def fieldsets(self) -> list[tuple[str, str, list[forms.BoundField]]]:
        """The fields as the page groups them: (legend, the formats using them separated by
        spaces, or "" for every format, fields), every format's first."""
        grouped = {name for _, _, names in FORMAT_GROUPS for name in names}
        common = ("Every format", "", [self[name] for name in self.fields if name not in grouped])
        return [
            common,
            *((legend, " ".join(formats), [self[n] for n in names]) for legend, formats, names in FORMAT_GROUPS),
        ]

    def clean_best_of(self) -> int:
        return self.cleaned_data["best_of"] or 1

    def clean_final_best_of(self) -> int:
        return self.cleaned_data["final_best_of"] or 1

    def _chosen_tiebreakers(self) -> str:
        """The league's tiebreakers in the director's order, each at most once."""
        chosen = [self.cleaned_data.get(name) for name in TIEBREAKER_FIELDS]
        chosen = [name for name in chosen if name]
        if len(set(chosen)) != len(chosen):
            raise ValidationError("Choose each league tiebreaker at most once.", code="tiebreaker_repeated")
        return ",".join(chosen)

    def clean_rule_overrides(self) -> dict[str, Any]:
        text = self.cleaned_data["rule_overrides"].strip()
        if not text:
            return {}
        try:
            overrides = json.loads(text)
        except json.JSONDecodeError as error:
            raise ValidationError(f"Not valid JSON: {error.msg}.", code="json") from None
        if not isinstance(overrides, dict) or "preset" in overrides:
            raise ValidationError("Give an object of rule fields (the preset is chosen above).", code="json")
        return overrides

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for name in LEAGUE_FIELDS:
            if data.get(name) in (None, ""):
                data[name] = getattr(self.instance, name)
        try:
            self.instance.tiebreakers = self._chosen_tiebreakers()
        except ValidationError as error:
            self.add_error(TIEBREAKER_FIELDS[0], error)
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
        return data

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
        fixed_format = data["format"] != Tournament.Format.PROGRESSIVE_SPLIT  # knockouts: fixed partners
        if (rules.partners == "fixed") == fixed_format:
            return
        partners = "fixed partners" if rules.partners == "fixed" else "partners who split each round"
        source = "These rules are" if "partners" in data["rule_overrides"] else f"{PRESETS[data['preset']].title} is"
        message = f"{source} played with {partners}: choose the matching format."
        self.add_error("format", ValidationError(message, code="partners_mismatch"))


def roster_field(name: str) -> dict[str, Any]:
    """A name field that offers the club roster's names as they are typed (htmx fills its list)."""
    return {
        "list": f"roster-{name}",
        "autocomplete": "off",
        "hx-get": reverse_lazy("director:roster_search"),
        "hx-trigger": "input changed delay:200ms",
        "hx-target": f"#roster-{name}",
        "hx-swap": "innerHTML",
        "hx-sync": "this:replace",
    }


class RegistrationForm(forms.Form):
    """Two names (and optional divisions) register a team.

    ``autofocus`` puts the cursor in the first name when a page loads. A form htmx swaps in
    goes without it: htmx focuses a swapped-in autofocus field, which after a check-in further
    down the list would scroll the page back up to the form. After a registration the page's
    script puts the cursor in the first name (``data-focus-after-swap``)."""

    first = forms.CharField(label="Player 1", max_length=80, widget=forms.TextInput(attrs=roster_field("first")))
    second = forms.CharField(label="Player 2", max_length=80, widget=forms.TextInput(attrs=roster_field("second")))
    first_division = forms.CharField(label="Division", max_length=40, required=False)
    second_division = forms.CharField(label="Division", max_length=40, required=False)

    def __init__(self, *args: Any, autofocus: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if autofocus:
            self.fields["first"].widget.attrs["autofocus"] = True

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        first, second = data.get("first", "").strip(), data.get("second", "").strip()
        if first and first.casefold() == second.casefold():
            self.add_error("second", ValidationError("The two players need different names.", code="same_name"))
        return data

    def names(self) -> list[str]:
        return [self.cleaned_data["first"], self.cleaned_data["second"]]

    def divisions(self) -> list[str]:
        return [self.cleaned_data["first_division"], self.cleaned_data["second_division"]]


class PlayerForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = ["name", "division"]


class PaymentForm(forms.ModelForm):
    class Meta:
        model = Payment
        fields = ["kind", "amount", "method", "note"]
        widgets = {"amount": forms.NumberInput(attrs={"step": "0.01", "min": "0.01", "inputmode": "decimal"})}

    def clean_amount(self) -> Decimal:
        """Dollars and cents: "1e3" is $1,000.00, and fractions of a cent are refused."""
        amount = self.cleaned_data["amount"].quantize(Decimal("0.01"))
        if amount != self.cleaned_data["amount"]:
            raise ValidationError("Give the amount in dollars and cents.", code="cents")
        return amount


class PrizeForm(forms.ModelForm):
    class Meta:
        model = Prize
        fields = ["kind", "place", "division", "amount", "share_percent"]

    def clean(self) -> dict[str, Any]:
        """Each error goes on its field, so the database's own checks stay quiet behind it."""
        data = super().clean()
        amount, share = data.get("amount"), data.get("share_percent")
        if amount is None and share is None and "amount" not in self.errors:
            self.add_error(
                "amount", ValidationError("Give a fixed amount or a share of the fees.", code="amount_or_share")
            )
        elif amount is not None and share is not None:
            message = "Give a fixed amount or a share of the fees, not both."
            self.add_error("amount", ValidationError(message, code="amount_or_share"))
        if amount is not None and amount < 0 and "amount" not in self.errors:
            self.add_error("amount", ValidationError("A prize cannot be negative.", code="negative"))
        if share is not None and not Decimal("0") < share <= Decimal("100"):
            self.add_error("share_percent", ValidationError("A share is more than 0 and at most 100%.", code="share"))
        kind = data.get("kind")
        if kind == Prize.Kind.PLACE and not data.get("place"):
            self.add_error("place", ValidationError("A place prize needs the place it pays, from 1.", code="place"))
        if kind == Prize.Kind.DIVISION and not data.get("division", "").strip():
            self.add_error("division", ValidationError('Name the division, e.g. "female".', code="division"))
        self._check_duplicate(data)
        if share is not None and "share_percent" not in self.errors:
            taken = Prize.objects.filter(tournament=self.instance.tournament, share_percent__isnull=False)
            total = sum((p.share_percent for p in taken.exclude(pk=self.instance.pk)), Decimal("0")) + share
            if total > 100:
                message = f"The prizes' shares would add up to {total}% of the fees; they can share out 100% at most."
                self.add_error("share_percent", ValidationError(message, code="shares_over_100"))
        return data

    def _check_duplicate(self, data: dict[str, Any]) -> None:
        kind = data.get("kind")
        others = Prize.objects.filter(tournament=self.instance.tournament, kind=kind).exclude(pk=self.instance.pk)
        if kind == Prize.Kind.PLACE and data.get("place") and others.filter(place=data["place"]).exists():
            message = f"There is already a prize for place {data['place']}; remove it first."
            self.add_error("place", ValidationError(message, code="duplicate"))
        division = data.get("division", "").strip()
        if kind == Prize.Kind.DIVISION and division and others.filter(division__iexact=division).exists():
            message = f'There is already a prize for division "{division}".'
            self.add_error("division", ValidationError(message, code="duplicate"))


class SubstituteForm(forms.Form):
    """Who plays in a player's place, from which round to the end of the event."""

    player = forms.ModelChoiceField(queryset=Player.objects.none(), widget=forms.RadioSelect, label="Replace")
    substitute = forms.CharField(max_length=80, label="Substitute's name")
    from_round = forms.IntegerField(min_value=1, max_value=50, label="From round")

    def __init__(self, *args: Any, team: Team, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = team.players.all()


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


class TieDecisionForm(forms.Form):
    winner = forms.ChoiceField(choices=SIDE_CHOICES)
    how = forms.CharField(max_length=200, label="How it was decided", help_text="e.g. high card cut by the director")


class PayoutPaidForm(forms.Form):
    received_by = forms.CharField(max_length=120, label="Received by (name)")
    method = forms.ChoiceField(choices=Payment.Method, initial=Payment.Method.CASH, label="Paid by")


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

    def __init__(self, *args: Any, directed: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["replace"].queryset = directed
        self.fields["replace"].label_from_instance = lambda t: f"In place of {t}"
        limit = settings.SPADES_IMPORT_MAX_MB
        self.fields["file"].help_text = f"At most {limit} MB; a 1,000-table event of 8 rounds exports about 25 MB."

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > max_upload_bytes():
            size = upload.size / 1024 / 1024
            limit = max_upload_bytes() // 1024 // 1024
            raise ValidationError(f"The file is {size:.1f} MB; an export is at most {limit} MB.", code="too_large")
        return upload


class DisputeForm(forms.Form):
    """A table flags a hand; the note (optional) says what is disputed."""

    note = forms.CharField(max_length=300, required=False, label="What is disputed?")

    def cleaned_note(self) -> str:
        return self.cleaned_data["note"] or "Disputed at the table"


class ResolutionForm(forms.Form):
    resolution = forms.CharField(max_length=300, label="How it was settled")


def error_text(form: forms.Form) -> str:
    """A form's errors as one sentence per field, for a message line: "Note: Null characters…"."""
    return " ".join(
        f"{form.fields[name].label if name in form.fields else ''}: {' '.join(errors)}".lstrip(": ")
        for name, errors in form.errors.items()
    )


def bid_choices(rules: RuleSet) -> list[tuple[str, str]]:
    """The bids a player may make under ``rules``, as (value, label)."""
    low = max(rules.min_player_bid, 1) if rules.has_nil else rules.min_player_bid
    choices = [(str(n), str(n)) for n in range(low, 14)]
    if rules.has_nil:
        choices.insert(0, (NIL, "Nil"))
    if rules.has_blind_nil:
        choices.insert(1, (BLIND_NIL, bid_name(rules, BLIND_NIL)))
    return choices


@functools.lru_cache(maxsize=64)
def _hand_fields(rules: RuleSet, confirm: bool) -> dict[str, forms.Field]:
    """The hand form's fields under ``rules``, built once per rule set: building (or Django's
    deep copy of) twenty fields cost more than the rest of a hand's entry (bench/table_load.py)."""
    fields: dict[str, forms.Field] = {
        "number": forms.IntegerField(min_value=1, widget=forms.HiddenInput),
        "version": forms.IntegerField(min_value=1, required=False, widget=forms.HiddenInput),
        # One attempt at entering the hand, made on the phone; sending it again never stores it twice.
        "entry_key": forms.RegexField(regex=r"^[A-Za-z0-9_-]{8,64}$", required=False, widget=forms.HiddenInput),
        "misdeal": forms.ChoiceField(
            required=False,
            label="Misdeal",
            choices=[("", "No misdeal")]
            + [
                (reason, MISDEAL_REASONS[reason][0].upper() + MISDEAL_REASONS[reason][1:])
                for reason in rules.misdeal_reasons
            ],
        ),
    }
    if confirm:
        fields["confirmed_by"] = forms.CharField(
            max_length=20,
            required=False,
            label="Opponent's initials",
            help_text="A player of the other side checks the hand and confirms it.",
        )
    bids = bid_choices(rules)
    allowed = ", ".join(label.lower() if not label.isdigit() else label for _, label in bids if not label.isdigit())
    numbers = [label for _, label in bids if label.isdigit()]
    bid_rule = f"These rules allow bids of {numbers[0]} to 13" + (f", {allowed}" if allowed else "") + "."
    for seat in Seat:
        fields[f"{seat.prefix}_bid"] = forms.ChoiceField(
            choices=[("", "–"), *bids],
            required=False,
            label=f"{seat.label} bid",
            error_messages={"invalid_choice": f"{seat.label}: not a bid. {bid_rule}"},
        )
        # Errors are listed above the seats, so each names its seat.
        tricks_error = f"{seat.label}: tricks are a whole number from 0 to 13."
        fields[f"{seat.prefix}_tricks"] = forms.IntegerField(
            min_value=0,
            max_value=13,
            required=False,
            label=f"{seat.label} tricks",
            error_messages=dict.fromkeys(("min_value", "max_value", "invalid"), tricks_error),
        )
    for side in Side:
        for kind, label in (("reneges", "reneges"), ("table_talk", "table-talk incidents")):
            fields[f"{side.prefix}_{kind}"] = forms.IntegerField(
                min_value=0, max_value=13, required=False, initial=0, label=f"{side.value} {label}"
            )
    return fields


class HandForm(forms.Form):
    """One hand at a table. ``standing`` is each side's (score, bags) before the hand.

    Its fields are :func:`_hand_fields`' own, shared by every form of the rule set (not copied,
    as Django copies a form's declared fields): nothing may change a field after it is built.
    """

    def __init__(
        self,
        *args: Any,
        rules: RuleSet,
        standing: tuple[tuple[int, int], tuple[int, int]],
        confirm: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.rules, self.standing, self.confirm = rules, standing, confirm
        self.fields.update(_hand_fields(rules, confirm))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.confirm and not data.get("confirmed_by", "").strip():
            message = "A player of the other side confirms the hand: type their initials."
            self.add_error("confirmed_by", ValidationError(message, code="confirmation_required"))
        if data.get("misdeal") or self.errors:
            return data
        missing = False
        for seat in Seat:
            for field, kind in ((f"{seat.prefix}_bid", "bid"), (f"{seat.prefix}_tricks", "number of tricks")):
                if data.get(field) in (None, ""):
                    self.add_error(field, ValidationError(f"Enter {seat.label}'s {kind}.", code="required"))
                    missing = True
        if missing:
            return data
        try:
            validate_hand(self.rules, self.sides())
        except InvalidHand as error:
            self._add_hand_error(error)
        return data

    def entry(self) -> HandEntry:
        """The cleaned hand, for :func:`tournament.services.enter_hand` and the engine."""
        return HandEntry.from_fields(self.cleaned_data)

    def sides(self) -> list[SideHand]:
        """The cleaned hand as the engine's two sides, each at its standing before the hand."""
        entry = self.entry()
        return [
            SideHand(
                players=players,
                score=self.standing[i][0],
                bags=self.standing[i][1],
                reneges=entry.reneges[i],
                table_talk=entry.table_talk[i],
            )
            for i, players in enumerate(entry.players())
        ]

    def _add_hand_error(self, error: InvalidHand) -> None:
        if error.team and error.player:
            seat = Seat.of(error.team, error.player)
            field = f"{seat.prefix}_{error.field}" if error.field in ("bid", "tricks") else None
            message = f"{seat.label}: {error.message[0].upper()}{error.message[1:]}."
        elif error.teams:  # a side's rule, or one both sides break: the message names each
            seat = Seat.of(error.teams[0], 1)
            field = f"{seat.prefix}_bid" if error.field == "bid" else None
            sides = " and ".join(Seat.of(team, 1).side.label for team in error.teams)
            message = f"{sides}: {error.message[0].upper()}{error.message[1:]}."
        else:
            field, message = None, f"{error.message[0].upper()}{error.message[1:]}."
        self.add_error(field, ValidationError(message, code=error.code))

    @property
    def correcting(self) -> bool:
        """Whether the form corrects a stored hand (it carries the version it was based on)."""
        return bool(self.initial.get("version") or self.data.get("version"))

    SEAT_FIELDS = tuple(f"{seat.prefix}_{kind}" for seat in Seat for kind in ("bid", "tricks"))
    PENALTY_FIELDS = ("ns_reneges", "ew_reneges", "ns_table_talk", "ew_table_talk")

    @property
    def is_blank(self) -> bool:
        """Whether no bid or trick count is entered yet: the live preview then waits, rather than
        list all eight as still to enter (as it would as a phone blanks its form after a save)."""
        return self.is_bound and all(self.data.get(name, "") == "" for name in self.SEAT_FIELDS)

    def seat_errors(self) -> list[tuple[str, str]]:
        """(field name, message) of every error on a seat's bid or tricks, seat by seat."""
        if not self.is_bound:
            return []
        return [(name, error) for name in self.SEAT_FIELDS for error in self.errors.get(name, ())]

    def penalties_entered(self) -> bool:
        """Whether any reneg or table-talk count is set (or wrong): the form shows that section open."""
        return any(self[name].errors or str(self[name].value() or "0") != "0" for name in self.PENALTY_FIELDS)


def hand_initial(hand: Any) -> dict[str, Any]:
    """A stored hand as initial form data, for a correction."""
    return {**hand.snapshot(), "number": hand.number, "version": hand.version}


class AssistantForm(forms.Form):
    """The director adds an assistant by user name (the user exists and can log in: see
    :func:`tournament.services.add_assistant`)."""

    username = forms.CharField(
        max_length=150, label="User name", help_text="Someone with a director's login who runs rounds and hands."
    )
