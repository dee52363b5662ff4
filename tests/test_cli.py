"""The `companion` command."""

from __future__ import annotations

import ipaddress
from pathlib import Path

import pytest

from companion import cli


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
    monkeypatch.setattr(cli, "serve", lambda host, port, threads: seen.update(host=host, port=port))
    cli.main(["serve"])
    assert seen == {"host": "0.0.0.0", "port": 8101}
