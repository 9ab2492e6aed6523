"""What a change of rules during play would do, before it is made: which games' scores move
and by how much, whose result flips, and which of them are in closed rounds. Read-only."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from scoring import InvalidHand, RuleSet
from tournament.models import Game, Hand, Round, Seating, Side, Tournament


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

    @property
    def closed_rounds(self) -> list[int]:
        return sorted({c.round for c in self.changes if c.closed})

    @property
    def refused(self) -> list[GameChange]:
        return [c for c in self.changes if c.refused]

    @property
    def flips(self) -> list[GameChange]:
        return [c for c in self.changes if c.result_changes and not c.refused]


def preview(tournament: Tournament, rules: RuleSet) -> RuleChangePreview:
    """Every game with hands scored again under ``rules``, compared with what is stored."""
    hands: dict[int, list[Hand]] = defaultdict(list)
    for hand in Hand.objects.filter(game__round__tournament=tournament).order_by("game_id", "number"):
        hands[hand.game_id].append(hand)
    names: dict[tuple[int, int], dict[str, str]] = defaultdict(dict)
    for round_id, table_id, seat, name in Seating.objects.filter(round__tournament=tournament).values_list(
        "round_id", "table_id", "seat", "player__name"
    ):
        names[round_id, table_id][seat] = name
    games = Game.objects.filter(round__tournament=tournament, pk__in=hands).select_related("round", "table")
    changes = []
    for game in games.order_by("round__number", "table__number"):
        change = _compare(game, hands[game.pk], rules, names[game.round_id, game.table_id])
        if change.refused or change.before != change.after or change.result_changes:
            changes.append(change)
    return RuleChangePreview(changes)


def _compare(game: Game, hands: list[Hand], rules: RuleSet, seats: dict[str, str]) -> GameChange:
    base = {
        "round": game.round.number,
        "table": game.table.number,
        "closed": game.round.status == Round.Status.CLOSED,
        "north_south": f"{seats.get('N', '')} & {seats.get('S', '')}",
        "east_west": f"{seats.get('E', '')} & {seats.get('W', '')}",
        "before": (game.ns_score, game.ew_score),
        "winner_before": game.winner,
    }
    try:
        scored = game.replay(rules, hands)
    except InvalidHand as error:
        return GameChange(**base, after=base["before"], winner_after=game.winner, refused=error.message)
    # As Game.rescore decides: a finished game's winner; a director's decision stands otherwise.
    winner = Side.values[scored.winner] if scored.over else (game.winner if game.decided_by else "")
    return GameChange(**base, after=tuple(scored.scores), winner_after=winner)
