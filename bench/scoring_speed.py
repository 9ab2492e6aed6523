"""Score 100,000 random legal hands per preset and print hands per second.

Hands are generated first (not timed), with random standings so blind nil and the bag rules
come into play; then only :func:`scoring.score_hand` is timed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from scoring import SideHand, score_hand
from scoring.random_hands import random_hand
from scoring.rules import PRESETS


def bench_preset(name: str, hands: int, seed: int) -> tuple[float, int]:
    rules, rng = PRESETS[name].rules, random.Random(seed)
    work = []
    for _ in range(hands):
        scores = (rng.randint(-200, 450), rng.randint(-200, 450))
        bags = [rng.randint(0, (rules.bag_limit or 10) - 1) for _ in range(2)]
        first, second = random_hand(rules, rng, scores=scores)
        work.append([SideHand(first, score=scores[0], bags=bags[0]), SideHand(second, score=scores[1], bags=bags[1])])
    start = time.perf_counter()
    total = 0
    for sides in work:
        total += score_hand(rules, sides).teams[0].points
    return time.perf_counter() - start, total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"scoring: {args.hands:,} random legal hands per preset (Python {sys.version.split()[0]})")
    for name in PRESETS:
        seconds, _ = bench_preset(name, args.hands, args.seed)
        print(f"  {name:<17} {args.hands / seconds:>10,.0f} hands/s  ({seconds:.2f} s)")


if __name__ == "__main__":
    main()
