"""Registration read back: names registered twice."""

from __future__ import annotations

from collections import defaultdict

from tournament.models import Player, Team


def namesakes(team: Team) -> dict[str, list[int]]:
    """For each of ``team``'s players, the other teams of the event with a player of the same
    name (any case, any spacing); only names that repeat."""
    names = {" ".join(p.name.split()).casefold(): p.name for p in team.players.all()}
    found: dict[str, list[int]] = defaultdict(list)
    others = Player.objects.filter(team__tournament_id=team.tournament_id).exclude(team=team)
    for name, number in others.order_by("team__number").values_list("name", "team__number"):
        key = " ".join(name.split()).casefold()
        if key in names and number not in found[names[key]]:
            found[names[key]].append(number)
    return dict(found)
