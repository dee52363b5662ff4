"""The `companion` command."""

from __future__ import annotations

import ipaddress
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
    monkeypatch.setattr(cli, "serve", lambda host, port, threads, workers, kind: seen.update(
        host=host, port=port, workers=workers, kind=kind))
    cli.main(["serve"])
    assert seen == {"host": "0.0.0.0", "port": 8101, "workers": None, "kind": "waitress"}  # None: one per core


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
    assert cli.main(["serve", "--host", "127.0.0.1", "--port", "8765", "--workers", "1"]) == 0
    assert "http://127.0.0.1:8765/" in capsys.readouterr().out
    assert served["host"] == "127.0.0.1" and served["port"] == 8765 and served["public"] is None
    assert "127.0.0.1" in served["hosts"] and "localhost" in served["hosts"]
