"""Load: phones at tables against a real `companion serve` on 127.0.0.1, with Locust (headless).

Each table has three phones polling the standings fragment every 4 s with
If-None-Match (as htmx does), each from its own moment; one of them is the
editor's, which also saves a round every 30 s (POST /api/v1/series/<id>/rounds).
With --editor-apart the editor is a fourth phone that only saves. With --seats
each table plays with seats (issue 22): three seat phones (one per player) and the
scorekeeper's phone, doing what static/seat.js does. A seat follows the draft (GET
/api/v1/series/<id>/draft with If-None-Match) every 4 s, every 1 s once a hand of the
round is sent, every 1.5 s once its own is in; sends its hand 4-14 s before the save
(one POST answered with JSON); when the draft says the series changed (the save,
a confirmation) it asks for its live part with the ETag it holds (a 304 unless what
it shows changed); 2-10 s after the save it confirms the round (one POST answered
with the live part). The scorekeeper polls the standings every 4 s, and the draft
during the 15 s before each save (its round page is open: every 1 s while hands are
missing, then every 1.5 s), then saves with "hands": "draft". Every phone is one
Locust user with its own HTTP connection, as real phones have. The table count
grows in steps until a step has errors or a p99 above 500 ms (or the last step);
each step reports requests/s, p50/p95/p99 of polls and saves, errors, and the CPU
the server and the load generator used (100 % = one core).

Bounded and local: the server listens on 127.0.0.1 only, on a fresh database
in a temporary folder (rate limits off there: every phone is 127.0.0.1), and
the run stops by itself after the last step or --max-seconds.

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python benchmarks/load.py                       # the default command: granian (Linux), one per core
    .venv/bin/python benchmarks/load.py --server waitress --workers 2  # the former default
    .venv/bin/python benchmarks/load.py --server gthread --workers 2   # the former --workers 2
    .venv/bin/python benchmarks/load.py --seats               # the default command, every table playing with seats
    .venv/bin/python benchmarks/load.py --steps 100,500,1000 --step-seconds 30
    .venv/bin/python benchmarks/load.py --profile 1000        # where the time goes, in-process
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ["Аня", "Борис", "Вера"]
ROUNDS_BEFORE = 12  # every table has played a while: the fragment has a real history
PHONES = 3  # per table; one of them is the editor's
POLL_EVERY = 4.0
SAVE_EVERY = 30.0
P99_LIMIT_MS = 500
# as static/seat.js: until a hand of the round is sent, then until the save; SENT: a seat whose own hand is in,
# and the round page once every hand but the winner's is in
SEAT_IDLE, SEAT_FAST, SEAT_SENT = 4.0, 1.0, 1.5
LIVE = {"HX-Request": "true", "HX-Target": "seat-live"}  # seat.js asking for a seat's live part
ENTRY = 15.0  # the scorekeeper's round page is open this long before each save
SEAT_HANDS = {"Аня": ["js"], "Борис": ["jh"], "Вера": ["jc"]}  # 2 points each: no series ends during a run


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def round_body(k: int) -> dict[str, Any]:
    """A round that never ends the series: the winner rotates, the others take a point or two."""
    winner = PLAYERS[k % 3]
    others = [p for p in PLAYERS if p != winner]
    return {"winner": winner, "finishing_card": "9h", "typed_points": {others[0]: 1, others[1]: 2}}


# -- preparing the database (a child process: Locust's gevent patching stays out of it) --------------


def prepare(instance: str, tables: int) -> None:
    sys.path.insert(0, str(ROOT))
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
        seats = client.get(f"/api/v1/series/{created['id']}/seats", headers=auth).get_json()["seats"]
        found.append({"id": created["id"], "token": created["edit_token"],
                      "seats": {seat["player"]: seat["token"] for seat in seats}})
    (Path(instance) / "tables.json").write_text(json.dumps(found))


# -- the server ------------------------------------------------------------------------------------------


def start_server(instance: str, port: int, workers: int | None, threads: int, log: bool = False,
                 server: str | None = None, floor: str | None = None) -> subprocess.Popen[bytes]:
    """`companion serve` on 127.0.0.1 (`server`: granian, gthread, waitress; None: the default command's), or
    with `floor` (wsgi, rsgi) the trivial app of `poll_floor.py` under granian."""
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
        "companion.ops.cli",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--threads",
        str(threads),
        *(["--workers", str(workers)] if workers else []),
        *(["--server", server] if server else []),
    ]
    if floor:
        command = [sys.executable, str(ROOT / "benchmarks" / "poll_floor.py"), "--interface", floor,
                   "--port", str(port), "--workers", str(workers or os.cpu_count() or 1), "--threads", str(threads)]
    server = subprocess.Popen(
        command,
        cwd=ROOT,
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


# -- the phones (Locust) -----------------------------------------------------------------------------------


def every(period: float) -> Any:
    """A Locust wait_time: the user's task starts every `period` seconds, from a random phase of its own.

    Not Locust's `constant_pacing`: it counts a sleep in `on_start` as task time and shortens the next wait
    by it, so users spawned together poll in the same instant every period however they were offset (all
    3,000 polls of 1,000 tables in one burst every 4 s). Real phones load the page at different moments.
    A user that fell behind (a slow answer) goes at once: it never catches up in a burst.
    """

    def wait(user: Any) -> float:
        now = time.monotonic()
        due = getattr(user, "_due", None)
        due = now + random.uniform(0, period) if due is None else max(due + period, now)
        user._due = due
        return float(due - now)

    return wait


def run(args: argparse.Namespace) -> int:
    import gevent
    import psutil
    from locust import FastHttpUser, events, task
    from locust.env import Environment

    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    except (ImportError, ValueError, OSError):
        pass

    steps = [int(n) for n in args.steps.split(",")]
    instance = tempfile.mkdtemp(prefix="companion-load-")
    started = time.monotonic()
    prepared = Path(tempfile.gettempdir()) / f"companion-load-prepared-{max(steps)}"
    if (prepared / "tables.json").exists():  # made by an earlier run: the same tables, copied fresh
        print(f"copying the {max(steps)} prepared tables of {prepared} …", flush=True)
        for name in ("companion.sqlite3", "tables.json"):
            shutil.copy(prepared / name, Path(instance) / name)
    else:
        print(f"preparing {max(steps)} tables × {ROUNDS_BEFORE} rounds in {instance} …", flush=True)
        subprocess.run([sys.executable, __file__, "--prepare", instance, str(max(steps))], check=True)
        prepared.mkdir(exist_ok=True)
        for name in ("companion.sqlite3", "tables.json"):
            shutil.copy(Path(instance) / name, prepared / name)
    tables = json.loads((Path(instance) / "tables.json").read_text())
    port = free_port()
    server = start_server(instance, port, args.workers, args.threads, args.server_log, args.server, args.floor)
    processes = args.workers or os.cpu_count()
    kind = f"the floor: poll_floor.py's trivial {args.floor} app under granian" if args.floor else {
        None: f"companion serve's default (granian on Linux), {processes} process(es) × {args.threads} threads",
        "gthread": f"gunicorn gthread, {processes} workers × {args.threads} threads",
        "waitress": f"waitress, {processes} process(es) × {args.threads} threads",
        "granian": f"granian, {processes} process(es) × {args.threads} threads",
    }[args.server]
    print(f"server: companion serve on 127.0.0.1:{port} ({kind}); {os.cpu_count()} CPUs"
          f"{'; every table plays with 3 seats' if args.seats else ''}", flush=True)

    counters = {"viewer": 0, "editor": 0, "seat": 0}
    viewers = 0 if args.seats else PHONES - 1 if not args.editor_apart else PHONES  # per table
    rounds_due: dict[str, float] = {}  # table → when its scorekeeper saves the next round (shared by its phones)

    def poll_fragment(user: Any) -> None:
        """What htmx sends every 4 s: the fragment, with the ETag of the one the phone holds."""
        headers = {"HX-Request": "true", "HX-Target": "live", "Accept-Encoding": "gzip"}
        if user.etag:
            headers["If-None-Match"] = user.etag
        with user.client.get(
            f"/series/{user.table['id']}", headers=headers, name="poll", catch_response=True
        ) as response:
            if response.status_code in (200, 304):
                user.etag = response.headers.get("ETag") or user.etag
                response.success()
            else:
                response.failure(f"status {response.status_code}")

    def live_etag_of(html: str) -> str:
        found = re.search(r"data-etag='([^']+)'", html)
        return found.group(1) if found else ""

    def live_version_of(html: str) -> str:
        found = re.search(r'id="seat-live"[^>]*?data-version="([^"]+)"', html, re.S)
        return found.group(1) if found else ""

    def check(response: Any, *ok: int) -> bool:
        if response.status_code in ok:
            response.success()
            return True
        response.failure(f"status {response.status_code}")
        return False

    class Seat(FastHttpUser):
        """A player's own phone (issue 22): follows the draft, sends its hand, confirms the saved round."""

        weight = PHONES if args.seats else 0
        host = f"http://127.0.0.1:{port}"

        def wait_time(self) -> float:
            return max(0.0, min(self.poll_at, self.send_at, self.confirm_at) - time.monotonic())

        def on_start(self) -> None:
            self.table = tables[counters["seat"] // PHONES % len(tables)]
            self.player = PLAYERS[counters["seat"] % PHONES]
            counters["seat"] += 1
            self.etag: str | None = None
            self.live_etag = ""
            self.round, self.version = 0, ""
            self.wait = SEAT_IDLE  # as seat.js: idle, a round being entered, or its own hand in
            now = time.monotonic()
            self.poll_at, self.send_at, self.confirm_at = now + random.uniform(0, SEAT_IDLE), float("inf"), float("inf")
            self.opened = False  # the seat link is opened at the phone's first moment, not all at once

        def open_seat(self) -> None:
            """The player scans the seat's QR code: at a moment of its own, as phones join a table one by one
            (opened in `on_start`, every seat of a step opened its link in the same instant: a burst of
            thousands of page renders whose tail spilled into the measured window)."""
            self.opened = True
            token = self.table["seats"][self.player]
            with self.client.get(f"/series/{self.table['id']}/seat/open?token={token}", name="seat page",
                                 catch_response=True) as response:
                if check(response, 200):
                    self.live(response)

        def live(self, response: Any) -> None:
            """The live part seat.js puts on the page: its ETag and the series version it shows."""
            if response.status_code == 200:
                self.live_etag = live_etag_of(response.text)
                self.version = live_version_of(response.text) or self.version

        def plan_send(self) -> None:
            due = rounds_due.get(self.table["id"])
            if due is not None:
                self.send_at = due - random.uniform(4, ENTRY - 1)

        @task
        def act(self) -> None:
            if not self.opened:
                self.open_seat()
            now = time.monotonic()
            sid = self.table["id"]
            if now >= self.send_at:
                self.send_at = float("inf")
                with self.client.post(f"/series/{sid}/seat/hand", name="seat hand", catch_response=True,
                                      data=f"card={SEAT_HANDS[self.player][0]}&round={self.round}",
                                      headers={"Content-Type": "application/x-www-form-urlencoded",
                                               "Accept": "application/json"}) as response:
                    check(response, 200)
                self.wait = SEAT_SENT
                self.poll_at = time.monotonic() + SEAT_SENT
            if now >= self.confirm_at:
                self.confirm_at = float("inf")
                with self.client.post(f"/series/{sid}/seat/rounds/{self.round - 1}/confirmation", data="agree=1",
                                      headers={"Content-Type": "application/x-www-form-urlencoded", **LIVE},
                                      name="seat confirm", catch_response=True) as response:
                    if check(response, 200):
                        self.live(response)
            if now < self.poll_at:
                return
            headers = {"Accept": "application/json", "Accept-Encoding": "gzip"}
            if self.etag:
                headers["If-None-Match"] = self.etag
            with self.client.get(f"/api/v1/series/{sid}/draft", headers=headers, name="seat poll",
                                 catch_response=True) as response:
                draft = response.json() if response.status_code == 200 else None
                if check(response, 200, 304) and draft is not None:
                    self.etag = response.headers.get("ETag")
            if draft is not None:
                if self.round and draft["round"] != self.round:  # a save: confirm it in a moment
                    self.confirm_at = time.monotonic() + random.uniform(2, 10)
                    self.plan_send()
                if self.version and draft["version"] != self.version:  # a save or a confirmation: the live part
                    with self.client.get(f"/series/{sid}/seat", name="seat live", catch_response=True,
                                         headers={**LIVE, "If-None-Match": self.live_etag}) as response:
                        if check(response, 200, 304):
                            self.live(response)
                if not self.round:
                    self.plan_send()
                self.round, self.version = draft["round"], draft["version"]
                self.wait = (SEAT_SENT if self.player in draft["hands"] else SEAT_FAST if draft["hands"]
                             else SEAT_IDLE)
            self.poll_at = time.monotonic() + self.wait

    class Viewer(FastHttpUser):
        weight = viewers
        wait_time = every(POLL_EVERY)
        host = f"http://127.0.0.1:{port}"

        def on_start(self) -> None:
            self.table = tables[counters["viewer"] // viewers % len(tables)]
            counters["viewer"] += 1
            self.etag: str | None = None

        @task
        def watch(self) -> None:
            poll_fragment(self)

    class Editor(FastHttpUser):
        """The phone that keeps the score: it polls like the others and saves a round every 30 s
        (with --editor-apart it only saves, on a connection of its own: a fourth phone per table)."""

        weight = 1
        wait_time = every(SAVE_EVERY if args.editor_apart else POLL_EVERY)
        host = f"http://127.0.0.1:{port}"

        def on_start(self) -> None:
            self.table = tables[counters["editor"] % len(tables)]
            counters["editor"] += 1
            self.etag: str | None = None
            self.draft_etag: str | None = None
            self.hands_missing = True  # its round page polls the draft every second until they are in
            self.k = ROUNDS_BEFORE
            self.save_due = time.monotonic() + random.uniform(ENTRY + 2 if args.seats else 0, SAVE_EVERY + ENTRY)
            rounds_due[self.table["id"]] = self.save_due

        @task
        def poll_and_save(self) -> None:
            if args.seats:
                self.with_seats()
                return
            if not args.editor_apart:
                poll_fragment(self)
                if time.monotonic() < self.save_due:
                    return
                self.save_due += SAVE_EVERY
            self.k += 1
            with self.client.post(
                f"/api/v1/series/{self.table['id']}/rounds",
                json=round_body(self.k),
                headers={"Authorization": f"Bearer {self.table['token']}"},
                name="save",
                catch_response=True,
            ) as response:
                if response.status_code == 201:
                    response.success()
                else:
                    response.failure(f"status {response.status_code}")

        def with_seats(self) -> None:
            """Standings every 4 s; the last 15 s before the save, the round page's draft every second."""
            entering = time.monotonic() >= self.save_due - ENTRY
            if not entering:
                poll_fragment(self)
            else:
                headers = {"Accept": "application/json"}
                if self.draft_etag:
                    headers["If-None-Match"] = self.draft_etag
                with self.client.get(f"/api/v1/series/{self.table['id']}/draft", headers=headers,
                                     name="editor draft poll", catch_response=True) as response:
                    if check(response, 200, 304):
                        self.draft_etag = response.headers.get("ETag") or self.draft_etag
                    if response.status_code == 200:
                        self.hands_missing = len(response.json()["hands"]) < len(PLAYERS) - 1
            if time.monotonic() >= self.save_due:
                self.k += 1
                body = {**round_body(self.k), "typed_points": {}, "hands": "draft"}
                with self.client.post(f"/api/v1/series/{self.table['id']}/rounds", json=body, name="save",
                                      headers={"Authorization": f"Bearer {self.table['token']}"},
                                      catch_response=True) as response:
                    check(response, 201)
                self.save_due += SAVE_EVERY
                self.hands_missing = True
                rounds_due[self.table["id"]] = self.save_due

    if args.seats:  # the scorekeeper's own rhythm while its round page is open (as seat.js), else 4 s
        def editor_wait(user: Any) -> float:
            now = time.monotonic()
            entering = now >= user.save_due - ENTRY
            every_s = (SEAT_FAST if user.hands_missing else SEAT_SENT) if entering else POLL_EVERY
            due = getattr(user, "_due", None)
            due = now + random.uniform(0, every_s) if due is None else max(min(due + every_s, user.save_due), now)
            user._due = due
            return float(due - now)

        Editor.wait_time = editor_wait  # type: ignore[assignment]

    env = Environment(user_classes=[Viewer, Editor, Seat], events=events)
    runner = env.create_local_runner()
    serving = psutil.Process(server.pid)
    me = psutil.Process()

    def cpu(process: Any, with_children: bool) -> float:
        """CPU seconds of a process (and of its children: the server's workers). The server is itself a
        child of this process, so the load generator counts itself alone."""
        try:
            processes = [process, *process.children(recursive=True)] if with_children else [process]
            return sum(p.cpu_times().user + p.cpu_times().system for p in processes)
        except psutil.Error:
            return 0.0

    print(
        f"\n{'tables':>6} {'phones':>6} {'req/s':>7} {'poll p50/p95/p99 ms':>20} {'save p50/p95/p99 ms':>20} "
        f"{'errors':>6} {'server CPU':>10} {'load CPU':>8} {'server ms/req':>13}"
    )
    verdict = 0
    best = None
    try:
        for n in steps:
            if time.monotonic() - started > args.max_seconds:
                print(f"stopping: --max-seconds {args.max_seconds} reached")
                break
            phones = n * (PHONES + 1 if args.editor_apart or args.seats else PHONES)
            runner.start(phones, spawn_rate=max(200, phones))
            gevent.sleep(args.warmup)
            env.stats.reset_all()
            server_cpu, load_cpu, t0 = cpu(serving, True), cpu(me, False), time.monotonic()
            gevent.sleep(args.step_seconds)
            wall = time.monotonic() - t0
            server_share = (cpu(serving, True) - server_cpu) / wall * 100
            load_share = (cpu(me, False) - load_cpu) / wall * 100
            poll, save = env.stats.get("poll", "GET"), env.stats.get("save", "POST")
            if args.seats:  # every request a seat makes counts with the polls
                poll = env.stats.total
            total = env.stats.total
            errors = total.num_failures

            def pct(entry: Any) -> str:
                if not entry.num_requests:
                    return "—"
                return "/".join(str(int(entry.get_response_time_percentile(q))) for q in (0.5, 0.95, 0.99))

            p99 = max(
                poll.get_response_time_percentile(0.99) if poll.num_requests else 0,
                save.get_response_time_percentile(0.99) if save.num_requests else 0,
            )
            print(
                f"{n:>6} {phones:>6} {total.num_requests / wall:>7.0f} {pct(poll):>20} {pct(save):>20} "
                f"{errors:>6} {server_share:>9.0f}% {load_share:>7.0f}% "
                f"{server_share * 10 / max(1.0, total.num_requests / wall):>13.2f}",
                flush=True,
            )
            if args.by_kind:  # p50/p95/p99 of every kind of request the phones made in this step
                for (name, method), entry in sorted(env.stats.entries.items()):
                    print(f"       {method} {name}: {entry.num_requests / wall:.0f}/s, p50/p95/p99 {pct(entry)} ms")
            if errors:
                for error in list(env.stats.errors.values())[:3]:
                    print(f"       {error.occurrences} × {error.method} {error.name}: {error.error}")
            if errors or (p99 > P99_LIMIT_MS and not args.keep_going):
                print(f"stopping: {'errors' if errors else f'p99 {p99:.0f} ms > {P99_LIMIT_MS} ms'} at {n} tables")
                break
            if p99 < 100:
                best = n
    finally:
        runner.quit()
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
    served = server_times(Path(instance) / "requests.log") if args.server_log else ""
    shutil.rmtree(instance, ignore_errors=True)
    print(
        f"\nmost tables with p99 < 100 ms and no errors: {best if best is not None else 'none'} "
        f"({kind}); took {time.monotonic() - started:.0f} s"
    )
    if served:
        print(served)
    return verdict


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


# -- where the time goes: the same request mix in-process under cProfile ---------------------------------------


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", default="100,250,500,750,1000,1250,1500,2000", help="table counts, in order")
    parser.add_argument("--step-seconds", type=float, default=30.0, help="measured seconds per step")
    parser.add_argument("--warmup", type=float, default=8.0, help="seconds after each step starts, not measured")
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
    parser.add_argument("--by-kind", action="store_true", help="print p50/p95/p99 of every request kind per step")
    parser.add_argument("--server-log", action="store_true", help="log every request's server-side time too")
    parser.add_argument("--profile", type=int, metavar="TABLES", help="profile the request mix in-process instead")
    parser.add_argument("--prepare", nargs=2, metavar=("DIR", "TABLES"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.prepare:
        prepare(args.prepare[0], int(args.prepare[1]))
        return 0
    if args.profile:
        return profile(args.profile)
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
