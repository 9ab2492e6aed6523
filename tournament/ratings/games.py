"""The games a club's ratings are made from: every finished game of every event of the club, in
any format, as :class:`~tournament.ratings.glicko2.Period` values (one event each, oldest first),
its players named by their roster entry's id. A fixed handful of queries whatever the club's size.

Who played a game: at a progressive table, the round's seating (North–South against East–West); in
a match format, the match's home team against its away team (:meth:`Match.seat_names`).

Our readings:

- **A substitute** plays from their player's ``substitute_from`` round on and is rated under the
  club's roster entry with the substitute's name (as :func:`roster_key` compares names); a name not
  on the roster is not rated. The absent player is not rated for those games.
- **A player not on the roster** (an entry never linked to it) is not rated; their side still
  counts as a partnership against the other (a newcomer's rating for them).
- **Rated games** are those finished with a winner after at least one hand. A tie the director
  settled (a cut of the cards, say: ``decided_by``) was level at the table, so it is rated as a
  draw for both sides, whoever the decision favoured. A walkover or a bye is no game played and is
  not rated; nor is a game left unfinished (a match settled by the director before it ended). A
  league result voided when a team withdrew is still rated: the game was played.
- **The order of periods** is the events' date, then the order they were created in.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Hashable

from django.db.models import F, Max, Q

from tournament.models import Game, Player, RosterPlayer, Seating, Tournament, roster_key
from tournament.ratings.glicko2 import Period, TeamGame

FIRST, SECOND = ("N", "S"), ("E", "W")  # the seats of each side (North–South is the first)


def club_periods(club_id: int, events: Collection[int] | None = None) -> list[Period]:
    """The club's rating periods, oldest first: one per event with a rated game, keyed by the
    tournament's id; of ``events`` (tournament ids) alone when given."""
    # Of two roster entries with one name, the one who played most recently, as registration
    # picks (tournament.teams.services.roster_entry): the dict keeps the last of each key.
    entries = RosterPlayer.objects.filter(club_id=club_id).annotate(last=Max("entries__id"))
    roster = dict(entries.order_by(F("last").asc(nulls_first=True), "id").values_list("key", "id"))
    tournaments = Tournament.objects.filter(club_id=club_id)
    if events is not None:
        tournaments = tournaments.filter(pk__in=events)
    players = {
        row["id"]: row
        for row in Player.objects.filter(team__tournament__in=tournaments)
        .order_by("team_id", "id")
        .values("id", "team_id", "roster_id", "substitute", "substitute_from")
    }
    team_players = defaultdict(list)
    for row in players.values():
        team_players[row["team_id"]].append(row["id"])

    def who(player_id: int | None, round_number: int) -> Hashable | None:
        row = players.get(player_id)
        if row is None:
            return None
        if row["substitute"] and row["substitute_from"] is not None and round_number >= row["substitute_from"]:
            return roster.get(roster_key(row["substitute"]))
        return row["roster_id"]

    seats: dict[tuple[int, int], dict[str, int]] = defaultdict(dict)
    for round_id, table_id, seat, player_id in Seating.objects.filter(round__tournament__in=tournaments).values_list(
        "round_id", "table_id", "seat", "player_id"
    ):
        seats[round_id, table_id][seat] = player_id

    rated = Game.objects.filter(round__tournament__in=tournaments, status=Game.Status.FINISHED, hands_played__gt=0)
    rated = rated.exclude(Q(winner="") & Q(decided_by=""))
    games: dict[int, list[TeamGame]] = defaultdict(list)
    for row in rated.order_by("round__number", "id").values(
        "round_id", "table_id", "round__number", "round__tournament_id", "winner", "decided_by",
        "match_id", "match__home_id", "match__away_id",
    ):  # fmt: skip
        number = row["round__number"]
        if row["match_id"] is None:
            at_table = seats.get((row["round_id"], row["table_id"]), {})
            first = tuple(who(at_table.get(seat), number) for seat in FIRST)
            second = tuple(who(at_table.get(seat), number) for seat in SECOND)
        else:
            first = tuple(who(p, number) for p in team_players[row["match__home_id"]][:2])
            second = tuple(who(p, number) for p in team_players[row["match__away_id"]][:2])
        if not first or not second:
            continue
        score = 0.5 if row["decided_by"] else (1.0 if row["winner"] == "NS" else 0.0)
        games[row["round__tournament_id"]].append(TeamGame(first, second, score))

    order = tournaments.filter(pk__in=games).order_by("date", "id").values_list("id", flat=True)
    return [Period(tournament_id, tuple(games[tournament_id])) for tournament_id in order]
