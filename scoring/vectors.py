"""The cases both scoring engines must agree on: the Python engine and the phone's copy
(static/js/scorer.js), which scores hands waiting on a phone while the network is down.

Each :class:`Vector` is JSON: the rules (:meth:`RuleSet.to_json`), an input and the expected
output. A ``"hand"`` vector's input is the ``teams`` of the ``python -m scoring`` contract and
its output that contract's result without the words (``lines``); a ``"game"`` vector's input is
a standing (``scores``, ``bags``, hands ``played``) and the hands played from it (each a
``teams`` list, or ``{"misdeal": true}``), its output the game's ``end`` and its state ``after``
each hand (see :func:`run`).

The rule texts' examples state their numbers: a stated vector expects those numbers only (an
expected object lists the fields it states, and :func:`matches` compares those). The worked
examples of the handout (:mod:`scoring.examples`) and the seeded random hands and games for
every preset and for the variants below expect what the engine scores. tests/test_scoring_vectors.py
runs every vector through the engine, tests/test_browser_scorer.py through scorer.js.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.examples import worked_examples
from scoring.game import Game
from scoring.hand import PlayerHand, SideHand, score_hand
from scoring.presets import PRESETS, rules_from_json
from scoring.random_hands import random_hand
from scoring.rules import RuleSet

Json = dict[str, Any]
RESULT_FIELDS = ("points", "bag_penalty", "bags", "score", "made")
STATE_FIELDS = ("scores", "bags", "played", "over", "winner", "tied", "round_complete")


@dataclass(frozen=True)
class Vector:
    name: str
    kind: str  # "hand" or "game"
    rules: Json
    input: Json
    expected: Json

    def to_json(self) -> Json:
        return {"name": self.name, "kind": self.kind, "rules": self.rules, "input": self.input,
                "expected": self.expected}  # fmt: skip


def side(first: tuple, second: tuple, **standing: int) -> Json:
    """A side in the JSON contract from two (bid, tricks) pairs and its standing."""
    players = [{"bid": bid, "tricks": tricks} for bid, tricks in (first, second)]
    return {"players": players, **standing}


# --- the rule texts' stated numbers ------------------------------------------------------------
# (name, rules, [our side, their side], what the text states of each side). The Python tests of
# scoring/ parametrize over these tables (tests/test_scoring_examples.py, test_scoring_rules.py).

SANDBAG_337 = [  # 003: a side at 337 with 7 bags bids 5 and wins so many: (won, points, penalty, score, bags)
    (7, 52, 0, 389, 9),  # "If they win 7 tricks they score 52, taking their score to 389."
    (8, 53 - 100, -100, 290, 0),  # "... lose 100 because they now have 10 bags ... 290"
    (9, 54 - 100, -100, 291, 1),  # "If they win 9 tricks they score 54 and lose 100 ... 291"
]
BID_7 = [(7, 70), (8, 71), (5, -70)]  # 004: a side bids 7 and takes so many
NIL_SITUATIONS = [  # 004: North bids nil and takes so many, South bids 5 and takes so many
    ("league-300", 0, 5, 110),  # Situation 1: both partners make their bid
    ("league-300", 0, 4, 10),  # Situation 2: nil made, partner set
    ("league-300", 1, 5, -10),  # Situation 3: nil bidder takes a trick, partner gets 5
    ("league-300", 1, 4, -110),  # Situation 4: nil bidder takes a trick, partner set
    ("championship-500", 0, 5, 150),
    ("championship-500", 0, 4, 50),
    ("championship-500", 1, 5, -50),
    ("championship-500", 1, 4, -150),
]
BOTH_NIL_004 = [
    ("league-300", (0, 0), 120),
    ("league-300", (0, 2), 0),
    ("league-300", (1, 2), -120),
    ("championship-500", (0, 0), 200),
    ("championship-500", (3, 0), 0),
    ("championship-500", (1, 1), -200),
]
BIG_NIL_VALUES_004 = [("league-300", 120), ("championship-500", 200)]  # blind nil and 10 for 200 alike
BOTH_NIL_001 = [((0, 0), 200), ((1, 0), 0), ((2, 3), 0)]  # classic: 200 only if both make it
BOTH_NIL_TEAM_CONTRACT = [((0, 0), 200), ((1, 0), -200), ((2, 2), -200)]
OUTCOMES = [  # (rules, scores after a hand, (over, winner)): who wins at the target
    ("progressive-500", (510, 480), (True, 0)),  # 003: the higher side wins when both reach 500
    ("progressive-500", (520, 530), (True, 1)),
    ("progressive-500", (480, 505), (True, 1)),
    ("league-300", (310, 290), (True, 0)),  # 004: the highest score wins, a tie plays the next hand
    ("league-300", (305, 320), (True, 1)),
    ("league-300", (300, 300), (False, None)),
    ("tennessee", (530, 510), (True, 0)),  # 000: equal totals play one more hand
    ("tennessee", (510, 510), (False, None)),
    ("tennessee", (490, 499), (False, None)),
    ({"lose_score": -200}, (-210, 150), (True, 1)),  # a floor ends the game too
    ({"lose_score": -200}, (-250, -210), (True, 1)),
    ({"lose_score": -200}, (-250, -250), (False, None)),
]


def _stated_hands() -> list[tuple[str, Any, list[Json], list[Json]]]:
    """(name, rules, sides, what is stated of each side) of every hand a rule text scores."""
    rows: list[tuple[str, Any, list[Json], list[Json]]] = []
    for won, points, penalty, new_score, bags in SANDBAG_337:
        rows.append((f"003 sandbag example: bids 5 at 337 with 7 bags, wins {won}", "progressive-500",
                     [side((3, won - 3), (2, 3), score=337, bags=7), side((2, 13 - won), (2, 0))],
                     [{"points": points, "bag_penalty": penalty, "score": new_score, "bags": bags,
                       "made": True}, {}]))  # fmt: skip
    for took, points in BID_7:
        rows.append((f"004 bids 7 and takes {took}", "league-300",
                     [side((4, took - 3), (3, 3)), side((4, 13 - took), (3, 0))],
                     [{"points": points}, {}]))  # fmt: skip
    for preset, nil_tricks, partner_tricks, points in NIL_SITUATIONS:
        them = side((4, 13 - nil_tricks - partner_tricks), (4, 0))
        rows.append((f"004 {preset}: nil takes {nil_tricks}, partner bids 5 and takes {partner_tricks}", preset,
                     [side(("nil", nil_tricks), (5, partner_tricks)), them],
                     [{"points": points, "bags": 0}, {}]))  # fmt: skip
    for preset, tricks, points in BOTH_NIL_004:
        rows.append((f"004 {preset}: both partners nil, taking {tricks[0]} and {tricks[1]}", preset,
                     [side(("nil", tricks[0]), ("nil", tricks[1])), side((6, 13 - sum(tricks)), (4, 0))],
                     [{"points": points}, {}]))  # fmt: skip
    for preset, value in BIG_NIL_VALUES_004:
        rows += [
            (f"004 {preset}: blind nil made", preset, [side(("blind_nil", 0), (5, 5)), side((4, 8), (4, 0), score=100)],
             [{"points": value + 50}, {}]),
            (f"004 {preset}: blind nil failed", preset,
             [side(("blind_nil", 1), (5, 5)), side((4, 7), (4, 0), score=100)], [{"points": -value + 50}, {}]),
            (f"004 {preset}: 10 for {value} made exactly", preset, [side((6, 6), (4, 4)), side((4, 3), (1, 0))],
             [{"points": value}, {}]),
            (f"004 {preset}: 10 for {value} and an overtrick", preset, [side((6, 7), (4, 4)), side((4, 2), (1, 0))],
             [{"points": value + 1, "bags": 1}, {}]),
            (f"004 {preset}: 10 for {value} set", preset, [side((6, 5), (4, 4)), side((4, 4), (1, 0))],
             [{"points": -value}, {}]),
        ]  # fmt: skip
    for tricks, points in BOTH_NIL_001:
        rows.append((f"001 both partners nil, taking {tricks[0]} and {tricks[1]}", "classic",
                     [side(("nil", tricks[0]), ("nil", tricks[1])), side((5, 13 - sum(tricks)), (4, 0))],
                     [{"points": points, "bags": 0}, {}]))  # fmt: skip
    for tricks, points in BOTH_NIL_TEAM_CONTRACT:
        rows.append((f"both nil as a team contract, taking {tricks[0]} and {tricks[1]}", {"both_nil": "team_contract"},
                     [side(("nil", tricks[0]), ("nil", tricks[1])), side((5, 13 - sum(tricks)), (4, 0))],
                     [{"points": points}, {}]))  # fmt: skip
    return rows + _SINGLE_HANDS


_SINGLE_HANDS: list[tuple[str, Any, list[Json], list[Json]]] = [
    ("003 made bid: ten a trick and one an overtrick", "progressive", [side((3, 4), (2, 3)), side((3, 3), (3, 3))],
     [{"points": 52}, {"points": 60}]),
    ("003 set side loses ten a trick bid", "progressive", [side((4, 2), (3, 2)), side((2, 5), (2, 4))],
     [{"points": -70, "made": False}, {}]),
    ("003 progressive: 0 is an ordinary bid", "progressive", [side((0, 1), (4, 4)), side((4, 4), (4, 4))],
     [{"points": 41}, {}]),
    ("003 progressive: no bag penalty", "progressive", [side((1, 6), (1, 5), bags=9), side((1, 1), (1, 1))],
     [{"points": 29, "bag_penalty": 0, "bags": 18}, {}]),
    ("003 nil made adds 100", "progressive-500", [side(("nil", 0), (4, 4)), side((4, 5), (4, 4))],
     [{"points": 140}, {}]),
    ("003 failed nil loses 100, its tricks are bags", "progressive-500",
     [side(("nil", 2), (4, 4)), side((3, 4), (3, 3))], [{"points": -58, "bags": 2, "made": True}, {}]),
    ("003 failed nil's tricks do not rescue a set partner", "progressive-500",
     [side(("nil", 2), (5, 4)), side((3, 4), (3, 3))], [{"points": -148, "made": False}, {}]),
    ("003 blind nil wins 200", "progressive-500",
     [side(("blind_nil", 0), (4, 4), score=100), side((4, 5), (4, 4), score=250)], [{"points": 240}, {}]),
    ("003 blind nil loses 200", "progressive-500",
     [side(("blind_nil", 1), (4, 4), score=100), side((4, 4), (4, 4), score=250)], [{"points": -159}, {}]),
    ("003 blind nil trailing by exactly 100", "progressive-500",
     [side(("blind_nil", 0), (4, 4), score=200), side((4, 5), (4, 4), score=300)], [{"points": 240}, {}]),
    ("003 a bid of 0 is a nil in 500 play", "progressive-500", [side((0, 0), (4, 4)), side((4, 5), (4, 4))],
     [{"points": 140}, {}]),
    ("004 sixth sandbag costs 60, the count resets", "league-300",
     [side((3, 4), (2, 2), bags=5), side((4, 7), (4, 0))], [{"points": -9, "bag_penalty": -60, "bags": 0}, {}]),
    ("004 past the sixth sandbag the excess is dropped", "league-300",
     [side((3, 6), (2, 2), bags=5), side((4, 5), (4, 0))], [{"points": -7, "bag_penalty": -60, "bags": 0}, {}]),
    ("004 championship: ten bags cost 100", "championship-500",
     [side((3, 4), (2, 2), bags=9), side((4, 7), (4, 0))], [{"points": -49, "bag_penalty": -100, "bags": 0}, {}]),
    ("004 both partners nil are exempt from the team minimum", "league-300",
     [side(("nil", 0), ("nil", 0)), side((5, 13), (4, 0))], [{"points": 120}, {}]),
    ("004 reneg forfeits 3 tricks and gives the opponents 30", "league-300",
     [side((3, 5), (2, 2), reneges=1), side((4, 6), (2, 0))], [{"points": -50, "bags": 0}, {"points": 90}]),
    ("004 a reneging side that still makes its bid scores it", "league-300",
     [side((3, 6), (2, 3), reneges=1), side((2, 4), (2, 0))], [{"points": 51}, {"points": 70}]),
    ("002 0 is a nil", "friendly", [side((0, 0), (4, 4)), side((4, 5), (4, 4))], [{"points": 140}, {}]),
    ("002 a player who fails their bid scores 0, the partner keeps theirs", "friendly",
     [side((3, 2), (3, 3)), side((3, 4), (3, 4))], [{"points": 30, "made": False}, {}]),
    ("002 as a side contract a set side scores 0", {"preset": "friendly", "contract": "side"},
     [side((3, 2), (3, 3)), side((3, 4), (3, 4))], [{"points": 0, "made": False}, {}]),
    ("002 nil wins 100", "friendly", [side(("nil", 0), (4, 4)), side((4, 5), (4, 4))], [{"points": 140}, {}]),
    ("002 nil loses 100", "friendly", [side(("nil", 1), (4, 4)), side((4, 4), (4, 4))], [{"points": -59}, {}]),
    ("002 blind nil wins 300", "friendly", [side(("blind_nil", 0), (4, 4)), side((4, 5), (4, 4), score=150)],
     [{"points": 340}, {}]),
    ("002 blind nil loses 300", "friendly", [side(("blind_nil", 2), (4, 4)), side((4, 4), (3, 3), score=150)],
     [{"points": -258}, {}]),
    ("002 ten books for 200", "friendly", [side((5, 6), (5, 5)), side((1, 2), (1, 0))], [{"points": 201}, {}]),
    ("002 ten books set lose 200", "friendly", [side((5, 5), (5, 4)), side((1, 4), (1, 0))], [{"points": -200}, {}]),
    ("002 ten bags cost 100", "friendly", [side((2, 4), (2, 4), bags=6), side((2, 5), (1, 0))],
     [{"points": -56, "bag_penalty": -100, "bags": 0}, {}]),
    ("002 a side can bag out twice in one hand", "friendly", [side((1, 7), (1, 6), bags=9), side((0, 0), (0, 0))],
     [{"bag_penalty": -200, "bags": 0}, {}]),
    ("002 a reneg costs the reneging player 3 books that score for nobody", "friendly",
     [{"players": [{"bid": 3, "tricks": 4, "reneges": 1}, {"bid": 2, "tricks": 2}]}, side((3, 4), (3, 3))],
     [{"points": 20}, {"points": 61}]),
    ("002 table talk takes one book off the talker", "friendly",
     [{"players": [{"bid": 3, "tricks": 3, "table_talk": 1}, {"bid": 2, "tricks": 3}]}, side((3, 4), (3, 3))],
     [{"points": 21}, {}]),
    ("002 table talk twice takes two books off the talker", "friendly",
     [{"players": [{"bid": 3, "tricks": 4, "table_talk": 2}, {"bid": 2, "tricks": 2}]}, side((3, 4), (3, 3))],
     [{"points": 20}, {}]),
    ("002 as side contracts a reneg comes off the side", {"preset": "friendly", "contract": "side"},
     [side((3, 4), (2, 2), reneges=1), side((3, 4), (3, 3))], [{"points": 0}, {}]),
    ("002 as side contracts table talk comes off the side", {"preset": "friendly", "contract": "side"},
     [side((3, 3), (2, 3), table_talk=1), side((3, 4), (3, 3))], [{"points": 50}, {}]),
    ("001 nil scored apart from the partner", "classic", [side(("nil", 0), (4, 5)), side((4, 4), (4, 4))],
     [{"points": 141}, {}]),
    ("001 double nil failed", "classic", [side(("blind_nil", 1), (4, 4)), side((4, 4), (4, 4), score=100)],
     [{"points": -159}, {}]),
    ("001 bags cost nothing", "classic", [side((1, 7), (1, 6), bags=25), side((0, 0), (0, 0))],
     [{"bag_penalty": 0, "bags": 36}, {}]),
    ("000 made bid and overtricks", "tennessee", [side((3, 4), (3, 3)), side((3, 3), (3, 3))], [{"points": 61}, {}]),
    ("000 a set side goes negative", "tennessee", [side((3, 2), (3, 2)), side((3, 5), (3, 4))],
     [{"points": -60}, {}]),
    ("000 nil failed beside the partner's score", "tennessee", [side(("nil", 1), (4, 4)), side((4, 4), (4, 4))],
     [{"points": -59}, {}]),
    ("000 double nil made beside the partner's score", "tennessee",
     [side(("blind_nil", 0), (4, 5)), side((4, 4), (4, 4), score=120)], [{"points": 241}, {}]),
    ("000 two nils scored separately", "tennessee", [side(("nil", 0), ("nil", 1)), side((5, 8), (4, 4))],
     [{"points": 1}, {}]),
    ("bags reset drops the excess", {"bag_limit": 6, "bag_penalty": 60, "bag_overflow": "reset"},
     [side((2, 5), (2, 4), bags=4), side((2, 4), (2, 0))], [{"bags": 0}, {}]),
    ("carried bags keep the excess", {"bag_limit": 6, "bag_penalty": 60}, [side((2, 5), (2, 4), bags=4),
     side((2, 4), (2, 0))], [{"bags": 3}, {}]),
    ("overtricks worth nothing still count as bags", {"overtrick_points": 0},
     [side((3, 5), (2, 2)), side((3, 6), (2, 0))], [{"points": 50, "bags": 2}, {}]),
    ("failed nil's tricks can count for the partner", {"failed_nil_tricks": "count_for_partner"},
     [side(("nil", 2), (5, 3)), side((3, 6), (2, 2))], [{"points": -50, "made": True}, {}]),
    ("failed nil's tricks are bags even when the partner is set", {},
     [side(("nil", 2), (5, 3)), side((3, 6), (2, 2))], [{"points": -148, "bags": 2, "made": False}, {}]),
    ("penalty tricks come off the nil bidder's partner first", "progressive-500",
     [side(("nil", 1), (2, 2), reneges=1), side((5, 6), (4, 4))], [{"points": -120, "bags": 0}, {}]),
]  # fmt: skip


def _stated_games() -> list[tuple[str, Any, Json, list[Json], Json]]:
    """(name, rules, start, hands, what is stated of the end) of every game end a text states."""
    start = {"scores": [0, 0], "bags": [0, 0], "played": 0}
    rows = [(f"{'our rules' if isinstance(rules, dict) else rules}: {scores[0]}–{scores[1]} after a hand", rules,
             {**start, "scores": list(scores)}, [], {"over": over, "winner": winner})
            for rules, scores, (over, winner) in OUTCOMES]  # fmt: skip
    ahead = [side((3, 4), (3, 3)), side((3, 3), (3, 3))]
    even, swapped = [side((3, 3), (3, 3)), side((3, 4), (3, 3))], [side((3, 4), (3, 3)), side((3, 3), (3, 3))]
    rows += [
        ("003 a progressive round ends after four hands", "progressive", start, [{"teams": ahead}] * 4,
         {"over": True, "winner": 0, "round_complete": True}),
        ("003 a tied progressive round plays one more hand", "progressive", start,
         [{"teams": t} for t in (even, swapped, even, swapped)], {"over": False, "tied": True, "scores": [242, 242]}),
        ("003 the extra hand of a tied round decides it", "progressive", start,
         [{"teams": t} for t in (even, swapped, even, swapped, even)], {"over": True, "winner": 1}),
        ("a misdeal is no hand of the round", "progressive", start,
         [{"teams": ahead}, {"misdeal": True}, {"teams": ahead}, {"teams": ahead}],
         {"over": False, "played": 3, "round_complete": False}),
        ("level at the target: one more hand", "tennessee", {**start, "scores": [439, 440]}, [{"teams": ahead}],
         {"over": False, "tied": True, "scores": [500, 500]}),
        ("the hand after a tie at the target decides it", "tennessee", {**start, "scores": [439, 440]},
         [{"teams": ahead}, {"teams": even}], {"over": True, "winner": 1, "scores": [560, 561]}),
    ]  # fmt: skip
    return rows


# --- the engine's own answers ---------------------------------------------------------------------

VARIANTS: dict[str, Json] = {
    # Rules no preset has, so every field the engine reads is exercised.
    "side contracts under the friendly rules": {"preset": "friendly", "contract": "side"},
    "player contracts, reneges to the opponents": {"preset": "friendly", "reneg_tricks_to": "opponents",
                                                   "failed_nil_tricks": "count_for_partner",
                                                   "reneg_points_to_opponents": 20},
    "a big bid bonus, table talk": {"big_bid": 9, "big_bid_bonus": 50, "table_talk_tricks": 2},
    "player contracts, a big bid bonus, 10 a received trick": {"preset": "friendly", "big_bid_points": None,
                                                              "big_bid_bonus": 100, "reneg_tricks_to": "opponents",
                                                              "reneg_trick_points": 10},
    "10 a received trick, two nils a team contract, a floor": {"reneg_trick_points": 10, "both_nil": "team_contract",
                                                               "lose_score": -200, "target_score": 300},
    "three bags carried, overtricks worth nothing": {"bag_limit": 3, "bag_penalty": 40, "overtrick_points": 0,
                                                     "failed_nil_tricks": "count_for_partner",
                                                     "both_nil": "all_or_nothing", "set_penalty": "zero"},
    "a short round of two hands": {"preset": "progressive", "hands_per_round": 2},
}  # fmt: skip
HANDS_PER_RULES = 40
GAMES_PER_RULES = 3


def random_rules() -> dict[str, Json]:
    """Every preset by name, and every variant: the rule sets random vectors are drawn under."""
    return {**{name: rules_from_json(name).to_json() for name in PRESETS},
            **{name: rules_from_json(spec).to_json() for name, spec in VARIANTS.items()}}  # fmt: skip


def _random_teams(rules: RuleSet, rng: random.Random, scores: tuple[int, int]) -> list[Json]:
    """A random legal hand as ``teams``: random_hand's, with now and then a reneg or table talk."""
    teams = []
    for pair in random_hand(rules, rng, scores=scores):
        players = [{"bid": p.bid, "tricks": p.tricks} for p in pair]
        team: Json = {"players": players}
        for name in ("reneges", "table_talk"):
            if rng.random() < 0.12:
                if rules.contract == "player":
                    players[rng.randrange(2)][name] = 1
                else:
                    team[name] = 1
        teams.append(team)
    return teams


def _random_hand_vectors(name: str, rules_json: Json, rng: random.Random) -> list[Vector]:
    rules = rules_from_json(rules_json)
    vectors = []
    for number in range(HANDS_PER_RULES):
        scores = (rng.randint(-300, 600), rng.randint(-300, 600))
        limit = rules.bag_limit
        teams = _random_teams(rules, rng, scores)
        for team, score in zip(teams, scores, strict=True):
            team.update(score=score, bags=rng.randrange(limit if limit is not None else 30))
        vector = Vector(f"random hand {number + 1} under {name}", "hand", rules_json, {"teams": teams}, {})
        vectors.append(Vector(vector.name, "hand", rules_json, vector.input, run(vector)))
    return vectors


def _random_game_vectors(name: str, rules_json: Json, rng: random.Random) -> list[Vector]:
    rules = rules_from_json(rules_json)
    vectors = []
    for number in range(GAMES_PER_RULES):
        game, hands = Game(rules), []
        while not game.over and len(hands) < 60:
            if rng.random() < 0.05:
                hands.append({"misdeal": True})
                continue
            teams = _random_teams(rules, rng, game.scores)
            hands.append({"teams": teams})
            game = _play(game, teams)
        start = {"scores": [0, 0], "bags": [0, 0], "played": 0}
        vector = Vector(f"random game {number + 1} under {name}", "game", rules_json,
                        {"start": start, "hands": hands}, {})  # fmt: skip
        vectors.append(Vector(vector.name, "game", rules_json, vector.input, run(vector)))
    return vectors


def vectors(seed: int = 2026) -> list[Vector]:
    """Every vector: the stated ones, the handout's worked examples, then the seeded random ones."""
    found = [
        Vector(name, "hand", rules_from_json(rules).to_json(), {"teams": teams}, {"teams": stated})
        for name, rules, teams, stated in _stated_hands()
    ]
    found += [
        Vector(name, "game", rules_from_json(rules).to_json(), {"start": start, "hands": hands}, {"end": stated})
        for name, rules, start, hands, stated in _stated_games()
    ]
    found += _worked_example_vectors()
    rng = random.Random(seed)
    for name, rules_json in random_rules().items():
        found += _random_hand_vectors(name, rules_json, rng)
        found += _random_game_vectors(name, rules_json, rng)
    return found


def _worked_example_vectors() -> list[Vector]:
    found = []
    for preset in PRESETS.values():
        for example in worked_examples(preset.rules):
            teams = [_side_json(s) for s in example.sides]
            found.append(Vector(f"{preset.name} handout: {example.situation}", "hand", preset.rules.to_json(),
                                {"teams": teams}, {"teams": [{"points": example.points}, {}]}))  # fmt: skip
    return found


def _side_json(side_hand: SideHand) -> Json:
    players = [{"bid": p.bid, "tricks": p.tricks, "reneges": p.reneges, "table_talk": p.table_talk}
               for p in side_hand.players]  # fmt: skip
    return {"players": players, "score": side_hand.score, "bags": side_hand.bags, "reneges": side_hand.reneges,
            "table_talk": side_hand.table_talk}  # fmt: skip


# --- running a vector through the engine -----------------------------------------------------------


def _sides(teams: Sequence[Mapping[str, Any]], standing: Sequence[tuple[int, int]] | None = None) -> list[SideHand]:
    """The engine's sides from ``teams`` (a side's infractions default to its players' sum)."""
    sides = []
    for i, team in enumerate(teams):
        players = tuple(PlayerHand(p["bid"], p["tricks"], p.get("reneges", 0), p.get("table_talk", 0))
                        for p in team["players"])  # fmt: skip
        score, bags = standing[i] if standing else (team.get("score", 0), team.get("bags", 0))
        named = {name: team.get(name, sum(getattr(p, name) for p in players)) for name in ("reneges", "table_talk")}
        sides.append(SideHand(players=(players[0], players[1]), score=score, bags=bags, **named))
    return sides


def _play(game: Game, teams: Sequence[Mapping[str, Any]]) -> Game:
    sides = _sides(teams, (game.scores, game.bags))
    pairs = (sides[0].players, sides[1].players)
    reneges = (sides[0].reneges, sides[1].reneges)
    return game.play(pairs, reneges=reneges, table_talk=(sides[0].table_talk, sides[1].table_talk))


def _state(game: Game) -> Json:
    return {"scores": list(game.scores), "bags": list(game.bags), "played": game.hands_played, "over": game.over,
            "winner": game.winner, "tied": game.tied, "round_complete": game.round_complete}  # fmt: skip


def run(vector: Vector) -> Json:
    """What the Python engine answers for ``vector``'s input (every field, stated or not).

    A hand: ``{"teams": [{points, bag_penalty, bags, score, made}, …], "game_over", "winner"}``.
    A game: ``{"end": state, "after": [state after each hand]}``, a state holding
    :data:`STATE_FIELDS`. :class:`InvalidHand` for a hand the rules refuse.
    """
    rules = rules_from_json(vector.rules)
    if vector.kind == "hand":
        result = score_hand(rules, _sides(vector.input["teams"]))
        teams = [{name: getattr(team, name) for name in RESULT_FIELDS} for team in result.teams]
        return {"teams": teams, "game_over": result.game_over, "winner": result.winner}
    start = vector.input["start"]
    game = Game.resumed(rules, tuple(start["scores"]), tuple(start["bags"]), start["played"])
    after = []
    for hand in vector.input["hands"]:
        if not hand.get("misdeal"):
            game = _play(game, hand["teams"])
        after.append(_state(game))
    return {"end": _state(game), "after": after}


def matches(actual: Any, expected: Any) -> bool:
    """Whether ``actual`` holds what ``expected`` states: every key of an expected object (others
    are not stated), every item of an expected list (of the same length), equal plain values."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(k in actual and matches(actual[k], v) for k, v in expected.items())
    if isinstance(expected, list):
        return (isinstance(actual, list) and len(actual) == len(expected)
                and all(matches(a, e) for a, e in zip(actual, expected, strict=True)))  # fmt: skip
    return type(actual) is type(expected) and actual == expected
