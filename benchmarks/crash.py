"""Crash safety, longer than the test: SIGKILL a real `companion serve` under parallel editors, many times.

Each cycle starts the server on 127.0.0.1 (fresh database in a temporary
folder, rate limits off), lets 2–10 editors post rounds to their own series
and to one shared series for a random 0.2–1.5 s, kills the server with
SIGKILL, and checks the file: `PRAGMA integrity_check` is ok and every round
a 201 acknowledged is stored. Prints per-cycle and total counts; exits 1 on
the first lost round or damaged file. Bounded by --kills and --max-seconds.

    .venv/bin/python benchmarks/crash.py --kills 50
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def call(port: int, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = conn.getresponse()
        raw = response.read()
        return response.status, json.loads(raw) if raw else None
    finally:
        conn.close()


def start(instance: str, port: int) -> subprocess.Popen[bytes]:
    server = subprocess.Popen(
        [sys.executable, "-m", "companion.ops.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--threads", "8"],
        cwd=ROOT, env={**os.environ, "COMPANION_INSTANCE": instance},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if call(port, "GET", "/api/v1/health")[0] == 200:
                return server
        except OSError:
            time.sleep(0.05)
    server.kill()
    raise SystemExit("the server did not start")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--max-seconds", type=float, default=600)
    args = parser.parse_args()
    instance = tempfile.mkdtemp(prefix="companion-crash-")
    (Path(instance) / "config.py").write_text("RATELIMIT_ENABLED = False\n")
    port = free_port()
    rng = random.Random(101)
    started = time.monotonic()
    server = start(instance, port)
    series = []
    for _ in range(11):  # one shared by everyone, ten of their own
        status, body = call(port, "POST", "/api/v1/series", {"players": ["Аня", "Борис", "Вера"], "starter": "Аня"})
        assert status == 201
        series.append((body["id"], body["edit_token"]))
    acknowledged: dict[str, set[int]] = {sid: set() for sid, _ in series}
    lock = threading.Lock()
    total_acks = 0
    try:
        for cycle in range(args.kills):
            if time.monotonic() - started > args.max_seconds:
                print(f"stopping: --max-seconds {args.max_seconds} reached")
                break
            if cycle:
                server = start(instance, port)
            editors = rng.randint(2, 10)
            stop = threading.Event()
            acks = [0]

            def edit(k: int, stop: threading.Event = stop, acks: list[int] = acks) -> None:
                while not stop.is_set():
                    sid, token = series[0] if rng.random() < 0.5 else series[1 + k % 10]
                    try:
                        status, body = call(port, "POST", f"/api/v1/series/{sid}/rounds", {"redeal": True}, token)
                    except (OSError, http.client.HTTPException):
                        return
                    if status == 201:
                        with lock:
                            acknowledged[sid].add(len(body["rounds"]))
                            acks[0] += 1

            threads = [threading.Thread(target=edit, args=(k,)) for k in range(editors)]
            for thread in threads:
                thread.start()
            time.sleep(rng.uniform(0.2, 1.5))
            server.send_signal(signal.SIGKILL)
            server.wait(10)
            stop.set()
            for thread in threads:
                thread.join(10)
            conn = sqlite3.connect(Path(instance) / "companion.sqlite3")
            try:
                verdict = conn.execute("PRAGMA integrity_check").fetchone()[0]
                lost = 0
                for sid, numbers in acknowledged.items():
                    stored = {n for (n,) in conn.execute("select n from rounds where series_id = ?", [sid])}
                    lost += len(numbers - stored)
            finally:
                conn.close()
            total_acks += acks[0]
            print(f"kill {cycle + 1:>3}: {editors:>2} editors, {acks[0]:>4} rounds acknowledged, lost {lost}, "
                  f"integrity {verdict}", flush=True)
            if lost or verdict != "ok":
                print("FAIL")
                return 1
    finally:
        if server.poll() is None:
            server.kill()
        shutil.rmtree(instance, ignore_errors=True)
    print(f"{cycle + 1} SIGKILLs, {total_acks} acknowledged rounds, none lost, integrity ok every time; "
          f"took {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
