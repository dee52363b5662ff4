"""What an idle poll costs the server, served over HTTP: the idle-poll layer against Flask alone (issue 24).

One waitress process (8 threads, as one process of `companion serve`; `--server granian`: one granian
worker with 8 blocking threads) serves the app on 127.0.0.1
from a fresh database of --tables series; client threads, each with its own keep-alive connection,
send idle polls that all end in 304 — the standings fragment (HX-Request, If-None-Match) and the
draft (If-None-Match), half each — as fast as they are answered. Per run, the two modes are served
one after the other by fresh processes over the same database: the layer on (`fast`) and
FAST_POLL = False (`flask`). Prints per mode and run the server's CPU per request (user + system
time of the server process ÷ requests: the robust figure on a shared machine), requests per second
and the load average, then min and median over the runs and the ratio flask ÷ fast. With --idle N,
N more connections stay open and silent meanwhile (a phone between two polls keeps its connection):
what the server's loop pays per open connection shows in the CPU per request.

    .venv/bin/python benchmarks/poll_bench.py --runs 3
"""

from __future__ import annotations

import argparse
import http.client
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ["Аня", "Борис", "Вера"]
APP = """
import os
from companion import create_app
app = create_app()
app.config["FAST_POLL"] = os.environ["POLL_MODE"] == "fast"
"""
WAITRESS = """
import logging, sys, waitress
from poll_app import app
logging.getLogger("waitress.queue").setLevel(logging.ERROR)  # "Task queue depth": expected here
waitress.serve(app, host="127.0.0.1", port=int(sys.argv[1]), threads=8, connection_limit=10_000, backlog=4096,
               asyncore_use_poll=True)  # as companion serve: select() stops at 1,024 sockets
"""


def prepare(instance: str, tables: int) -> list[tuple[str, dict[str, str]]]:
    """The polls: (path, headers) of each table's fragment poll and draft poll, with the ETags they hold."""
    sys.path.insert(0, str(ROOT))
    from companion import create_app

    app = create_app({"DATABASE": str(Path(instance) / "companion.sqlite3"), "SECRET_KEY": "poll",
                      "TESTING": True})
    (Path(instance) / "config.py").write_text("RATELIMIT_ENABLED = False\nREQUEST_LOG = False\nSECRET_KEY = 'poll'\n")
    client = app.test_client()
    polls = []
    for _ in range(tables):
        made = client.post("/api/v1/series", json={"players": PLAYERS, "starter": "Аня"}).get_json()
        auth = {"Authorization": f"Bearer {made['edit_token']}"}
        for k in range(12):
            winner = PLAYERS[k % 3]
            others = [p for p in PLAYERS if p != winner]
            client.post(f"/api/v1/series/{made['id']}/rounds", headers=auth, json={
                "winner": winner, "finishing_card": "9h", "typed_points": {others[0]: 1, others[1]: 2}})
        fragment = {"HX-Request": "true", "HX-Target": "live", "Accept-Encoding": "gzip"}
        path = f"/series/{made['id']}"
        polls.append((path, {**fragment, "If-None-Match": client.get(path, headers=fragment).headers["ETag"]}))
        path = f"/api/v1/series/{made['id']}/draft"
        polls.append((path, {"Accept": "application/json", "If-None-Match": client.get(path).headers["ETag"]}))
    return polls


def cpu_seconds(pid: int) -> float:
    """User + system seconds of the server and its worker processes."""
    import psutil

    server = psutil.Process(pid)
    return sum(sum(p.cpu_times()[:2]) for p in [server, *server.children(recursive=True)])


def serve(instance: str, mode: str, kind: str) -> tuple[subprocess.Popen[bytes], int]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    (Path(instance) / "poll_app.py").write_text(APP)
    command = [sys.executable, "-c", WAITRESS, str(port)] if kind == "waitress" else [
        str(Path(sys.executable).parent / "granian"), "--interface", "wsgi", "--host", "127.0.0.1", "--port", str(port),
        "--workers", "1", "--blocking-threads", "8", "--no-log", "poll_app:app"]
    env = {**os.environ, "COMPANION_INSTANCE": instance, "PYTHONPATH": f"{ROOT}{os.pathsep}{instance}",
           "POLL_MODE": mode}
    server = subprocess.Popen(command, cwd=ROOT, env=env)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/api/v1/health")
            if connection.getresponse().status == 200:
                connection.close()
                return server, port
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit("the server did not start")


def hammer(port: int, polls: list[tuple[str, dict[str, str]]], clients: int, requests: int) -> float:
    """Send `requests` polls per client thread; returns the wall time."""
    failures: list[Any] = []

    def client(k: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        for i in range(requests):
            path, headers = polls[(k * 7 + i) % len(polls)]
            try:
                connection.request("GET", path, headers=headers)
                answer = connection.getresponse()
                answer.read()
            except OSError as error:  # refused, reset or timed out: the run says so and stops
                failures.append((path, repr(error)))
                return
            if answer.status != 304:
                failures.append((path, answer.status))
        connection.close()

    threads = [threading.Thread(target=client, args=(k,)) for k in range(clients)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if failures:
        raise SystemExit(f"not a 304: {failures[:3]}")
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--requests", type=int, default=1500, help="per client thread and run")
    parser.add_argument("--idle", type=int, default=0, help="connections held open and silent meanwhile")
    parser.add_argument("--server", choices=("waitress", "granian"), default="waitress",
                        help="granian: `pip install granian` first (not a dependency)")
    args = parser.parse_args()
    instance = tempfile.mkdtemp(prefix="companion-poll-bench-")
    polls = prepare(instance, args.tables)
    total = args.clients * args.requests
    per_request: dict[str, list[float]] = {"fast": [], "flask": []}
    print(f"{total} idle polls per mode and run ({args.clients} keep-alive connections, {args.tables} tables, "
          f"{args.idle} more connections open and silent), {args.server} 1 process × 8 threads:")
    for run in range(1, args.runs + 1):
        for mode in ("fast", "flask"):
            server, port = serve(instance, mode, args.server)
            silent = [socket.create_connection(("127.0.0.1", port)) for _ in range(args.idle)]
            try:
                hammer(port, polls, args.clients, 50)  # warm: connections, caches
                before = cpu_seconds(server.pid)
                wall = hammer(port, polls, args.clients, args.requests)
                used = cpu_seconds(server.pid) - before
            finally:
                for connection in silent:
                    connection.close()
                server.terminate()
                server.wait()
            per_request[mode].append(used / total * 1000)
            print(f"  run {run} {mode:<5} server CPU {used / total * 1000:.3f} ms/request, {total / wall:,.0f} req/s,"
                  f" server {used / wall * 100:.0f} % of a core, load average {os.getloadavg()[0]:.1f}", flush=True)
    for mode, values in per_request.items():
        print(f"  {mode:<5} min {min(values):.3f} median {statistics.median(values):.3f} ms/request")
    ratios = [b / a for a, b in zip(per_request["fast"], per_request["flask"], strict=True)]
    print(f"  flask ÷ fast per run: {', '.join(f'×{r:.2f}' for r in ratios)}; min ×{min(ratios):.2f}, "
          f"median ×{statistics.median(ratios):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
