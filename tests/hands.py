"""Small builders for scoring tests: ``side((3, 4), (2, 3), score=337, bags=7)``."""

from scoring import PlayerHand, RuleSet, SideHand, score_hand
from scoring.hand import HandResult
from scoring.presets import PRESETS


def side(first: tuple, second: tuple, **standing: int) -> SideHand:
    """A side from two (bid, tricks) pairs and its standing (score, bags, reneges, table_talk)."""
    return SideHand(players=(PlayerHand(*first), PlayerHand(*second)), **standing)


def offending(rules: RuleSet, players: tuple[PlayerHand, PlayerHand], *, reneges: int = 0, table_talk: int = 0,
              **standing: int) -> SideHand:  # fmt: skip
    """A side charged with infractions. Under rules scoring each player's own bid the penalty is a
    player's: there its first player committed them."""
    if rules.contract == "player":
        first, second = players
        players = (PlayerHand(first.bid, first.tricks, reneges, table_talk), second)
    return SideHand(players=players, reneges=reneges, table_talk=table_talk, **standing)


def score(rules: RuleSet | str, us: SideHand, them: SideHand) -> HandResult:
    """Score one hand under a rule set or a preset's name."""
    return score_hand(PRESETS[rules].rules if isinstance(rules, str) else rules, [us, them])
