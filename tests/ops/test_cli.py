"""The `companion` command."""

from __future__ import annotations

import ipaddress
import os
from pathlib import Path
from typing import Any

import pytest

from companion.ops import cli


def test_init_db_creates_the_database_in_the_instance_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    assert cli.main(["init-db"]) == 0
    assert (tmp_path / "companion.sqlite3").exists() and (tmp_path / "secret_key").exists()
    assert str(tmp_path / "companion.sqlite3") in capsys.readouterr().out


def test_lan_address_is_an_ip_address() -> None:
    ipaddress.ip_address(cli.lan_address())


def test_serve_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = {}
    monkeypatch.setattr(cli, "serve", lambda host, port, threads, workers, kind, events_port: seen.update(
        host=host, port=port, workers=workers, kind=kind, events_port=events_port))
    cli.main(["serve"])
    # None: one process per core, the platform's server (granian on Linux, waitress elsewhere), and under
    # granian changes pushed from the next port
    assert seen == {"host": "0.0.0.0", "port": 8101, "workers": None, "kind": None, "events_port": None}
    cli.main(["serve", "--events-port", "0"])
    assert seen["events_port"] == 0


@pytest.mark.parametrize("argv", [["--help"], ["serve", "--help"], ["init-db", "--help"]])
def test_every_command_has_help(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "Usage:" in out
    if argv[0] == "serve":
        assert "--host" in out and "--port" in out and "--threads" in out


def test_serve_options(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = {}
    monkeypatch.setattr(cli, "serve",
                        lambda host, port, threads, *_: seen.update(host=host, port=port, threads=threads))
    assert cli.main(["serve", "--host", "127.0.0.1", "--port", "9000", "--threads", "2"]) == 0
    assert seen == {"host": "127.0.0.1", "port": 9000, "threads": 2}


def test_a_bad_port_is_refused_with_a_message(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["serve", "--port", "nine"]) == 2
    assert "--port" in capsys.readouterr().err


def test_the_printed_address_is_one_that_serves() -> None:
    assert cli.address_to_show("127.0.0.1") == "127.0.0.1"
    assert cli.address_to_show("192.0.2.7") == "192.0.2.7"
    assert cli.address_to_show("::1") == "[::1]"
    assert cli.address_to_show("0.0.0.0") == cli.lan_address()


def test_serve_on_loopback_prints_the_loopback_address(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    from waitress import server as waitress_server

    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    served = {}

    class Stopped:  # what waitress would serve, without listening
        def __init__(self, app: Any, **kw: Any) -> None:
            served.update(kw, public=app.config.get("PUBLIC_URL"), hosts=app.config.get("SERVED_HOSTS"))

        def print_listen(self, _format: str) -> None: ...
        def run(self) -> None: ...
        def close(self) -> None: ...

    monkeypatch.setattr(waitress_server, "create_server", Stopped)
    assert cli.main(["serve", "--host", "127.0.0.1", "--port", "8765", "--workers", "1", "--server", "waitress"]) == 0
    assert "http://127.0.0.1:8765/" in capsys.readouterr().out
    assert served["host"] == "127.0.0.1" and served["port"] == 8765 and served["public"] is None
    assert "127.0.0.1" in served["hosts"] and "localhost" in served["hosts"]


def test_serve_prints_the_address_and_qr_code_then_starts_granian_with_the_built_app(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Before granian forks its workers: the banner, the FAQ model read, the start-up objects frozen."""
    from granian import server as granian_server

    from companion.faq.search import search_engine
    from companion.ops import servers
    from companion.ops.servers.events import Source
    from companion.ops.servers.granian import BODY_READERS

    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    monkeypatch.setattr("multiprocessing.set_start_method", lambda *args, **kw: None)
    search_engine.cache_clear()
    events: list[str] = []
    monkeypatch.setattr(servers, "settle_memory", lambda **_: events.append("settled"))
    served: dict[str, Any] = {}

    class Stopped:  # what granian would serve, without listening or forking
        def __init__(self, _target: str, **options: Any) -> None:
            served.update(options)

        def serve(self, target_loader: Any) -> None:
            events.append(f"fork with the FAQ model {'read' if search_engine.cache_info().currsize else 'unread'}")
            served["loader"] = target_loader

    monkeypatch.setattr(granian_server, "Server", Stopped)
    started: list[tuple[Any, ...]] = []

    class Process:  # the events server's process, not forked from the test session (it would outlive the test)
        def __init__(self, target: Any, args: tuple[Any, ...], **_options: Any) -> None:
            self.target, self.args = target, args

        def start(self) -> None:
            started.append((self.target.__name__, *self.args))

    monkeypatch.setattr("multiprocessing.Process", Process)
    assert cli.main(["serve", "--host", "127.0.0.1", "--port", "8766", "--server", "granian", "--workers", "2"]) == 0
    # the events server beside it, on the next port, asking this app for what it pushes whole
    assert started == [("run_events", "127.0.0.1", 8767, os.getpid(),
                        Source("127.0.0.1", 8766, "127.0.0.1:8766"))]
    out = capsys.readouterr().out
    assert "http://127.0.0.1:8766/" in out and "granian, 2 processes" in out
    assert "▀" in out  # the address as a QR code, drawn in the terminal
    assert events == ["settled", "fork with the FAQ model read"]
    assert served["address"] == "127.0.0.1" and served["port"] == 8766 and served["workers"] == 2
    assert served["blocking_threads"] == cli.DEFAULT_THREADS + BODY_READERS
