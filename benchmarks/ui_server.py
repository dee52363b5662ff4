"""Shared by the UI benchmarks: the app on a free loopback port in a thread, with a request log."""

from __future__ import annotations

import logging
import socket
import tempfile
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from werkzeug.serving import make_server

from companion import create_app

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
PHONE = {"width": 390, "height": 844}


@dataclass
class Logged:
    method: str
    path: str
    status: int
    body_bytes: int  # as sent on the wire (after gzip), headers not included
    headers: dict[str, str] = field(default_factory=dict)


class RequestLog:
    """WSGI middleware that records every answer the server sends."""

    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self.app, self.entries = app, []  # type: ignore[var-annotated]

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        seen: dict[str, Any] = {}

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            seen["status"], seen["headers"] = int(status.split()[0]), dict(headers)
            return start_response(status, headers, exc_info)

        body = b"".join(self.app(environ, start))
        request_headers = {k[5:].replace("_", "-").title(): v for k, v in environ.items() if k.startswith("HTTP_")}
        self.entries.append(Logged(environ["REQUEST_METHOD"], environ["PATH_INFO"], seen["status"], len(body),
                                   request_headers))
        return [body]


def serve() -> tuple[str, RequestLog, Any]:
    """Start the app; returns (base URL, request log, the Flask app)."""
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    tmp = Path(tempfile.mkdtemp(prefix="ui-bench-"))
    app = create_app({"DATABASE": str(tmp / "bench.sqlite3"), "SECRET_KEY": "bench"})
    log = RequestLog(app.wsgi_app)
    app.wsgi_app = log  # type: ignore[method-assign]
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = make_server("127.0.0.1", port, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{port}", log, app


def create_series(base: str, players: list[str], ruleset: str = "igrafan") -> tuple[str, str]:
    """A series made through the JSON API; returns (id, edit token)."""
    import json
    import urllib.request

    body = json.dumps({"players": players, "starter": players[0], "ruleset": ruleset}).encode()
    request = urllib.request.Request(f"{base}/api/v1/series", body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        data = json.load(response)
    return data["id"], data["edit_token"]
