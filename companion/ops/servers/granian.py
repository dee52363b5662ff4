"""granian (`run_granian`, the default on Linux).

HTTP parsing, keep-alive and idle connections live in Rust (tokio), so a poll costs the Python side only the
app's own work: about half of waitress's server CPU per request in `benchmarks/load.py`. A client that sends
its headers one line at a time, or connects and sends nothing, holds a socket and never a thread, and is
closed after CHANNEL_TIMEOUT (`benchmarks/slow_clients.py`). What waitress did before a thread saw a request
is done by `GranianGate` in front of the app: a body is read by a reader thread and handed over whole (a
client that declares a length and sends nothing gets a 408 after CHANNEL_TIMEOUT and never holds one of the
app's threads), a body over the largest the app takes is answered by the app's own error without being read,
forwarded headers count only from the proxy. The workers are forked after the app was built and die with the
parent.
"""

from __future__ import annotations

import os
import socket
import sys
from typing import Any

from flask import Flask

from companion.ops.servers import BACKLOG, CHANNEL_TIMEOUT, connections_per_process, die_with, largest_body
from companion.ops.servers.events import Source


def listen_address(host: str) -> str:
    """The IP address granian binds for `host` (it takes addresses, not names)."""
    host = host.strip("[]") or "0.0.0.0"
    try:
        import ipaddress

        ipaddress.ip_address(host)
        return host
    except ValueError:
        return str(socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)[0][4][0])


def granian_options(app: Flask, host: str, port: int, threads: int, workers: int) -> dict[str, Any]:
    """granian's settings for N processes of `threads` Python threads each (`--server granian`).

    `backpressure` is how many connections one process holds at once (granian keeps a permit per open
    connection, not per request): each takes its share of CONNECTION_LIMIT plus a tenth, as with
    gunicorn, so 2,500 tables × 3 phones fit; past it, new connections wait in the listen backlog.
    A connection that has not sent a whole request head within CHANNEL_TIMEOUT seconds (a slow-header
    client, or an idle keep-alive one) is closed by granian itself, in Rust: it never reaches a thread.
    """
    from granian.constants import HTTPModes, Interfaces
    from granian.http import HTTP1Settings
    from granian.log import LogLevels

    timeout = int(app.config.get("CHANNEL_TIMEOUT", CHANNEL_TIMEOUT))
    return {
        "address": listen_address(host),
        "port": port,
        "interface": Interfaces.WSGI,
        "workers": workers,
        # granian's Python threads: `threads` run the app at once (GranianGate.slots); the others wait for
        # bodies, so a client that sends its body slowly never takes a thread the app needs.
        "blocking_threads": threads + BODY_READERS,
        "backlog": BACKLOG,
        "backpressure": connections_per_process(workers),
        "http": HTTPModes.http1,
        "websockets": False,
        "http1_settings": HTTP1Settings(header_read_timeout=timeout * 1000),
        "log_level": LogLevels.error,  # its start-up lines would bury the address and QR code printed above
        "respawn_failed_workers": True,
    }


def events_source(app: Flask, host: str, port: int) -> Source:
    """Where the events server asks this app for what it pushes whole (a reader's standings, the draft): its
    address (loopback when it listens on every address) and a Host it answers to (the proxy's name behind one,
    TRUSTED_HOSTS)."""
    address = {"0.0.0.0": "127.0.0.1", "::": "::1"}.get(listen_address(host), listen_address(host))
    trusted = app.config.get("TRUSTED_HOSTS")
    shown = f"[{address}]" if ":" in address else address
    return Source(address, port, str(trusted[0]) if trusted else f"{shown}:{port}")


def run_granian(app: Flask, host: str, port: int, threads: int, workers: int) -> None:
    """`workers` granian processes (HTTP in Rust, the app in `threads` Python threads each), forked after
    the app was built (they share its memory: the FAQ model, the frozen start-up objects); on Linux each
    listens on its own SO_REUSEPORT socket and dies with the parent (`die_with`). The parent only
    watches: a process that dies is started again; SIGTERM or Ctrl+C stops them all."""
    import multiprocessing

    from granian.server import Server

    options = granian_options(app, host, port, threads, workers)
    multiprocessing.set_start_method("fork", force=True)  # the workers inherit the built app, never rebuild it
    parent = os.getpid()
    if app.config.get("EVENTS_PORT"):  # changes pushed to the phones (`servers.events`), in a process of its own
        from companion.ops.servers.events import run_events

        source = events_source(app, host, port)
        multiprocessing.Process(target=run_events, args=(host, int(app.config["EVENTS_PORT"]), parent, source),
                                name="companion-events", daemon=True).start()
    served = wsgi_for_granian(app, threads)

    def load(_target: str) -> Any:  # runs in each worker, after the fork
        if sys.platform.startswith("linux"):
            die_with(parent)
        return served

    print(f"Serving on http://{host}:{port} with {workers} granian process{'es' if workers > 1 else ''}",
          flush=True)
    Server("companion", **options).serve(target_loader=load)


BODY_READERS = 256  # per process: requests that may wait for their bodies at once (see GranianGate)
BODY_CHUNK = 16 * 1024


class BodyTimeout(Exception):
    """A client sent nothing of its declared body for CHANNEL_TIMEOUT seconds."""


class GranianGate:
    """What waitress did for the app before a thread saw a request, done in front of it under granian.

    - Forwarded headers (PROXY_FIX): the app's ProxyFix reads X-Forwarded-* from PROXY_ADDRESS only;
      from anyone else they are removed, so a client that reaches the app directly cannot choose
      its address or scheme.
    - A body over the largest the app takes (an import, 2 MB, declared or counted) is never read:
      the app sees its declared length and an empty body, and answers with its own JSON or page
      error in the user's language; the connection is then closed (the rest is never read).
    - The app runs in at most `threads` threads at once (`slots`); granian has BODY_READERS more, which
      wait for request bodies. A body is read off the network by a reader thread and handed to the
      app whole, before the request takes a slot, so a client that declares a length and sends nothing
      (or trickles) never holds a thread the app needs; after CHANNEL_TIMEOUT seconds without its next
      chunk it gets a 408 (its reader waits on until the client goes away). A request without a body
      (every poll) goes straight to a slot.
    """

    def __init__(self, app: Any, limit: int, timeout: float, proxy: str | None, threads: int = 8) -> None:
        import threading
        from concurrent.futures import ThreadPoolExecutor

        self.app, self.limit, self.timeout, self.proxy = app, limit, timeout, proxy
        self.readers = ThreadPoolExecutor(BODY_READERS, thread_name_prefix="body")
        self.slots = threading.BoundedSemaphore(threads)

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        if self.proxy is not None and environ.get("REMOTE_ADDR") != self.proxy:
            for key in [key for key in environ if key.startswith("HTTP_X_FORWARDED_")]:
                del environ[key]
        length = environ.get("CONTENT_LENGTH") or ""
        if "HTTP_TRANSFER_ENCODING" in environ:  # chunked: the length is known once it is read
            return self.with_body(environ, start_response, None)
        if length in ("", "0"):  # every poll: no body, straight to the app
            return self.run(environ, start_response)
        return self.with_body(environ, start_response, int(length) if length.isdigit() else None)

    def run(self, environ: dict[str, Any], start_response: Any) -> Any:
        with self.slots:
            return self.app(environ, start_response)

    def with_body(self, environ: dict[str, Any], start_response: Any, declared: int | None) -> Any:
        from io import BytesIO

        if declared is None or declared <= self.limit:
            try:
                body = self.read(environ["wsgi.input"], declared)
            except BodyTimeout:
                start_response("408 Request Timeout", [("Content-Type", "text/plain; charset=utf-8"),
                                                       ("Connection", "close")])
                return [b"Request Timeout: the body did not arrive.\n"]
            if len(body) <= self.limit:
                environ["wsgi.input"] = BytesIO(body)
                environ["CONTENT_LENGTH"] = str(len(body))
                environ.pop("HTTP_TRANSFER_ENCODING", None)
                return self.run(environ, start_response)
        # Over the limit: the app answers by the length alone (its own error); the rest is never read.
        environ["wsgi.input"] = BytesIO()
        environ["CONTENT_LENGTH"] = str(max(declared or 0, self.limit + 1))
        environ.pop("HTTP_TRANSFER_ENCODING", None)

        def closing(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            return start_response(status, [*headers, ("Connection", "close")], exc_info)

        return self.run(environ, closing)

    def read(self, stream: Any, declared: int | None) -> bytes:
        """The body (at most limit + 1 bytes), read chunk by chunk by a reader thread; BodyTimeout when
        a chunk takes longer than the timeout."""
        from concurrent.futures import TimeoutError as Late

        want = self.limit + 1 if declared is None else declared
        parts: list[bytes] = []
        got = 0
        while got < want:
            chunk = self.readers.submit(stream.read, min(BODY_CHUNK, want - got))
            try:
                data = chunk.result(timeout=self.timeout)
            except Late:
                raise BodyTimeout from None
            if not data:
                break
            parts.append(data)
            got += len(data)
        return b"".join(parts)


def wsgi_for_granian(app: Flask, threads: int = 8) -> GranianGate:
    proxy = str(app.config.get("PROXY_ADDRESS", "127.0.0.1")) if int(app.config.get("PROXY_FIX", 0) or 0) else None
    timeout = float(app.config.get("CHANNEL_TIMEOUT", CHANNEL_TIMEOUT))
    return GranianGate(app, largest_body(app), timeout, proxy, threads)
