"""gunicorn gthread (`--server gthread`): the former multi-process mode, kept for comparison;
64 slow-header clients stop it (docs/benchmarks.md)."""

from __future__ import annotations

import sys
from typing import Any

from flask import Flask

from companion.ops.servers import BACKLOG, CHANNEL_TIMEOUT, connections_per_process


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
