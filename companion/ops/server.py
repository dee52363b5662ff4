"""How `companion serve` runs the app: trusted hosts, waitress sized for phones, or gunicorn workers.

- Host header: only the names the app is served on, or an IP address, are
  accepted (SERVED_HOSTS, see `security.check_host`), so a share link is never
  built from a foreign host name and a DNS-rebinding page cannot talk to the
  app. PUBLIC_URL (behind a proxy) adds its host.
- waitress (the default, every platform): its asynchronous reader buffers
  each request before a thread sees it, so a client that sends its headers
  one line at a time, or connects and sends nothing, holds a socket and never
  a thread (`benchmarks/slow_clients.py`: the health check answers under 64
  slow-header and 3,000 idle connections, where gunicorn's threads stopped).
  Bodies above the largest the app takes (an import, 2 MB) are refused before
  they are buffered, and then answered by the app's own error
  (`_keep_alive_channel`); a client that declares a length and sends nothing
  is dropped after CHANNEL_TIMEOUT; a 304 keeps its connection (stock waitress
  closes it after every idle poll). On Linux it runs one process per core
  (`run_waitress_processes`), each on its own SO_REUSEPORT socket, so the
  kernel spreads the phones evenly over the processes.
- gunicorn gthread (`--server gthread`): the former multi-process mode, kept
  for comparison; 64 slow-header clients stop it (docs/benchmarks.md).
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
SERVERS = ("waitress", "gthread")
BACKLOG = 2048
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")


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


def _keep_alive_channel() -> Any:
    """waitress's connection class, except that a 304 does not close the connection, and a body over
    waitress's limit is answered by the app (its JSON or page error, in the user's language).

    waitress drops the Content-Length of a 304 (as it must) and then, finding no
    length, closes the connection; a 304 has no body, so there is nothing to
    delimit and HTTP/1.1 keep-alive is safe. A body over `max_request_body_size`
    is refused by waitress before it is buffered, with a plain-text 413 of its
    own; `TooLargeTask` hands that request to the app with an empty body and the
    declared length, so the app's own limit check answers it."""
    from io import BytesIO

    from waitress.channel import HTTPChannel
    from waitress.task import WSGITask
    from waitress.utilities import RequestEntityTooLarge

    class KeepAlive304Task(WSGITask):  # type: ignore[misc]
        def set_close_on_finish(self) -> None:
            if (
                self.status.startswith("304")
                and self.version == "1.1"
                and self.request.headers.get("CONNECTION", "").lower() != "close"
            ):
                return
            super().set_close_on_finish()

    class TooLargeTask(WSGITask):  # type: ignore[misc]
        def get_environment(self) -> dict[str, Any]:
            environ: dict[str, Any] = super().get_environment()
            limit = self.channel.server.adj.max_request_body_size
            declared = int(self.request.content_length or 0)
            environ["CONTENT_LENGTH"] = str(max(declared, limit + 1))
            environ.pop("HTTP_TRANSFER_ENCODING", None)
            environ["wsgi.input"] = BytesIO()
            return environ

        def execute(self) -> None:
            super().execute()
            self.close_on_finish = True  # the rest of the body is still on its way: never read it

    class ErrorOrTooLarge:
        """waitress's error task, except for a body over the limit (see TooLargeTask)."""

        def __new__(cls, channel: Any, request: Any) -> Any:
            from waitress.task import ErrorTask

            if isinstance(request.error, RequestEntityTooLarge):
                return TooLargeTask(channel, request)
            return ErrorTask(channel, request)

    class KeepAlive304Channel(HTTPChannel):  # type: ignore[misc]
        task_class = KeepAlive304Task
        error_task_class = ErrorOrTooLarge

    return KeepAlive304Channel


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


GC_THRESHOLDS = (7000, 20, 20)  # Python's are (700, 10, 10)


def settle_memory() -> None:
    """Before serving (and before gunicorn forks): what start-up built is moved out of the collector's
    sight (gc.freeze: the dictionaries, the FAQ index, the templates), and the collector runs less often.

    Measured in-process on the load benchmark's request mix (1,000 tables): with Python's defaults a
    full collection ran every ~2 s and stopped every thread of the process for 50–120 ms, a tail every
    poll of that process paid; with these, none ran in 10 s and the longest pause was 15 ms.
    The workers also keep sharing the frozen pages with the parent instead of copying them.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def largest_body(app: Flask) -> int:
    """The largest request body any route of the app accepts: the import's (2 MB), or MAX_CONTENT_LENGTH."""
    from companion.service.record import IMPORT_MAX_BYTES

    return max(int(app.config["MAX_CONTENT_LENGTH"]), IMPORT_MAX_BYTES)


PROXY_HEADERS = "x-forwarded-for x-forwarded-proto x-forwarded-host"


def proxy_options(app: Flask) -> dict[str, Any]:
    """What waitress needs behind a reverse proxy (PROXY_FIX = N in the instance config).

    waitress removes every X-Forwarded-* header unless it comes from a trusted proxy, so without this
    the app never learns the scheme (no `Secure` on its cookies, http:// links behind HTTPS). Trusted
    from PROXY_ADDRESS only (default 127.0.0.1: Caddy on the same machine); from anyone else the
    headers are still removed, so a client that reaches the app directly cannot choose its address."""
    proxies = int(app.config.get("PROXY_FIX", 0) or 0)
    if not proxies:
        return {}
    return {
        "trusted_proxy": str(app.config.get("PROXY_ADDRESS", "127.0.0.1")),
        "trusted_proxy_count": proxies,
        "trusted_proxy_headers": PROXY_HEADERS,
        "clear_untrusted_proxy_headers": True,
    }


def waitress_options(app: Flask, host: str, port: int, threads: int) -> dict[str, Any]:
    files = raise_file_limit()
    return {
        **proxy_options(app),
        "host": host,
        "port": port,
        "threads": threads,
        "ident": "companion101",
        # The largest body any route takes (an import); each route refuses more than its own limit.
        "max_request_body_size": largest_body(app),
        "channel_timeout": int(app.config.get("CHANNEL_TIMEOUT", CHANNEL_TIMEOUT)),
        "cleanup_interval": 5,
        "connection_limit": max(100, min(CONNECTION_LIMIT, files - 100)),
        "backlog": BACKLOG,
        "asyncore_use_poll": True,  # select() stops at 1,024 sockets
    }


def run_waitress(app: Flask, host: str, port: int, threads: int, sockets: list[socket.socket] | None = None) -> None:
    from waitress.server import create_server

    options = waitress_options(app, host, port, threads)
    if sockets is not None:  # one of several processes: its own listening socket (reuse_port_sockets)
        del options["host"], options["port"]
        options["sockets"] = sockets
    server = create_server(app, **options)
    server.channel_class = _keep_alive_channel()
    if sockets is None:
        server.print_listen("Serving on http://{}:{}")
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()


def can_reuse_port() -> bool:
    """Whether several processes can share a port with the kernel balancing them (Linux)."""
    return sys.platform.startswith("linux") and hasattr(socket, "SO_REUSEPORT") and hasattr(os, "fork")


def reuse_port_socket(host: str, port: int) -> socket.socket:
    """A listening socket on host:port that other processes of this server listen on too (SO_REUSEPORT):
    the kernel spreads new connections evenly over them, so no process takes most of the phones."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host or "0.0.0.0", port))
    sock.listen(BACKLOG)
    sock.setblocking(False)
    return sock


def die_with(parent: int) -> None:
    """Have the kernel stop this process when `parent` dies, even by SIGKILL (Linux's PR_SET_PDEATHSIG):
    an orphan would keep serving the port, and the database, unseen."""
    import ctypes
    import signal

    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # 1 = PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the parent died before the line above
        os._exit(1)


def run_waitress_processes(app: Flask, host: str, port: int, threads: int, workers: int) -> None:
    """`workers` waitress processes, forked after the app was built, each on its own SO_REUSEPORT socket.

    The parent only watches: a process that dies is started again (at most once a second), and
    SIGTERM or Ctrl+C stops them all. Linux only (SO_REUSEPORT balances connections there)."""
    import signal
    import time

    first = reuse_port_socket(host, port)  # fails here, in the parent, if the port is taken
    print(f"Serving on http://{host}:{port} with {workers} processes", flush=True)
    children: dict[int, int] = {}
    stopping = False
    parent = os.getpid()

    def start(slot: int) -> None:
        pid = os.fork()
        if pid == 0:  # the child serves until it is told to stop, or the parent is gone
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            die_with(parent)
            code = 0
            try:
                run_waitress(app, host, port, threads, [first if slot == 0 else reuse_port_socket(host, port)])
            except BaseException:  # noqa: B036 (whatever stops the child, it must not return into the parent)
                logging.getLogger("companion").exception("a server process stopped")
                code = 1
            finally:
                os._exit(code)
        children[pid] = slot

    def stop(_signum: int, _frame: Any) -> None:
        nonlocal stopping
        stopping = True
        for pid in list(children):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    for slot in range(workers):
        start(slot)
    while children:
        try:
            pid, _status = os.wait()
        except ChildProcessError:
            break
        except InterruptedError:
            continue
        slot = children.pop(pid, -1)
        if slot >= 0 and not stopping:
            time.sleep(1)  # a process that cannot start is not restarted in a tight loop
            start(slot)
    first.close()


def request_log(app: Flask) -> None:
    """One line per request on stderr (the `companion.requests` logger; REQUEST_LOG = False turns it off)."""
    if not app.config.get("REQUEST_LOG", True):
        return
    log = logging.getLogger("companion.requests")
    if not log.handlers:
        handler = logging.StreamHandler(sys.stderr)
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


def default_workers() -> int:
    """One process per core this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        return os.cpu_count() or 1


def gunicorn_options(app: Flask, host: str, port: int, workers: int, threads: int) -> dict[str, Any]:
    """gunicorn's settings for N gthread workers (`--server gthread`).

    Each worker takes at most its share of CONNECTION_LIMIT (plus a tenth): the workers share one
    listening socket, and the one that wakes first would otherwise accept most of the phones (3,039
    open files against 1,280 in a load run) and queue their polls while the other worker idles. At its
    share a worker stops accepting and the others take the new connections.
    """
    files = raise_file_limit()
    share = -(-CONNECTION_LIMIT * 11 // (10 * workers))  # ceiling
    return {
        "bind": f"[{host}]:{port}" if ":" in host else f"{host}:{port}",
        "workers": workers,
        "threads": threads,
        "worker_class": "gthread",
        "worker_connections": max(100, min(share, files - 100)),
        "keepalive": int(app.config.get("CHANNEL_TIMEOUT", CHANNEL_TIMEOUT)),
        "timeout": 60,
        "graceful_timeout": 10,
        "backlog": BACKLOG,
        "limit_request_line": 8190,
        "accesslog": None,
        "errorlog": "-",
        "loglevel": "warning",
        "preload_app": True,
    }


def run_gunicorn(app: Flask, host: str, port: int, workers: int, threads: int) -> None:
    """N gunicorn gthread processes, forked after the app was built (preload: they share its memory)."""
    if sys.platform == "win32":
        raise SystemExit(
            "companion: gunicorn does not run on Windows; serve with --server waitress"
        )
    from gunicorn.app.base import BaseApplication

    options = gunicorn_options(app, host, port, workers, threads)

    class Companion(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            for key, value in options.items():
                self.cfg.set(key, value)

        def load(self) -> Any:
            return app  # made once, before the workers fork (preload_app)

    Companion().run()
