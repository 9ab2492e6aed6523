"""``python -m scoring``: the JSON contract on standard input and output."""

import json
import subprocess
import sys

import pytest

from scoring.rules import PRESETS

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
