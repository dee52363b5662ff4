"""Series figures for docs/benchmarks.md.

1. Replay time of a series of 10, 100 and 1,000 rounds (goal: linear; 1,000 under 50 ms).
2. POST /api/v1/series/<id>/rounds time as a ratio to a trivial endpoint of the
   same app (GET /api/v1/health), measured side by side in one run (goal ≤ 3×).

Run: python benchmarks/series_bench.py
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion import create_app  # noqa: E402
from companion.core.series import RoundInput, SeriesSetup, replay  # noqa: E402

PLAYERS = ["Аня", "Борис", "Вера", "Гоша"]
HANDS = [["10♣", "J♦"], ["K♠", "7♥"], ["6♣"]]  # 12 + 11 + 6 = 29 points a round


def round_body(i: int) -> dict[str, object]:
    """Winners rotate and go out on Q♥ (−40), so totals drift slowly and the series never ends."""
    winner = PLAYERS[i % 4]
    others = [p for p in PLAYERS if p != winner]
    return {"winner": winner, "finishing_card": "Q♥", "hands": dict(zip(others, HANDS, strict=True))}


def best_of(fn, repeat: int) -> float:
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


def request_figures(rounds_before: int, samples: int = 200) -> None:
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATABASE": f"{folder}/bench.sqlite3", "SECRET_KEY": "bench"})
        client = app.test_client()
        created = client.post("/api/v1/series", json={"players": PLAYERS, "starter": "Аня"}).get_json()
        auth = {"Authorization": f"Bearer {created['edit_token']}"}
        url = f"/api/v1/series/{created['id']}/rounds"
        for i in range(rounds_before):
            assert client.post(url, json=round_body(i), headers=auth).status_code == 201
        post_times, trivial_times = [], []
        for _ in range(samples):  # interleaved, so both see the same machine noise
            start = time.perf_counter()
            response = client.post(url, json=round_body(rounds_before), headers=auth)
            post_times.append(time.perf_counter() - start)
            assert response.status_code == 201
            start = time.perf_counter()
            assert client.get("/api/v1/health").status_code == 200
            trivial_times.append(time.perf_counter() - start)
            # undo it (not timed), so every sample posts onto a series of the same length
            assert client.delete(f"{url}/{rounds_before + 1}", headers=auth).status_code == 200
        post, trivial = statistics.median(post_times), statistics.median(trivial_times)
        print(f"  round {rounds_before + 1:>3} of a series: POST {post * 1000:5.2f} ms, "
              f"GET /api/v1/health {trivial * 1000:5.2f} ms, ratio {post / trivial:4.1f}×")


if __name__ == "__main__":
    replay_figures()
    print("POST a round vs a trivial endpoint (medians of 200 interleaved requests, Flask test client):")
    for rounds_before in (0, 10, 30, 100):
        request_figures(rounds_before)
