"""A game: hands scored one after another from 0-0 until the game is over.

A game ends when :meth:`RuleSet.outcome` says so (target or floor score) or, under a rule set
with ``hands_per_round``, once that many hands are played and the scores differ. Equal scores
at that point play one more hand, as at the target.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.hand import HandResult, InvalidHand, PlayerHand, SideHand, score_hand
from scoring.rules import RuleSet

Pair = tuple[PlayerHand, PlayerHand]


@dataclass(frozen=True)
class Game:
    """The state of one game after ``hands``; :meth:`play` returns the next state.

    ``earlier`` counts hands played before ``hands`` whose results are not kept: a game
    :meth:`resumed` from stored totals scores its next hand without replaying the ones before.
    """

    rules: RuleSet
    scores: tuple[int, int] = (0, 0)
    bags: tuple[int, int] = (0, 0)
    hands: tuple[HandResult, ...] = ()
    earlier: int = 0

    @classmethod
    def resumed(cls, rules: RuleSet, scores: tuple[int, int], bags: tuple[int, int], played: int) -> Game:
        """The game after ``played`` hands that left it at ``scores`` and ``bags``."""
        return cls(rules, scores, bags, (), played)

    @property
    def hands_played(self) -> int:
        return self.earlier + len(self.hands)

    @property
    def outcome(self) -> tuple[bool, int | None]:
        """(over, winner's index); see the module docstring."""
        over, winner = self.rules.outcome(self.scores)
        if over:
            return over, winner
        if self.round_complete and self.scores[0] != self.scores[1]:
            return True, 0 if self.scores[0] > self.scores[1] else 1
        return False, None

    @property
    def over(self) -> bool:
        return self.outcome[0]

    @property
    def winner(self) -> int | None:
        return self.outcome[1]

    @property
    def round_complete(self) -> bool:
        """Whether a progressive round has had its ``hands_per_round`` hands."""
        per_round = self.rules.hands_per_round
        return per_round is not None and self.hands_played >= per_round

    @property
    def tied(self) -> bool:
        """A complete round, or a game past its target, level on points: one more hand."""
        reached = self.round_complete or (
            self.rules.target_score is not None and max(self.scores) >= self.rules.target_score
        )
        return reached and self.scores[0] == self.scores[1]

    def play(
        self, players: tuple[Pair, Pair], *, reneges: tuple[int, int] = (0, 0), table_talk: tuple[int, int] = (0, 0)
    ) -> Game:
        """Score the next hand; :class:`InvalidHand` if it breaks a rule or the game is over."""
        if self.over:
            raise InvalidHand("the game is over; no more hands can be entered", field="hand", code="game_over")
        sides = [
            SideHand(
                players=players[i],
                score=self.scores[i],
                bags=self.bags[i],
                reneges=reneges[i],
                table_talk=table_talk[i],
            )
            for i in range(2)
        ]
        result = score_hand(self.rules, sides)
        return Game(
            rules=self.rules,
            scores=(result.teams[0].score, result.teams[1].score),
            bags=(result.teams[0].bags, result.teams[1].bags),
            hands=(*self.hands, result),
            earlier=self.earlier,
        )
