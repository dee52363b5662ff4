"""The app's CPU per request under `load.py`'s model, in-process, without the HTTP server: steady on a busy machine.

`load.py` measures the server's CPU per request, which also holds granian's work and, on a crowded machine,
the cost of threads waiting for each other. This replays the same model through the app's WSGI stack (what
granian calls: ProxyFix, the idle-poll layer, Flask) in one thread, with the phones spread over two
apps built on one database — as the two processes of `companion serve` — and counts CPU time only:
per table, three phones polling the standings fragment every 4 s (If-None-Match, gzip, the recent-series
cookie a phone has after opening the page, each on its own phase) and one round saved every 30 s, after
which each phone fetches the changed fragment. The events of `--periods` periods of 30 s are run in time
order; the first period warms up. Prints the CPU per request, and the count and CPU of each kind: an idle
poll's 304, a changed fragment rendered, one served from another process's render (`shared_answers`),
a save.

    .venv/bin/python benchmarks/app_cost.py --tables 300 --periods 3 --runs 3
"""

from __future__ import annotations

import argparse
import io
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

PERIOD, POLL_EVERY, PHONES, PROCESSES = 30.0, 4.0, 3, 2


def environ(method: str, path: str, headers: dict[str, str], body: bytes = b"") -> dict[str, Any]:
    env: dict[str, Any] = {
        "REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": "", "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8000", "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "127.0.0.1", "REMOTE_PORT": "50000",
        "HTTP_HOST": "127.0.0.1:8000", "SCRIPT_NAME": "", "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr, "wsgi.multithread": True, "wsgi.multiprocess": False, "wsgi.run_once": False,
        "wsgi.version": (1, 0), "wsgi.input_terminated": True,
    }
    if body:
        env["CONTENT_LENGTH"], env["CONTENT_TYPE"] = str(len(body)), headers.pop("Content-Type")
    for key, value in headers.items():
        env["HTTP_" + key.upper().replace("-", "_")] = value
    return env


def call(app: Any, env: dict[str, Any]) -> tuple[str, dict[str, str]]:
    seen: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
        seen["status"], seen["headers"] = status, dict(headers)

    answer = app(env, start_response)
    b"".join(answer)
    if hasattr(answer, "close"):
        answer.close()
    return seen["status"], seen["headers"]


def run(tables: int, periods: int, seed: int) -> tuple[float, Counter[str], Counter[str]]:
    import load

    from companion import create_app

    prepared = Path(tempfile.gettempdir()) / f"companion-appcost-{tables}"
    if not (prepared / "tables.json").exists():  # in a child process: the database is whole when it exits
        prepared.mkdir(exist_ok=True)
        subprocess.run([sys.executable, load.__file__, "--prepare", str(prepared), str(tables)], check=True)
    folder = Path(tempfile.mkdtemp(prefix="companion-appcost-"))
    try:
        for name in ("companion.sqlite3", "tables.json"):
            shutil.copy(prepared / name, folder / name)
        config = {"DATABASE": str(folder / "companion.sqlite3"), "SECRET_KEY": "load", "RATELIMIT_ENABLED": False,
                  "REQUEST_LOG": False}
        apps = [create_app(dict(config)).wsgi_app for _ in range(PROCESSES)]
        found = json.loads((folder / "tables.json").read_text())
        rng = random.Random(seed)
        phones = []  # (table, its app, phase, the ETag it holds)
        for table in found:
            for _ in range(PHONES):
                phones.append({"table": table, "app": rng.choice(apps), "phase": rng.uniform(0, POLL_EVERY),
                               "etag": None})
        saves = {t["id"]: rng.uniform(0, PERIOD) for t in found}
        counts: Counter[str] = Counter()
        spent_on: Counter[str] = Counter()  # CPU seconds by kind of request
        k = 100

        def poll(phone: dict[str, Any]) -> None:
            sid = phone["table"]["id"]
            headers = {"HX-Request": "true", "HX-Target": "live", "Accept-Encoding": "gzip",
                       "Cookie": f"recent={sid}"}
            if phone["etag"]:
                headers["If-None-Match"] = phone["etag"]
            app = phone["app"]
            replayed, t0 = getattr(app, "replayed", 0), time.process_time()
            status, answered = call(app, environ("GET", f"/series/{sid}", headers))
            kind = "poll 304" if status[:3] == "304" else "fetch, kept" if getattr(app, "replayed", 0) > replayed \
                else "fetch, rendered"
            spent_on[kind] += time.process_time() - t0
            phone["etag"] = answered.get("ETag", phone["etag"])
            counts[kind] += 1

        def save(table: dict[str, Any], into: Any) -> None:
            nonlocal k
            k += 1
            body = json.dumps(load.round_body(k)).encode()
            t0 = time.process_time()
            status, _ = call(into, environ("POST", f"/api/v1/series/{table['id']}/rounds", {
                "Authorization": f"Bearer {table['token']}", "Content-Type": "application/json"}, body))
            spent_on["save"] += time.process_time() - t0
            assert status.startswith("201"), status
            counts["save"] += 1

        for phone in phones:  # every phone opened the page: it holds the current fragment
            poll(phone)
        spent = 0.0
        for period in range(periods):
            events: list[tuple[float, int, Any]] = []
            for i, phone in enumerate(phones):
                at = phone["phase"]
                while at < PERIOD:
                    events.append((at, i, phone))
                    at += POLL_EVERY
            for j, table in enumerate(found):
                events.append((saves[table["id"]], -1 - j, table))
            events.sort(key=lambda e: (e[0], e[1]))
            if period == 1:
                counts.clear()
                spent_on.clear()
                started = time.process_time()
            for _at, i, what in events:
                if i < 0:
                    save(what, apps[0])
                else:
                    poll(what)
            if period >= 1:
                spent = time.process_time() - started
        return spent / max(1, sum(counts.values())) * 1000, counts, spent_on
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--periods", type=int, default=3, help="periods of 30 s; the first warms up")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    results = []
    for r in range(args.runs):
        per_request, counts, spent_on = run(args.tables, args.periods, seed=r)
        results.append(per_request)
        print(f"run {r + 1}: app CPU {per_request:.3f} ms a request; " + ", ".join(
            f"{kind} {n} × {spent_on[kind] / n * 1000:.3f} ms" for kind, n in sorted(counts.items())), flush=True)
    results.sort()
    print(f"min / median: {results[0]:.3f} / {results[len(results) // 2]:.3f} ms a request ({ROOT})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
