"""Series figures for docs/benchmarks.md.

1. Replay time of a series of 10, 100 and 1,000 rounds (goal: linear; 1,000 under 50 ms).
2. The series JSON on the same app as a bare route (`GET /bench/bare`, registered by this
   script: no query, an empty JSON object, the app's own before/after-request hooks), side
   by side in one run at 0, 10, 100 and 300 rounds: `GET /api/v1/series/<id>` and
   `POST /api/v1/series/<id>/rounds`. Per round: how much a request grows with each round
   of the series (goal ≤ 6 µs); the POST at 300 rounds as a ratio to the bare route
   (goal ≤ 12×). Three runs; the min and median of the runs' medians.

Run: python benchmarks/series_bench.py [--runs 3] [--samples 150] [--dir /dev/shm]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion import create_app  # noqa: E402
from companion.core.series import RoundInput, SeriesSetup, replay  # noqa: E402

PLAYERS = ["Аня", "Борис", "Вера", "Гоша"]
HANDS = [["10♣", "J♦"], ["K♠", "7♥"], ["6♣"]]  # 12 + 11 + 6 = 29 points a round
SIZES = (0, 10, 100, 300)


def round_body(i: int) -> dict[str, object]:
    """Winners rotate and go out on Q♥ (−40), so totals drift slowly and the series never ends."""
    winner = PLAYERS[i % 4]
    others = [p for p in PLAYERS if p != winner]
    return {"winner": winner, "finishing_card": "Q♥", "hands": dict(zip(others, HANDS, strict=True))}


def best_of(fn: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def replay_figures() -> None:
    setup = SeriesSetup.create(PLAYERS, "igrafan", None, "Аня")
    print("Replay, best of 9 (replay = rules applied to entered rounds; load = reading stored JSON + replay):")
    per_round = []
    for n in (10, 100, 1000):
        stored = [round_body(i) for i in range(n)]
        entries = [RoundInput.from_json(r, setup) for r in stored]
        replay_s = best_of(lambda entries=entries: replay(setup, entries), 9)
        load_s = best_of(lambda stored=stored: replay(setup, [RoundInput.from_json(r, setup) for r in stored]), 9)
        per_round.append(replay_s / n)
        print(f"  {n:>5} rounds: replay {replay_s * 1000:7.2f} ms ({replay_s / n * 1e6:5.1f} µs/round), "
              f"load {load_s * 1000:7.2f} ms")
    print(f"  per-round replay cost, 1000 rounds vs 10: {per_round[2] / per_round[0]:.2f}× (1.0 = linear)")


def timed(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def one_run(samples: int, where: str | None) -> dict[int, dict[str, float]]:
    """Per series length: median ms of the bare route, the series GET and a round's POST (interleaved)."""
    found: dict[int, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(dir=where) as folder:
        app = create_app({"DATABASE": f"{folder}/bench.sqlite3", "SECRET_KEY": "bench", "RATELIMIT_ENABLED": False})
        app.add_url_rule("/bench/bare", "bench_bare", lambda: {})
        client = app.test_client()
        created = client.post("/api/v1/series", json={"players": PLAYERS, "starter": "Аня"}).get_json()
        auth = {"Authorization": f"Bearer {created['edit_token']}"}
        series_url = f"/api/v1/series/{created['id']}"
        url = f"{series_url}/rounds"
        entered = 0
        for size in SIZES:
            while entered < size:
                assert client.post(url, json=round_body(entered), headers=auth).status_code == 201
                entered += 1
            bare, get, post = [], [], []

            def post_round(size: int = size) -> None:
                assert client.post(url, json=round_body(size), headers=auth).status_code == 201

            for _ in range(samples):  # interleaved, so all three see the same machine noise
                bare.append(timed(lambda: client.get("/bench/bare")))
                get.append(timed(lambda: client.get(series_url)))
                post.append(timed(post_round))
                # undo it (not timed), so every sample posts onto a series of the same length
                assert client.delete(f"{url}/{size + 1}", headers=auth).status_code == 200
            found[size] = {k: statistics.median(v) * 1000 for k, v in (("bare", bare), ("get", get), ("post", post))}
    return found


def request_figures(runs: int, samples: int, where: str | None) -> None:
    results = [one_run(samples, where) for _ in range(runs)]

    def spread(values: list[float], unit: str = "", digits: int = 2) -> str:
        return f"{min(values):.{digits}f} / {statistics.median(values):.{digits}f}{unit}"

    print(f"Series JSON vs a bare route of the same app (Flask test client; medians of {samples} interleaved "
          f"requests per run; min / median of {runs} runs):")
    print("| rounds | bare ms | GET series ms | POST round ms | GET ÷ bare | POST ÷ bare |")
    print("|---:|---:|---:|---:|---:|---:|")
    for size in SIZES:
        rows = [r[size] for r in results]
        print(f"| {size} | {spread([r['bare'] for r in rows])} | {spread([r['get'] for r in rows])} "
              f"| {spread([r['post'] for r in rows])} | {spread([r['get'] / r['bare'] for r in rows], '×', 1)} "
              f"| {spread([r['post'] / r['bare'] for r in rows], '×', 1)} |")
    last = SIZES[-1]
    for kind in ("get", "post"):
        slopes = [(r[last][kind] - r[0][kind]) / last * 1000 for r in results]
        print(f"  {kind.upper()} grows {spread(slopes, ' µs', 1)} per round (0 → {last} rounds; goal ≤ 6 µs)")
    ratios = [r[last]["post"] / r[last]["bare"] for r in results]
    print(f"  POST at {last} rounds: {spread(ratios, '×', 1)} the bare route (goal ≤ 12×)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--samples", type=int, default=150)
    parser.add_argument("--no-replay", action="store_true", help="only the request figures")
    parser.add_argument("--dir", help="where the database goes (default: the system's temp folder); /dev/shm "
                        "keeps a shared disk's queue out of the figures")
    args = parser.parse_args()
    if not args.no_replay:
        replay_figures()
    print(f"Database in {args.dir or tempfile.gettempdir()}.")
    request_figures(args.runs, args.samples, args.dir)


if __name__ == "__main__":
    main()
