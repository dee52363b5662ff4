"""Rate-limit counters every worker process of the app shares: a `limits` storage over a SQLite file.

Flask-Limiter's `memory://` storage counts per process, so under `companion serve
--workers N` a client had N times its limit. Redis or memcached would share the
counters, but a club's server runs one machine and no such service; SQLite is
already there. `sqlite:///<path>` (the default: `ratelimits.sqlite3` beside the
series database, apart from the series database so that its backups and locks never
meet the counters) keeps one row per counter; an increment is one statement, so two
workers counting at once both count. Fixed windows only (Flask-Limiter's default
strategy); the counters are not worth an fsync (`synchronous = OFF`): a crash of the
machine may forget a minute's counts, nothing else.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from typing import Any

from limits.storage import Storage

SCHEME = "sqlite"
SWEEP_EVERY = 1000  # increments between removals of expired counters (per process)


class SQLiteStorage(Storage):
    """`limits` storage for `sqlite:///absolute/path.sqlite3`: counters shared by the processes using the file."""

    STORAGE_SCHEME = [SCHEME]

    def __init__(self, uri: str, wrap_exceptions: bool = False, **options: Any) -> None:
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self.path = uri.removeprefix(f"{SCHEME}://")
        self.local = threading.local()
        self.increments = 0
        self.connection().execute(
            "create table if not exists counters (key text primary key, count integer not null, expires real not null)"
        )

    @property
    def base_exceptions(self) -> type[Exception]:
        return sqlite3.Error

    def connection(self) -> sqlite3.Connection:
        """This thread's connection, opened again in a forked worker (a connection never crosses a fork)."""
        pid, conn = getattr(self.local, "opened", (None, None))
        if conn is None or pid != os.getpid():
            conn = sqlite3.connect(self.path, timeout=5, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = OFF")
            self.local.opened = (os.getpid(), conn)
        return conn

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        """Add `amount` to the counter, which starts afresh (expiring in `expiry` seconds) once expired."""
        now = time.time()
        row = self.connection().execute(
            "insert into counters (key, count, expires) values (?1, ?2, ?3) on conflict (key) do update set "
            "count = case when expires <= ?4 then ?2 else count + ?2 end, "
            "expires = case when expires <= ?4 then ?3 else expires end returning count",
            [key, amount, now + expiry, now],
        ).fetchone()
        self.increments += 1
        if self.increments % SWEEP_EVERY == 0:
            self.connection().execute("delete from counters where expires <= ?", [now])
        return int(row[0])

    def get(self, key: str) -> int:
        row = self.connection().execute(
            "select count from counters where key = ? and expires > ?", [key, time.time()]).fetchone()
        return int(row[0]) if row else 0

    def get_expiry(self, key: str) -> float:
        row = self.connection().execute(
            "select expires from counters where key = ? and expires > ?", [key, time.time()]).fetchone()
        return float(row[0]) if row else time.time()

    def check(self) -> bool:
        try:
            self.connection().execute("select 1").fetchone()
        except sqlite3.Error:
            return False
        return True

    def reset(self) -> int | None:
        return self.connection().execute("delete from counters").rowcount

    def clear(self, key: str) -> None:
        self.connection().execute("delete from counters where key = ?", [key])


def storage_uri(path: str) -> str:
    return f"{SCHEME}://{path}"
