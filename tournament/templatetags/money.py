"""``{{ amount|money }}``: dollars and cents, always two decimals, minus sign in front."""

from decimal import Decimal, InvalidOperation

from django import template

register = template.Library()


@register.filter
def money(value: object) -> str:
    try:
        amount = Decimal(str(value if value is not None else 0)).quantize(Decimal("0.01"))
    except InvalidOperation:
        return ""
    return f"−${-amount:,.2f}" if amount < 0 else f"${amount:,.2f}"
