"""Play read back: a round's board (every table's seats, score and open disputes) and a table's
score sheet (every hand with its dealer, points and running score). Read-only, a fixed number of
queries however many tables there are."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Count, Q, QuerySet

from scoring import HandResult, Replay, Seat, Side, words
from scoring.describe import bid_name
from tournament.models import Game, Hand, Round, Seating, playing_name


@dataclass(frozen=True)
class BoardRow:
    game: Game
    seats: dict[str, str]
    disputed: int


def board(round_: Round) -> list[BoardRow]:
    """Every table of a round: who sits where (a match's game, its match's teams; else the
    round's seating), the score, and open disputes."""
    names: dict[int, dict[str, str]] = defaultdict(dict)
    for table, seat, name in round_.seatings.annotate(name=playing_name()).values_list("table_id", "seat", "name"):
        names[table][seat] = name
    games = (
        round_.games.select_related("table", "clock", "match__home", "match__away")
        .prefetch_related("match__home__players", "match__away__players")
        .annotate(disputed=Count("hands", filter=Q(hands__disputed=True)))
    )
    return [
        BoardRow(game=g, seats=_match_seats(g) if g.match_id else names[g.table_id], disputed=g.disputed)
        for g in games.order_by("table__number")
    ]


def _match_seats(game: Game) -> dict[str, str]:
    """A match's game seats its teams (home North–South), keyed as the seating is ("N"…)."""
    return {seat.value: name for seat, name in game.match.seat_names().items()}


def names_at(seatings: QuerySet[Seating]) -> dict[tuple[int, int], dict[Seat, str]]:
    """Who plays in each seat (a substitute, from their round on), by (round id, table id), for
    ``seatings``: in one query, for pages that list many tables."""
    names: dict[tuple[int, int], dict[Seat, str]] = defaultdict(dict)
    for round_id, table_id, seat, name in seatings.annotate(name=playing_name()).values_list(
        "round_id", "table_id", "seat", "name"
    ):
        names[round_id, table_id][Seat(seat)] = name
    return dict(names)


@dataclass(frozen=True)
class SheetRow:
    hand: Hand
    dealer: str
    result: HandResult | None  # None for a misdeal
    bids: tuple[str, ...] = ()  # North, East, South, West, as the rules name them

    @property
    def points_line(self) -> str:
        """What each side scored and stands at after the hand, "NS +61 → 61 · EW −60 → −60"
        ("" for a misdeal): the line the phone lists a hand by."""
        if self.result is None:
            return ""
        ns, ew = (f"{words.signed(side.points)} → {words.number(side.score)}" for side in self.result.teams)
        return f"NS {ns} · EW {ew}"


def game_sheet(
    game: Game, hands: list[Hand] | None = None, replayed: Replay | None = None, names: dict[Seat, str] | None = None
) -> dict:
    """A table's score sheet: the seats, every hand with its dealer, points and running score.

    ``hands`` are the game's hands in order, ``replayed`` their replay and ``names`` who sits
    where, when the caller has them already (as :func:`tournament.play.hands.enter_hand` returns
    the first two); else they are read here.
    """
    hands = list(game.hands.order_by("number", "deal")) if hands is None else hands
    replayed = game.replay(hands) if replayed is None else replayed
    names = game.seat_names() if names is None else names
    sides = {side.value: " & ".join(names[seat] for seat in side.seats) for side in Side}
    rules = game.rules
    rows = [
        SheetRow(hand, dealer.label, result, tuple(bid_name(rules, bid) for bid in hand.entry.bids))
        for hand, dealer, result in zip(hands, replayed.dealers, replayed.results, strict=True)
    ]
    return {
        "seats": {seat.label: names[seat] for seat in Seat},
        "sides": sides,
        "winners": sides.get(game.winner, ""),
        "rows": rows,
        "replay": replayed,
        "rules": rules,
    }


def hands_by_game(hands: Iterable[Hand]) -> dict[int, list[Hand]]:
    """``hands`` (in game, then number order) listed by their game's id."""
    by_game: dict[int, list[Hand]] = defaultdict(list)
    for hand in hands:
        by_game[hand.game_id].append(hand)
    return by_game
