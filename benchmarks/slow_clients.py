"""Slow clients against a real `companion serve` on 127.0.0.1: does the health check still answer?

Two attacks, each bounded in connections and time, on loopback only:

- slow headers ("slowloris"): N connections each send a request line and then one
  more header line every --interval seconds, never finishing the request;
- idle: N connections that connect and send nothing;
- slow body: N connections each send a whole request head declaring a 100 KB body,
  then one byte of it every --interval seconds.

Meanwhile a probe asks `GET /api/v1/health` on a fresh connection every --probe-every
seconds (timeout --probe-timeout) and counts the answers, and after each one creates a
series (`POST /api/v1/series`, a write with a body) and counts those. The same attack runs against
each server mode of `companion serve` in turn, so the figures sit side by side.

    .venv/bin/python benchmarks/slow_clients.py                         # every mode, 64 slow + 3,000 idle
    .venv/bin/python benchmarks/slow_clients.py --servers granian --workers 2   # the default command
    .venv/bin/python benchmarks/slow_clients.py --servers waitress --workers 2 --slow 256 --seconds 20
"""

from __future__ import annotations

import argparse
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import free_port, start_server  # noqa: E402

MAX_CONNECTIONS = 5000  # a bound on what this script opens, whatever it is told


HEALTH = b"GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
NEW_SERIES = b'{"players": ["A", "B"]}'
WRITE = (b"POST /api/v1/series HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\n"
         b"Content-Length: " + str(len(NEW_SERIES)).encode() + b"\r\n\r\n" + NEW_SERIES)


def probe(port: int, timeout: float, request: bytes = HEALTH, expect: bytes = b"HTTP/1.1 200") -> float | None:
    """Seconds `request` (the health check) took on a fresh connection, None if it failed or timed out."""
    started = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.settimeout(max(0.1, timeout - (time.monotonic() - started)))
            s.sendall(request)
            answer = b""
            while b"\r\n" not in answer:
                chunk = s.recv(4096)
                if not chunk:
                    return None
                answer += chunk
            return time.monotonic() - started if answer.startswith(expect) else None
    except OSError:
        return None


def attack(port: int, kind: str, count: int, interval: float, stop: threading.Event) -> int:
    """Open `count` connections and keep them slow (one header line per `interval`) or idle until `stop`;
    returns how many were open at the end."""
    held: list[socket.socket] = []
    for _ in range(min(count, MAX_CONNECTIONS)):
        if stop.is_set():
            break
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=2)
            if kind == "slow":
                s.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            elif kind == "body":
                s.sendall(b"POST /api/v1/series HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                          b"Content-Length: 100000\r\n\r\n")
            held.append(s)
        except OSError:
            time.sleep(0.01)
    line = 0
    while not stop.wait(interval):
        if kind == "idle":
            continue
        line += 1
        for s in list(held):
            try:
                s.sendall(f"X-Slow-{line}: {line}\r\n".encode() if kind == "slow" else b" ")
            except OSError:
                held.remove(s)
                s.close()
    for s in held:
        s.close()
    return len(held)


def measure(server_kind: str, workers: int, kind: str, count: int, args: argparse.Namespace) -> str:
    instance = tempfile.mkdtemp(prefix="companion-slow-")
    port = free_port()
    server = start_server(instance, port, workers, 8, server=server_kind)
    stop = threading.Event()
    held: list[int] = []
    attacker = threading.Thread(target=lambda: held.append(attack(port, kind, count, args.interval, stop)))
    try:
        attacker.start()
        time.sleep(args.interval * 2.5)  # the connections are open and have sent a few lines
        times: list[float | None] = []
        writes: list[float | None] = []
        deadline = time.monotonic() + args.seconds
        while time.monotonic() < deadline:
            started = time.monotonic()
            times.append(probe(port, args.probe_timeout))
            writes.append(probe(port, args.probe_timeout, WRITE, b"HTTP/1.1 201"))
            time.sleep(max(0.0, args.probe_every - (time.monotonic() - started)))
    finally:
        stop.set()
        attacker.join()
        server.terminate()
        try:
            server.wait(15)
        except Exception:
            server.kill()
    answered = sorted(t for t in times if t is not None)
    median = f"{statistics.median(answered) * 1000:.0f}" if answered else "—"
    worst = f"{answered[-1] * 1000:.0f}" if answered else "—"
    label = f"{server_kind} × {workers}"
    written = sum(1 for t in writes if t is not None)
    return (f"| {label} | {kind} × {count} (held {held[0] if held else 0}) | {len(answered)} / {len(times)} "
            f"| {median} | {worst} | {written} / {len(writes)} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--servers", default="granian,waitress,gthread", help="server modes, in order")
    parser.add_argument("--workers", default="2,1", help="process counts to try each mode with")
    parser.add_argument("--slow", type=int, default=64, help="slow-header connections (0: none)")
    parser.add_argument("--idle", type=int, default=3000, help="idle connections (0: none)")
    parser.add_argument("--body", type=int, default=64, help="slow-body connections (0: none)")
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between a slow client's lines")
    parser.add_argument("--seconds", type=float, default=30.0, help="probing time per attack")
    parser.add_argument("--probe-every", type=float, default=1.0)
    parser.add_argument("--probe-timeout", type=float, default=5.0)
    args = parser.parse_args()
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    except (ImportError, ValueError, OSError):
        pass
    print(f"probe: GET /api/v1/health every {args.probe_every} s, timeout {args.probe_timeout} s, "
          f"{args.seconds:.0f} s per attack\n")
    print("| server | attack | health answered | median ms | slowest ms | writes answered |")
    print("|---|---|---|---|---|---|")
    for server_kind in args.servers.split(","):
        for workers in [int(n) for n in args.workers.split(",")]:
            for kind, count in (("slow", args.slow), ("idle", args.idle), ("body", args.body)):
                if count:
                    print(measure(server_kind, workers, kind, count, args), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
