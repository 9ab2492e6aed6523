"""What a change of rules during play would do, before it is made: which games' scores move
and by how much, whose result flips, and which of them are in closed rounds. Read-only."""

from __future__ import annotations

from dataclasses import dataclass

from scoring import InvalidHand, Seat, Side
from tournament.models import Game, Hand, Round, Seating, Tournament
from tournament.play.board import hands_by_game, names_at


@dataclass(frozen=True)
class GameChange:
    round: int
    table: int
    closed: bool
    north_south: str  # the players' names
    east_west: str
    before: tuple[int, int]
    after: tuple[int, int]
    winner_before: str  # a side value, "" while undecided
    winner_after: str
    refused: str = ""  # why the new rules refuse one of the game's hands
    match: str = ""  # the game's match, as its format names it ("Final"; "Final, game 2" in a best of 3)

    @property
    def moves(self) -> tuple[int, int]:
        return self.after[0] - self.before[0], self.after[1] - self.before[1]

    @property
    def result_changes(self) -> bool:
        return self.winner_before != self.winner_after

    def winner_names(self, side: str) -> str:
        return {Side.NS: self.north_south, Side.EW: self.east_west}.get(side, "nobody yet")


@dataclass(frozen=True)
class RuleChangePreview:
    changes: list[GameChange]  # only the games the change touches
    # Why the format cannot take the results the new rules give (a finished bracket's final left
    # undecided), or "" when it can.
    blocked: str = ""
    # Prizes already paid that the new rules' standings give someone else (PayoutMove).
    paid_moves: tuple = ()

    @property
    def closed_rounds(self) -> list[int]:
        return sorted({c.round for c in self.changes if c.closed})

    @property
    def refused(self) -> list[GameChange]:
        return [c for c in self.changes if c.refused]

    @property
    def flips(self) -> list[GameChange]:
        return [c for c in self.changes if c.result_changes and not c.refused]


def preview(proposed: Tournament) -> RuleChangePreview:
    """Every game with hands scored again as ``proposed`` (the tournament with its new rules set,
    and its matches' own rule sets as the change leaves them) would score it, compared with what
    is stored."""
    hands = hands_by_game(Hand.objects.filter(game__round__tournament=proposed).order_by("game_id", "number", "deal"))
    games = Game.objects.filter(round__tournament=proposed, pk__in=hands).select_related("round", "table", "match")
    names = names_at(Seating.objects.filter(round__tournament=proposed))
    changes = []
    for game in games.order_by("round__number", "table__number"):
        game.round.tournament = proposed  # score under the proposed rules
        if game.match is not None:
            game.match.tournament = proposed
        seats = names.get((game.round_id, game.table_id)) or game.seat_names()
        change = _compare(game, hands[game.pk], seats)
        if change.refused or change.before != change.after or change.result_changes:
            changes.append(change)
    return RuleChangePreview(changes)


def _compare(game: Game, hands: list[Hand], seats: dict[Seat, str]) -> GameChange:
    base = {
        "round": game.round.number,
        "table": game.table.number,
        "closed": game.round.status == Round.Status.CLOSED,
        "north_south": f"{seats[Seat.NORTH]} & {seats[Seat.SOUTH]}",
        "east_west": f"{seats[Seat.EAST]} & {seats[Seat.WEST]}",
        "before": (game.ns_score, game.ew_score),
        "winner_before": game.winner,
        "match": "" if game.match is None else game.label[0].upper() + game.label[1:],
    }
    try:
        replayed = game.replay(hands)
    except InvalidHand as error:
        return GameChange(**base, after=base["before"], winner_after=game.winner, refused=error.message)
    _status, winner, _decided_by = game.outcome(replayed, hands)
    return GameChange(**base, after=tuple(replayed.game.scores), winner_after=winner)
