"""``python -m scoring``: the JSON contract on standard input and output."""

import json
import subprocess
import sys

import pytest

from scoring import Game, PlayerHand, RuleSet
from scoring.presets import PRESETS

EXAMPLE = {
    "rules": "progressive-500",
    "teams": [
        {
            "score": 337,
            "bags": 7,
            "players": [{"bid": 3, "tricks": 4}, {"bid": 2, "tricks": 3}],
            "reneges": 0,
            "table_talk": 0,
        },
        {"players": [{"bid": 3, "tricks": 3}, {"bid": 3, "tricks": 3}]},
    ],
}


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "scoring", *args], input=stdin, capture_output=True, text=True, check=False
    )


def test_cli_scores_the_issue_example():
    done = run(stdin=json.dumps(EXAMPLE))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    first = out["teams"][0]
    assert {k: first[k] for k in ("points", "bag_penalty", "bags", "score", "made")} == {
        "points": 52, "bag_penalty": 0, "bags": 9, "score": 389, "made": True,
    }  # fmt: skip
    assert first["lines"] and all(isinstance(line, str) for line in first["lines"])
    assert (out["teams"][1]["score"], out["game_over"], out["winner"]) == (60, False, None)


def test_cli_reports_the_winner_once_the_game_is_over():
    data = json.loads(json.dumps(EXAMPLE))
    data["teams"][0]["score"] = 480
    out = json.loads(run(stdin=json.dumps(data)).stdout)
    assert (out["teams"][0]["score"], out["game_over"], out["winner"]) == (532, True, 0)


def test_cli_accepts_a_preset_with_overrides():
    data = {**EXAMPLE, "rules": {"preset": "friendly", "bag_limit": 9}}
    out = json.loads(run(stdin=json.dumps(data)).stdout)
    assert (out["teams"][0]["bag_penalty"], out["teams"][0]["bags"]) == (-100, 0)


def test_cli_lists_the_presets_with_their_fields():
    done = run("--rules")
    listing = json.loads(done.stdout)
    assert set(listing) == set(PRESETS)
    assert listing["league-300"]["rules"]["nil_points"] == 60
    assert listing["friendly"]["rules"]["set_penalty"] == "zero"


def _with(path: tuple, value: object) -> str:
    data = json.loads(json.dumps(EXAMPLE))
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return json.dumps(data)


@pytest.mark.parametrize(
    ("stdin", "expected"),
    [
        (
            _with(("teams", 0, "players", 0, "tricks"), 5),
            "tricks: the four players' tricks must total 13 (they total 14)",
        ),
        (_with(("teams", 1, "players", 1, "bid"), 14), "team 2, player 2: bid: must be a whole number from 0 to 13"),
        (
            _with(("teams", 0, "players", 1, "bid"), "blind_nil"),
            "team 1, player 2: bid: blind nil needs the side to trail by at least 100",
        ),
        (_with(("teams", 0, "colour"), "red"), "team 1: colour: unknown field"),
        (_with(("teams", 1, "players", 0, "trick"), 1), "team 2, player 1: trick: unknown field"),
        (_with(("rules",), {"preset": "classic", "bagz": 3}), "rules: bagz: unknown rule field"),
        (_with(("rules",), "whist"), "rules: preset: unknown preset 'whist'"),
        (_with(("teams",), []), "teams: must be a list of exactly two teams"),
        ("{not json", "input: not valid JSON"),
    ],
)
def test_cli_bad_input_exits_2_with_one_line_naming_the_field(stdin, expected):
    done = run(stdin=stdin)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(expected), done.stderr


# --- issue 9: the rule readings, through the JSON contract ---------------------------------------


def score_cli(rules: object, ns: tuple, ew: tuple, *, ns_standing: dict | None = None, **ew_standing) -> dict:
    """Run ``python -m scoring`` on one hand: each side as two (bid, tricks) pairs."""
    teams = [
        {"players": [{"bid": b, "tricks": t} for b, t in pairs], **standing}
        for pairs, standing in ((ns, ns_standing or {}), (ew, ew_standing))
    ]
    done = run(stdin=json.dumps({"rules": rules, "teams": teams}))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_rule_set_without_a_target_score_scores_the_hand_and_never_ends_the_game():
    rules = {"preset": "progressive-500", "target_score": None}
    out = score_cli(rules, ((3, 4), (2, 3)), ((3, 3), (3, 3)), ns_standing={"score": 990}, score=1200)
    assert (out["teams"][0]["score"], out["teams"][1]["score"]) == (1042, 1260)
    assert (out["game_over"], out["winner"]) == (False, None)


def test_a_game_without_a_target_or_a_hand_count_plays_on():
    game = Game(RuleSet(target_score=None, hands_per_round=None))
    for _ in range(30):
        game = game.play(((PlayerHand(6, 6), PlayerHand(7, 7)), (PlayerHand(1, 0), PlayerHand(1, 0))))
    assert game.scores == (30 * 130, 30 * -20) and not game.over


@pytest.mark.parametrize("preset", ["league-300", "progressive-500", "progressive"])
def test_a_side_bidding_more_than_13_is_refused(preset):
    data = {"rules": preset, "teams": [
        {"players": [{"bid": 7, "tricks": 8}, {"bid": 7, "tricks": 5}]},
        {"players": [{"bid": 4, "tricks": 0}, {"bid": 4, "tricks": 0}]},
    ]}  # fmt: skip
    done = run(stdin=json.dumps(data))
    assert done.returncode == 2
    assert done.stderr.strip() == "team 1: bid: a side can bid at most 13 tricks"


def test_a_side_may_bid_exactly_13():
    out = score_cli("progressive-500", ((7, 8), (6, 5)), ((4, 0), (4, 0)))
    assert out["teams"][0]["points"] == 130


@pytest.mark.parametrize(
    ("rules", "ew", "ew_points", "ew_bags"),
    [
        ("league-300", ((3, 3), (3, 2)), 90, 0),  # bid 6, took 5 (+3 received make it): 60 + 30, no bags
        ("league-300", ((2, 3), (2, 2)), 71, 1),  # bid 4, took 5: 41 + 30, one bag
        ("league-300", ((5, 3), (4, 2)), -60, 0),  # bid 9, took 5 (+3 = 8): set, -90 + 30
        ("progressive-500", ((3, 3), (3, 2)), 62, 2),  # 000–003: the 3 tricks are ordinary tricks
        ({"preset": "friendly", "contract": "side"}, ((3, 3), (3, 2)), 0, 0),  # 002: to nobody; 5 of 6 is set: 0
    ],
)
def test_reneg_tricks_go_where_the_rules_say(rules, ew, ew_points, ew_bags):
    # North–South reneged once: they bid 7 and took 8, so they keep 5 and are set.
    out = score_cli(rules, ((4, 5), (3, 3)), ew, ns_standing={"reneges": 1})
    ns_points = 0 if isinstance(rules, dict) else -70
    assert out["teams"][0]["points"] == ns_points
    assert (out["teams"][1]["points"], out["teams"][1]["bags"]) == (ew_points, ew_bags)


def test_reneg_lines_say_where_the_tricks_went():
    out = score_cli("league-300", ((4, 5), (3, 3)), ((3, 3), (3, 2)), ns_standing={"reneges": 1})
    assert out["teams"][0]["lines"][0] == "Penalty: 1 reneg × 3 = 3 tricks taken off, 3 to the opponents"
    assert out["teams"][1]["lines"] == [
        "Bid 6, took 5 + 3 received: made, 6 × 10 = +60",
        "Opponents reneged: +30",
    ]
    nobody = score_cli(
        {"preset": "friendly", "contract": "side"}, ((4, 5), (3, 3)), ((3, 3), (3, 2)), ns_standing={"reneges": 1}
    )
    assert nobody["teams"][0]["lines"][0] == "Penalty: 1 reneg × 3 = 3 tricks taken off, scoring for nobody"


def test_received_reneg_tricks_never_touch_a_nil():
    # East made a nil; West bid 5 and took 3: the 3 tricks received make West's bid.
    out = score_cli("league-300", ((4, 5), (3, 5)), (("nil", 0), (5, 3)), ns_standing={"reneges": 1})
    assert (out["teams"][1]["points"], out["teams"][1]["made"]) == (60 + 50 + 30, True)


def test_a_flat_reneg_award_still_adds_to_any_tricks():
    rules = {"preset": "league-300", "reneg_trick_points": None, "reneg_points_to_opponents": 30}
    out = score_cli(rules, ((4, 5), (3, 3)), ((3, 3), (3, 2)), ns_standing={"reneges": 1})
    assert out["teams"][1]["points"] == 62 + 30


@pytest.mark.parametrize(
    ("bids", "tricks", "points"),
    [
        (("nil", "nil"), (0, 0), 200),
        (("nil", "blind_nil"), (0, 0), 200),  # 001: 200 whatever mix of nil and double nil
        (("blind_nil", "blind_nil"), (0, 0), 200),
        (("blind_nil", "nil"), (1, 0), 0),  # "no score if either or both are set"
        (("nil", "nil"), (2, 1), 0),
    ],
)
def test_001_both_partners_nil_score_a_flat_200_or_nothing(bids, tricks, points):
    ours = tuple(zip(bids, tricks, strict=True))
    out = score_cli("classic", ours, ((6, 13 - sum(tricks)), (4, 0)), score=100)
    assert out["teams"][0]["points"] == points


def test_both_nil_without_a_flat_value_adds_the_two_nils():
    rules = {"preset": "classic", "both_nil_points": None}
    out = score_cli(rules, (("nil", 0), ("blind_nil", 0)), ((6, 13), (4, 0)))
    assert out["teams"][0]["points"] == 300


@pytest.mark.parametrize(("preset", "name"), [("classic", "Double nil"), ("tennessee", "Double nil"),
                                              ("progressive-500", "Blind nil"), ("friendly", "Blind nil")])  # fmt: skip
def test_the_blind_bid_is_called_by_the_texts_name(preset, name):
    out = score_cli(preset, (("blind_nil", 0), (4, 4)), ((4, 5), (4, 4)), ns_standing={"score": 0}, score=150)
    assert out["teams"][0]["lines"][0] == f"{name} made: +{PRESETS[preset].rules.blind_nil_points}"
    assert PRESETS[preset].rules.blind_nil_name == name.lower()


# --- issue 23: the texts' reneg, players' own bids, the big-bid bonus, the bag limit, two nils ----


def test_004_reneg_always_pays_the_receivers_30_whatever_the_offenders_hold():
    # North–South bid 2 + 2, took 1 + 0 and reneged once; East–West bid 4 + 4 and took 6 + 6.
    out = score_cli("league-300", ((2, 1), (2, 0)), ((4, 6), (4, 6)), ns_standing={"reneges": 1})
    assert (out["teams"][0]["points"], out["teams"][1]["points"]) == (-40, 84 + 30)
    assert out["teams"][1]["bags"] == 4  # the one trick that moved is never a bag


def test_004_a_reneg_received_trick_fills_the_bid_and_earns_nothing_beyond_the_30():
    # East–West bid 8 and took 7; the one trick North–South can give makes the bid: 80 + 30.
    out = score_cli("league-300", ((2, 1), (4, 5)), ((4, 4), (4, 3)), ns_standing={"reneges": 1})
    assert (out["teams"][1]["points"], out["teams"][1]["bags"], out["teams"][1]["made"]) == (110, 0, True)


def test_002_each_players_own_bid_is_scored_then_the_partners_points_are_added():
    out = score_cli("friendly", ((3, 5), (3, 1)), ((2, 4), (2, 3)))
    ns, ew = out["teams"]
    assert (ns["points"], ns["bags"], ew["points"], ew["bags"]) == (32, 2, 43, 3)
    assert ns["lines"][:3] == ["One partner: bid 3, took 5: made, 3 × 10 = +30", "2 overtricks (bags): +2",
                               "The other: bid 3, took 1: set, scores 0"]  # fmt: skip


def test_002_as_a_side_contract_the_same_hand_scores_60():
    out = score_cli({"preset": "friendly", "contract": "side"}, ((3, 5), (3, 1)), ((2, 4), (2, 3)))
    assert (out["teams"][0]["points"], out["teams"][1]["points"]) == (60, 43)


@pytest.mark.parametrize(
    ("ns", "points", "bags"),
    [
        (((6, 6), (4, 5)), 201, 1),  # 10 bid together, 11 taken: one side contract, +200 and a bag
        (((6, 9), (4, 1)), 200, 0),  # North's extra tricks cover South: the side made its 10
        (((6, 6), (4, 3)), -200, 0),  # 9 of 10: the side loses 200
    ],
)
def test_002_a_combined_bid_of_10_or_more_is_one_side_contract(ns, points, bags):
    taken = sum(t for _, t in ns)
    out = score_cli("friendly", ns, ((1, 13 - taken), (1, 0)))
    assert (out["teams"][0]["points"], out["teams"][0]["bags"]) == (points, bags)


@pytest.mark.parametrize(("kind", "books"), [("reneges", 3), ("table_talk", 1)])
def test_002_a_penalty_comes_off_the_offending_players_own_tricks(kind, books):
    # North bid 3 and took 5, South bid 3 and took 3: North's penalty never touches South's bid.
    teams = [
        {"players": [{"bid": 3, "tricks": 5, kind: 1}, {"bid": 3, "tricks": 3}]},
        {"players": [{"bid": 2, "tricks": 3}, {"bid": 2, "tricks": 2}]},
    ]
    done = run(stdin=json.dumps({"rules": "friendly", "teams": teams}))
    north = 30 + (5 - books - 3) if 5 - books >= 3 else 0
    assert json.loads(done.stdout)["teams"][0]["points"] == north + 30


def test_002_a_penalty_without_its_player_is_refused_naming_the_rule():
    data = {"rules": "friendly", "teams": [
        {"reneges": 1, "players": [{"bid": 3, "tricks": 5}, {"bid": 3, "tricks": 3}]},
        {"players": [{"bid": 2, "tricks": 3}, {"bid": 2, "tricks": 2}]},
    ]}  # fmt: skip
    done = run(stdin=json.dumps(data))
    assert done.returncode == 2 and done.stderr.startswith("team 1: reneges: each reneg comes off the tricks")


@pytest.mark.parametrize(
    ("overrides", "ns", "points"),
    [
        ({}, ((6, 6), (5, 5)), 160),  # 11 bid, 11 taken: 10 × 11 + 50
        ({}, ((6, 7), (5, 5)), 161),  # an overtrick on top
        ({}, ((6, 5), (5, 5)), -110),  # set: an ordinary set
        ({"big_bid_penalty": 200}, ((6, 5), (5, 5)), -200),
    ],
)
def test_a_big_bid_bonus_is_added_to_the_ordinary_score_of_a_made_big_bid(overrides, ns, points):
    rules = {"preset": "progressive-500", "big_bid": 10, "big_bid_bonus": 50, **overrides}
    taken = sum(t for _, t in ns)
    out = score_cli(rules, ns, ((1, 13 - taken), (1, 0)))
    assert out["teams"][0]["points"] == points


@pytest.mark.parametrize(
    ("overrides", "field"),
    [({"big_bid_bonus": 50}, "big_bid_bonus"), ({"big_bid": 10, "big_bid_points": 200, "big_bid_bonus": 50},
                                                "big_bid_points")],
)  # fmt: skip
def test_a_big_bid_bonus_needs_a_big_bid_and_excludes_its_points(overrides, field):
    data = {"rules": {"preset": "classic", **overrides}, "teams": [
        {"players": [{"bid": 3, "tricks": 3}, {"bid": 3, "tricks": 3}]},
        {"players": [{"bid": 3, "tricks": 3}, {"bid": 4, "tricks": 4}]},
    ]}  # fmt: skip
    done = run(stdin=json.dumps(data))
    assert done.returncode == 2 and done.stderr.startswith(f"rules: {field}: ")


def test_a_side_cannot_start_a_hand_holding_the_bag_limit():
    data = {"rules": "league-300", "teams": [
        {"bags": 6, "players": [{"bid": 3, "tricks": 3}, {"bid": 3, "tricks": 3}]},
        {"players": [{"bid": 4, "tricks": 4}, {"bid": 3, "tricks": 3}]},
    ]}  # fmt: skip
    done = run(stdin=json.dumps(data))
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "team 1: bags: the side starts the hand holding 6 bags, at or past the limit of 6; "
        "a side cannot start a hand there"
    )


@pytest.mark.parametrize(
    ("preset", "bids", "tricks", "points"),
    [
        ("league-300", ("nil", "nil"), (0, 0), 120),
        ("league-300", ("nil", "blind_nil"), (0, 0), 120),  # any mix: 120, not 60 + 120
        ("league-300", ("blind_nil", "nil"), (1, 0), 0),  # one makes it: 0
        ("league-300", ("nil", "blind_nil"), (2, 1), -120),  # both fail
        ("championship-500", ("nil", "blind_nil"), (0, 0), 200),
        ("championship-500", ("nil", "nil"), (0, 3), 0),
        ("championship-500", ("blind_nil", "blind_nil"), (1, 1), -200),
    ],
)
def test_004_both_partners_nil_win_lose_or_score_nothing_together(preset, bids, tricks, points):
    ours = tuple(zip(bids, tricks, strict=True))
    out = score_cli(preset, ours, ((6, 13 - sum(tricks)), (4, 0)), score=200)
    assert out["teams"][0]["points"] == points


def test_every_preset_lists_the_contract_and_the_big_bid_bonus():
    listing = json.loads(run("--rules").stdout)
    assert {name: (p["rules"]["contract"], p["rules"]["big_bid_bonus"]) for name, p in listing.items()} == {
        name: ("player" if name == "friendly" else "side", None) for name in PRESETS
    }


def test_002_a_nil_bidders_reneg_comes_off_the_nil_not_the_partners_big_bid():
    # North bid nil, took 1 and reneged; South bid 10 and took 10: South's 10 stands (+200), the nil fails.
    teams = [
        {"players": [{"bid": "nil", "tricks": 1, "reneges": 1}, {"bid": 10, "tricks": 10}]},
        {"players": [{"bid": 1, "tricks": 1}, {"bid": 1, "tricks": 1}]},
    ]
    out = json.loads(run(stdin=json.dumps({"rules": "friendly", "teams": teams})).stdout)
    assert (out["teams"][0]["points"], out["teams"][0]["bags"]) == (200 - 100, 0)
