"""What waitress did before a thread saw a request, done in front of the app under granian
(`servers.granian.GranianGate`): forwarded headers from the proxy only, bodies over the limit answered by the app
without being read, a body that does not arrive answered 408 without holding one of the app's threads."""

from __future__ import annotations

import json
import threading
from typing import Any

from flask import Flask
from werkzeug.test import Client

from companion import create_app
from companion.ops import servers
from companion.ops.servers import granian

IMPORT_LIMIT = 2 * 1024 * 1024


def make(tmp_path: Any, **config: Any) -> Flask:
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "g.sqlite3"), "SECRET_KEY": "t", **config})


class Never:
    """A request body that never arrives (a client that declared a length and sends nothing)."""

    def __init__(self) -> None:
        self.released = threading.Event()

    def read(self, _size: int = -1) -> bytes:
        self.released.wait(10)
        return b""


class Unread:
    """A body the gate must not read."""

    def read(self, _size: int = -1) -> bytes:
        raise AssertionError("the body was read")


class Stream:
    """A body of unknown length (chunked), handed over in pieces."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    def read(self, size: int = -1) -> bytes:
        piece, self.data = self.data[:size], self.data[size:]
        return piece


def call(gate: granian.GranianGate, environ: dict[str, Any]) -> tuple[str, dict[str, str], bytes]:
    got: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> None:
        got.update(status=status, headers=dict(headers))

    body = b"".join(gate(environ, start_response))
    return got["status"], got["headers"], body


def post(path: str, stream: Any, length: str | None, **extra: str) -> dict[str, Any]:
    environ = {"REQUEST_METHOD": "POST", "PATH_INFO": path, "QUERY_STRING": "", "SERVER_NAME": "127.0.0.1",
               "SERVER_PORT": "8101", "SERVER_PROTOCOL": "HTTP/1.1", "HTTP_HOST": "127.0.0.1",
               "REMOTE_ADDR": "127.0.0.1", "wsgi.url_scheme": "http", "wsgi.input": stream, "wsgi.errors": None,
               "wsgi.version": (1, 0), "wsgi.multithread": True, "wsgi.multiprocess": False, "wsgi.run_once": False,
               "CONTENT_TYPE": "application/json", **extra}
    if length is not None:
        environ["CONTENT_LENGTH"] = length
    return environ


def test_forwarded_headers_count_from_the_proxy_only(tmp_path: Any) -> None:
    app = make(tmp_path, RATELIMIT_ENABLED=True, RATELIMIT_CREATE="1 per minute", PROXY_FIX=1)
    client = Client(granian.wsgi_for_granian(app))
    body = {"players": ["Аня", "Борис"]}

    def create(remote: str, forwarded: str) -> int:
        return client.post("/api/v1/series", json=body, headers={"X-Forwarded-For": forwarded},
                           environ_base={"REMOTE_ADDR": remote}).status_code

    # Through the proxy (127.0.0.1) two phones are two clients, each with its own limit.
    assert (create("127.0.0.1", "192.0.2.1"), create("127.0.0.1", "192.0.2.2")) == (201, 201)
    # Straight to the app, the headers are dropped: one client whatever it claims to be.
    assert (create("198.51.100.7", "192.0.2.3"), create("198.51.100.7", "192.0.2.4")) == (201, 429)
    answer = client.get("/", headers={"X-Forwarded-Proto": "https"}, environ_base={"REMOTE_ADDR": "198.51.100.8"})
    assert "Secure" not in (answer.headers.get("Set-Cookie") or "")


def test_without_a_proxy_the_forwarded_headers_are_left_to_the_app(tmp_path: Any) -> None:
    gate = granian.wsgi_for_granian(make(tmp_path))
    assert gate.proxy is None


def test_a_body_over_the_limit_gets_the_apps_error_in_the_users_language_unread(tmp_path: Any) -> None:
    gate = granian.wsgi_for_granian(make(tmp_path))
    for language, word in (("ru", "слишком большой"), ("en", "too large")):
        status, headers, body = call(gate, post("/api/v1/series/import", Unread(), str(IMPORT_LIMIT + 1),
                                                HTTP_ACCEPT_LANGUAGE=language))
        assert status.startswith("413") and headers["Content-Type"].startswith("application/json")
        assert word in json.loads(body)["error"]["message"]
        assert headers["Connection"] == "close"  # the rest of the body is never read


def test_a_chunked_body_over_the_limit_is_cut_and_answered_by_the_app(tmp_path: Any) -> None:
    gate = granian.wsgi_for_granian(make(tmp_path))
    status, headers, body = call(gate, post("/api/v1/series/import", Stream(b"x" * (IMPORT_LIMIT + 100)), None,
                                            HTTP_TRANSFER_ENCODING="chunked"))
    assert status.startswith("413") and json.loads(body)["error"]["code"] == "too-large"
    assert headers["Connection"] == "close"


def test_a_chunked_body_within_the_limit_reaches_the_app_whole(tmp_path: Any) -> None:
    gate = granian.wsgi_for_granian(make(tmp_path))
    document = json.dumps({"players": ["Аня", "Борис"]}).encode()
    status, _, body = call(gate, post("/api/v1/series", Stream(document), None, HTTP_TRANSFER_ENCODING="chunked"))
    assert status.startswith("201"), body[:200]


def test_a_body_that_never_arrives_is_answered_408_and_never_reaches_the_app(tmp_path: Any) -> None:
    app = make(tmp_path)
    gate = granian.GranianGate(app, servers.largest_body(app), 0.2, None)
    reached: list[str] = []
    app.before_request(lambda: reached.append("app"))  # type: ignore[func-returns-value]
    never = Never()
    try:
        status, headers, _ = call(gate, post("/api/v1/series", never, "500"))
    finally:
        never.released.set()
    assert status.startswith("408") and headers["Connection"] == "close"
    assert reached == []


def test_requests_waiting_for_their_bodies_leave_the_apps_threads_to_the_others(tmp_path: Any) -> None:
    app = make(tmp_path)
    gate = granian.GranianGate(app, servers.largest_body(app), 5, None, threads=1)  # one thread runs the app
    silent = [Never() for _ in range(3)]
    waiting = [threading.Thread(target=call, args=(gate, post("/api/v1/series", body, "500"))) for body in silent]
    try:
        for thread in waiting:
            thread.start()
        health = {k: v for k, v in post("/api/v1/health", Unread(), None).items() if k != "CONTENT_TYPE"}
        status, _, body = call(gate, {**health, "REQUEST_METHOD": "GET"})
        assert status.startswith("200") and json.loads(body)["status"] == "ok"
        assert all(thread.is_alive() for thread in waiting)  # the three still wait for their bodies
    finally:
        for body in silent:
            body.released.set()
        for thread in waiting:
            thread.join(10)
