"""Forms of play: a hand (its bounds and the scoring rules' checks), a dispute or a reported
mistake and its settling, a tie's decision."""

from __future__ import annotations

import functools
from datetime import UTC, datetime, timedelta
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone

from scoring import HandEntry, InvalidHand, RuleSet, Seat, Side, SideHand
from scoring.describe import bid_name
from scoring.hand import BLIND_NIL, NIL, TRICKS_IN_A_HAND, validate_hand
from scoring.rules import MISDEAL_REASONS
from tournament.models import SIDE_CHOICES


class RoundStartForm(forms.Form):
    """Starting a seated round. The page offers to start a timed round's clock with it, ticked:
    "Start round 3" at a timed event means play, and play means the clock, so a director who had
    to remember a second button would lose minutes on every table. Unticked, the round starts
    with its clock stopped, for a director who opens the table links while players still find
    their seats (the clock button starts it later); a form without the box is unticked."""

    start_clock = forms.BooleanField(required=False, label="Start the clock now")


class TieDecisionForm(forms.Form):
    winner = forms.ChoiceField(choices=SIDE_CHOICES)
    how = forms.CharField(max_length=200, label="How it was decided", help_text="e.g. high card cut by the director")


class DisputeForm(forms.Form):
    """A table flags a hand; the note (optional) says what is disputed."""

    note = forms.CharField(max_length=300, required=False, label="What is disputed?")

    def cleaned_note(self) -> str:
        return self.cleaned_data["note"] or "Disputed at the table"


class MistakeForm(forms.Form):
    """A table reports a mistake in an earlier hand, which only the director may correct: the
    note, required, says what is wrong."""

    note = forms.CharField(
        max_length=300,
        label="What is wrong",
        error_messages={"required": "write what the table found wrong, so the director knows what to check."},
    )


class ResolutionForm(forms.Form):
    resolution = forms.CharField(max_length=300, label="How it was settled")


def error_text(form: forms.Form) -> str:
    """A form's errors as one sentence per field, for a message line: "Note: Null characters…"."""
    return " ".join(
        f"{form.fields[name].label if name in form.fields else ''}: {' '.join(errors)}".lstrip(": ")
        for name, errors in form.errors.items()
    )


class PhoneTimeField(forms.Field):
    """When the phone says its scorekeeper saved the hand: milliseconds since 1970 by the phone's
    clock (``Date.now()``). Never an error, since a hand is never refused over its time: a value that
    is missing, not a number, or more than :attr:`TRUST` away from the server's clock (a phone set to
    another year, a hand kept on a phone for days) cleans to None, stored as a hand with no phone
    time (and so never compared for a quick entry)."""

    widget = forms.HiddenInput
    TRUST = timedelta(days=1)

    def to_python(self, value: Any) -> datetime | None:
        try:
            moment = datetime.fromtimestamp(int(str(value)) / 1000, tz=UTC)
        except (TypeError, ValueError, OverflowError, OSError):
            return None
        return moment if abs(moment - timezone.now()) <= self.TRUST else None


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
        # Which deal of hand ``number`` a correction is of: versions count per deal, so without it a
        # correction of a misdeal made stale by the hand dealt again could land on that hand.
        "deal": forms.IntegerField(min_value=1, required=False, widget=forms.HiddenInput),
        # One attempt at entering the hand, made on the phone; sending it again never stores it twice.
        "entry_key": forms.RegexField(
            regex=r"^[A-Za-z0-9_-]{8,64}$",
            required=False,
            widget=forms.HiddenInput,
            label="Entry key",
            error_messages={"invalid": "the page's key for this hand is damaged: open the table's link again."},
        ),
        "keyed_at": PhoneTimeField(required=False, label="Entered on the phone at"),
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
    for name, label in penalty_fields(rules):
        fields[name] = forms.IntegerField(min_value=0, max_value=13, required=False, initial=0, label=label)
    return fields


def penalty_fields(rules: RuleSet) -> list[tuple[str, str]]:
    """(field name, label) of each infraction count the table enters: a side's under side
    contracts; under rules scoring each player's own bid, a player's (the penalty comes off
    that player's tricks), reneges first."""
    kinds = (("reneges", "reneges"), ("table_talk", "table-talk incidents"))
    if rules.contract == "player":
        return [(f"{seat.prefix}_{kind}", f"{seat.label} {label}") for kind, label in kinds for seat in Seat]
    return [(f"{side.prefix}_{kind}", f"{side.value} {label}") for kind, label in kinds for side in Side]


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
        if self.rules.contract == "player":  # the sides' counts are their players' sums
            for side in Side:
                for kind in ("reneges", "table_talk"):
                    name = f"{side.prefix}_{kind}"
                    data[name] = sum(data.get(f"{seat.prefix}_{kind}") or 0 for seat in side.seats)
                    if str(self.data.get(name) or "0") not in ("0", str(data[name])):  # a page of other rules
                        message = (f"{side.value}: these rules take a penalty off the tricks of the player who "
                                   "committed it; say which player.")  # fmt: skip
                        self.add_error(None, ValidationError(message, code="penalty_player"))
        if self.confirm and not data.get("confirmed_by", "").strip():
            message = "A player of the other side confirms the hand: type their initials."
            self.add_error("confirmed_by", ValidationError(message, code="confirmation_required"))
        if data.get("misdeal") or self.errors:
            return data
        total = sum(data.get(f"{seat.prefix}_tricks") or 0 for seat in Seat)
        if total > TRICKS_IN_A_HAND:  # the total is what is wrong, not a seat still to fill in
            message = f"The tricks add up to {total}; they must make 13."
            self.add_error(None, ValidationError(message, code="tricks_total"))
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
        """The cleaned hand, for :func:`tournament.play.hands.enter_hand` and the engine."""
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

    @property
    def reneg_fields(self) -> list[forms.BoundField]:
        return [self[name] for name, _ in penalty_fields(self.rules) if name.endswith("_reneges")]

    @property
    def table_talk_fields(self) -> list[forms.BoundField]:
        return [self[name] for name, _ in penalty_fields(self.rules) if name.endswith("_table_talk")]

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
        return any(self[name].errors or str(self[name].value() or "0") != "0" for name, _ in penalty_fields(self.rules))


def hand_initial(hand: Any) -> dict[str, Any]:
    """A stored hand as initial form data, for a correction."""
    return {**hand.snapshot(), "number": hand.number, "deal": hand.deal, "version": hand.version}
