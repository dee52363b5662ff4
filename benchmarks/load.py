"""Load: phones at tables against a real `companion serve` on 127.0.0.1.

Each table has three phones following the standings fragment with If-None-Match
(as htmx does), each from its own moment; one of them is the editor's, which also
saves a round every 30 s (POST /api/v1/series/<id>/rounds). With the default
command the server pushes changes (companion/ops/servers/events.py): every phone
also keeps its page's stream open; the viewers are sent the new standings whole,
the editor asks when told (as an editor's page, whose standings carry its buttons),
at most once per its own pace; every phone polls every 2 minutes as a safety net
(static/app.js, Live); the step's line
gives how long the first change after a save took to reach each phone of the
table (push p50/p99; a step whose push p99 is over 2 s is not held). --poll:
the server pushes nothing and the phones poll every 4 s, as before push.
With --editor-apart the editor is a fourth phone that only saves. With --seats
each table plays with seats (issue 22): three seat phones (one per player) and the
scorekeeper's phone, doing what static/seat.js does. What every phone does is said
once, in `load_phones.py`. Every phone has its own HTTP connection, as real phones
have. The table count grows in steps until a step has errors or a p99 above 500 ms
(or the last step); a step starts its new phones --spawn-rate a second (200; 0: all
within one second) and measures after the last one started plus --warmup; each
step reports requests/s, p50/p95/p99 of polls and saves
(--by-kind: of every kind), errors, and the CPU the server and the load generator
used (100 % = one core), and both per request.

The load generator (--generator): `lean` (the default, `load_lean.py`: asyncio on
uvloop, one keep-alive socket per phone, httptools parsing) or `locust` (each phone
a Locust FastHttpUser, gevent: `load_locust.py`), the same phones either way. The
lean one costs a fraction of Locust's CPU, which shares the server's cores here.

Bounded and local: the server listens on 127.0.0.1 only, on a fresh database
in a temporary folder (rate limits off there: every phone is 127.0.0.1), and
the run stops by itself after the last step or --max-seconds.

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python benchmarks/load.py                       # the default command: granian (Linux), one per core, push
    .venv/bin/python benchmarks/load.py --poll                # the same server pushing nothing: the phones poll
    .venv/bin/python benchmarks/load.py --generator locust    # the same phones from Locust
    .venv/bin/python benchmarks/load.py --server waitress --workers 2  # the former default
    .venv/bin/python benchmarks/load.py --server gthread --workers 2   # the former --workers 2
    .venv/bin/python benchmarks/load.py --seats               # the default command, every table playing with seats
    .venv/bin/python benchmarks/load.py --root /tmp/before    # the server of another checkout (before/after pairs)
    .venv/bin/python benchmarks/load.py --steps 100,500,1000 --step-seconds 30
    .venv/bin/python benchmarks/load.py --profile 1000        # where the time goes, in-process
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from load_phones import (  # noqa: E402
    PLAYERS,
    ROUNDS_BEFORE,
    Figures,
    all_phones,
    round_body,
)

P99_LIMIT_MS = 500


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# -- preparing the database (a child process: Locust's gevent patching stays out of it) --------------


def prepare(instance: str, tables: int, root: Path = ROOT) -> None:
    """`tables` series of 12 rounds made by the app of the checkout at `root` (an older one's database is its own)."""
    sys.path.insert(0, str(root))
    from companion import create_app

    app = create_app({"DATABASE": str(Path(instance) / "companion.sqlite3"), "SECRET_KEY": "load",
                      "TESTING": True})
    client = app.test_client()
    found = []
    for _ in range(tables):
        created = client.post("/api/v1/series", json={"players": PLAYERS, "starter": "Аня"}).get_json()
        auth = {"Authorization": f"Bearer {created['edit_token']}"}
        for k in range(ROUNDS_BEFORE):
            assert (
                client.post(f"/api/v1/series/{created['id']}/rounds", json=round_body(k), headers=auth).status_code
                == 201
            )
        answer = client.get(f"/api/v1/series/{created['id']}/seats", headers=auth)  # 404 from before seats
        seats = answer.get_json()["seats"] if answer.status_code == 200 else []
        found.append({"id": created["id"], "token": created["edit_token"],
                      "seats": {seat["player"]: seat["token"] for seat in seats}})
    (Path(instance) / "tables.json").write_text(json.dumps(found))


# -- the server ------------------------------------------------------------------------------------------


def start_server(instance: str, port: int, workers: int | None, threads: int, log: bool = False,
                 server: str | None = None, floor: str | None = None, root: Path = ROOT,
                 events: int | None = None) -> subprocess.Popen[bytes]:
    """`companion serve` on 127.0.0.1 (`server`: granian, gthread, waitress; None: the default command's), or
    with `floor` (wsgi, rsgi) the trivial app of `poll_floor.py` under granian. `root`: the checkout whose
    app is served (`python -m companion.ops.cli`, run in that folder, imports its `companion` first)."""
    config = "RATELIMIT_ENABLED = False\nREQUEST_LOG = False\n"  # the stderr log is off; --server-log writes a file
    if log:  # the request log (server-side milliseconds per request) into the instance folder
        target = str(Path(instance) / "requests.log")
        config += (
            "import logging\n"
            f"logging.basicConfig(filename={target!r}, level=logging.INFO, format='%(message)s', force=True)\n"
        )
    (Path(instance) / "config.py").write_text(config)
    command = [
        sys.executable,
        "-m",
        cli_module(root),
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--threads",
        str(threads),
        *(["--workers", str(workers)] if workers else []),
        *(["--server", server] if server else []),
        # the events server's port (0: none, the phones poll); a checkout from before push has no such option
        *(["--events-port", str(events)] if events is not None and knows_push(root) else []),
    ]
    if floor:
        command = [sys.executable, str(ROOT / "benchmarks" / "poll_floor.py"), "--interface", floor,
                   "--port", str(port), "--workers", str(workers or os.cpu_count() or 1), "--threads", str(threads)]
    server = subprocess.Popen(
        command,
        cwd=root,
        env={**os.environ, "COMPANION_INSTANCE": instance},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    import urllib.request

    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/health", timeout=2) as answer:
                if answer.status == 200:
                    return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit("the server did not start")


def cli_module(root: Path) -> str:
    """The command-line module of the checkout at `root` (`companion/cli.py` before the regrouping of issue 20)."""
    return "companion.ops.cli" if (root / "companion" / "ops" / "cli.py").exists() else "companion.cli"


def knows_push(root: Path) -> bool:
    """Whether the checkout at `root` pushes changes (its `companion serve` has --events-port)."""
    return "--events-port" in (root / cli_module(root).replace(".", "/")).with_suffix(".py").read_text()


# -- the run: steps of tables, the same phones from either generator ----------------------------------------


def raise_open_files(needed: int) -> None:
    """One socket per phone here and one in the server (which inherits the limit): lift the soft limit to
    the hard one, and the hard one too when it is short (root may)."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        want = max(hard, needed) if hard != resource.RLIM_INFINITY else hard
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, want))
        except (ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        if resource.getrlimit(resource.RLIMIT_NOFILE)[0] < needed:
            print(f"warning: {resource.getrlimit(resource.RLIMIT_NOFILE)[0]} open files allowed, {needed} wanted")
    except (ImportError, ValueError, OSError):
        pass


def prepared_instance(tables: int, root: Path = ROOT) -> tuple[str, list[dict[str, Any]]]:
    """A fresh instance folder with `tables` prepared tables (made once per checkout, then copied from the temporary
    folder)."""
    instance = tempfile.mkdtemp(prefix="companion-load-")
    of = "" if root == ROOT else "-" + hashlib.sha256(str(root).encode()).hexdigest()[:8]
    prepared = Path(tempfile.gettempdir()) / f"companion-load-prepared-{tables}{of}"
    if (prepared / "tables.json").exists():  # made by an earlier run: the same tables, copied fresh
        print(f"copying the {tables} prepared tables of {prepared} …", flush=True)
        for name in ("companion.sqlite3", "tables.json"):
            shutil.copy(prepared / name, Path(instance) / name)
    else:
        print(f"preparing {tables} tables × {ROUNDS_BEFORE} rounds in {instance} …", flush=True)
        subprocess.run([sys.executable, __file__, "--prepare", instance, str(tables), str(root)], check=True)
        prepared.mkdir(exist_ok=True)
        for name in ("companion.sqlite3", "tables.json"):
            shutil.copy(Path(instance) / name, prepared / name)
    return instance, json.loads((Path(instance) / "tables.json").read_text())


def spawn_rate(args: argparse.Namespace, phones: int) -> float:
    """Phones started a second: --spawn-rate, or with 0 every phone of a step within one second (the
    benchmark before stop 31: max(200, every phone) a second)."""
    return args.spawn_rate or max(200, phones)


def server_kind(args: argparse.Namespace) -> str:
    processes = args.workers or os.cpu_count()
    if args.floor:
        return f"the floor: poll_floor.py's trivial {args.floor} app under granian"
    if args.server is None and Path(args.root).resolve() != ROOT:
        return f"the default command of that checkout, --threads {args.threads}"
    return {
        None: f"companion serve's default (granian on Linux), {processes} process(es) × {args.threads} threads",
        "gthread": f"gunicorn gthread, {processes} workers × {args.threads} threads",
        "waitress": f"waitress, {processes} process(es) × {args.threads} threads",
        "granian": f"granian, {processes} process(es) × {args.threads} threads",
    }[args.server]


def cpu_seconds(process: Any, with_children: bool) -> float:
    """CPU seconds of a process (and of its children: the server's workers). The server is itself a child of
    this process, so the load generator counts itself alone."""
    import psutil

    try:
        processes = [process, *process.children(recursive=True)] if with_children else [process]
        return sum(p.cpu_times().user + p.cpu_times().system for p in processes)
    except psutil.Error:
        return 0.0


def pct(figures: Figures | None) -> str:
    if figures is None or not figures.requests:
        return "—"
    return "/".join(str(int(v)) for v in (figures.p50, figures.p95, figures.p99))


HEADER = (f"{'tables':>6} {'phones':>6} {'req/s':>7} {'poll p50/p95/p99 ms':>20} {'save p50/p95/p99 ms':>20} "
          f"{'errors':>6} {'server CPU':>10} {'load CPU':>8} {'server ms/req':>13} {'load ms/req':>11} "
          f"{'push p50/p99 ms':>16}")
PUSH_LIMIT_MS = 2000  # a change on every phone of the table within 2 s of the save (issue 22)


def report(args: argparse.Namespace, n: int, phones: int, driver: Any, wall: float, server_share: float,
           load_share: float) -> tuple[float, int]:
    """Print one step's line (and its kinds, its errors); its worst p99 of polls and saves, and its errors."""
    kinds, total, errors = driver.summary()
    poll, save = kinds.get(("GET", "poll")), kinds.get(("POST", "save"))
    if args.seats:  # every request a seat makes counts with the polls
        poll = total
    rate = total.requests / wall
    lags = sorted(getattr(driver, "push_lags", []))
    push = (lags[len(lags) // 2], lags[min(len(lags) - 1, int(0.99 * len(lags)))]) if lags else None
    print(f"{n:>6} {phones:>6} {rate:>7.0f} {pct(poll):>20} {pct(save):>20} {total.failures:>6} "
          f"{server_share:>9.0f}% {load_share:>7.0f}% {server_share * 10 / max(1.0, rate):>13.2f} "
          f"{load_share * 10 / max(1.0, rate):>11.2f} "
          f"{f'{push[0]:.0f}/{push[1]:.0f} ({len(lags)})' if push else '-':>16}", flush=True)
    if args.by_kind:  # p50/p95/p99 of every kind of request the phones made in this step
        for (method, name), figures in sorted(kinds.items(), key=lambda item: (item[0][1], item[0][0])):
            answers = ", ".join(f"{status}: {count}" for (m, k, status), count in sorted(driver.statuses.items())
                                if (m, k) == (method, name))
            print(f"       {method} {name}: {figures.requests / wall:.1f}/s, p50/p95/p99 {pct(figures)} ms ({answers})"
                  f"{f', {figures.failures} failed' if figures.failures else ''}")
    for count, method, name, message in errors[:3]:
        print(f"       {count} × {method} {name}: {message}")
    p99 = max(f.p99 for f in (poll, save) if f is not None and f.requests) if (poll or save) else 0.0
    if push and push[1] > PUSH_LIMIT_MS:  # pushed too late to count as live: the step is not held
        p99 = max(p99, P99_LIMIT_MS + 1.0)
    return p99, total.failures


def run(args: argparse.Namespace) -> int:
    if args.generator == "locust":  # first: Locust patches the standard library (gevent) as it is imported
        from load_locust import LocustDriver as Driver
    else:
        from load_lean import LeanDriver as Driver  # type: ignore[assignment]
    import psutil

    steps = [int(n) for n in args.steps.split(",")]
    started = time.monotonic()
    root = Path(args.root).resolve()
    instance, tables = prepared_instance(max(steps), root)
    phones, per_table = all_phones(tables[: max(steps)], args.seats, args.editor_apart)
    raise_open_files(2 * len(phones) + 1024)
    port = free_port()
    pushed = not args.poll and not args.floor and args.server in (None, "granian") and knows_push(root)
    events = free_port() if pushed else 0
    if pushed and args.generator == "locust":
        raise SystemExit("--generator locust models polling phones only: add --poll")
    server = start_server(instance, port, args.workers, args.threads, args.server_log, args.server, args.floor,
                          root, events)
    kind = server_kind(args)
    print(f"server: companion serve on 127.0.0.1:{port} ({kind}) from {Path(args.root).resolve()}; "
          f"{os.cpu_count()} CPUs; load generator: {args.generator}"
          f"{'; every table plays with 3 seats' if args.seats else ''}"
          f"{f'; changes pushed from port {events}' if pushed else '; the phones poll'}", flush=True)
    driver = Driver(port, events) if pushed else Driver(port)
    serving, me = psutil.Process(server.pid), psutil.Process()
    print(f"\n{HEADER}")
    best, started_phones = None, 0
    try:
        for n in steps:
            if time.monotonic() - started > args.max_seconds:
                print(f"stopping: --max-seconds {args.max_seconds} reached")
                break
            rate, added = spawn_rate(args, n * per_table), n * per_table - started_phones
            driver.start(phones[: n * per_table], rate)
            driver.sleep(added / rate + args.warmup)  # the warm-up runs from the last phone's start
            started_phones = n * per_table
            driver.reset()
            server_cpu, load_cpu, t0 = cpu_seconds(serving, True), cpu_seconds(me, False), time.monotonic()
            driver.sleep(args.step_seconds)
            wall = time.monotonic() - t0
            server_share = (cpu_seconds(serving, True) - server_cpu) / wall * 100
            load_share = (cpu_seconds(me, False) - load_cpu) / wall * 100
            p99, errors = report(args, n, n * per_table, driver, wall, server_share, load_share)
            if errors or (p99 > P99_LIMIT_MS and not args.keep_going):
                print(f"stopping: {'errors' if errors else f'p99 {p99:.0f} ms > {P99_LIMIT_MS} ms'} at {n} tables")
                break
            if p99 < 100:
                best = n
    finally:
        driver.quit()
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
    served = server_times(Path(instance) / "requests.log") if args.server_log else ""
    shutil.rmtree(instance, ignore_errors=True)
    print(f"\nmost tables with p99 < 100 ms and no errors: {best if best is not None else 'none'} "
          f"({kind}; {args.generator}); took {time.monotonic() - started:.0f} s")
    if served:
        print(served)
    return 0



def server_times(log: Path) -> str:
    """Percentiles of the time the app itself took (request log), polls and saves apart."""
    times: dict[str, list[float]] = {"304 polls": [], "200 polls": [], "saves": []}
    for line in log.read_text().splitlines():
        parts = line.split()
        if len(parts) != 5 or not parts[4].endswith("ms"):
            continue
        _addr, method, path, status, took = parts
        kind = "saves" if method == "POST" else f"{status} polls" if path.startswith("/series/") else None
        if kind in times:
            times[kind].append(float(took[:-2]))
    lines = []
    for kind, values in times.items():
        values.sort()
        if values:
            lines.append(f"  {kind}: {len(values)}, p50 {values[len(values) // 2]:.1f} ms, "
                         f"p99 {values[int(len(values) * 0.99)]:.1f} ms")
    return "time inside the app (request log, the whole run):\n" + "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", default="100,250,500,750,1000,1250,1500,2000", help="table counts, in order")
    parser.add_argument("--step-seconds", type=float, default=30.0, help="measured seconds per step")
    parser.add_argument("--warmup", type=float, default=8.0,
                        help="seconds after the last phone of a step started, not measured")
    parser.add_argument("--spawn-rate", type=float, default=200.0,
                        help="phones started a second when a step adds tables (Locust's spawn rate; 0: every phone "
                             "of the step within one second, as before stop 31)")
    parser.add_argument("--server", choices=["granian", "gthread", "waitress"], default=None,
                        help="companion serve --server (default: leave it out, as the default command does)")
    parser.add_argument("--workers", type=int, default=None, help="server processes (default: the command's)")
    parser.add_argument("--threads", type=int, default=8, help="threads per server process")
    parser.add_argument("--max-seconds", type=float, default=900.0, help="stop after this long, whatever the step")
    parser.add_argument("--keep-going", action="store_true", help="step on past p99 > 500 ms (still stop on errors)")
    parser.add_argument("--editor-apart", action="store_true",
                        help="the editor is a fourth phone per table that only saves (no polls)")
    parser.add_argument("--seats", action="store_true",
                        help="every table plays with seats: three seat phones and the scorekeeper (issue 22)")
    parser.add_argument("--floor", choices=["wsgi", "rsgi"],
                        help="serve a trivial app under granian instead (benchmarks/poll_floor.py): the floor")
    parser.add_argument("--poll", action="store_true",
                        help="the server pushes nothing (--events-port 0): every phone polls, as before push")
    parser.add_argument("--generator", choices=["lean", "locust"], default="lean",
                        help="the load generator: lean (asyncio, load_lean.py) or locust (load_locust.py)")
    parser.add_argument("--root", default=str(ROOT),
                        help="the checkout whose app is served (default: this one), for before/after pairs")
    parser.add_argument("--by-kind", action="store_true", help="print p50/p95/p99 of every request kind per step")
    parser.add_argument("--server-log", action="store_true", help="log every request's server-side time too")
    parser.add_argument("--profile", type=int, metavar="TABLES", help="profile the request mix in-process instead")
    parser.add_argument("--prepare", nargs=3, metavar=("DIR", "TABLES", "ROOT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.prepare:
        prepare(args.prepare[0], int(args.prepare[1]), Path(args.prepare[2]))
        return 0
    if args.profile:
        from load_profile import profile

        return profile(args.profile)
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
