"""A real `companion serve`, rounds posted continuously, SIGKILL, restart: no acknowledged round is lost.

Also what the server itself refuses before the app sees a request: a body over
the app's limit, and a client that declares a length and sends nothing.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow  # over 5 s: outside the fast lane (-m 'not slow'), always in CI

KILLS = 10
WRITERS = 3


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(self, instance: Path, *extra: str, stderr: Any = subprocess.DEVNULL) -> None:
        self.instance, self.extra, self.port, self.stderr = instance, extra, free_port(), stderr
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = {**os.environ, "COMPANION_INSTANCE": str(self.instance)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion.ops.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port),
             "--threads", "4", *self.extra],
            env=env, stdout=subprocess.DEVNULL, stderr=self.stderr)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                status, _ = self.request("GET", "/api/v1/health")
                if status == 200:
                    return
            except OSError:
                time.sleep(0.05)
        raise AssertionError("companion serve did not start")

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def request(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None,
                timeout: float = 10) -> tuple[int, Any]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            data = json.dumps(body).encode() if body is not None else None
            conn.request(method, path, body=data, headers={"Content-Type": "application/json", **(headers or {})})
            response = conn.getresponse()
            raw = response.read()
            return response.status, json.loads(raw) if raw and response.getheader("Content-Type", "").startswith(
                "application/json") else raw
        finally:
            conn.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path)
    yield running
    if running.process and running.process.poll() is None:
        running.kill()


def test_no_acknowledged_round_is_lost_across_sigkills(server: Server, tmp_path: Path) -> None:
    server.start()
    status, created = server.request("POST", "/api/v1/series", {"players": ["Аня", "Борис", "Вера"],
                                                                "starter": "Аня"})
    assert status == 201
    series_id, auth = created["id"], {"Authorization": f"Bearer {created['edit_token']}"}
    acknowledged: set[int] = set()  # round numbers a 201 reported as stored
    lock = threading.Lock()
    rng = random.Random(9)
    for cycle in range(KILLS):
        if cycle:
            server.start()
        stop = threading.Event()

        def write(stop: threading.Event = stop) -> None:
            while not stop.is_set():
                try:
                    status, body = server.request("POST", f"/api/v1/series/{series_id}/rounds", {"redeal": True},
                                                  auth, timeout=5)
                except (OSError, http.client.HTTPException):
                    return  # the server is gone
                if status == 201:
                    with lock:
                        acknowledged.add(len(body["rounds"]))

        writers = [threading.Thread(target=write) for _ in range(WRITERS)]
        with lock:
            before = len(acknowledged)
        for thread in writers:
            thread.start()
        # Kill once this cycle has had its own acknowledgements (a few, at a random count): how long that
        # takes depends on the machine's load, what the test checks does not.
        wanted = before + rng.randint(1, 4)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and all(t.is_alive() for t in writers):
            with lock:
                if len(acknowledged) >= wanted:
                    break
            time.sleep(0.005)
        with lock:
            assert len(acknowledged) >= wanted, f"cycle {cycle}: the server acknowledged no round"
        server.kill()
        stop.set()
        for thread in writers:
            thread.join(10)
        conn = sqlite3.connect(tmp_path / "companion.sqlite3")
        try:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            stored = {n for (n,) in conn.execute("select n from rounds where series_id = ?", [series_id])}
            version, = conn.execute("select version from series where id = ?", [series_id]).fetchone()
        finally:
            conn.close()
        assert acknowledged <= stored, f"cycle {cycle}: lost {sorted(acknowledged - stored)}"
        assert stored == set(range(1, len(stored) + 1)) and version == len(stored) + 1
    assert len(acknowledged) >= KILLS  # rounds were really being saved when the kills came
    server.start()
    status, body = server.request("GET", f"/api/v1/series/{series_id}")
    assert status == 200 and len(body["rounds"]) >= max(acknowledged)


def test_the_server_refuses_oversized_bodies_and_drops_silent_clients(server: Server, tmp_path: Path) -> None:
    (tmp_path / "config.py").write_text("CHANNEL_TIMEOUT = 2\n")  # the instance config `serve` reads
    server.start()
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(b"POST /api/v1/series HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 1000000000\r\n\r\n")
        answer = sock.recv(200)
    assert answer.startswith(b"HTTP/1.1 413"), answer  # refused at once, not buffered to disk first
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        sock.sendall(b"POST /api/v1/series HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 500\r\n\r\n")
        started = time.monotonic()
        try:
            rest = sock.recv(200)  # the server closes the connection
        except ConnectionResetError:
            rest = b""
        waited = time.monotonic() - started
    assert rest == b"" or rest.startswith(b"HTTP/1.1 4"), rest
    assert waited < 15  # dropped after the channel timeout (2 s here), not held for ever
    status, _ = server.request("GET", "/api/v1/health")
    assert status == 200


def test_a_foreign_host_header_is_refused_by_the_served_app(server: Server) -> None:
    server.start()
    assert server.request("GET", "/api/v1/health")[0] == 200
    assert server.request("GET", "/", headers={"Host": "rebinding.evil.example"})[0] == 400


def test_idle_polls_keep_their_connection(server: Server) -> None:
    server.start()
    status, created = server.request("POST", "/api/v1/series", {"players": ["Аня", "Борис"]})
    assert status == 201
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    conn.request("GET", f"/series/{created['id']}", headers={"HX-Request": "true"})
    first = conn.getresponse()
    first.read()
    etag = first.getheader("ETag")
    assert etag
    for _ in range(3):
        conn.request("GET", f"/series/{created['id']}", headers={"HX-Request": "true", "If-None-Match": etag})
        again = conn.getresponse()
        again.read()
        assert again.status == 304
        assert (again.getheader("Connection") or "").lower() != "close"
    assert conn.sock is not None  # still the same TCP connection
    conn.close()


@pytest.mark.skipif(sys.platform == "win32", reason="gunicorn does not run on Windows")
def test_two_workers_serve_with_gunicorn(tmp_path: Path) -> None:
    running = Server(tmp_path, "--server", "gthread", "--workers", "2")
    running.start()
    try:
        status, created = running.request("POST", "/api/v1/series", {"players": ["Аня", "Борис"], "starter": "Аня"})
        assert status == 201
        auth = {"Authorization": f"Bearer {created['edit_token']}"}
        for _ in range(6):  # whichever worker answers, each sees the other's writes
            status, body = running.request("POST", f"/api/v1/series/{created['id']}/rounds", {"redeal": True}, auth)
            assert status == 201
        assert len(running.request("GET", f"/api/v1/series/{created['id']}")[1]["rounds"]) == 6
        assert running.process is not None
        children = Path(f"/proc/{running.process.pid}/task/{running.process.pid}/children")
        if children.exists():  # two worker processes under the master (the second may still be booting)
            deadline = time.monotonic() + 20
            while len(children.read_text().split()) < 2 and time.monotonic() < deadline:
                time.sleep(0.2)
            assert len(children.read_text().split()) == 2
    finally:
        assert running.process is not None
        running.process.terminate()  # gunicorn stops its workers on SIGTERM
        running.process.wait(20)


def test_the_served_app_logs_one_line_per_request_without_secrets(tmp_path: Path) -> None:
    log = (tmp_path / "stderr.log").open("w")
    running = Server(tmp_path, stderr=log)
    running.start()
    try:
        status, created = running.request("POST", "/api/v1/series", {"players": ["Аня", "Борис"]})
        token = created["edit_token"]
        running.request("POST", f"/api/v1/series/{created['id']}/rounds", {"redeal": True},
                        {"Authorization": f"Bearer {token}"})
        running.request("GET", f"/series/{created['id']}/edit?token={token}")
    finally:
        running.kill()
        log.close()
    text = (tmp_path / "stderr.log").read_text()
    lines = [line for line in text.splitlines() if " /api/" in line or "/series/" in line]
    assert any(f"POST /api/v1/series/{created['id']}/rounds 201" in line for line in lines)
    assert any("/edit?token=…" in line and " 303 " in line for line in lines)
    assert token not in text
