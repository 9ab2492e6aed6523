"""The Spades rules engine: pure Python, no Django.

Vocabulary used throughout:

bid
    The number of tricks (0 to 13) a player says they will take. Under rule sets with nil,
    a bid of 0 *is* a nil; ``"nil"`` and ``"blind_nil"`` are the spoken forms.
contract
    A side's target for the hand: the sum of its partners' non-nil bids.
nil, blind nil
    A bid to take no tricks at all, for a bonus if made and the same penalty if not. A blind
    nil is bid before the player looks at their cards and is worth more.
made, set
    A side *makes* its contract when it takes at least that many tricks; otherwise it is *set*.
overtrick, bag
    A trick taken beyond the contract. It scores ``overtrick_points`` and adds one *bag* to
    the side's running count; reaching the rule set's ``bag_limit`` costs ``bag_penalty``.
big bid
    "10 for 200": a contract of at least ``big_bid`` scores ``big_bid_points`` instead of 10
    a trick.
reneg, table talk
    Infractions. Each costs the guilty side penalty tricks; a reneg's tricks may go to the
    other side (``reneg_tricks_to``), and may also give it points.
hand
    One deal: four bids, thirteen tricks, one score change per side.
game
    Hands played until a side reaches the target score (or, in a progressive round, a fixed
    number of hands). A rule set with neither has no score end: hands are scored one at a
    time until the director calls time.
reading
    Our choice where a rule text is silent or unclear; the handout marks it "Our reading:".
"""

from scoring.entry import HandEntry, Replay, replay
from scoring.game import Game
from scoring.hand import HandResult, InvalidHand, PlayerHand, SideHand, SideResult, score_hand
from scoring.presets import PRESETS, rules_from_json
from scoring.rules import InvalidRules, RuleSet
from scoring.seats import Seat, Side

__all__ = [
    "PRESETS",
    "Game",
    "HandEntry",
    "HandResult",
    "InvalidHand",
    "InvalidRules",
    "PlayerHand",
    "Replay",
    "RuleSet",
    "Seat",
    "Side",
    "SideHand",
    "SideResult",
    "replay",
    "rules_from_json",
    "score_hand",
]
