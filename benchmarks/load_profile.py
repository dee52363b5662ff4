"""`load.py --profile TABLES`: where the time goes, the same request mix in-process under cProfile."""

from __future__ import annotations

import json
import random
import sys
import tempfile
import time
from pathlib import Path

from load import ROOT, prepare
from load_phones import POLL_EVERY, SAVE_EVERY, round_body


def profile(tables: int) -> int:
    import cProfile
    import pstats

    sys.path.insert(0, str(ROOT))
    instance = tempfile.mkdtemp(prefix="companion-profile-")
    prepare(instance, tables)
    from companion import create_app

    app = create_app({"DATABASE": str(Path(instance) / "companion.sqlite3"), "SECRET_KEY": "load", "TESTING": True})
    client = app.test_client()
    found = json.loads((Path(instance) / "tables.json").read_text())
    etags: dict[tuple[str, int], str] = {}
    for t in found:  # every phone holds the current fragment
        etag = client.get(f"/series/{t['id']}", headers={"HX-Request": "true"}).headers["ETag"]
        for phone in range(3):
            etags[t["id"], phone] = etag
    rng = random.Random(1)
    # One 4-second period at `tables` tables: 3 polls per table, a save at 4/30 of the tables, and one
    # fresh fragment per watcher of a changed table.
    changed = rng.sample(found, max(1, int(tables * POLL_EVERY / SAVE_EVERY)))

    def period() -> None:
        for t in changed:
            client.post(
                f"/api/v1/series/{t['id']}/rounds",
                json=round_body(rng.randrange(3)),
                headers={"Authorization": f"Bearer {t['token']}"},
            )
        for t in found:
            for phone in range(3):
                answer = client.get(
                    f"/series/{t['id']}",
                    headers={"HX-Request": "true", "Accept-Encoding": "gzip", "If-None-Match": etags[t["id"], phone]},
                )
                if answer.status_code == 200:
                    etags[t["id"], phone] = answer.headers["ETag"]

    period()  # warm
    polls = [t["id"] for t in found]
    t0 = time.perf_counter()
    for series_id in polls:  # idle polls alone, without the profiler
        client.get(f"/series/{series_id}", headers={"HX-Request": "true", "If-None-Match": etags[series_id, 0]})
    idle = (time.perf_counter() - t0) / len(polls) * 1000
    t0 = time.perf_counter()
    period()
    plain = time.perf_counter() - t0
    print(f"without the profiler: an idle 304 poll {idle:.2f} ms in-process; one 4 s period of {tables} tables "
          f"{plain:.2f} s of one core")
    profiler = cProfile.Profile()
    t0 = time.perf_counter()
    profiler.enable()
    period()
    profiler.disable()
    took = time.perf_counter() - t0
    requests = 3 * tables + len(changed)
    print(
        f"{tables} tables, one 4 s period in-process: {requests} requests in {took:.2f} s "
        f"({took / requests * 1000:.2f} ms per request, {requests / took:.0f} requests/s on one core)"
    )
    stats = pstats.Stats(profiler)
    stats.sort_stats("cumulative").print_stats(25)
    stats.sort_stats("tottime").print_stats(15)
    return 0
