"""Operations: health check, storage failures (disk full, read-only) → 503, database checks, backup and restore."""

from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import create_app
from companion.storage import backup
from companion.storage import database as storage

ROUND = {"winner": "Аня", "finishing_card": "9h", "hands": {"Борис": ["10c"], "Вера": ["jd"]}}


def make(path: Path, **config: Any) -> Flask:
    return create_app({"TESTING": True, "DATABASE": str(path), "SECRET_KEY": "t", **config})


def auth(series: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {series['edit_token']}"}


def rounds_of(client: FlaskClient, series_id: str) -> int:
    return len(client.get(f"/api/v1/series/{series_id}").get_json()["rounds"])


# -- health -------------------------------------------------------------------------


def test_health_reads_the_database_and_reports_the_migration_level(client: FlaskClient,
                                                                   series: dict[str, Any]) -> None:
    response = client.get("/api/v1/health")
    body = response.get_json()
    assert response.status_code == 200 and body["status"] == "ok"
    assert body["database"]["series"] == 1
    assert body["database"]["migration"] == storage.migration_names()[-1]
    assert body["database"]["migrations"] == {"applied": len(storage.migration_names()),
                                             "expected": len(storage.migration_names())}


def test_health_fails_with_503_when_the_database_is_unreadable_or_behind(app: Flask, client: FlaskClient) -> None:
    assert client.get("/api/v1/health").status_code == 200  # the migrations read (and kept) once
    with app.app_context():  # an older file put back: its last migration's table and record are not there
        db = storage.get_db()
        db.execute("drop table idempotency_keys")
        db.execute("delete from _sqlite_migrations where name = 'm003_idempotency_keys'")
    response = client.get("/api/v1/health")
    assert response.status_code == 503 and response.get_json()["status"] == "fail"
    assert "migrations" in response.get_json()["problems"][0]
    assert response.headers["Retry-After"]
    with app.app_context():
        storage.get_db().execute("drop table _sqlite_migrations")
        storage.get_db().execute("drop table round_history")
        storage.get_db().execute("drop table rounds")
        storage.get_db().execute("drop table series")
    response = client.get("/api/v1/health")
    assert response.status_code == 503 and "unreadable" in response.get_json()["problems"][0]


def test_health_sees_a_newer_app_upgrade_the_file(app: Flask, client: FlaskClient) -> None:
    assert client.get("/api/v1/health").status_code == 200
    with app.app_context():  # another process, a newer version, applies its migration to the same file
        db = storage.get_db()
        db.execute("create table from_a_newer_version (x)")
        db.execute("insert into _sqlite_migrations (migration_set, name, applied_at) "
                   "values ('companion', 'm999_newer', '2026-12-01')")
    response = client.get("/api/v1/health")
    assert response.status_code == 503 and "migrations" in response.get_json()["problems"][0]
    assert response.get_json()["database"]["migrations"]["applied"] == len(storage.migration_names()) + 1


def test_health_costs_one_query_once_the_migrations_are_known(app: Flask, client: FlaskClient) -> None:
    assert client.get("/api/v1/health").status_code == 200
    queries: list[str] = []
    with app.app_context():
        storage.get_db().conn.set_trace_callback(queries.append)
    try:
        for _ in range(3):
            assert client.get("/api/v1/health").get_json()["status"] == "ok"
    finally:
        with app.app_context():
            storage.get_db().conn.set_trace_callback(None)
    issued = [q for q in queries if not q.startswith("--")]  # SQLite traces pragma_schema_version's own step
    assert len(issued) == 3 and all("count(*)" in q and "schema_version" in q for q in issued)


# -- storage failures ------------------------------------------------------------------


def test_disk_full_is_a_503_in_the_users_language_and_nothing_is_lost(app: Flask, client: FlaskClient,
                                                                      series: dict[str, Any]) -> None:
    with app.app_context():
        db = storage.get_db()
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        db.execute(f"PRAGMA max_page_count = {pages + 1}")  # the disk holds one more page
    acknowledged = 0
    refused = None
    body = {"typed_points": {"Борис": 1, "Вера": 1}, "winner": "Аня", "finishing_card": "9h",
            "hands": {}, "note": "x"}
    body.pop("note")
    for _ in range(200):
        response = client.post(f"/api/v1/series/{series['id']}/rounds", json=body, headers=auth(series))
        if response.status_code == 201:
            acknowledged += 1
            continue
        refused = response
        break
    assert refused is not None and refused.status_code == 503
    assert refused.get_json()["error"]["code"] == "storage-unavailable"
    assert "Диск сервера заполнен" in refused.get_json()["error"]["message"]
    assert refused.headers["Retry-After"]
    assert client.get("/api/v1/health").status_code == 503
    assert rounds_of(client, series["id"]) == acknowledged  # nothing half-written
    english = client.post(f"/api/v1/series/{series['id']}/rounds", json=body,
                          headers={**auth(series), "Accept-Language": "en"})
    assert english.status_code == 503 and "disk is full" in english.get_json()["error"]["message"]
    with app.app_context():
        storage.get_db().execute("PRAGMA max_page_count = 1073741823")  # space freed
    assert client.post(f"/api/v1/series/{series['id']}/rounds", json=body, headers=auth(series)).status_code == 201
    assert client.get("/api/v1/health").status_code == 200
    assert rounds_of(client, series["id"]) == acknowledged + 1


def test_read_only_database_is_a_503_page_and_health_says_so(app: Flask, client: FlaskClient) -> None:
    created = client.post("/new", data={"name": ["Аня", "Борис"], "starter": "0"})
    series_id = created.headers["Location"].split("/")[2]
    with app.app_context():
        storage.get_db().execute("PRAGMA query_only = 1")
    response = client.post(f"/series/{series_id}/round", data={"winner": "0", "finishing_card": "9h",
                                                                 "hand-1": ["10c"]})
    assert response.status_code == 503
    assert "только для чтения" in response.get_data(as_text=True)
    health = client.get("/api/v1/health")
    assert health.status_code == 503 and "readonly" in health.get_json()["problems"][0]
    assert client.get(f"/series/{series_id}").status_code == 200  # reading still works


# -- the database file --------------------------------------------------------------------


def test_database_file_is_created_owner_only(tmp_path: Path) -> None:
    make(tmp_path / "new.sqlite3")
    assert stat.S_IMODE(os.stat(tmp_path / "new.sqlite3").st_mode) == 0o600


def test_an_older_database_is_upgraded_on_start(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    db = storage.connect(str(path))
    db.enable_wal()
    first = storage.migration_names()[0]
    storage.migrations.apply(db, stop_before=storage.migration_names()[1:] or None)
    assert storage.applied_migrations(db) == [first] or len(storage.migration_names()) == 1
    db.execute("insert into series (id, ruleset, options, players, starter, starter_drawn, edit_token_hash, "
               "version, created_at, updated_at) values ('old1', 'igrafan', '{}', '[\"А\", \"Б\"]', 'А', 0, "
               "'x', 1, '2025-01-01T00:00:00+00:00', '2025-01-01T00:00:00+00:00')")
    db.close()
    client = make(path).test_client()
    assert client.get("/api/v1/series/old1").status_code == 200
    assert client.get("/api/v1/health").get_json()["database"]["migration"] == storage.migration_names()[-1]


def test_a_newer_database_is_refused_with_one_line(tmp_path: Path) -> None:
    path = tmp_path / "newer.sqlite3"
    make(path)
    conn = sqlite3.connect(path)
    conn.execute("insert into _sqlite_migrations (migration_set, name, applied_at) "
                 "values ('companion', 'm999_from_the_future', '2030-01-01')")
    conn.commit()
    conn.close()
    with pytest.raises(SystemExit) as refused:
        make(path)
    message = str(refused.value)
    assert "newer version" in message and "m999_from_the_future" in message and "\n" not in message


@pytest.mark.parametrize("content", ["text", "other-app"])
def test_a_foreign_file_is_refused_with_one_line(tmp_path: Path, content: str) -> None:
    path = tmp_path / "foreign.db"
    if content == "text":
        path.write_text("name,score\nАня,10\n" * 100)
    else:
        conn = sqlite3.connect(path)
        conn.execute("create table users (id integer primary key, email text)")
        conn.commit()
        conn.close()
    with pytest.raises(SystemExit) as refused:
        make(path)
    assert "is not a database of this app" in str(refused.value)
    assert path.stat().st_size > 0  # left as it was
    if content == "other-app":
        conn = sqlite3.connect(path)
        assert [r[0] for r in conn.execute("select name from sqlite_master where type='table'")] == ["users"]
        conn.close()


def test_the_command_refuses_a_foreign_database_without_a_traceback(tmp_path: Path) -> None:
    (tmp_path / "companion.sqlite3").write_text("not a database at all " * 50)
    result = subprocess.run([sys.executable, "-m", "companion.ops.cli", "init-db"], capture_output=True, text=True,
                            env={**os.environ, "COMPANION_INSTANCE": str(tmp_path)}, timeout=60)
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "is not a database of this app" in lines[0]


# -- backup and restore ------------------------------------------------------------------


def test_backup_includes_what_is_still_in_the_wal_and_restores(tmp_path: Path) -> None:
    app = make(tmp_path / "live.sqlite3")
    client = app.test_client()
    created = client.post("/api/v1/series", json={"players": ["Аня", "Борис", "Вера"], "starter": "Аня"}).get_json()
    for _ in range(5):
        added = client.post(f"/api/v1/series/{created['id']}/rounds", json=ROUND, headers=auth(created))
        assert added.status_code == 201
    assert (tmp_path / "live.sqlite3-wal").stat().st_size > 0  # the app keeps its connection: not checkpointed
    copied = tmp_path / "copied-by-hand.sqlite3"
    copied.write_bytes((tmp_path / "live.sqlite3").read_bytes())
    conn = sqlite3.connect(copied)
    assert conn.execute("select count(*) from rounds").fetchone()[0] < 5  # what a plain copy misses
    conn.close()

    assert backup.backup(app.config["DATABASE"], tmp_path / "b.sqlite3") == 1
    assert stat.S_IMODE(os.stat(tmp_path / "b.sqlite3").st_mode) == 0o600
    assert not (tmp_path / "b.sqlite3-wal").exists()
    assert backup.restore(str(tmp_path / "b.sqlite3"), str(tmp_path / "restored.sqlite3")).series == 1
    restored = make(tmp_path / "restored.sqlite3").test_client()
    assert rounds_of(restored, created["id"]) == 5


def test_backup_while_rounds_are_being_saved_is_consistent(tmp_path: Path) -> None:
    app = make(tmp_path / "busy.sqlite3")
    client = app.test_client()
    created = client.post("/api/v1/series", json={"players": ["Аня", "Борис", "Вера"], "starter": "Аня"}).get_json()
    stop = threading.Event()

    def save() -> None:
        writer = app.test_client()
        while not stop.is_set():
            writer.post(f"/api/v1/series/{created['id']}/rounds", json={"redeal": True}, headers=auth(created))

    thread = threading.Thread(target=save)
    thread.start()
    try:
        for i in range(3):
            backup.backup(app.config["DATABASE"], tmp_path / f"b{i}.sqlite3")
    finally:
        stop.set()
        thread.join()
    for i in range(3):
        conn = sqlite3.connect(tmp_path / f"b{i}.sqlite3")
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        (version,) = conn.execute("select version from series").fetchone()
        (rounds,) = conn.execute("select count(*) from rounds").fetchone()
        (added,) = conn.execute("select count(*) from round_history where action = 'add'").fetchone()
        assert version == rounds + 1 == added + 1  # one snapshot: series row, rounds and history agree
        conn.close()


def test_restore_refuses_a_file_that_is_not_a_backup(tmp_path: Path) -> None:
    live = tmp_path / "live.sqlite3"
    client = make(live).test_client()
    client.post("/api/v1/series", json={"players": ["Аня", "Борис"]})
    bad = tmp_path / "bad.sqlite3"
    bad.write_text("garbage " * 200)
    with pytest.raises(SystemExit, match="is not a database of this app"):
        backup.restore(str(bad), str(live))
    with pytest.raises(SystemExit, match="does not exist"):
        backup.restore(str(tmp_path / "missing.sqlite3"), str(live))
    assert backup.count_series(str(live)) == 1


def test_backup_and_restore_commands(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    from companion.ops import cli

    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    app = create_app()
    client = app.test_client()
    created = client.post("/api/v1/series", json={"players": ["Аня", "Борис", "Вера"], "starter": "Аня"}).get_json()
    client.post(f"/api/v1/series/{created['id']}/rounds", json=ROUND, headers=auth(created))
    assert cli.main(["backup", str(tmp_path / "saved.sqlite3")]) == 0
    assert "1 series" in capsys.readouterr().out
    client.post("/api/v1/series", json={"players": ["Гоша", "Дима"]})  # made after the backup
    assert cli.main(["restore", str(tmp_path / "saved.sqlite3")]) == 0
    assert "1 series" in capsys.readouterr().out
    fresh = create_app().test_client()
    assert rounds_of(fresh, created["id"]) == 1
    assert backup.count_series(fresh.application.config["DATABASE"]) == 1
