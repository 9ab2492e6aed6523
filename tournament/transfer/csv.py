"""The CSV exports: the standings as the event's format ranks them, and every hand of every table."""

from __future__ import annotations

import io

from django.utils import timezone

from scoring import Seat
from tournament.models import HAND_FIELDS, Game, Hand, Seating, Tournament
from tournament.play.board import hands_by_game, names_at
from tournament.standings.ranking import round_note
from tournament.standings.rows import StandingRow
from tournament.transfer import csvsafe


def standings_csv(rows: list[StandingRow]) -> str:
    """The standings rows (as the tournament's format ranks them) as CSV: a column a round, then
    the notes on an entrant's rounds (a sit-out's credit, a tie broken by an extra hand)."""
    rounds = sorted({s.round for row in rows for s in row.standing.rounds if s is not None})
    out = io.StringIO()
    writer = csvsafe.writer(out)
    writer.writerow(
        ["rank", "name", "division", "withdrawn", "total", "rounds won", *[f"round {n}" for n in rounds], "notes"]
    )
    for row in rows:
        per_round = {s.round: s.points for s in row.standing.rounds if s is not None}
        # Plain numbers, as in the round columns: "round 3 sat out: 139, average".
        notes = [f"round {s.round} {note}" for s in row.standing.rounds if s and (note := round_note(s, number=str))]
        writer.writerow(
            [
                row.standing.rank,
                row.name,
                row.division,
                "yes" if row.withdrawn else "",
                row.standing.total,
                row.standing.rounds_won,
            ]
            + [per_round.get(n, "") for n in rounds]
            + ["; ".join(notes)]
        )
    return out.getvalue()


HAND_CSV_HEADER = [
    "round", "table", "hand", "deal", "north", "east", "south", "west",
    "north bid", "east bid", "south bid", "west bid", "north tricks", "east tricks", "south tricks", "west tricks",
    "NS reneges", "EW reneges", "NS table talk", "EW table talk",
    "north reneges", "east reneges", "south reneges", "west reneges",
    "north table talk", "east table talk", "south table talk", "west table talk", "misdeal", "NS points", "EW points",
    "NS score", "EW score", "disputed", "confirmed by", "entered at",
]  # fmt: skip
"""The hands CSV's columns; "entered at" is headed with the club's time zone its times are in."""


def hands_csv(tournament: Tournament) -> str:
    """Every hand of every table, with the points it scored and the running score, and when it
    was first entered, in the club's time zone, which its column names."""
    zone = tournament.club.zone
    names = names_at(Seating.objects.filter(round__tournament=tournament))
    hands = hands_by_game(Hand.objects.filter(game__round__tournament=tournament).order_by("game_id", "number", "deal"))
    out = io.StringIO()
    writer = csvsafe.writer(out)
    writer.writerow([*HAND_CSV_HEADER[:-1], f"entered at ({zone.key})"])
    games = Game.objects.filter(round__tournament=tournament).select_related(
        "round", "table", "match__home", "match__away"
    )
    for game in games.prefetch_related("match__home__players", "match__away__players"):
        game.round.tournament = tournament  # one rule set for every game
        if game.match is not None:
            game.match.tournament = tournament
        played = hands.get(game.pk, [])
        results = game.replay(played).results
        seat_names = names.get((game.round_id, game.table_id)) or (game.seat_names() if game.match_id else {})
        for hand, result in zip(played, results, strict=True):
            writer.writerow(
                [game.round.number, game.table.number, hand.number, hand.deal]
                + [seat_names.get(s, "") for s in Seat]
                + [getattr(hand, f) for f in HAND_FIELDS]
                + (
                    [result.teams[0].points, result.teams[1].points, result.teams[0].score, result.teams[1].score]
                    if result
                    else ["", "", "", ""]
                )
                + ["yes" if hand.disputed else "", hand.confirmed_by]
                + [timezone.localtime(hand.entered_at, zone).strftime("%Y-%m-%d %H:%M:%S")]
            )
    return out.getvalue()
