"""Score 100,000 random legal hands per preset and print hands per second (target: 100,000).

Hands are generated first (not timed), with random standings so blind nil and the bag rules
come into play, and one hand in twenty has a reneg; then only :func:`scoring.score_hand` is
timed. A second run also asks every result for its explanation lines (built only when asked
for), to show what the words cost. On a shared machine the CPU-time rate (hands per CPU
second of this process) is the steadier figure; the wall-clock rate is what a user waits.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from scoring import PlayerHand, SideHand, score_hand
from scoring.presets import PRESETS
from scoring.random_hands import random_hand


def bench_preset(name: str, hands: int, seed: int, *, explain: bool = False) -> tuple[float, float]:
    """(wall seconds, CPU seconds) to score ``hands`` hands of preset ``name``."""
    rules, rng = PRESETS[name].rules, random.Random(seed)
    work = []
    for _ in range(hands):
        scores = (rng.randint(-200, 450), rng.randint(-200, 450))
        bags = [rng.randint(0, (rules.bag_limit or 10) - 1) for _ in range(2)]
        reneges = 1 if rng.random() < 0.05 else 0
        first, second = random_hand(rules, rng, scores=scores)
        if reneges and rules.contract == "player":  # the reneg is a player's own
            first = (PlayerHand(first[0].bid, first[0].tricks, reneges=1), first[1])
        work.append([SideHand(first, score=scores[0], bags=bags[0], reneges=reneges),
                     SideHand(second, score=scores[1], bags=bags[1])])  # fmt: skip
    start, cpu = time.perf_counter(), time.process_time()
    total = 0
    for sides in work:
        result = score_hand(rules, sides)
        total += result.teams[0].points
        if explain:
            total += len(result.teams[0].lines) + len(result.teams[1].lines)
    assert total or not work
    return time.perf_counter() - start, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"scoring: {args.hands:,} random legal hands per preset (Python {sys.version.split()[0]})")
    print(f"  {'hands/s':<17} {'scored: wall':>12} {'(CPU)':>9} {'+ lines: wall':>14} {'(CPU)':>9}")
    for name in PRESETS:
        rates = [args.hands / seconds for explain in (False, True)
                 for seconds in bench_preset(name, args.hands, args.seed, explain=explain)]  # fmt: skip
        print(f"  {name:<17} {rates[0]:>12,.0f} {rates[1]:>9,.0f} {rates[2]:>14,.0f} {rates[3]:>9,.0f}")


if __name__ == "__main__":
    main()
