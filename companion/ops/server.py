"""How `companion serve` runs the app: trusted hosts, waitress sized for phones, or gunicorn workers.

- Host header: only the names the app is served on, or an IP address, are
  accepted (SERVED_HOSTS, see `security.check_host`), so a share link is never
  built from a foreign host name and a DNS-rebinding page cannot talk to the
  app. PUBLIC_URL (behind a proxy) adds its host.
- waitress (every platform, the default): bodies above the app's own limit
  are refused before they are buffered (max_request_body_size), a client that
  declares a length and sends nothing is dropped after CHANNEL_TIMEOUT, and
  the connection limit is sized for one kept-alive connection per phone.
  A 304 keeps its connection: stock waitress closes it after every idle
  poll, so every poll would open a new TCP connection.
- gunicorn (`--workers N`, Linux and macOS): N processes, so both cores serve.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import socket
import sys
from typing import Any
from urllib.parse import urlsplit

from flask import Flask

CHANNEL_TIMEOUT = 20
CONNECTION_LIMIT = 4000  # phones keep one connection each; 1,000 tables × 3 phones fit
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
    """waitress's connection class, except that a 304 does not close the connection.

    waitress drops the Content-Length of a 304 (as it must) and then, finding no
    length, closes the connection; a 304 has no body, so there is nothing to
    delimit and HTTP/1.1 keep-alive is safe."""
    from waitress.channel import HTTPChannel
    from waitress.task import WSGITask

    class KeepAlive304Task(WSGITask):  # type: ignore[misc]
        def set_close_on_finish(self) -> None:
            if (
                self.status.startswith("304")
                and self.version == "1.1"
                and self.request.headers.get("CONNECTION", "").lower() != "close"
            ):
                return
            super().set_close_on_finish()

    class KeepAlive304Channel(HTTPChannel):  # type: ignore[misc]
        task_class = KeepAlive304Task

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


def waitress_options(app: Flask, host: str, port: int, threads: int) -> dict[str, Any]:
    files = raise_file_limit()
    return {
        "host": host,
        "port": port,
        "threads": threads,
        "ident": "companion101",
        "max_request_body_size": int(app.config["MAX_CONTENT_LENGTH"]),
        "channel_timeout": int(app.config.get("CHANNEL_TIMEOUT", CHANNEL_TIMEOUT)),
        "cleanup_interval": 5,
        "connection_limit": max(100, min(CONNECTION_LIMIT, files - 100)),
        "backlog": BACKLOG,
        "asyncore_use_poll": True,  # select() stops at 1,024 sockets
    }


def run_waitress(app: Flask, host: str, port: int, threads: int) -> None:
    from waitress.server import create_server

    server = create_server(app, **waitress_options(app, host, port, threads))
    server.channel_class = _keep_alive_channel()
    server.print_listen("Serving on http://{}:{}")
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()


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


def gunicorn_options(app: Flask, host: str, port: int, workers: int, threads: int) -> dict[str, Any]:
    """gunicorn's settings for N gthread workers.

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
    """N gunicorn processes (gthread: idle keep-alive connections wait in a selector, not a thread)."""
    if sys.platform == "win32":
        raise SystemExit(
            "companion: --workers needs gunicorn, which does not run on Windows; "
            "leave --workers out to serve with waitress"
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
