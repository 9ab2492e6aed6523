"""``{{ amount|money }}``: the amount in the current club's currency (:mod:`tournament.clubs.locale`),
two decimals, minus sign in front: "$1,250.00", "−€20.00", "CHF 5.00"."""

from django import template

from tournament.clubs.locale import format_money

register = template.Library()


@register.filter
def money(value: object) -> str:
    return format_money(value)
