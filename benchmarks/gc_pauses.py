"""The garbage collector's pauses under `app_cost.py`'s request mix, in-process: as `companion serve` leaves
the collector (`servers.settle_memory`: start-up frozen, thresholds raised) and with the young objects swept
every 50 ms as each serving process now does (`servers.sweep`), side by side, each run in a fresh process.

The sweep is driven by the request clock here (every 50 ms of CPU time, between two requests), where a
server's thread does it every 50 ms of wall time. Prints, per configuration and run: the app's CPU per
request, and the collections' count, their whole CPU time and the longest and 99th-percentile pause.

    .venv/bin/python benchmarks/gc_pauses.py --tables 2500 --runs 3
"""

from __future__ import annotations

import argparse
import gc
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SWEEP_EVERY = 0.05


def one(tables: int, swept: bool) -> dict[str, Any]:
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import app_cost

    from companion.ops import servers

    pauses: list[float] = []
    started = [0.0]

    def timed(phase: str, _info: dict[str, Any]) -> None:
        if phase == "start":
            started[0] = time.thread_time()
        else:
            pauses.append((time.thread_time() - started[0]) * 1000)

    call, last = app_cost.call, [0.0]

    def call_and_sweep(app: Any, environ: dict[str, Any]) -> Any:
        answer = call(app, environ)
        if swept and time.process_time() - last[0] > SWEEP_EVERY:
            last[0] = time.process_time()
            servers.sweep()
        return answer

    app_cost.call = call_and_sweep
    run = app_cost.run

    def settled_run(tables: int, periods: int, seed: int) -> Any:
        servers.settle_memory(forks=True)  # as served; the sweep is driven here, between requests (nothing forks)
        gc.callbacks.append(timed)
        return run(tables, periods, seed)

    ms, counts, _ = settled_run(tables, 3, 1)
    gc.callbacks.remove(timed)
    pauses.sort()
    return {"ms_per_request": ms, "requests": sum(counts.values()), "collections": len(pauses),
            "gc_ms": sum(pauses), "max_ms": pauses[-1] if pauses else 0.0,
            "p99_ms": pauses[int(len(pauses) * 0.99)] if pauses else 0.0}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=2500)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--one", choices=["settled", "swept"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one(args.tables, args.one == "swept")))
        return 0
    print(f"{args.tables} tables, app_cost.py's mix; pauses are CPU ms of the collecting thread")
    print(f"{'run':>3} {'collector':<8} {'app ms/req':>10} {'collections':>11} {'GC ms':>7} {'p99 ms':>7} "
          f"{'max ms':>7}")
    for run in range(1, args.runs + 1):
        for kind in ("settled", "swept"):
            done = subprocess.run([sys.executable, __file__, "--tables", str(args.tables), "--one", kind],
                                  capture_output=True, text=True, check=True)
            r = json.loads(done.stdout.strip().splitlines()[-1])
            print(f"{run:>3} {kind:<8} {r['ms_per_request']:>10.3f} {r['collections']:>11} {r['gc_ms']:>7.0f} "
                  f"{r['p99_ms']:>7.1f} {r['max_ms']:>7.1f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
