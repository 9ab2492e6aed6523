"""Words for numbers and sides on the director's and public pages."""

from django import template

from scoring import Side, words

register = template.Library()


@register.filter
def score(value: object) -> str:
    """A score with a true minus sign, so "71–−60" never reads as "71–-60"."""
    try:
        points = int(value)
    except (TypeError, ValueError):
        return ""
    return words.number(points)


@register.simple_tag
def score_to(first: object, second: object) -> str:
    """A game's or match's score, the one way the pages write it: "550 to 84", "360 to −120"
    (a dash between the two would read "360–−120")."""
    return f"{score(first)} to {score(second)}"


@register.filter
def signed(value: object) -> str:
    """A change in points: "+4", "−4" (a true minus), or "±0"."""
    try:
        points = int(value)
    except (TypeError, ValueError):
        return ""
    return words.signed(points, zero="±0")


@register.simple_tag
def winners(game: object, seats: dict[str, str]) -> str:
    """Who won ``game``, by name with the side in words: "Ada & Eve (North–South)".

    ``seats`` maps seat letters ("N") or seat words ("North") to names."""
    side = getattr(game, "winner", "")
    if side not in tuple(Side):
        return ""
    pair = Side(side).seats
    names = " & ".join(n for n in (seats.get(seat.value) or seats.get(seat.label, "") for seat in pair) if n)
    label = Side(side).label
    return f"{names} ({label})" if names else label


@register.filter
def winner_before(change: object) -> str:
    """A previewed game's winner by name under the rules in force."""
    return change.winner_names(change.winner_before)


@register.filter
def winner_after(change: object) -> str:
    """A previewed game's winner by name under the new rules."""
    return change.winner_names(change.winner_after)
