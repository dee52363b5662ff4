"""How `companion serve` sizes its server: what waitress and gunicorn are told (issue 9)."""

from __future__ import annotations

import pytest

from companion.ops import server


def test_waitress_refuses_big_bodies_before_buffering_and_fits_a_phone_per_connection(app):
    options = server.waitress_options(app, "127.0.0.1", 8101, 8)
    assert options["max_request_body_size"] == server.largest_body(app) > app.config["MAX_CONTENT_LENGTH"]
    assert options["channel_timeout"] == server.CHANNEL_TIMEOUT
    assert options["connection_limit"] == min(server.CONNECTION_LIMIT, server.raise_file_limit() - 100)
    assert options["asyncore_use_poll"] is True  # select() stops at 1,024 sockets


@pytest.mark.parametrize("workers", [2, 3, 4])
def test_each_gunicorn_worker_takes_only_its_share_of_the_phones(app, workers, monkeypatch):
    monkeypatch.setattr(server, "raise_file_limit", lambda: 100_000)
    options = server.gunicorn_options(app, "127.0.0.1", 8101, workers, 8)
    share = options["worker_connections"]
    # Together the workers hold every phone, with a tenth to spare; no one worker takes them all.
    assert share * workers >= server.CONNECTION_LIMIT * 1.1
    assert share < server.CONNECTION_LIMIT
    assert share * workers <= server.CONNECTION_LIMIT * 1.1 + workers
    assert options["worker_class"] == "gthread" and options["workers"] == workers
    assert options["keepalive"] == server.CHANNEL_TIMEOUT
    assert options["bind"] == "127.0.0.1:8101"


def test_a_low_open_file_limit_caps_the_connections(app, monkeypatch):
    monkeypatch.setattr(server, "raise_file_limit", lambda: 1024)
    assert server.gunicorn_options(app, "127.0.0.1", 8101, 2, 8)["worker_connections"] == 924
    assert server.waitress_options(app, "127.0.0.1", 8101, 8)["connection_limit"] == 924


def test_gunicorn_binds_an_ipv6_address_in_brackets(app):
    assert server.gunicorn_options(app, "::1", 8101, 2, 8)["bind"] == "[::1]:8101"


def test_serving_freezes_what_start_up_built_and_collects_less_often():
    import gc

    before = gc.get_threshold()
    try:
        server.settle_memory()
        assert gc.get_threshold() == server.GC_THRESHOLDS
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
