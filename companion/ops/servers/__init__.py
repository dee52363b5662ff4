"""How `companion serve` runs the app: what the three servers share, and choosing one (`run`).

One module per server, each running one process per core:
- `granian` (the default on Linux): HTTP parsing, keep-alive and idle connections in Rust; `GranianGate`
  in front of the app does what waitress does before a thread sees a request.
- `waitress` (`--server waitress`; the default where granian is missing, e.g. Windows): an asynchronous
  reader that buffers each request before a thread sees it.
- `gunicorn` (`--server gthread`): the former multi-process mode, kept for comparison; 64 slow-header
  clients stop it (docs/benchmarks.md).

What they share lives here:
- Host header: only the names the app is served on, or an IP address, are
  accepted (SERVED_HOSTS, see `security.check_host`), so a share link is never
  built from a foreign host name and a DNS-rebinding page cannot talk to the
  app. PUBLIC_URL (behind a proxy) adds its host.
- The limits: CHANNEL_TIMEOUT, each process's share of CONNECTION_LIMIT (`connections_per_process`),
  the largest body the app takes (`largest_body`), the open-file limit; the collector settled before
  the workers fork (`settle_memory`), and workers that die with the parent (`die_with`).
"""

from __future__ import annotations

import contextlib
import gc
import logging
import os
import socket
import sys
from typing import Any
from urllib.parse import urlsplit

from flask import Flask

CHANNEL_TIMEOUT = 20
CONNECTION_LIMIT = 10_000  # phones keep one connection each; 2,500 tables × 3 phones fit, with room
SERVERS = ("granian", "waitress", "gthread")
BACKLOG = 2048
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")


def default_server() -> str:
    """granian on Linux where it is installed (the default: docs/benchmarks.md «Every core, by default»),
    waitress elsewhere."""
    return "granian" if sys.platform.startswith("linux") and granian_available() else "waitress"


def granian_available() -> bool:
    """Whether granian can serve here: installed (its wheel exists for Linux, macOS and Windows) and a
    platform where its workers can be forked after the app was built (Linux, macOS)."""
    try:
        import granian  # noqa: F401
    except ImportError:
        return False
    return hasattr(os, "fork") and sys.platform != "win32"


def can_reuse_port() -> bool:
    """Whether several processes can share a port with the kernel balancing them (Linux)."""
    return sys.platform.startswith("linux") and hasattr(socket, "SO_REUSEPORT") and hasattr(os, "fork")


def default_workers() -> int:
    """One process per core this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        return os.cpu_count() or 1


def run(kind: str, app: Flask, host: str, port: int, threads: int, workers: int) -> None:
    """Serve `app` with `kind` (one of SERVERS) in `workers` processes of `threads` threads each
    (waitress in one process runs without a watching parent)."""
    from companion.ops.servers import granian, gunicorn, waitress

    if kind == "waitress" and workers > 1:
        waitress.run_waitress_processes(app, host, port, threads, workers)
    elif kind == "waitress":
        waitress.run_waitress(app, host, port, threads)
    elif kind == "granian":
        granian.run_granian(app, host, port, threads, workers)
    else:
        gunicorn.run_gunicorn(app, host, port, workers, threads)


def trusted_hosts(host: str, shown: str, public_url: str | None = None) -> list[str]:
    """The Host names to accept when listening on `host` (and shown to phones as `shown`)."""
    names: list[str] = [shown.strip("[]")]
    if host in ("", "0.0.0.0", "::"):
        hostname = socket.gethostname()
        names += [hostname, f"{hostname}.local", socket.getfqdn(), *LOOPBACK_NAMES]
        with contextlib.suppress(OSError):
            names += [str(info[4][0]) for info in socket.getaddrinfo(hostname, None)]
    else:
        names.append(host.strip("[]"))
        if host in LOOPBACK_NAMES or host.startswith("127."):
            names += list(LOOPBACK_NAMES)
    if public_url:
        public = urlsplit(public_url).hostname
        if public:
            names.append(public)
    unique: list[str] = []
    for name in names:
        entry = f"[{name}]" if ":" in name else name  # Werkzeug compares IPv6 hosts with their brackets
        if name and entry not in unique:
            unique.append(entry)
    return unique


class StderrHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """A stream handler writing to whatever sys.stderr is when a line is written, not when it was made
    (a process that swaps stderr, as a test runner does, never leaves it writing to a closed stream)."""

    @property
    def stream(self) -> Any:
        return sys.stderr

    @stream.setter
    def stream(self, _value: Any) -> None:
        pass


def request_log(app: Flask) -> None:
    """One line per request on stderr (the `companion.requests` logger; REQUEST_LOG = False turns it off)."""
    if not app.config.get("REQUEST_LOG", True):
        return
    log = logging.getLogger("companion.requests")
    if not log.handlers:
        handler = StderrHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(message)s"))
        log.addHandler(handler)
        log.setLevel(logging.INFO)
        log.propagate = False


def configure(app: Flask, host: str, url: str, loopback: bool) -> None:
    """What serving on `host` (shown to phones as `url`) sets: PUBLIC_URL and SERVED_HOSTS.

    SERVED_HOSTS (checked by `security.check_host`) are the host names the app answers to; an IP
    address is always accepted, since DNS rebinding needs a name and a machine may have several
    addresses. An instance config that sets Flask's TRUSTED_HOSTS (behind a proxy) is stricter still."""
    request_log(app)
    if not loopback:
        app.config.setdefault("PUBLIC_URL", url)  # links and QR codes shown on this machine point here
    if app.config.get("TRUSTED_HOSTS") is None and app.config.get("SERVED_HOSTS") is None:
        app.config["SERVED_HOSTS"] = trusted_hosts(host, urlsplit(url).hostname or host, app.config.get("PUBLIC_URL"))


def events_port(host: str, port: int, wanted: int | None) -> int | None:
    """The port of the events server (`servers.events`): `wanted`, or the next port; None when 0 was asked
    for, or when that port is taken (TCP on `host`, UDP on loopback): the phones then poll."""
    chosen = port + 1 if wanted is None else wanted
    if not chosen or chosen > 65535:
        return None
    try:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as tcp, \
                socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
            tcp.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            tcp.bind((host.strip("[]"), chosen))
            udp.bind(("127.0.0.1", chosen))
    except OSError:
        print(f"Port {chosen} is taken: phones will poll for changes instead of hearing them at once.",
              file=sys.stderr)
        return None
    return chosen


def raise_file_limit() -> int:
    """Allow as many open connections as the system lets this process have; returns the limit."""
    try:
        import resource
    except ImportError:  # Windows
        return CONNECTION_LIMIT
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, CONNECTION_LIMIT + 100)
    if soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return int(soft)


def connections_per_process(workers: int) -> int:
    """How many open connections one of `workers` processes takes: its share of CONNECTION_LIMIT plus a
    tenth (so that one process never takes most of the phones), within the open-file limit."""
    share = -(-CONNECTION_LIMIT * 11 // (10 * workers))  # ceiling
    return max(100, min(share, raise_file_limit() - 100))


def largest_body(app: Flask) -> int:
    """The largest request body any route of the app accepts: the import's (2 MB), or MAX_CONTENT_LENGTH."""
    from companion.service.record import IMPORT_MAX_BYTES

    return max(int(app.config["MAX_CONTENT_LENGTH"]), IMPORT_MAX_BYTES)


GC_THRESHOLDS = (7000, 20, 20)  # Python's are (700, 10, 10)


def settle_memory(forks: bool) -> None:
    """Before serving (and before the workers fork): what start-up built is moved out of the collector's
    sight (gc.freeze: the dictionaries, the FAQ index, the templates), the collector runs less often, and each
    process that serves sweeps its young objects (`sweep_young_objects`): this one when it serves itself
    (`forks` False), or else every process forked from here (the server's workers, the events server).

    Measured in-process on the load benchmark's request mix (1,000 tables): with Python's defaults a
    full collection ran every ~2 s and stopped every thread of the process for 50–120 ms, a tail every
    poll of that process paid; with these, none ran in 10 s and the longest pause was 15 ms.
    The workers also keep sharing the frozen pages with the parent instead of copying them.
    """
    global _sweeping_after_fork
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    if not forks:
        sweep_young_objects()
    elif not _sweeping_after_fork:
        _sweeping_after_fork = True
        os.register_at_fork(after_in_child=sweep_young_objects)


_sweeping_after_fork = False
YOUNG_SWEEP_SECONDS = 0.05
WHOLE_SWEEP_SECONDS = 3600.0


def sweep_young_objects(every: float = YOUNG_SWEEP_SECONDS, whole_every: float = WHOLE_SWEEP_SECONDS) -> None:
    """A thread that every `every` seconds collects what was made since its last turn (generation 0) and
    freezes what survives (`sweep`), so that no collection ever has much to look at.

    Why: the collector starts a collection when the objects made outnumber those freed by its threshold, and
    every object freed counts, however old. A replayed series kept in `service.series` replaces an older one
    as each round is saved, so the count barely grows while the young objects pile up: under `load.py`
    (2,500 tables) a collection then looked at 40,000–120,000 objects and stopped every thread of the process
    for 20–300 ms, several times a minute: the tail of every kind of request. Swept every 50 ms, a pause is a
    few ms at most (docs/benchmarks.md, «The collector's pauses»). What is frozen is still freed as usual when
    nothing refers to it; only a cycle among frozen objects waits for the whole sweep, every `whole_every` s."""
    import threading
    import time

    def run() -> None:
        whole_due = time.monotonic() + whole_every
        while True:
            time.sleep(every)
            whole = time.monotonic() >= whole_due
            if whole:
                whole_due = time.monotonic() + whole_every
            sweep(whole)

    threading.Thread(target=run, name="companion-young-objects", daemon=True).start()


def sweep(whole: bool = False) -> None:
    """One turn of `sweep_young_objects`: the young objects collected (`whole`: every object, the frozen too),
    the survivors frozen."""
    if whole:
        gc.unfreeze()
        gc.collect()
    else:
        gc.collect(0)
    gc.freeze()


def die_with(parent: int) -> None:
    """Have the kernel stop this process when `parent` dies, even by SIGKILL (Linux's PR_SET_PDEATHSIG):
    an orphan would keep serving the port, and the database, unseen."""
    import ctypes
    import signal

    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # 1 = PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the parent died before the line above
        os._exit(1)
