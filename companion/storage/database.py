"""SQLite storage: the connection, named migrations, and the rows of a series.

Rounds are stored exactly as entered (JSON of `RoundInput.to_json()`); every
edit or deletion first copies the old version into `round_history`, so nothing
a user entered is ever lost. Totals are never stored: see `core.series.replay`.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
import sqlite3
import threading
import time
import weakref
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

try:
    import fcntl
except ImportError:  # Windows: no advisory locks
    fcntl = None  # type: ignore[assignment]

import sqlite_utils
from flask import Flask, current_app, has_app_context

migrations = sqlite_utils.Migrations("companion")


def dumps(data: Any) -> str:
    """JSON as stored: UTF-8 text, Cyrillic names readable."""
    return json.dumps(data, ensure_ascii=False)


@migrations()
def m001_series_and_rounds(db: sqlite_utils.Database) -> None:
    db.table("series").create(
        {
            "id": str, "ruleset": str, "options": str, "players": str, "starter": str,
            "starter_drawn": int, "edit_token_hash": str, "version": int,
            "created_at": str, "updated_at": str,
        },
        pk="id",
    )
    db.table("rounds").create(
        {"series_id": str, "n": int, "data": str, "created_at": str, "updated_at": str},
        pk=("series_id", "n"),
        foreign_keys=[("series_id", "series", "id")],
    )
    db.table("round_history").create(
        {"id": int, "series_id": str, "n": int, "action": str, "data": str, "new_data": str, "at": str},
        pk="id",
        foreign_keys=[("series_id", "series", "id")],
    )
    db.table("round_history").create_index(["series_id", "id"])


@migrations()
def m002_tables_and_shared_rules(db: sqlite_utils.Database) -> None:
    """Tables (series of the same players), their name merges, and shared house rules.

    Every series belongs to a table; each series stored before this migration
    becomes the only series of a table of its own.
    """
    db.table("tables").create({"id": str, "created_at": str}, pk="id")
    db.table("series").add_column("table_id", str)
    for row in list(db.query("select id, created_at from series")):
        table_id = secrets.token_urlsafe(9)
        db.table("tables").insert({"id": table_id, "created_at": row["created_at"]})
        db.execute("update series set table_id = ? where id = ?", [table_id, row["id"]])
    db.table("series").create_index(["table_id", "created_at"])
    db.table("name_merges").create(
        {"id": int, "table_id": str, "from_name": str, "into_name": str, "at": str, "undone_at": str},
        pk="id", foreign_keys=[("table_id", "tables", "id")],
    )
    db.table("name_merges").create_index(["table_id", "id"])
    db.table("shared_rules").create({"id": str, "ruleset": str, "options": str, "created_at": str}, pk="id")


@migrations()
def m003_idempotency_keys(db: sqlite_utils.Database) -> None:
    """Idempotency-Key of a write, stored in the write's own transaction, and the answer it got."""
    db.table("idempotency_keys").create(
        {"series_id": str, "key": str, "request_hash": str, "status": int, "body": str, "at": str},
        pk=("series_id", "key"), foreign_keys=[("series_id", "series", "id")],
    )


@migrations()
def m004_seats_drafts_confirmations(db: sqlite_utils.Database) -> None:
    """Seats (one capability link per player), the hands sent for the round being entered, and the
    players' confirmations or disputes of saved rounds.

    `series.marks` counts changes to the confirmations: a confirmation changes what the series shows
    but not its rounds, so it leaves `version` (the If-Match of round writes) alone and moves `marks`.
    """
    db.table("series").add_column("marks", int, not_null_default=0)
    db.table("seats").create(
        {"series_id": str, "player": str, "token_hash": str, "generation": int, "created_at": str},
        pk=("series_id", "player"), foreign_keys=[("series_id", "series", "id")],
    )
    db.table("seats").create_index(["token_hash"], unique=True)
    db.table("drafts").create(
        {"series_id": str, "player": str, "cards": str, "by": str, "at": str},
        pk=("series_id", "player"), foreign_keys=[("series_id", "series", "id")],
    )
    db.table("confirmations").create(
        {"series_id": str, "n": int, "player": str, "agree": int, "note": str, "round_data": str, "at": str},
        pk=("series_id", "n", "player"), foreign_keys=[("series_id", "series", "id")],
    )
    # Players joining or leaving between rounds: replayed with the rounds (`after` = rounds played before it).
    db.table("roster").create(
        {"id": int, "series_id": str, "after": int, "player": str, "joins": int, "total": int, "at": str},
        pk="id", foreign_keys=[("series_id", "series", "id")],
    )
    db.table("roster").create_index(["series_id", "id"])


@migrations()
def m005_round_ids(db: sqlite_utils.Database) -> None:
    """Each stored round gets an id of its own that moves with it (`rounds.rid`): a write without
    If-Match checks, when it retries on fresh state, that its round is still the one it meant, even
    when a neighbour with the same content has moved into its place."""
    db.execute("alter table rounds add column rid text")
    db.execute("update rounds set rid = lower(hex(randomblob(8)))")


def new_round_id() -> str:
    return secrets.token_hex(8)


IDEMPOTENCY_DAYS = 2  # a retry comes within seconds; keys older than this are forgotten


WRITE_WAIT = 10.0  # seconds in line before a write is refused (503), as SQLite's busy timeout (`connect`)


class WriterLock:
    """One writer at a time among the threads and processes that share a database file: the threads of a process
    wait on a lock that hands over at once, and one of them at a time tries `flock` on `<database>.writer` every
    0.2–2 ms for the other processes (flock cannot time out, and a write waits WRITE_WAIT at most).

    Why: SQLite lets a writer that finds the database locked sleep and try again, for 1, 2, 5, 10, … 100 ms.
    With two processes saving rounds under `load.py` a save then waited p99 132 ms (2,500 tables) to 765 ms
    (2,000 tables, a noisy hour) and up to 2.4 s for locks held a few ms (docs/benchmarks.md, «Writers in
    line»). Without `fcntl` (Windows) or for a database with no file, the thread lock alone."""

    def __init__(self, path: str) -> None:
        self.path = None if fcntl is None or path == ":memory:" or path.startswith("file:") else f"{path}.writer"
        self.pid = -1
        self.threads = threading.Lock()

    @contextlib.contextmanager
    def held(self, wait: float = WRITE_WAIT) -> Iterator[None]:
        """Inside, this writer alone; after `wait` seconds in line, "database is locked" (a 503), as SQLite says."""
        if self.pid != os.getpid():  # forked: a thread lock of its own (one held at the fork would stay held)
            self.pid, self.threads = os.getpid(), threading.Lock()
        deadline = time.monotonic() + wait
        if not self.threads.acquire(timeout=wait):
            raise sqlite3.OperationalError("database is locked")
        try:
            if self.path is None:  # no file to lock (or no fcntl): the threads' lock is the line
                yield
                return
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)  # opened for each write: nothing kept open
            try:
                self._file_lock(fd, deadline)
                yield
            finally:
                os.close(fd)  # closing the file lets the lock go
        finally:
            self.threads.release()

    @staticmethod
    def _file_lock(fd: int, deadline: float) -> None:
        """The lock between processes: one thread of each waits, trying every 0.2–2 ms (flock cannot time out)."""
        assert fcntl is not None
        pause = 0.0002
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise sqlite3.OperationalError("database is locked") from None
                time.sleep(pause)
                pause = min(pause * 2, 0.002)


_writer_locks: dict[str, WriterLock] = {}
_writer_lock_of: weakref.WeakKeyDictionary[sqlite_utils.Database, WriterLock] = weakref.WeakKeyDictionary()


@contextlib.contextmanager
def writing(db: sqlite_utils.Database) -> Iterator[None]:
    """The one way to write: a transaction that waits in line for the database (`WriterLock`) and takes SQLite's
    write lock before it reads (BEGIN IMMEDIATE: a deferred one that read first could not wait for another
    writer). Inside another, a savepoint of it."""
    if db.conn.in_transaction:
        with db.atomic():
            yield
        return
    lock = _writer_lock_of.get(db)
    with lock.held() if lock is not None else contextlib.nullcontext():
        db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            db.conn.rollback()
            raise
        db.execute("COMMIT")


def connect(path: str) -> sqlite_utils.Database:
    conn = sqlite3.connect(path, timeout=WRITE_WAIT, isolation_level=None, check_same_thread=False)
    db = sqlite_utils.Database(conn)
    _writer_lock_of[db] = _writer_locks.setdefault(path, WriterLock(path))
    db.execute("PRAGMA foreign_keys = ON")
    # In WAL mode NORMAL never corrupts the database; a power cut may lose the last commit.
    db.execute("PRAGMA synchronous = NORMAL")
    return db


def get_db() -> sqlite_utils.Database:
    """This thread's connection, kept open between requests.

    Reusing connections matters: closing the last connection to a WAL database
    checkpoints it, which would cost every request several milliseconds.
    """
    return connection(current_app)


def connection(app: Flask) -> sqlite_utils.Database:
    """`get_db` for a given app, outside a request context (the idle-poll path, `web.http.fast_poll`)."""
    local = app.extensions["companion.db"]
    db: sqlite_utils.Database | None = getattr(local, "db", None)
    if db is None:
        db = local.db = connect(app.config["DATABASE"])
    return db


def end_request(_error: BaseException | None = None) -> None:
    """Never leave a transaction open on a kept connection."""
    local = current_app.extensions["companion.db"]
    db = getattr(local, "db", None)
    if db is not None and db.conn.in_transaction:
        db.conn.rollback()


APPLICATION_ID = 0x31303121  # "101!": PRAGMA application_id marks the file as this app's database


class DatabaseRefused(SystemExit):
    """The file is not this app's database, or comes from a newer version: one line says which.

    A SystemExit, so whatever starts the app (`companion serve`, a WSGI server) stops with that
    line on stderr and exit status 1, not with a traceback."""

    def __init__(self, message: str) -> None:
        super().__init__(f"companion: {message}")


def migration_names() -> list[str]:
    return [m.name for m in migrations._migrations]


def applied_migrations(db: sqlite_utils.Database) -> list[str]:
    return [m.name for m in migrations.applied(db)]


def check_database(db: sqlite_utils.Database, path: str) -> None:
    """Refuse a file that is not this app's database or that a newer version has upgraded."""
    try:
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        tables = set(db.table_names())
        applied = applied_migrations(db)
    except sqlite3.DatabaseError as error:
        raise DatabaseRefused(f"{path} is not a database of this app ({error}); "
                              "point DATABASE or COMPANION_INSTANCE at another file.") from None
    if app_id not in (0, APPLICATION_ID) or (tables and not applied):
        raise DatabaseRefused(f"{path} is not a database of this app (it holds other data); "
                              "point DATABASE or COMPANION_INSTANCE at another file.")
    unknown = [name for name in applied if name not in migration_names()]
    if unknown:
        raise DatabaseRefused(f"{path} was upgraded by a newer version of the app (migration {unknown[-1]}); "
                              "install that version, or restore a backup made by this one.")


def create_private(path: str) -> None:
    """Create the database file readable by its owner only (0600), unless it exists."""
    if path == ":memory:" or path.startswith("file:") or os.path.exists(path):
        return
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))


def init_db(path: str) -> None:
    """Create or upgrade the database; raises DatabaseRefused for a foreign or newer file."""
    try:
        create_private(path)
        db = connect(path)
    except OSError as error:
        raise DatabaseRefused(f"cannot open the database {path}: {error}") from None
    except sqlite3.DatabaseError as error:
        raise DatabaseRefused(f"{path} is not a database of this app ({error}); "
                              "point DATABASE or COMPANION_INSTANCE at another file.") from None
    try:
        check_database(db, path)
        if path != ":memory:":
            db.enable_wal()
        migrations.apply(db)
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    finally:
        db.close()


def init_app(app: Flask) -> None:
    init_db(app.config["DATABASE"])
    app.extensions["companion.db"] = threading.local()
    app.teardown_appcontext(end_request)


def note_write_failure(app: Flask, message: str) -> None:
    """Remember that the storage refused a write (the health check reports it until a write succeeds)."""
    app.extensions["companion.write_failure"] = message


def last_write_failure(app: Flask) -> str | None:
    failure: str | None = app.extensions.get("companion.write_failure")
    return failure


def _note_write_ok() -> None:
    if has_app_context():
        current_app.extensions.pop("companion.write_failure", None)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class StaleVersion(Exception):
    """Someone else saved first; nothing was written."""


@dataclass(frozen=True)
class SeriesRow:
    id: str
    ruleset: str
    options: dict[str, Any]
    players: list[str]
    starter: str
    starter_drawn: bool
    edit_token_hash: str
    version: int
    created_at: str
    updated_at: str
    rounds: list[dict[str, Any]]
    table_id: str = ""
    marks: int = 0  # changes to the players' confirmations (see m004)
    round_ids: list[str] = field(default_factory=list)  # the stable id of each round, in order

    @property
    def stamp(self) -> str:
        """What every view of the series depends on: its version, and its confirmations once there are any."""
        return str(self.version) if not self.marks else f"{self.version}.{self.marks}"

    def token_matches(self, token: str) -> bool:
        return secrets.compare_digest(self.edit_token_hash, hash_token(token))


def new_table(db: sqlite_utils.Database, stamp: str | None = None) -> str:
    """Store a new, empty table; returns its id."""
    table_id = secrets.token_urlsafe(9)  # 72 bits
    db.table("tables").insert({"id": table_id, "created_at": stamp or now()})
    return table_id


def insert_series(db: sqlite_utils.Database, *, ruleset: str, options: dict[str, Any], players: list[str],
                  starter: str, starter_drawn: bool, table_id: str | None = None,
                  rounds: list[dict[str, Any]] | None = None,
                  history: list[dict[str, Any]] | None = None,
                  roster: list[dict[str, Any]] | None = None) -> tuple[str, str]:
    """Store a new series; returns (id, edit_token). The token itself is never stored.

    Without `table_id` the series starts a table of its own. `rounds` and
    `history` (an imported series) are stored as given, in the same transaction.
    """
    series_id = secrets.token_urlsafe(9)  # 72 bits
    token = secrets.token_urlsafe(24)  # 192 bits
    stamp = now()
    with writing(db):
        if table_id is None:
            table_id = new_table(db, stamp)
        db.table("series").insert({"table_id": table_id,
            "id": series_id, "ruleset": ruleset, "options": json.dumps(options, ensure_ascii=False),
            "players": json.dumps(players, ensure_ascii=False), "starter": starter,
            "starter_drawn": int(starter_drawn), "edit_token_hash": hash_token(token), "version": 1,
            "created_at": stamp, "updated_at": stamp,
        })
        for n, data in enumerate(rounds or [], start=1):
            db.execute("insert into rounds (series_id, n, data, created_at, updated_at, rid) values (?, ?, ?, ?, ?, ?)",
                       [series_id, n, dumps(data), stamp, stamp, new_round_id()])
        for h in history or []:
            db.execute(
                "insert into round_history (series_id, n, action, data, new_data, at) values (?, ?, ?, ?, ?, ?)",
                [series_id, h["n"], h["action"], dumps(h["before"]) if h["before"] is not None else None,
                 dumps(h["after"]) if h["after"] is not None else None, h["at"]],
            )
        for c in roster or []:
            db.execute("insert into roster (series_id, after, player, joins, total, at) values (?, ?, ?, ?, ?, ?)",
                       [series_id, c["after"], c["player"], int(c["joins"]), c["total"], stamp])
    _note_write_ok()
    return series_id, token


def load_series(db: sqlite_utils.Database, series_id: str, *, with_rounds: bool = True) -> SeriesRow | None:
    """The series row, with its rounds unless `with_rounds` is false (then `rounds` is empty)."""
    rows = list(db.query("select * from series where id = ?", [series_id]))
    if not rows:
        return None
    row = rows[0]
    found = SeriesRow(
        id=row["id"], ruleset=row["ruleset"], options=json.loads(row["options"]), players=json.loads(row["players"]),
        starter=row["starter"], starter_drawn=bool(row["starter_drawn"]), edit_token_hash=row["edit_token_hash"],
        version=row["version"], created_at=row["created_at"], updated_at=row["updated_at"], rounds=[],
        table_id=row["table_id"] or "", marks=row.get("marks") or 0,
    )
    return with_rounds_of(db, found) if with_rounds else found


def load_rounds(db: sqlite_utils.Database, series_id: str) -> list[dict[str, Any]]:
    rows = db.query("select data from rounds where series_id = ? order by n", [series_id])
    return [json.loads(r["data"]) for r in rows]


def with_rounds_of(db: sqlite_utils.Database, row: SeriesRow) -> SeriesRow:
    """`row` with its stored rounds and their ids."""
    rows = list(db.execute("select data, rid from rounds where series_id = ? order by n", [row.id]).fetchall())
    return replace(row, rounds=[json.loads(data) for data, _ in rows], round_ids=[rid for _, rid in rows])


def _ids_after(series: SeriesRow, action: str, n: int) -> list[str]:
    """The round ids once `action` is done to round n: an edited round keeps its id, a new one gets one."""
    ids = list(series.round_ids)
    if len(ids) != len(series.rounds):  # loaded without ids: nothing to keep
        ids = [new_round_id() for _ in series.rounds]
    if action == "add":
        ids.append(new_round_id())
    elif action == "delete":
        del ids[n - 1]
    elif action == "restore":
        ids.insert(n - 1, new_round_id())
    return ids


class DuplicateKey(Exception):
    """The Idempotency-Key was stored by a concurrent request first; nothing was written."""


def save_rounds(
    db: sqlite_utils.Database,
    series: SeriesRow,
    new_rounds: list[dict[str, Any]],
    *,
    action: str,
    n: int,
    idempotency: tuple[str, str] | None = None,
) -> SeriesRow:
    """Replace the stored rounds by `new_rounds` in one transaction; returns the new row.

    The change is logged in `round_history` with the round's old and new data,
    so nothing entered is lost. Raises StaleVersion, writing nothing, if the
    series changed since it was loaded. `idempotency` (key, request hash) is
    stored in the same transaction, so a retried request finds it exactly when
    its first attempt was stored.
    """
    stamp = now()
    old = series.rounds
    old_ids, new_ids = series.round_ids, _ids_after(series, action, n)
    if len(new_ids) != len(new_rounds):  # not one of the four actions on one round: every round is new
        new_ids = [new_round_id() for _ in new_rounds]
    with writing(db):
        cursor = db.execute(
            "update series set version = version + 1, updated_at = ? where id = ? and version = ?",
            [stamp, series.id, series.version],
        )
        if cursor.rowcount != 1:
            raise StaleVersion()
        if idempotency is not None:
            try:
                db.execute(
                    "insert into idempotency_keys (series_id, key, request_hash, at) values (?, ?, ?, ?)",
                    [series.id, idempotency[0], idempotency[1], stamp],
                )
            except sqlite3.IntegrityError:
                raise DuplicateKey() from None
            cutoff = (datetime.now(UTC) - timedelta(days=IDEMPOTENCY_DAYS)).isoformat(timespec="seconds")
            db.execute("delete from idempotency_keys where series_id = ? and at < ?", [series.id, cutoff])
        for i, after in enumerate(new_rounds):
            if i >= len(old) or old[i] != after or i >= len(old_ids) or old_ids[i] != new_ids[i]:
                db.execute(
                    "insert into rounds (series_id, n, data, created_at, updated_at, rid) values (?, ?, ?, ?, ?, ?) "
                    "on conflict (series_id, n) do update set data = excluded.data, "
                    "updated_at = excluded.updated_at, rid = excluded.rid",
                    [series.id, i + 1, dumps(after), stamp, stamp, new_ids[i]],
                )
        if len(new_rounds) < len(old):
            db.execute("delete from rounds where series_id = ? and n > ?", [series.id, len(new_rounds)])
        if action in ("delete", "restore"):  # joins and leaves stay between the same rounds
            db.execute(f"update roster set after = after {'-' if action == 'delete' else '+'} 1 "
                       "where series_id = ? and after >= ?", [series.id, n])
        if action != "add":  # a corrected round (and, when rounds move, every later one) loses its confirmations
            db.execute(f"delete from confirmations where series_id = ? and n {'=' if action == 'edit' else '>='} ?",
                       [series.id, n])
        if action == "add":  # the hands sent for this round are used: the next round starts from an empty draft
            db.execute("delete from drafts where series_id = ?", [series.id])
        db.execute(
            "insert into round_history (series_id, n, action, data, new_data, at) values (?, ?, ?, ?, ?, ?)",
            [series.id, n, action, dumps(old[n - 1]) if n <= len(old) and action != "restore" else None,
             dumps(new_rounds[n - 1]) if action != "delete" else None, stamp],
        )
    _note_write_ok()
    return replace(series, version=series.version + 1, updated_at=stamp, rounds=new_rounds, round_ids=new_ids)


@dataclass(frozen=True)
class Mark:
    """A player's word on a saved round: agreed, or disputed with an optional note."""

    agree: bool
    note: str


def load_marks(db: sqlite_utils.Database, series_id: str) -> dict[int, dict[str, Mark]]:
    """Round number → player → their confirmation or dispute, in the order given."""
    marks: dict[int, dict[str, Mark]] = {}
    for r in db.query("select n, player, agree, note from confirmations where series_id = ? order by at, rowid",
                      [series_id]):
        marks.setdefault(r["n"], {})[r["player"]] = Mark(bool(r["agree"]), r["note"] or "")
    return marks


def load_roster(db: sqlite_utils.Database, series_id: str) -> list[dict[str, Any]]:
    """Players who joined or left, in the order it happened."""
    return list(db.query("select after, player, joins, total from roster where series_id = ? order by id",
                         [series_id]))


def change_roster(db: sqlite_utils.Database, series: SeriesRow, *, after: int, player: str, joins: bool,
                  total: int) -> None:
    """Store a join or a leave as a new version of the series; StaleVersion if it changed since it was loaded."""
    stamp = now()
    with writing(db):
        cursor = db.execute("update series set version = version + 1, updated_at = ? where id = ? and version = ?",
                            [stamp, series.id, series.version])
        if cursor.rowcount != 1:
            raise StaleVersion()
        db.execute("insert into roster (series_id, after, player, joins, total, at) values (?, ?, ?, ?, ?, ?)",
                   [series.id, after, player, int(joins), total, stamp])
        if not joins:
            db.execute("delete from drafts where series_id = ? and player = ?", [series.id, player])
    _note_write_ok()


def idempotent_answer(db: sqlite_utils.Database, series_id: str, key: str) -> dict[str, Any] | None:
    """The stored write with this Idempotency-Key: request_hash, status and body (None until answered)."""
    rows = list(
        db.query(
            "select request_hash, status, body from idempotency_keys where series_id = ? and key = ?", [series_id, key]
        )
    )
    return rows[0] if rows else None


def record_answer(db: sqlite_utils.Database, series_id: str, key: str, status: int, body: str) -> None:
    """Keep the answer a keyed write got, so a retry gets the same one."""
    db.execute(
        "update idempotency_keys set status = ?, body = ? where series_id = ? and key = ?",
        [status, body, series_id, key],
    )


def round_history(db: sqlite_utils.Database, series_id: str) -> list[dict[str, Any]]:
    """Every change to the rounds, oldest first: action add/edit/delete, round number, time, old and new data."""
    return [
        {
            "n": r["n"],
            "action": r["action"],
            "at": r["at"],
            "before": json.loads(r["data"]) if r["data"] else None,
            "after": json.loads(r["new_data"]) if r["new_data"] else None,
        }
        for r in db.query("select * from round_history where series_id = ? order by id", [series_id])
    ]


def shared_folder(app: Flask) -> Path:
    """Where state the worker processes share sits beside the database (the PDF cache, the rate-limit counters):
    the database file's folder, or the instance folder for a database that is no file."""
    path = app.config["DATABASE"]
    if path == ":memory:" or path.startswith("file:"):
        return Path(app.instance_path)
    return Path(path).resolve().parent
