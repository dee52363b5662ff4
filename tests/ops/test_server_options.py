"""How `companion serve` sizes its server: what waitress and gunicorn are told (issue 9), and how its processes
keep the garbage collector's pauses short."""

from __future__ import annotations

import os
import subprocess
import sys
import weakref
from pathlib import Path
from typing import Any

import pytest

from companion.ops import servers
from companion.ops.servers import granian, gunicorn, waitress

ROOT = Path(__file__).resolve().parents[2]


def test_waitress_refuses_big_bodies_before_buffering_and_fits_a_phone_per_connection(app):
    options = waitress.waitress_options(app, "127.0.0.1", 8101, 8)
    assert options["max_request_body_size"] == servers.largest_body(app) > app.config["MAX_CONTENT_LENGTH"]
    assert options["channel_timeout"] == servers.CHANNEL_TIMEOUT
    assert options["connection_limit"] == min(servers.CONNECTION_LIMIT, servers.raise_file_limit() - 100)
    assert options["asyncore_use_poll"] is True  # select() stops at 1,024 sockets


@pytest.mark.parametrize("workers", [2, 3, 4])
def test_each_gunicorn_worker_takes_only_its_share_of_the_phones(app, workers, monkeypatch):
    monkeypatch.setattr(servers, "raise_file_limit", lambda: 100_000)
    options = gunicorn.gunicorn_options(app, "127.0.0.1", 8101, workers, 8)
    share = options["worker_connections"]
    # Together the workers hold every phone, with a tenth to spare; no one worker takes them all.
    assert share * workers >= servers.CONNECTION_LIMIT * 1.1
    assert share < servers.CONNECTION_LIMIT
    assert share * workers <= servers.CONNECTION_LIMIT * 1.1 + workers
    assert options["worker_class"] == "gthread" and options["workers"] == workers
    assert options["keepalive"] == servers.CHANNEL_TIMEOUT
    assert options["bind"] == "127.0.0.1:8101"


def test_a_low_open_file_limit_caps_the_connections(app, monkeypatch):
    monkeypatch.setattr(servers, "raise_file_limit", lambda: 1024)
    monkeypatch.setattr(waitress, "raise_file_limit", lambda: 1024)
    assert gunicorn.gunicorn_options(app, "127.0.0.1", 8101, 2, 8)["worker_connections"] == 924
    assert waitress.waitress_options(app, "127.0.0.1", 8101, 8)["connection_limit"] == 924


def test_gunicorn_binds_an_ipv6_address_in_brackets(app):
    assert gunicorn.gunicorn_options(app, "::1", 8101, 2, 8)["bind"] == "[::1]:8101"


def test_serving_freezes_what_start_up_built_and_collects_less_often(monkeypatch: pytest.MonkeyPatch) -> None:
    import gc

    before = gc.get_threshold()
    registered: list[Any] = []
    swept: list[str] = []
    monkeypatch.setattr(os, "register_at_fork", lambda after_in_child: registered.append(after_in_child))
    monkeypatch.setattr(servers, "sweep_young_objects", lambda: swept.append("this process"))
    monkeypatch.setattr(servers, "_sweeping_after_fork", False)
    try:
        servers.settle_memory(forks=True)  # the workers and the events server will sweep, each its own
        assert gc.get_threshold() == servers.GC_THRESHOLDS
        assert gc.get_freeze_count() > 0
        servers.settle_memory(forks=True)
        assert len(registered) == 1 and swept == []
        registered[0]()
        assert swept == ["this process"]
        servers.settle_memory(forks=False)  # waitress in one process: it sweeps itself
        assert swept == ["this process"] * 2
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_a_whole_sweep_frees_a_cycle_among_frozen_objects() -> None:
    import gc

    class Node:
        other: Any = None

    a, b = Node(), Node()
    a.other, b.other = b, a
    alive = weakref.ref(a)
    try:
        servers.sweep()  # the young cycle is still referred to: it survives, frozen
        del a, b
        assert alive() is not None and gc.get_freeze_count() > 0
        servers.sweep()
        assert alive() is not None  # frozen: a young sweep does not look at it
        servers.sweep(whole=True)
        assert alive() is None
    finally:
        gc.unfreeze()


SWEPT_IN_A_FORKED_WORKER = """
import gc, os, sys, threading, time, weakref
from companion.ops import servers

servers.settle_memory(forks=True)
assert not any(t.name == "companion-young-objects" for t in threading.enumerate())  # the parent only watches
pid = os.fork()
if pid == 0:
    class Node:
        other = None
    a, b = Node(), Node()
    a.other, b.other = b, a
    alive = weakref.ref(a)
    kept = [Node() for _ in range(1000)]
    frozen = gc.get_freeze_count()
    del a, b
    time.sleep(0.5)
    sweeping = any(t.name == "companion-young-objects" for t in threading.enumerate())
    os._exit(0 if sweeping and alive() is None and gc.get_freeze_count() >= frozen + 1000 else 3)
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status))
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the workers fork on Linux and macOS only")
def test_a_forked_worker_collects_its_young_cycles_and_freezes_what_survives() -> None:
    done = subprocess.run([sys.executable, "-c", SWEPT_IN_A_FORKED_WORKER], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr


# -- granian (the default on Linux) ----------------------------------------------------------------------


@pytest.mark.parametrize("workers", [1, 2, 4])
def test_granian_holds_every_phone_and_closes_heads_that_never_finish(app, workers, monkeypatch):
    monkeypatch.setattr(servers, "raise_file_limit", lambda: 100_000)
    options = granian.granian_options(app, "0.0.0.0", 8101, 8, workers)
    # granian holds a permit per open connection: together the processes hold every phone, a tenth to spare
    assert options["backpressure"] * workers >= servers.CONNECTION_LIMIT * 1.1
    # 8 threads run the app; the others only wait for bodies (GranianGate)
    assert options["workers"] == workers and options["blocking_threads"] == 8 + granian.BODY_READERS
    assert options["http1_settings"].header_read_timeout == servers.CHANNEL_TIMEOUT * 1000
    assert options["address"] == "0.0.0.0" and options["port"] == 8101 and options["backlog"] == servers.BACKLOG
    monkeypatch.setattr(servers, "raise_file_limit", lambda: 1024)
    assert granian.granian_options(app, "::1", 8101, 8, workers)["backpressure"] == 924
    assert granian.granian_options(app, "localhost", 8101, 8, workers)["address"] in ("127.0.0.1", "::1")


def test_granian_is_the_default_on_linux_and_waitress_elsewhere(monkeypatch):
    monkeypatch.setattr(servers.sys, "platform", "linux")
    assert servers.default_server() == ("granian" if servers.granian_available() else "waitress")
    monkeypatch.setattr(servers.sys, "platform", "win32")
    assert servers.default_server() == "waitress"
    assert not servers.granian_available()


def test_the_request_log_writes_to_stderr_as_it_is_when_a_line_is_written(monkeypatch: pytest.MonkeyPatch) -> None:
    """A runner that swaps stderr (pytest does, per test) and closes the old one: no "I/O operation on closed
    file" from a request answered later."""
    import io
    import logging

    from companion.ops.servers import StderrHandler

    log = logging.getLogger("test.stderr.handler")
    log.propagate, handler = False, StderrHandler()
    log.addHandler(handler)
    try:
        first, second = io.StringIO(), io.StringIO()
        monkeypatch.setattr(sys, "stderr", first)
        log.warning("one")
        first.close()
        monkeypatch.setattr(sys, "stderr", second)
        log.warning("two")
        assert second.getvalue() == "two\n"
    finally:
        log.removeHandler(handler)
