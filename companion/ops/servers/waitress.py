"""waitress (`--server waitress`; the default where granian is missing, e.g. Windows).

Its asynchronous reader buffers each request before a thread sees it, so slow clients cost a socket. Bodies
above the largest the app takes (an import, 2 MB) are refused before they are buffered, and then answered by
the app's own error (`_keep_alive_channel`); a client that declares a length and sends nothing is dropped
after CHANNEL_TIMEOUT; a 304 keeps its connection (stock waitress closes it after every idle poll). On Linux
it runs one process per core (`run_waitress_processes`), each on its own SO_REUSEPORT socket. Its loop visits
every open connection on each turn, so its cost per request grows with the number of idle keep-alive phones.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
from typing import Any

from flask import Flask

from companion.ops.servers import BACKLOG, CHANNEL_TIMEOUT, CONNECTION_LIMIT, die_with, largest_body, raise_file_limit


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
