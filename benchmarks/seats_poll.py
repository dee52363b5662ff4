"""What a seat's poll costs inside the app, beside the standings poll it is compared with (issues 22 and 24).

In-process (the WSGI app called with a prepared environ: no HTTP server, no test client), side by side
in one run, interleaved: an idle conditional GET of the draft (`GET /api/v1/series/<id>/draft` with
If-None-Match → 304), the same while a round is being entered (three hands in the draft), and the
standings fragment poll every view page makes (`GET /series/<id>` with HX-Request and If-None-Match
→ 304), each answered by the idle-poll layer (`web.http.fast_poll`, "fast") and by Flask alone
(FAST_POLL = False, "flask"). Prints the median and p95 per kind and mode over --rounds rounds of
--polls polls each, the ratio to the standings poll through Flask, and Flask ÷ fast per kind.

    .venv/bin/python benchmarks/seats_poll.py
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--polls", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    from werkzeug.test import EnvironBuilder

    from companion import create_app

    folder = tempfile.mkdtemp(prefix="companion-seats-poll-")
    app = create_app({"DATABASE": str(Path(folder) / "db.sqlite3"), "SECRET_KEY": "bench", "TESTING": True,
                      "RATELIMIT_ENABLED": False, "REQUEST_LOG": False})
    client = app.test_client()
    players = ["Аня", "Борис", "Вера", "Глеб"]
    made = client.post("/api/v1/series", json={"players": players, "starter": "Аня"}).get_json()
    sid, auth = made["id"], {"Authorization": f"Bearer {made['edit_token']}"}
    for k in range(12):
        winner = players[k % 4]
        client.post(f"/api/v1/series/{sid}/rounds", headers=auth, json={
            "winner": winner, "finishing_card": "9h", "typed_points": {p: 1 for p in players if p != winner}})
    idle = {"If-None-Match": client.get(f"/api/v1/series/{sid}/draft").headers["ETag"]}
    fragment = {"HX-Request": "true", "Accept-Encoding": "gzip"}
    fragment["If-None-Match"] = client.get(f"/series/{sid}", headers=fragment).headers["ETag"]
    other = client.post("/api/v1/series", json={"players": players, "starter": "Аня"}).get_json()
    oid = other["id"]
    for player, card in zip(players[1:], ("js", "jh", "jc"), strict=True):
        client.put(f"/api/v1/series/{oid}/draft/{player}", json={"cards": [card]},
                   headers={"Authorization": f"Bearer {other['edit_token']}"})
    busy = {"If-None-Match": client.get(f"/api/v1/series/{oid}/draft").headers["ETag"]}
    kinds = {
        "standings fragment 304 (a view page's poll)": (f"/series/{sid}", fragment),
        "draft 304, no hand sent (seat idle)": (f"/api/v1/series/{sid}/draft", idle),
        "draft 304, three hands sent (round entered)": (f"/api/v1/series/{oid}/draft", busy),
    }
    environs = {kind: EnvironBuilder(path=path, headers=headers).get_environ() for kind, (path, headers) in
                kinds.items()}
    modes = {"fast": True, "flask": False}
    times: dict[tuple[str, str], list[float]] = {(k, m): [] for k in kinds for m in modes}
    statuses: list[str] = []

    def start_response(status: str, _headers: Any, _exc: Any = None) -> None:
        statuses.append(status)

    for _ in range(args.rounds):
        for kind, environ in environs.items():
            for mode, fast in modes.items():
                app.config["FAST_POLL"] = fast
                for _ in range(args.polls):
                    t0 = time.perf_counter()
                    body = app(dict(environ), start_response)
                    b"".join(body)
                    getattr(body, "close", lambda: None)()
                    times[kind, mode].append((time.perf_counter() - t0) * 1000)
                    assert statuses.pop().startswith("304"), (kind, mode)
    base = statistics.median(times["standings fragment 304 (a view page's poll)", "flask"])
    print(f"{args.rounds} × {args.polls} polls per kind and mode, interleaved, in-process "
          f"(load average {os.getloadavg()[0]:.1f}):")
    for kind in kinds:
        medians = {}
        for mode in modes:
            values = sorted(times[kind, mode])
            medians[mode] = statistics.median(values)
            print(f"  {kind:<46} {mode:<5} median {medians[mode]:.3f} ms  p95 {values[int(len(values) * 0.95)]:.3f} ms"
                  f"  ×{medians[mode] / base:.2f} of the Flask standings poll")
        print(f"  {'':<46} flask ÷ fast ×{medians['flask'] / medians['fast']:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
