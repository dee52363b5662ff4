"""Play 10,000 seeded rounds per rule set with the simulator's bots and print figures.

Usage: python benchmarks/simulate_bench.py [rounds] [--jobs N]

Players cycle 2, 3, 4 (pharaoh: always 2); the starter cycles too. After every
round it checks the invariants: every card of the deck is on the table exactly
once, and the round is a valid round for the series API (it replays for a fresh
series of the same rule set and players).

The seeds are split over `--jobs` worker processes (default 2, the machine's
cores); every figure but the times is the same for any number of jobs.
"time" is the wall-clock time of the whole set (simulation and checks); "sim
cpu" the CPU time the simulation itself took, summed over the workers, and
"check cpu" that of the checks.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from companion.core.cards import deck
from companion.core.rules import RULESETS
from companion.core.series import RoundInput, SeriesSetup, replay
from companion.core.simulator import Table, simulate_round


def players_for(ruleset_id: str, seed: int) -> int:
    most = min(4, RULESETS[ruleset_id].max_players)
    return 2 + seed % (most - 1)


def play_seeds(ruleset_id: str, seeds: range) -> Counter[str]:
    """Play and check the rounds of these seeds; sums of the figures."""
    ruleset = RULESETS[ruleset_id]
    full = Counter(deck(ruleset.defaults.deck))
    setups: dict[int, SeriesSetup] = {}
    sums: Counter[str] = Counter()
    for seed in seeds:
        players = players_for(ruleset_id, seed)
        tables: list[Table] = []
        start = time.process_time()
        outcome = simulate_round(ruleset, players, seed, seed % players,
                                 observe=lambda t, tables=tables: tables.append(t) if not tables else None)
        middle = time.process_time()
        assert Counter(tables[0].cards()) == full, f"{ruleset_id}: cards lost or doubled, seed {seed}"
        if players not in setups:
            setups[players] = SeriesSetup.create([f"P{i + 1}" for i in range(players)], ruleset_id)
        setup = setups[players]
        replay(setup, [RoundInput.from_json(outcome.to_round_json(), setup)])
        sums["sim_cpu"] += middle - start
        sums["check_cpu"] += time.process_time() - middle
        sums["rounds"] += 1
        sums["turns"] += outcome.turns
        if outcome.redeal:
            sums["redeals"] += 1
            sums[f"redeal:{outcome.redeal_reason}"] += 1
            continue
        points = outcome.leftover_points(setup.options)
        sums["losing_hands"] += len(points)
        sums["leftover"] += sum(points.values())
    return sums


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rounds", nargs="?", type=int, default=10_000)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    print(f"{args.rounds} rounds per rule set, players 2–4 cycling (pharaoh 2), {args.jobs} worker processes, "
          f"Python {sys.version.split()[0]}")
    print(f"{'rule set':<12} {'time s':>7} {'rounds/s':>9} {'sim cpu s':>10} {'check cpu s':>12} "
          f"{'leftover/hand':>14} {'redeals':>8} {'turns':>6}  redeal reasons")
    with ProcessPoolExecutor(args.jobs) as pool:
        for ruleset_id in RULESETS:
            start = time.perf_counter()
            chunks = [range(k, args.rounds, args.jobs) for k in range(args.jobs)]
            sums: Counter[str] = sum(pool.map(play_seeds, [ruleset_id] * args.jobs, chunks), Counter())
            wall = time.perf_counter() - start
            n = sums["rounds"]
            assert n == args.rounds
            why = ", ".join(
                f"{k.split(':', 1)[1]} {v / n:.2%}" for k, v in sorted(sums.items()) if k.startswith("redeal:")
            )
            print(
                f"{ruleset_id:<12} {wall:>7.2f} {n / wall:>9.0f} {sums['sim_cpu']:>10.2f} {sums['check_cpu']:>12.2f} "
                f"{sums['leftover'] / max(sums['losing_hands'], 1):>14.1f} {sums['redeals'] / n:>8.2%} "
                f"{sums['turns'] / n:>6.1f}  {why or '—'}"
            )


if __name__ == "__main__":
    main()
