"""The money forms: a payment or refund, a prize, a payout handed over."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from tournament.models import Payment, Prize


class PaymentForm(forms.ModelForm):
    class Meta:
        model = Payment
        fields = ["kind", "amount", "method", "note"]
        widgets = {"amount": forms.NumberInput(attrs={"step": "0.01", "min": "0.01", "inputmode": "decimal"})}

    def clean_amount(self) -> Decimal:
        """An amount with two decimals: "1e3" is 1,000.00, and fractions of a cent are refused."""
        amount = self.cleaned_data["amount"].quantize(Decimal("0.01"))
        if amount != self.cleaned_data["amount"]:
            raise ValidationError("Give the amount with two decimals at most (whole cents).", code="cents")
        return amount


class PrizeForm(forms.ModelForm):
    class Meta:
        model = Prize
        fields = ["name", "kind", "place", "division", "amount", "share_percent"]

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


class PayoutPaidForm(forms.Form):
    received_by = forms.CharField(max_length=120, label="Received by (name)")
    method = forms.ChoiceField(choices=Payment.Method, initial=Payment.Method.CASH, label="Paid by")
