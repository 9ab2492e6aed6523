"""The round board's line about paper sheets: where to key each table's, and what waits."""

from django import template

from tournament.keying.services import mismatches, round_keyings, waiting
from tournament.models import Game, Round

register = template.Library()


@register.inclusion_tag("keying/_round_status.html")
def keying_status(round_: Round) -> dict:
    """A running round's tables to key a paper sheet for (those still playing), the hands waiting
    for a second keying and the mismatches, each named."""
    games = round_.games.exclude(status=Game.Status.FINISHED).select_related("table").order_by("table__number")
    return {
        "round": round_,
        "games": list(games) if round_.is_running else [],
        "waiting": waiting(round_keyings(round_)),
        "mismatches": mismatches(round_),
    }
