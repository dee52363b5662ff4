"""How `companion serve` runs the app: trusted hosts, then granian (the default on Linux), waitress
(the default elsewhere) or gunicorn gthread, one process per core.

- Host header: only the names the app is served on, or an IP address, are
  accepted (SERVED_HOSTS, see `security.check_host`), so a share link is never
  built from a foreign host name and a DNS-rebinding page cannot talk to the
  app. PUBLIC_URL (behind a proxy) adds its host.
- granian (`run_granian`, the default on Linux): HTTP parsing, keep-alive and
  idle connections live in Rust (tokio), so a poll costs the Python side only
  the app's own work: about half of waitress's server CPU per request in
  `benchmarks/load.py`. A client that sends its headers one line at a time, or
  connects and sends nothing, holds a socket and never a thread, and is closed
  after CHANNEL_TIMEOUT (`benchmarks/slow_clients.py`). What waitress did before
  a thread saw a request is done by `GranianGate` in front of the app: a body is
  read by a reader thread and handed over whole (a client that declares a length
  and sends nothing gets a 408 after CHANNEL_TIMEOUT and never holds one of the
  app's threads), a body over the largest the app takes is answered by the app's
  own error without being read, forwarded headers count only from the proxy. The
  workers are forked after the app was built and die with the parent.
- waitress (`--server waitress`; the default where granian is missing, e.g.
  Windows): its asynchronous reader buffers each request before a thread sees
  it, so slow clients cost a socket. Bodies above the largest the app takes (an
  import, 2 MB) are refused before they are buffered, and then answered by the
  app's own error (`_keep_alive_channel`); a client that declares a length and
  sends nothing is dropped after CHANNEL_TIMEOUT; a 304 keeps its connection
  (stock waitress closes it after every idle poll). On Linux it runs one process
  per core (`run_waitress_processes`), each on its own SO_REUSEPORT socket. Its
  loop visits every open connection on each turn, so its cost per request grows
  with the number of idle keep-alive phones.
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
SERVERS = ("granian", "waitress", "gthread")
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


def connections_per_process(workers: int) -> int:
    """How many open connections one of `workers` processes takes: its share of CONNECTION_LIMIT plus a
    tenth (so that one process never takes most of the phones), within the open-file limit."""
    share = -(-CONNECTION_LIMIT * 11 // (10 * workers))  # ceiling
    return max(100, min(share, raise_file_limit() - 100))


def gunicorn_options(app: Flask, host: str, port: int, workers: int, threads: int) -> dict[str, Any]:
    """gunicorn's settings for N gthread workers (`--server gthread`).

    Each worker takes at most its share of CONNECTION_LIMIT (plus a tenth): the workers share one
    listening socket, and the one that wakes first would otherwise accept most of the phones (3,039
    open files against 1,280 in a load run) and queue their polls while the other worker idles. At its
    share a worker stops accepting and the others take the new connections.
    """
    return {
        "bind": f"[{host}]:{port}" if ":" in host else f"{host}:{port}",
        "workers": workers,
        "threads": threads,
        "worker_class": "gthread",
        "worker_connections": connections_per_process(workers),
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
