"""Issue 24: a restore never wipes a served database, always keeps what it replaces; backups rotate."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from companion import create_app
from companion.ops import cli
from companion.storage import backup

ROUND = {"redeal": True}


def make(path: Path) -> Flask:
    return create_app({"TESTING": True, "DATABASE": str(path), "SECRET_KEY": "test"})


def series_with_rounds(app: Flask, rounds: int) -> dict[str, Any]:
    client = app.test_client()
    created: dict[str, Any] = client.post("/api/v1/series", json={"players": ["Аня", "Борис"],
                                                                  "starter": "Аня"}).get_json()
    for _ in range(rounds):
        client.post(f"/api/v1/series/{created['id']}/rounds", json=ROUND,
                    headers={"Authorization": f"Bearer {created['edit_token']}"})
    return created


def rounds_in(path: Path | str) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("select count(*) from rounds").fetchone()[0])
    finally:
        conn.close()


def test_restore_is_refused_while_a_server_holds_the_database(tmp_path: Path) -> None:
    live = tmp_path / "live.sqlite3"
    series_with_rounds(make(live), 5)
    old = tmp_path / "old.sqlite3"
    backup.backup(str(live), old)
    series_with_rounds(make(live), 7)  # acknowledged after the backup
    with backup.serving(str(live)), pytest.raises(backup.DatabaseInUse, match="stop the server"):
        backup.restore(str(old), str(live))
    assert rounds_in(live) == 12  # nothing was wiped
    assert not list(tmp_path.glob("live.sqlite3.before-restore-*"))
    done = backup.restore(str(old), str(live))  # the server has stopped: the lock is free again
    assert done.series == 1 and rounds_in(live) == 5


def test_two_servers_may_share_a_database_and_restore_waits_for_both(tmp_path: Path) -> None:
    live = tmp_path / "live.sqlite3"
    series_with_rounds(make(live), 1)
    with backup.serving(str(live)):
        with backup.serving(str(live)):
            pass
        with pytest.raises(backup.DatabaseInUse):
            backup.check_not_served(str(live))
    backup.check_not_served(str(live))


def test_the_restore_command_exits_non_zero_while_served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    app = create_app()
    series_with_rounds(app, 3)
    database = app.config["DATABASE"]
    assert cli.main(["backup", str(tmp_path / "saved.sqlite3")]) == 0
    series_with_rounds(app, 4)
    with backup.serving(database):
        assert cli.main(["restore", str(tmp_path / "saved.sqlite3")]) == 1
    assert "stop the server" in capsys.readouterr().err
    assert rounds_in(database) == 7


def test_a_restore_keeps_a_copy_of_what_it_replaces(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    app = create_app()
    series_with_rounds(app, 2)
    database = app.config["DATABASE"]
    assert cli.main(["backup", str(tmp_path / "saved.sqlite3")]) == 0
    series_with_rounds(app, 6)  # rounds the restore would otherwise lose for good
    assert cli.main(["restore", str(tmp_path / "saved.sqlite3")]) == 0
    (kept,) = Path(database).parent.glob("companion.sqlite3.before-restore-*")
    assert str(kept) in capsys.readouterr().out
    assert rounds_in(kept) == 8 and rounds_in(database) == 2
    assert kept.stat().st_mode & 0o077 == 0  # private, like the database
    assert backup.restore(str(kept), database).series == 2  # and it restores like any backup
    assert rounds_in(database) == 8


def test_scheduled_backups_keep_only_the_newest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    series_with_rounds(create_app(), 1)
    folder = tmp_path / "backups"
    folder.mkdir()
    for stamp in ("20250101-000000", "20250102-000000", "20250103-000000"):  # older runs of the timer
        (folder / f"companion-{stamp}.sqlite3").write_bytes(b"")
    (folder / "notes.txt").write_text("not a backup: left alone")
    assert cli.main(["backup", "--dir", str(folder), "--keep", "2"]) == 0
    names = sorted(p.name for p in folder.iterdir())
    assert names[0] == "companion-20250103-000000.sqlite3" and names[2] == "notes.txt" and len(names) == 3
    newest = folder / names[1]
    assert backup.count_series(str(newest)) == 1
    assert cli.main(["backup"]) == 2  # neither FILE nor --dir: a usage error
