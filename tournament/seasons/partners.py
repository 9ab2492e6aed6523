"""Who a roster person partnered at each event, round by round, for their page: at an event of
split partners the partner changes every round; at one of fixed partners it is their teammate
(or a substitute playing for them)."""

from __future__ import annotations

from collections import defaultdict

from scoring import Seat
from tournament.models import RosterPlayer, Round, Seating, playing_name


def partners_by_event(person: RosterPlayer) -> dict[int, list[str]]:
    """Each event's partners of ``person`` in the order of the rounds played (begun), each once,
    by tournament id (two queries). An event whose games seat nobody by round (a match between two teams) is absent."""
    mine = list(
        Seating.objects.filter(player__roster=person, round__tournament__club=person.club_id)
        .exclude(round__status=Round.Status.PLANNED)  # seated for a round not begun: not played with yet
        .values_list("round_id", "table_id", "seat", "round__tournament_id", "round__number")
    )
    wanted = {(round_id, table_id, Seat(seat).partner.value) for round_id, table_id, seat, _, _ in mine}
    names = {
        (round_id, table_id, seat): name
        for round_id, table_id, seat, name in Seating.objects.filter(
            round_id__in={m[0] for m in mine}, table_id__in={m[1] for m in mine}
        )
        .annotate(name=playing_name())
        .values_list("round_id", "table_id", "seat", "name")
        if (round_id, table_id, seat) in wanted
    }
    found: dict[int, list[str]] = defaultdict(list)
    for round_id, table_id, seat, tournament_id, _ in sorted(mine, key=lambda m: (m[3], m[4])):
        name = names.get((round_id, table_id, Seat(seat).partner.value))
        if name and name not in found[tournament_id]:
            found[tournament_id].append(name)
    return dict(found)
