"""Backups with SQLite's online backup API: consistent while the app serves, WAL included.

Copying `companion.sqlite3` by hand misses whatever still sits in the `-wal`
file; the backup API reads the database as one snapshot through SQLite
itself, so a backup taken mid-write is the state just before or just after it.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import sqlite_utils

from companion.storage import database as storage


def _copy(source: sqlite3.Connection, target_path: Path) -> None:
    """Write a complete copy of `source` to `target_path` (0600), replacing it only once complete."""
    partial = target_path.with_name(f".{target_path.name}.{os.getpid()}.partial")
    partial.unlink(missing_ok=True)
    storage.create_private(str(partial))
    target = sqlite3.connect(partial)
    try:
        source.backup(target)
        target.execute("PRAGMA journal_mode = DELETE")  # one self-contained file, no -wal beside it
    finally:
        target.close()
    os.replace(partial, target_path)


def backup(database: str, target: str | Path) -> int:
    """Copy the live database to `target`; returns the number of series in it."""
    source = sqlite3.connect(database, timeout=30)
    try:
        _copy(source, Path(target))
    finally:
        source.close()
    return count_series(str(target))


def count_series(path: str) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("select count(*) from series").fetchone()[0])
    finally:
        conn.close()


def check_backup(path: str) -> None:
    """Refuse (DatabaseRefused) a file that is not a sound backup this version can read."""
    if not Path(path).is_file():
        raise storage.DatabaseRefused(f"{path} does not exist")
    conn = sqlite3.connect(f"file:{Path(path).resolve()}?mode=ro", uri=True)
    try:
        db = sqlite_utils.Database(conn)
        storage.check_database(db, path)
        try:
            verdict = conn.execute("PRAGMA integrity_check").fetchone()[0]
        except sqlite3.DatabaseError as error:
            verdict = str(error)
        if verdict != "ok":
            raise storage.DatabaseRefused(f"{path} is damaged ({verdict}); choose another backup")
        if not storage.applied_migrations(db):
            raise storage.DatabaseRefused(f"{path} is not a backup of this app (no series tables)")
    finally:
        conn.close()


def restore(backup_path: str, database: str) -> int:
    """Replace the database's content by the backup's (then upgrade it); returns the number of series."""
    check_backup(backup_path)
    storage.create_private(database)
    source = sqlite3.connect(f"file:{Path(backup_path).resolve()}?mode=ro", uri=True)
    target = sqlite3.connect(database, timeout=30)
    try:
        source.backup(target)  # page by page into the live file, under SQLite's own locks
    finally:
        source.close()
        target.close()
    storage.init_db(database)  # a backup from an older version is upgraded here
    return count_series(database)
