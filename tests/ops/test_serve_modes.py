"""Issue 24, «Every core, by default»: what `companion serve` runs, and what a real one holds under
slow clients, big imports and an operator's restore."""

from __future__ import annotations

import http.client
import io
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion import create_app
from companion.ops import cli, servers
from companion.ops.servers import granian, gunicorn, waitress
from companion.storage import backup

ROOT = Path(__file__).resolve().parents[2]
IMPORT_LIMIT = 2 * 1024 * 1024


# -- the default command --------------------------------------------------------------------------------


def test_serve_defaults_to_granian_on_linux_in_one_process_per_core(monkeypatch: pytest.MonkeyPatch) -> None:
    ran: list[tuple[Any, ...]] = []
    monkeypatch.setattr(gunicorn, "run_gunicorn", lambda app, host, port, n, threads: ran.append(("gthread", n)))
    monkeypatch.setattr(waitress, "run_waitress", lambda *args: ran.append(("waitress", 1)))
    monkeypatch.setattr(waitress, "run_waitress_processes",
                        lambda app, host, port, threads, n: ran.append(("waitress", n)))
    monkeypatch.setattr(granian, "run_granian", lambda app, host, port, threads, n: ran.append(("granian", n)))
    monkeypatch.setattr(servers, "settle_memory", lambda **_: None)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    default = servers.default_server()
    assert default == ("granian" if sys.platform.startswith("linux") else "waitress")
    assert cli.main(["serve", "--host", "127.0.0.1"]) == 0
    assert ran == [(default, cores if default == "granian" or servers.can_reuse_port() else 1)]
    ran.clear()
    assert cli.main(["serve", "--host", "127.0.0.1", "--workers", "1"]) == 0
    assert ran == [(default, 1)]
    ran.clear()
    assert cli.main(["serve", "--host", "127.0.0.1", "--server", "waitress", "--workers", "2"]) == 0
    assert ran == [("waitress", 2 if servers.can_reuse_port() else 1)]
    ran.clear()
    assert cli.main(["serve", "--host", "127.0.0.1", "--server", "gthread", "--workers", "3"]) == 0
    assert ran == [("gthread", 3)]


def test_serve_without_granian_says_to_use_waitress(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(servers, "granian_available", lambda: False)
    monkeypatch.setattr(waitress, "run_waitress_processes", lambda *args: None)
    monkeypatch.setattr(waitress, "run_waitress", lambda *args: None)
    monkeypatch.setattr(servers, "settle_memory", lambda **_: None)
    assert servers.default_server() == "waitress"
    with pytest.raises(SystemExit, match="--server waitress"):
        cli.main(["serve", "--host", "127.0.0.1", "--server", "granian"])


def test_waitress_takes_bodies_as_large_as_an_import() -> None:
    app = create_app({"TESTING": True, "DATABASE": os.path.join(tempfile.mkdtemp(), "x.sqlite3")})
    assert waitress.waitress_options(app, "127.0.0.1", 8101, 8)["max_request_body_size"] == IMPORT_LIMIT


def test_behind_a_proxy_waitress_trusts_forwarded_headers_from_the_proxy_only() -> None:
    app = create_app({"TESTING": True, "DATABASE": os.path.join(tempfile.mkdtemp(), "x.sqlite3"), "PROXY_FIX": 1})
    options = waitress.waitress_options(app, "127.0.0.1", 8101, 8)
    assert options["trusted_proxy"] == "127.0.0.1" and options["trusted_proxy_count"] == 1
    assert "x-forwarded-proto" in options["trusted_proxy_headers"] and options["clear_untrusted_proxy_headers"]
    plain = create_app({"TESTING": True, "DATABASE": os.path.join(tempfile.mkdtemp(), "y.sqlite3")})
    assert "trusted_proxy" not in waitress.waitress_options(plain, "127.0.0.1", 8101, 8)


def test_caddyfile_writes_caddy_the_instance_config_and_the_units(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "https"
    assert cli.main(["caddyfile", "--domain", "Score.Example.Club", "--out", str(out), "--keep", "7"]) == 0
    assert sorted(p.name for p in out.iterdir()) == [
        "Caddyfile", "INSTALL.txt", "companion-backup.service", "companion-backup.timer", "companion-caddy.service",
        "companion.service", "config.py"]
    caddy = (out / "Caddyfile").read_text()
    assert "score.example.club {" in caddy and "reverse_proxy 127.0.0.1:8101" in caddy
    assert "handle /events/* {\n\t\treverse_proxy 127.0.0.1:8102" in caddy  # the events server, next port
    assert 'Strict-Transport-Security "max-age=31536000"' in caddy and "tls internal" not in caddy
    config: dict[str, Any] = {}
    exec((out / "config.py").read_text(), config)  # noqa: S102 (the file the app itself will read)
    assert config["PUBLIC_URL"] == "https://score.example.club/" and config["TRUSTED_HOSTS"] == ["score.example.club"]
    assert config["PROXY_FIX"] == 1 and config["EVENTS_URL"] == "/events"
    unit = (out / "companion.service").read_text()
    assert "serve --host 127.0.0.1 --port 8101" in unit and "COMPANION_INSTANCE=/var/lib/companion" in unit
    assert "backup --dir /var/backups/companion --keep 7" in (out / "companion-backup.service").read_text()
    assert "OnCalendar=" in (out / "companion-backup.timer").read_text()
    assert "INSTALL.txt" in capsys.readouterr().out
    assert cli.main(["caddyfile", "--domain", "not a name", "--out", str(tmp_path / "x")]) == 2
    assert not (tmp_path / "x").exists()


# -- a real server ----------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class FakeSocket:
    """What http.client.HTTPResponse reads a response from: bytes already received."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    def makefile(self, _mode: str) -> io.BytesIO:
        return io.BytesIO(self.data)


class Served:
    def __init__(self, instance: Path, *options: str) -> None:
        self.instance, self.port = instance, free_port()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion.ops.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port),
             *options],
            env={**os.environ, "COMPANION_INSTANCE": str(instance)}, cwd=ROOT,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if self.request("GET", "/api/v1/health")[0] == 200:
                    return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise AssertionError("companion serve did not start")

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None, timeout: float = 20) -> tuple[int, str, bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            answer = conn.getresponse()
            return answer.status, answer.getheader("Content-Type") or "", answer.read()
        finally:
            conn.close()

    def declared(self, path: str, length: int, headers: dict[str, str]) -> tuple[int, str, bytes]:
        """A POST declaring a body of `length` bytes, of which it sends none: a server refusing by the
        declared length answers at once (as it does a client that waits for 100-continue); sending
        2 MB it will never read would race its close against the answer."""
        head = "".join(f"{k}: {v}\r\n" for k, v in {"Host": "127.0.0.1", "Content-Length": str(length),
                                                      "Connection": "close", **headers}.items())
        with socket.create_connection(("127.0.0.1", self.port), timeout=20) as sock:
            sock.sendall(f"POST {path} HTTP/1.1\r\n{head}\r\n".encode())
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
        response = http.client.HTTPResponse(FakeSocket(answer))
        response.begin()
        return response.status, response.getheader("Content-Type") or "", response.read()

    def children(self) -> list[str]:
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        return children.read_text().split() if children.exists() else []

    def workers(self) -> list[str]:
        """The processes answering the app (not the events server beside them: `events`)."""
        return [pid for pid in self.children() if pid not in self.events()]

    def events(self) -> list[str]:
        return [pid for pid in self.children()
                if Path(f"/proc/{pid}/comm").exists() and Path(f"/proc/{pid}/comm").read_text().strip()
                == "companion-event"]  # the kernel keeps 15 characters of the name

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)


@pytest.fixture
def instance(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "instance"
    folder.mkdir()
    (folder / "config.py").write_text("REQUEST_LOG = False\n")
    yield folder


def big_export(rounds: int = 300) -> bytes:
    """A real export of a series of `rounds` rounds (well over 64 KB), made in-process."""
    app = create_app({"TESTING": True, "DATABASE": os.path.join(tempfile.mkdtemp(), "x.sqlite3")})
    client = app.test_client()
    created = client.post("/api/v1/series", json={"players": ["Аня", "Борис", "Вера"], "starter": "Аня"}).get_json()
    players = ["Аня", "Борис", "Вера"]
    for k in range(rounds):
        others = [p for p in players if p != players[k % 3]]
        body = {"winner": players[k % 3], "finishing_card": "9h", "typed_points": {others[0]: 0, others[1]: 0}}
        assert client.post(f"/api/v1/series/{created['id']}/rounds", json=body,
                           headers={"Authorization": f"Bearer {created['edit_token']}"}).status_code == 201
    return client.get(f"/api/v1/series/{created['id']}/export").get_data()


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="counts the workers in /proc")
def test_the_default_command_serves_on_every_core_and_holds_64_slow_clients(instance: Path) -> None:
    served = Served(instance)
    slow: list[socket.socket] = []
    try:
        deadline = time.monotonic() + 30
        while len(served.workers()) < len(os.sched_getaffinity(0)) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert len(served.workers()) == len(os.sched_getaffinity(0))
        for _ in range(64):  # each sends its request line, then one header line now and then, never the end
            s = socket.create_connection(("127.0.0.1", served.port), timeout=10)
            s.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            slow.append(s)
        for line in range(3):
            for s in slow:
                s.sendall(f"X-Slow-{line}: {line}\r\n".encode())
            status, _, body = served.request("GET", "/api/v1/health", timeout=20)
            assert status == 200 and json.loads(body)["status"] == "ok"
            time.sleep(1)
    finally:
        for s in slow:
            s.close()
        served.stop()


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG and /proc are Linux's")
@pytest.mark.parametrize("mode", ["granian", "waitress"])
def test_a_killed_server_leaves_no_worker_serving_the_port(instance: Path, mode: str) -> None:
    events = ["--events-port", str(free_port())] if mode == "granian" else []
    served = Served(instance, "--server", mode, "--workers", "2", *events)
    try:
        deadline = time.monotonic() + 30
        while len(served.workers()) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        workers = served.workers()
        assert len(workers) == 2
        if mode == "granian":  # and the events server beside them, which must not outlive the parent either
            while not served.events() and time.monotonic() < deadline:
                time.sleep(0.2)
            assert len(served.events()) == 1
            workers += served.events()
    except AssertionError:
        served.stop()  # nothing left serving after a failure
        raise
    served.process.kill()  # SIGKILL: the parent cannot stop its workers itself
    served.process.wait(10)
    deadline = time.monotonic() + 15
    while any(Path(f"/proc/{pid}").exists() for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in workers if Path(f"/proc/{pid}").exists()]
    with pytest.raises(OSError):
        served.request("GET", "/api/v1/health", timeout=3)


@pytest.mark.slow
@pytest.mark.parametrize(("mode", "workers"),
                         [("granian", "2"), ("waitress", "2"), ("waitress", "1"), ("gthread", "2")])
def test_every_export_imports_back_and_too_large_gets_the_apps_error_under_every_server(
        instance: Path, mode: str, workers: str) -> None:
    document = big_export()
    assert len(document) > 64 * 1024
    served = Served(instance, "--server", mode, "--workers", workers)
    try:
        status, kind, body = served.request("POST", "/api/v1/series/import", document,
                                            {"Content-Type": "application/json"})
        assert status == 201, body[:300]
        assert len(json.loads(body)["rounds"]) == 300
        too_large = IMPORT_LIMIT + 10
        for headers, word in (({}, "слишком большой"), ({"Accept-Language": "en"}, "too large")):
            status, kind, body = served.declared("/api/v1/series/import", too_large,
                                                 {"Content-Type": "application/json", **headers})
            assert status == 413 and kind.startswith("application/json"), (status, kind, body[:200])
            error = json.loads(body)["error"]
            assert error["code"] == "too-large" and word in error["message"]
        status, kind, body = served.declared("/import", too_large, {"Content-Type": "multipart/form-data; boundary=b",
                                                                    "Sec-Fetch-Site": "same-origin"})
        assert status == 413 and kind.startswith("text/html"), (status, kind, body[:200])
        assert "слишком большой" in body.decode()
        status, kind, body = served.request("POST", "/api/v1/series", b"[" + b"0," * 40_000 + b"0]",
                                            {"Content-Type": "application/json"})
        assert status == 413 and kind.startswith("application/json")  # other routes keep the 64 KB limit
    finally:
        served.stop()


@pytest.mark.slow
def test_restore_while_the_server_runs_is_refused_and_wipes_nothing(instance: Path, tmp_path: Path) -> None:
    served = Served(instance)
    try:
        status, _, body = served.request("POST", "/api/v1/series", b'{"players": ["\\u0410", "\\u0411"]}',
                                         {"Content-Type": "application/json"})
        created = json.loads(body)
        saved = tmp_path / "saved.sqlite3"
        backup.backup(str(instance / "companion.sqlite3"), saved)
        for _ in range(5):
            status, _, _ = served.request("POST", f"/api/v1/series/{created['id']}/rounds", b'{"redeal": true}',
                                          {"Content-Type": "application/json",
                                           "Authorization": f"Bearer {created['edit_token']}"})
            assert status == 201
        restore = subprocess.run([sys.executable, "-m", "companion.ops.cli", "restore", str(saved)],
                                 env={**os.environ, "COMPANION_INSTANCE": str(instance)}, cwd=ROOT,
                                 capture_output=True, text=True, timeout=60)
        assert restore.returncode == 1 and "stop the server" in restore.stderr
        status, _, body = served.request("GET", f"/api/v1/series/{created['id']}")
        assert status == 200 and len(json.loads(body)["rounds"]) == 5
        status, _, _ = served.request("POST", f"/api/v1/series/{created['id']}/rounds", b'{"redeal": true}',
                                      {"Content-Type": "application/json",
                                       "Authorization": f"Bearer {created['edit_token']}"})
        assert status == 201
    finally:
        served.stop()
    restore = subprocess.run([sys.executable, "-m", "companion.ops.cli", "restore", str(saved)],
                             env={**os.environ, "COMPANION_INSTANCE": str(instance)}, cwd=ROOT,
                             capture_output=True, text=True, timeout=60)
    assert restore.returncode == 0, restore.stderr
    assert list(instance.glob("companion.sqlite3.before-restore-*"))
