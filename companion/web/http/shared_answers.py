"""Finished answers that every process of the server shares: one render of a fragment per version and language.

After a save, every phone of the table fetches the changed standings fragment. Under `companion serve`
the phones' connections are spread over the processes, so a cache in each process's memory renders the
same fragment once per process; and even its hits went through Flask's whole request path and gzip
again. Here the idle-poll layer (`fast_poll`) keeps the answer Flask made the first time — status line,
headers and body, exactly as sent — in a file beside the database, under a slot that names what the
answer depends on but the version (`series.shared_slot`: series, language, reader's fragment, gzip),
with the full ETag inside. A later request of the same slot holding an older ETag gets those bytes back
from any process; a newer version in the slot makes the old one a miss, and the next render replaces it.
So the files stay one per series and language, and nothing needs removing.

One render per slot at a time (`making`): when a change is pushed, every phone of the table asks in the same
instant; the first takes the slot's lock (a file lock, so across processes) and renders, the others wait for
it and are answered with what it kept.

A file is written whole under a temporary name and renamed into place: a reader finds a finished answer
or none. The folder is emptied when the app is built (before the server's processes fork), so a
restored database or a new build of the templates never meets answers of the old ones. An app whose
database is no file (":memory:") has no shared folder and keeps nothing here.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import threading
from collections.abc import Hashable, Iterator
from pathlib import Path

from flask import Flask

from companion.storage.database import shared_folder

Answer = tuple[str, list[tuple[str, str]], bytes]  # status line, headers, body


class SharedAnswers:
    """Answers by slot, as files of one folder; `kept` counts the answers this process wrote (tests)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.locks = folder.with_name(f"{folder.name}-locks")  # beside the answers: one lock file per slot
        self.kept = 0

    def path(self, slot: Hashable) -> Path:
        name = hashlib.blake2b(json.dumps(slot, ensure_ascii=False).encode(), digest_size=16).hexdigest()
        return self.folder / name

    def get(self, slot: Hashable, etag: str) -> Answer | None:
        """The answer kept in `slot` for exactly `etag`, or None."""
        try:
            data = self.path(slot).read_bytes()
        except OSError:
            return None
        head, _, body = data.partition(b"\n")
        try:
            kept_etag, status, headers = json.loads(head)
        except ValueError:
            return None
        if kept_etag != etag:
            return None
        return status, [(str(k), str(v)) for k, v in headers], body

    @contextlib.contextmanager
    def making(self, slot: Hashable) -> Iterator[None]:
        """Hold the slot while its answer is made: another request of the slot (any process) waits here."""
        try:
            import fcntl
        except ImportError:  # Windows: each request renders its own
            yield
            return
        try:
            lock = open(self.locks / self.path(slot).name, "wb")  # noqa: SIM115  # closed below, after the unlock
        except OSError:
            yield
            return
        try:
            fcntl.flock(lock, fcntl.LOCK_EX)
            yield
        finally:
            lock.close()  # closing the file releases the lock

    def put(self, slot: Hashable, etag: str, answer: Answer) -> None:
        """Keep `answer` in `slot`; a folder that cannot be written (disk full, removed) only means later renders."""
        status, headers, body = answer
        head = json.dumps([etag, status, headers], ensure_ascii=False).encode()
        # one temporary name per thread (a thread writes one answer at a time); a leftover of a crash is overwritten
        temporary = self.folder / f".answer-{os.getpid()}-{threading.get_ident()}"
        for _attempt in range(2):
            try:
                with open(temporary, "wb") as out:
                    out.write(head + b"\n" + body)
                os.replace(temporary, self.path(slot))
                self.kept += 1
                return
            except FileNotFoundError:  # the folder was emptied by another start (a `companion` command): again
                with contextlib.suppress(OSError):
                    self.folder.mkdir(parents=True, exist_ok=True)
            except OSError:
                break
        with contextlib.suppress(OSError):
            os.remove(temporary)


def init_app(app: Flask) -> SharedAnswers | None:
    """The app's shared answers in `answer-cache` beside the database, emptied now; None for a database in memory."""
    path = str(app.config["DATABASE"])
    if path == ":memory:" or path.startswith("file:") or not app.config.get("SHARED_ANSWERS", True):
        return None
    folder = shared_folder(app) / "answer-cache"
    shutil.rmtree(folder, ignore_errors=True)
    answers = SharedAnswers(folder)
    with contextlib.suppress(OSError):
        folder.mkdir(parents=True, exist_ok=True)
        answers.locks.mkdir(exist_ok=True)
    return answers
