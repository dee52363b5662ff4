"""Writers wait in line for the database (`storage.writing`): across threads and processes, each one woken when
its turn comes instead of SQLite's sleep-and-retry, and a write inside another is a savepoint of it."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.storage import database as storage

ROOT = Path(__file__).resolve().parents[2]
HOLDER = """
import sys
from companion.storage import database as storage
db = storage.connect(sys.argv[1])
with storage.writing(db):
    db.execute("insert into log (who) values ('the other process')")
    print("holding", flush=True)
    sys.stdin.readline()
"""


@contextlib.contextmanager
def another_process_writing(path: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process inside `storage.writing` on `path` (its row written, not committed) until a line is sent to
    its stdin; killed at the end if still there."""
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], cwd=ROOT, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "holding\n"
        yield holder
    finally:
        if holder.poll() is None:
            holder.kill()
        holder.wait()


def made(path: Path) -> storage.sqlite_utils.Database:
    db = storage.connect(str(path))
    db.execute("pragma journal_mode = wal")
    db.execute("create table if not exists log (n integer primary key, who text)")
    return db


@pytest.mark.skipif(storage.fcntl is None, reason="the lock between processes is flock (not on Windows)")
def test_a_writer_of_another_process_waits_its_turn_and_then_writes(tmp_path: Path) -> None:
    db = made(tmp_path / "shared.sqlite3")
    with another_process_writing(tmp_path / "shared.sqlite3") as holder:
        failed: list[BaseException] = []

        def write() -> None:
            try:
                with storage.writing(db):
                    db.execute("insert into log (who) values ('this process')")
            except BaseException as error:  # noqa: BLE001  # reported by the assertion below
                failed.append(error)

        writer = threading.Thread(target=write)
        writer.start()
        writer.join(0.5)
        assert writer.is_alive()  # in line, not refused
        assert holder.stdin is not None
        holder.stdin.write("done\n")
        holder.stdin.flush()
        writer.join(30)
        assert not writer.is_alive() and failed == []
    assert [r["who"] for r in db.query("select who from log order by n")] == ["the other process", "this process"]


def test_threads_write_one_at_a_time_and_a_write_inside_another_is_its_savepoint(tmp_path: Path) -> None:
    db = made(tmp_path / "threads.sqlite3")
    inside: list[int] = []
    lock = threading.Lock()

    def write(k: int) -> None:
        own = storage.connect(str(tmp_path / "threads.sqlite3"))  # each thread its own connection, as `get_db`
        for _ in range(20):
            with storage.writing(own):
                with lock:
                    inside.append(k)
                    assert len(set(inside)) == 1  # nobody else inside
                own.execute("insert into log (who) values (?)", [f"thread {k}"])
                with lock:
                    inside.remove(k)

    threads = [threading.Thread(target=write, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert db.execute("select count(*) from log").fetchone()[0] == 80
    with storage.writing(db):
        db.execute("insert into log (who) values ('kept')")
        with pytest.raises(ValueError), storage.writing(db):
            db.execute("insert into log (who) values ('undone')")
            raise ValueError
    assert [r["who"] for r in db.query("select who from log where n > 80")] == ["kept"]


@pytest.mark.skipif(storage.fcntl is None, reason="the lock between processes is flock (not on Windows)")
def test_a_writer_kept_waiting_too_long_is_refused_as_sqlite_refuses_it(tmp_path: Path) -> None:
    db = made(tmp_path / "held.sqlite3")
    with another_process_writing(tmp_path / "held.sqlite3"):
        lock = storage.WriterLock(str(tmp_path / "held.sqlite3"))
        with pytest.raises(storage.sqlite3.OperationalError, match="database is locked"), lock.held(wait=0.2):
            pass  # never reached: the other process holds the line
    assert db.execute("select count(*) from log").fetchone()[0] == 0  # the holder never committed
