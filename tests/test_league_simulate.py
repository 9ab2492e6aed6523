"""A whole simulated league season (issue 12): every night played through the real services, the
championship after it, and the log in the knockout simulation's JSON shape."""

import json
import os
import subprocess
import sys
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest

from tournament.formats.league.simulation import simulate_league

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.django_db
def test_a_simulated_double_round_robin_best_of_three_meets_everyone_twice_and_crowns_the_final_winner():
    log = simulate_league(teams=5, seed=2, legs=2, best_of=3, championship=2)
    league = [m for m in log["matches"] if m["stage"] == "league"]
    pairs = Counter(frozenset(m["teams"]) for m in league)
    assert pairs == {frozenset(pair): 2 for pair in combinations(range(1, 6), 2)}
    assert {m["round"] for m in league} == set(range(1, 11))  # 5 nights a leg for an odd field
    for night in range(1, 11):
        playing = [t for m in league if m["round"] == night for t in m["teams"]]
        assert len(playing) == len(set(playing)) == 4  # one team rests
    assert all(2 <= len(m["games"]) <= 3 for m in league)
    (final,) = [m for m in log["matches"] if m["stage"] == "championship"]
    assert final["round"] == 11 and all(max(game) >= 500 for game in final["games"])  # championship-500
    assert log["places"]["1"] == final["winner"]
    assert log["places"]["2"] == next(t for t in final["teams"] if t != final["winner"])
    assert sorted(log["seeds"][str(t)] for t in final["teams"]) == [1, 2]


@pytest.mark.django_db
def test_four_go_to_the_championship_and_the_semi_final_losers_share_third():
    log = simulate_league(teams=4, seed=5, championship=4)
    semis, final = log["matches"][-3:-1], log["matches"][-1]
    assert [m["stage"] for m in log["matches"][-3:]] == ["championship"] * 3
    losers = sorted(next(t for t in m["teams"] if t != m["winner"]) for m in semis)
    assert sorted(log["places"]["3"]) == losers
    assert set(final["teams"]) == {m["winner"] for m in semis}


@pytest.mark.slow  # manage.py in a process of its own
def test_simulate_prints_a_round_robin_season_as_json(tmp_path):
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'real.sqlite3'}", "DJANGO_DEBUG": "true"}
    command = [sys.executable, "manage.py", "simulate", "league", "--teams", "4", "--seed", "3"]
    done = subprocess.run([*command, "--json"], env=env, cwd=ROOT, capture_output=True, text=True, check=True)
    log = json.loads(done.stdout)
    assert log["format"] == "round-robin" and log["teams"] == [1, 2, 3, 4]
    assert [m["stage"] for m in log["matches"]] == ["league"] * 6 + ["championship"]
    assert all(set(m) == {"stage", "round", "number", "teams", "winner", "games"} for m in log["matches"])
    assert not (tmp_path / "real.sqlite3").exists()  # the throw-away database only
