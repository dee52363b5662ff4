"""Play 10,000 seeded rounds per rule set, and per non-default option combination, and print figures.

Usage: python benchmarks/simulate_bench.py [rounds] [--jobs N] [--only RUN]

Each run is a rule set with the options a table could choose when it starts a
series (RULES.md §7): first every preset as it is, then at least one run per
preset with non-default play options. Players cycle 2, 3, 4 (pharaoh: always
2; with a 52-card deck up to 6); the starter cycles too. After every round it
checks the invariants:

- every card of the deck is on the table exactly once (after the deal);
- every card a bot played is confirmed legal by the play checker asked again
  with the same rule set, options and position (`check_play`), with the same
  verdict (who draws, who plays next, what is pending);
- the round is a valid round for the series API: it replays for a fresh series
  of the same rule set, options and players (so its last card is one the
  round may end on, and the hands fit the deck).

The seeds are split over `--jobs` worker processes (default 2, the machine's
cores); every figure but the times is the same for any number of jobs.
"time" is the wall-clock time of the whole run (simulation and checks); "sim
cpu" the CPU time the simulation itself took, summed over the workers, and
"check cpu" that of the checks.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from companion.core.cards import deck
from companion.core.referee import check_play
from companion.core.rules import RULESETS, RuleSet
from companion.core.series import RoundInput, SeriesSetup, replay
from companion.core.simulator import Play, Table, simulate_round

# (name, rule set, options): the presets as they are, then non-default play options for each.
RUNS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    *((rid, rid, {}) for rid in RULESETS),
    ("igrafan+draws", "igrafan", {"spade_king_draw": 4, "seven_draw": 4, "no_match": "draw-play",
                                  "shuffle_pile": True}),
    ("igrafan+table", "igrafan", {"several_at_once": True, "finish_on_queen": False, "ace_answer": True,
                                  "penalty_transfer": True, "ten_reverses": True}),
    ("igrafan+52", "igrafan", {"deck": 52, "hand_size": 6, "six": "next-draws-2", "eight": "must-cover"}),
    ("classic+opts", "classic", {"spade_king_draw": 5, "no_match": "draw-until", "six": "self-cover",
                                 "six_cover": "any-card"}),
    ("elimination+opts", "elimination", {"seven_draw": "spade-4", "ace_answer": True, "shuffle_pile": True,
                                         "hand_size": 5, "six": "next-draws-1"}),
    ("elvista+opts", "elvista", {"eight": "must-cover", "spade_king_draw": 5, "spade_king_points": 40,
                                 "several_at_once": True}),
    ("pharaoh+opts", "pharaoh", {"hand_size": 5, "no_match": "draw-pass", "finish_on_queen": False,
                                 "six_cover": "any-fit"}),
)


def configured(ruleset_id: str, options: dict[str, Any]) -> RuleSet:
    return RULESETS[ruleset_id].with_options(options)


def players_for(ruleset: RuleSet, seed: int) -> int:
    most = min(6 if ruleset.defaults.deck == 52 else 4, ruleset.most_players)
    return 2 + seed % (most - 1)


def confirm(ruleset: RuleSet, players: int, play: Play) -> None:
    """The play checker, asked again with the same rules and position, allows the play and says the same."""
    again = check_play(ruleset, players, play.top, play.card, play.ordered_suit, covering=play.covering,
                       pending_draw=play.pending_draw, clockwise=play.clockwise,
                       penalty_pending=play.penalty_pending, also=play.also)
    mine, theirs = play.verdict, again
    assert again.legal, f"{ruleset.id}: the checker refuses a simulated play: {again.message}"
    assert (mine.next_draws, mine.next_turn, mine.penalty_pending, mine.must_cover, mine.clockwise) == (
        theirs.next_draws, theirs.next_turn, theirs.penalty_pending, theirs.must_cover, theirs.clockwise)


def play_seeds(run: int, seeds: range) -> Counter[str]:
    """Play and check the rounds of these seeds; sums of the figures."""
    _, ruleset_id, options = RUNS[run]
    ruleset = configured(ruleset_id, options)
    full = Counter(deck(ruleset.defaults.deck))
    setups: dict[int, SeriesSetup] = {}
    sums: Counter[str] = Counter()
    for seed in seeds:
        players = players_for(ruleset, seed)
        tables: list[Table] = []
        start = time.process_time()
        outcome = simulate_round(ruleset, players, seed, seed % players,
                                 observe=lambda t, tables=tables: tables.append(t) if not tables else None)
        middle = time.process_time()
        assert Counter(tables[0].cards()) == full, f"{ruleset_id}: cards lost or doubled, seed {seed}"
        plays = outcome.plays
        for play in plays:
            confirm(ruleset, players, play)
        if players not in setups:
            setups[players] = SeriesSetup.create([f"P{i + 1}" for i in range(players)], ruleset_id, options or None)
        setup = setups[players]
        replay(setup, [RoundInput.from_json(outcome.to_round_json(), setup)])
        sums["sim_cpu"] += middle - start
        sums["check_cpu"] += time.process_time() - middle
        sums["rounds"] += 1
        sums["plays"] += len(plays)
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
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("rounds", nargs="?", type=int, default=10_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", help="run only the runs whose name starts with this")
    args = parser.parse_args()
    print(f"{args.rounds} rounds per run, players 2–4 cycling (pharaoh 2, 52 cards up to 6), {args.jobs} worker "
          f"processes, Python {sys.version.split()[0]}; every play confirmed by the checker")
    print(f"{'run':<17} {'time s':>7} {'rounds/s':>9} {'sim cpu s':>10} {'check cpu s':>12} {'plays':>8} "
          f"{'leftover/hand':>14} {'redeals':>8} {'turns':>6}  redeal reasons")
    with ProcessPoolExecutor(args.jobs) as pool:
        for run, (name, _, _options) in enumerate(RUNS):
            if args.only and not name.startswith(args.only):
                continue
            start = time.perf_counter()
            chunks = [range(k, args.rounds, args.jobs) for k in range(args.jobs)]
            sums: Counter[str] = sum(pool.map(play_seeds, [run] * args.jobs, chunks), Counter())
            wall = time.perf_counter() - start
            n = sums["rounds"]
            assert n == args.rounds
            why = ", ".join(
                f"{k.split(':', 1)[1]} {v / n:.2%}" for k, v in sorted(sums.items()) if k.startswith("redeal:")
            )
            print(f"{name:<17} {wall:>7.2f} {n / wall:>9.0f} {sums['sim_cpu']:>10.2f} {sums['check_cpu']:>12.2f} "
                  f"{sums['plays']:>8} {sums['leftover'] / max(sums['losing_hands'], 1):>14.1f} "
                  f"{sums['redeals'] / n:>8.2%} {sums['turns'] / n:>6.1f}  {why or '—'}")
        print("options of the non-default runs:")
        for name, _ruleset_id, options in RUNS:
            if options:
                print(f"  {name}: {', '.join(f'{k}={v}' for k, v in options.items())}")
    print("no invariant broken")


if __name__ == "__main__":
    main()
