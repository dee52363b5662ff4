"""Backups with SQLite's online backup API: consistent while the app serves, WAL included.

Copying `companion.sqlite3` by hand misses whatever still sits in the `-wal`
file; the backup API reads the database as one snapshot through SQLite
itself, so a backup taken mid-write is the state just before or just after it.

A restore replaces what the server reads under its feet: it is refused while a
`companion serve` holds the database (`serving`: a shared lock on
`<database>.serving`, taken for as long as the server runs, released by the
system even if the server is killed), and what it replaces is first copied to
`<database>.before-restore-<time>` (`restore` returns that path).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
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


class DatabaseInUse(Exception):
    """A server is using the database (restore refused)."""


def _lock_path(database: str) -> Path:
    return Path(f"{database}.serving")


@contextlib.contextmanager
def serving(database: str) -> Iterator[None]:
    """Hold the database's serving lock (shared: several servers may use one database) while inside."""
    try:
        import fcntl
    except ImportError:  # Windows: no advisory locks here; the docs say to stop the server first
        yield
        return
    storage.create_private(str(_lock_path(database)))
    with open(_lock_path(database), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_SH)  # forked workers inherit it; the system drops it when all exit
        yield


def check_not_served(database: str) -> None:
    """Raise DatabaseInUse while a `companion serve` holds the database."""
    try:
        import fcntl
    except ImportError:
        return
    path = _lock_path(database)
    if not path.exists():
        return
    with open(path, "a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise DatabaseInUse(
                f"{database} is in use by a running `companion serve`: stop the server, then restore "
                "(nothing was changed)"
            ) from None
        fcntl.flock(lock, fcntl.LOCK_UN)


def keep_copy(database: str) -> Path | None:
    """Copy the database about to be replaced next to it; returns where (None when there is none)."""
    if not Path(database).is_file() or Path(database).stat().st_size == 0:
        return None
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S-%f")
    target = Path(f"{database}.before-restore-{stamp}")
    source = sqlite3.connect(database, timeout=30)
    try:
        _copy(source, target)
    finally:
        source.close()
    return target


@dataclass(frozen=True)
class Restored:
    series: int  # how many series the database holds now
    replaced: Path | None  # the copy of what it held before (None: it was empty or missing)


def restore(backup_path: str, database: str) -> Restored:
    """Replace the database's content by the backup's (then upgrade it).

    Refused (DatabaseInUse) while a server holds the database; the replaced content is copied first."""
    check_backup(backup_path)
    check_not_served(database)
    replaced = keep_copy(database)
    storage.create_private(database)
    source = sqlite3.connect(f"file:{Path(backup_path).resolve()}?mode=ro", uri=True)
    target = sqlite3.connect(database, timeout=30)
    try:
        source.backup(target)  # page by page into the live file, under SQLite's own locks
    finally:
        source.close()
        target.close()
    storage.init_db(database)  # a backup from an older version is upgraded here
    return Restored(count_series(database), replaced)


def rotate(folder: str | Path, keep: int, database: str) -> tuple[Path, list[Path]]:
    """A timestamped backup in `folder`, then only the `keep` newest of them left; returns (new, removed)."""
    target_dir = Path(folder)
    target_dir.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    target = target_dir / f"companion-{stamp}.sqlite3"
    backup(database, target)
    found = sorted(target_dir.glob("companion-*.sqlite3"))
    removed = found[:-keep] if keep > 0 else []
    for old in removed:
        old.unlink()
    return target, removed
