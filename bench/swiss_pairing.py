"""Pair a Swiss round of 256 teams after 8 rounds and print the time (target: 1 s or less).

Pure code, no database. Each field is paired after histories of three kinds, 8 rounds deep:
``played``, 8 rounds played through the pairing itself (random winners, ranked by wins with ties
drawn at random); ``neighbours``, every team has met the 8 teams ranked nearest it, so each
Monrad first choice is a rematch and every team moves down past 4 of them; ``pool``, the 9
lowest-ranked teams have met only each other, so greedy Monrad reaches a dead end at the bottom
and the pairing must reach up the ranking to find them partners. Odd fields (one team fewer)
also have their 8 lowest-ranked teams holding a bye already, so the bye moves up. 64 and 1,000
teams are timed for information. Each time is the best of three runs, wall clock (CPU time
beside it: on a shared machine the steadier figure); the last line says whether 256 teams met
the target (the bench goes on either way, as the others in `make bench` do).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's code
from tournament.formats.swiss.pairing import RoundPairing, pair_round

ROUNDS_PLAYED = 8
TARGET_TEAMS, TARGET_SECONDS = 256, 1.0
History = tuple[list[int], set[frozenset[int]], set[int]]


def played(teams: int, rng: random.Random) -> History:
    """The ranking, pairs met and byes after ``ROUNDS_PLAYED`` rounds paired by :func:`pair_round`."""
    ids = list(range(1, teams + 1))
    wins = dict.fromkeys(ids, 0)
    met: set[frozenset[int]] = set()
    had_bye: set[int] = set()
    ranked = ids
    for _ in range(ROUNDS_PLAYED):
        pairing = pair_round(ranked, met, had_bye)
        for pair in pairing.pairs:
            wins[rng.choice(pair)] += 1
            met.add(frozenset(pair))
        if pairing.bye is not None:
            wins[pairing.bye] += 1
            had_bye.add(pairing.bye)
        ranked = sorted(ids, key=lambda team: (-wins[team], rng.random()))
    return ranked, met, had_bye


def neighbours(teams: int, rng: random.Random) -> History:
    ranked = list(range(1, teams + 1))
    reach = ROUNDS_PLAYED // 2
    met = {frozenset((team, other)) for team in ranked for other in range(team + 1, min(teams, team + reach) + 1)}
    return ranked, met, lowest_had_byes(ranked)


def pool(teams: int, rng: random.Random) -> History:
    ranked = list(range(1, teams + 1))
    bottom = ranked[-(ROUNDS_PLAYED + 1) :]
    met = {frozenset((team, other)) for team in bottom for other in bottom if team < other}
    return ranked, met, lowest_had_byes(ranked)


def lowest_had_byes(ranked: list[int]) -> set[int]:
    return set(ranked[-ROUNDS_PLAYED:]) if len(ranked) % 2 else set()


HISTORIES = {"played": played, "neighbours": neighbours, "pool": pool}


def timed(history: History) -> tuple[float, float, RoundPairing]:
    """(best wall seconds, its CPU seconds, the pairing) over three runs."""
    runs = []
    for _ in range(3):
        start, cpu = time.perf_counter(), time.process_time()
        result = pair_round(*history)
        runs.append((time.perf_counter() - start, time.process_time() - cpu, result))
    return min(runs, key=lambda run: run[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=26)
    args = parser.parse_args()
    print(f"swiss pairing: one round after {ROUNDS_PLAYED} rounds (Python {sys.version.split()[0]})")
    print(f"  {'teams':>5} {'history':<11} {'wall ms':>9} {'(CPU ms)':>9} {'rematches':>9}  bye")
    missed = False
    for teams in (64, 63, TARGET_TEAMS, TARGET_TEAMS - 1, 1000, 999):
        for name, make in HISTORIES.items():
            wall, cpu, result = timed(make(teams, random.Random(args.seed)))
            flag = ""
            if teams in (TARGET_TEAMS, TARGET_TEAMS - 1) and wall > TARGET_SECONDS:
                missed, flag = True, f"  MISSED the {TARGET_SECONDS:.0f} s target"
            bye = "-" if result.bye is None else result.bye
            print(f"  {teams:>5} {name:<11} {wall * 1000:>9.1f} {cpu * 1000:>9.1f} {result.rematches:>9}  {bye}{flag}")
    print(f"  target: {TARGET_TEAMS} teams paired in {TARGET_SECONDS:.0f} s or less: {'MISSED' if missed else 'met'}")


if __name__ == "__main__":
    main()
