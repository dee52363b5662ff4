"""The idle-poll layer (`web.http.fast_poll`) answers exactly what Flask answers, only sooner.

Every request is sent twice to the same app and database — once with the layer on, once with
FAST_POLL = False (Flask alone) — and the two answers must be equal: status, headers (the Date a
server adds aside), body and the request-log line (its milliseconds aside). The layer must answer
the idle polls itself and leave everything else to Flask.
"""

from __future__ import annotations

import gc
import logging
import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import EnvironBuilder

from companion import create_app

PLAYERS = ["Аня", "Борис", "Вера"]


def layer(app: Flask) -> Any:
    return app.extensions["companion.fast_poll"]


def answer(response: Any) -> tuple[int, list[tuple[str, str]], bytes]:
    headers = sorted((k, v) for k, v in response.headers.items() if k != "Date")
    return response.status_code, headers, response.get_data()


def both(app: Flask, client: FlaskClient, method: str, url: str, caplog: pytest.LogCaptureFixture,
         **kwargs: Any) -> tuple[bool, tuple[int, list[tuple[str, str]], bytes]]:
    """(answered by the layer, the answer) after checking that Flask alone answers the same, log line included."""
    answers, lines = [], []
    before = layer(app).answered
    for fast in (True, False):
        app.config["FAST_POLL"] = fast
        caplog.clear()
        with caplog.at_level(logging.INFO, logger="companion.requests"):
            answers.append(answer(client.open(url, method=method, **kwargs)))
        lines.append([re.sub(r"[\d.]+ms$", "…ms", r.getMessage()) for r in caplog.records
                      if r.name == "companion.requests"])
        if fast:
            answered = layer(app).answered > before
    app.config["FAST_POLL"] = True
    assert answers[0] == answers[1], url
    assert lines[0] == lines[1] and len(lines[0]) == 1
    return answered, answers[0]


@pytest.fixture
def made(client: FlaskClient) -> dict[str, Any]:
    return client.post("/api/v1/series", json={"players": PLAYERS, "starter": "Аня"}).get_json()


def etag_of(client: FlaskClient, url: str, **kwargs: Any) -> str:
    return str(client.get(url, **kwargs).headers["ETag"])


HX = {"HX-Request": "true"}
LANGUAGE_CHOICES: list[tuple[dict[str, str], dict[str, str]]] = [
    ({}, {}),  # Russian by default
    ({"lang": "en"}, {}),
    ({"lang": "ru"}, {"Accept-Language": "en"}),
    ({}, {"Accept-Language": "en-GB,en;q=0.9"}),
    ({}, {"Accept-Language": "de, fr;q=0.5"}),
    ({"lang": "xx"}, {"Accept-Language": "en"}),
]


@pytest.mark.parametrize(("cookies", "headers"), LANGUAGE_CHOICES)
@pytest.mark.parametrize("kind", [HX, {}, {"HX-Request": "true", "HX-Boosted": "true"}])
def test_a_standings_poll_is_answered_as_flask_answers_it(app: Flask, client: FlaskClient, made: dict[str, Any],
                                                          caplog: pytest.LogCaptureFixture, kind: dict[str, str],
                                                          cookies: dict[str, str], headers: dict[str, str]) -> None:
    url = f"/series/{made['id']}"
    for name, value in cookies.items():
        client.set_cookie(name, value)
    asked = {**kind, **headers}
    held = etag_of(client, url, headers=asked)
    answered, (status, _, body) = both(app, client, "GET", url, caplog, headers={**asked, "If-None-Match": held})
    assert (answered, status, body) == (True, 304, b"")
    strong = held.removeprefix("W/")  # a weak validator matches the strong form too, as in Flask
    answered, (status, _, _) = both(app, client, "GET", url, caplog, headers={**asked, "If-None-Match": strong})
    assert (answered, status) == (True, 304)
    listed = f'"old", {held}'
    answered, (status, _, _) = both(app, client, "GET", url, caplog, headers={**asked, "If-None-Match": listed})
    assert (answered, status) == (True, 304)


def test_the_language_and_edit_rights_change_the_answer_as_in_flask(app: Flask, client: FlaskClient,
                                                                    made: dict[str, Any],
                                                                    caplog: pytest.LogCaptureFixture) -> None:
    url = f"/series/{made['id']}"
    russian = etag_of(client, url, headers=HX)
    # the English reader's ETag does not answer a Russian poll (and the other way round)
    answered, (status, _, _) = both(app, client, "GET", url, caplog,
                                    headers={**HX, "If-None-Match": russian, "Accept-Language": "en"})
    assert (answered, status) == (False, 200)
    client.set_cookie(f"e_{made['id']}", made["edit_token"], path=f"/series/{made['id']}")
    answered, (status, _, _) = both(app, client, "GET", url, caplog, headers={**HX, "If-None-Match": russian})
    assert (answered, status) == (False, 200)  # the editor's fragment has buttons: another ETag
    editor = etag_of(client, url, headers=HX)
    answered, (status, _, _) = both(app, client, "GET", url, caplog, headers={**HX, "If-None-Match": editor})
    assert (answered, status) == (True, 304)
    client.set_cookie(f"e_{made['id']}", "not-the-token", path=f"/series/{made['id']}")
    answered, (status, _, _) = both(app, client, "GET", url, caplog, headers={**HX, "If-None-Match": editor})
    assert (answered, status) == (False, 200)


def test_a_save_makes_the_poll_fall_through_to_a_fresh_answer(app: Flask, client: FlaskClient, made: dict[str, Any],
                                                              caplog: pytest.LogCaptureFixture) -> None:
    url, draft_url = f"/series/{made['id']}", f"/api/v1/series/{made['id']}/draft"
    held, draft_held = etag_of(client, url, headers=HX), etag_of(client, draft_url)
    client.post(f"/api/v1/series/{made['id']}/rounds", headers={"Authorization": f"Bearer {made['edit_token']}"},
                json={"winner": "Аня", "finishing_card": "9h", "typed_points": {"Борис": 3, "Вера": 4}})
    answered, (status, _, body) = both(app, client, "GET", url, caplog, headers={**HX, "If-None-Match": held})
    assert (answered, status) == (False, 200) and "Борис".encode() in body
    answered, (status, _, body) = both(app, client, "GET", draft_url, caplog, headers={"If-None-Match": draft_held})
    assert (answered, status) == (False, 200) and b'"round":2' in body.replace(b" ", b"")


def test_a_draft_poll_is_answered_as_flask_answers_it(app: Flask, client: FlaskClient, made: dict[str, Any],
                                                      caplog: pytest.LogCaptureFixture) -> None:
    url = f"/api/v1/series/{made['id']}/draft"
    held = etag_of(client, url)
    answered, (status, headers, body) = both(app, client, "GET", url, caplog, headers={"If-None-Match": held})
    assert (answered, status, body) == (True, 304, b"")
    assert ("Cache-Control", "no-cache") in headers and ("X-Content-Type-Options", "nosniff") in headers
    # a strong ETag, compared weakly as If-None-Match is (gzip makes a large draft's ETag weak): its weak form
    answered, (status, _, _) = both(app, client, "GET", url, caplog, headers={"If-None-Match": f"W/{held}"})
    assert (answered, status) == (True, 304)
    client.put(f"/api/v1/series/{made['id']}/draft/Борис", json={"cards": ["js"]},
               headers={"Authorization": f"Bearer {made['edit_token']}"})
    answered, (status, _, body) = both(app, client, "GET", url, caplog, headers={"If-None-Match": held})
    assert (answered, status) == (False, 200) and "Борис".encode() in body
    busy = etag_of(client, url)
    answered, (status, _, _) = both(app, client, "GET", url, caplog, headers={"If-None-Match": busy})
    assert (answered, status) == (True, 304)


@pytest.mark.parametrize("url", ["/series/{id}", "/api/v1/series/{id}/draft"])
def test_everything_else_goes_to_flask(app: Flask, client: FlaskClient, made: dict[str, Any],
                                       caplog: pytest.LogCaptureFixture, url: str) -> None:
    url = url.format(id=made["id"])
    held = etag_of(client, url, headers=HX)
    for method, target, headers in [
        ("GET", url.replace(made["id"], "no-such-series"), {**HX, "If-None-Match": held}),  # unknown: 404
        ("GET", url + "?x=1", {**HX, "If-None-Match": held}),  # any query string
        ("GET", url + "?saved=1", {**HX, "If-None-Match": held}),
        ("HEAD", url, {**HX, "If-None-Match": held}),
        ("GET", url, HX),  # no If-None-Match
        ("GET", url, {**HX, "If-None-Match": '"stale"'}),
        ("GET", url, {**HX, "If-None-Match": "*"}),  # Flask's ETags: a star matches
    ]:
        answered, (status, _, _) = both(app, client, method, target, caplog, headers=headers)
        assert answered == (headers.get("If-None-Match") == "*" and method == "GET" and "?" not in target
                            and "no-such" not in target), (method, target, headers)
        assert status in (200, 304, 404)


@pytest.fixture
def hosted(tmp_path: Any) -> Iterator[Flask]:
    yield create_app({"TESTING": True, "DATABASE": str(tmp_path / "h.sqlite3"), "SECRET_KEY": "test",
                      "SERVED_HOSTS": ["club.example"], "PROXY_FIX": 1})


def test_the_host_check_and_the_client_address_hold(hosted: Flask, caplog: pytest.LogCaptureFixture) -> None:
    client = hosted.test_client()
    made = client.post("/api/v1/series", json={"players": PLAYERS, "starter": "Аня"},
                       headers={"Host": "club.example"}).get_json()
    url = f"/series/{made['id']}"
    held = etag_of(client, url, headers={**HX, "Host": "club.example"})
    for host, fast, status in [("club.example", True, 304), ("club.example:8101", True, 304),
                               ("192.168.1.7:8101", True, 304), ("evil.example", False, 400)]:
        headers = {**HX, "If-None-Match": held, "Host": host, "X-Forwarded-For": "10.1.2.3"}
        answered, (got, _, _) = both(hosted, client, "GET", url, caplog, headers=headers)
        assert (answered, got) == (fast, status), host
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="companion.requests"):
        client.get(url, headers={**HX, "If-None-Match": held, "Host": "club.example", "X-Forwarded-For": "10.1.2.3"})
    assert [r.getMessage().split(" ")[:4] for r in caplog.records] == [["10.1.2.3", "GET", url, "304"]]
    hosted.config["TRUSTED_HOSTS"] = ["other.example"]  # Flask's own host check: 400 before any view
    answered, (got, _, _) = both(hosted, client, "GET", url, caplog,
                                 headers={**HX, "If-None-Match": held, "Host": "club.example"})
    assert (answered, got) == (False, 400)


def test_polls_stay_unlimited_and_a_limit_on_every_view_turns_the_layer_off(tmp_path: Any,
                                                                            caplog: pytest.LogCaptureFixture) -> None:
    """Today no rate limit counts these polls (only writes, PDFs and search are limited): with limits on,
    every poll is still a 304 without rate-limit headers, from the layer. A limit an operator puts on
    every view (RATELIMIT_DEFAULT) counts polls in Flask, so the layer leaves them to Flask."""
    config = {"TESTING": True, "SECRET_KEY": "test", "RATELIMIT_ENABLED": True}
    limited = create_app({**config, "DATABASE": str(tmp_path / "l.sqlite3")})
    client = limited.test_client()
    made = client.post("/api/v1/series", json={"players": PLAYERS, "starter": "Аня"}).get_json()
    url = f"/series/{made['id']}"
    held = etag_of(client, url, headers=HX)
    for _ in range(5):
        answered, (status, headers, _) = both(limited, client, "GET", url, caplog,
                                              headers={**HX, "If-None-Match": held})
        assert (answered, status) == (True, 304) and not any(k.startswith("X-RateLimit") for k, _ in headers)

    everywhere = create_app({**config, "DATABASE": str(tmp_path / "e.sqlite3"), "RATELIMIT_DEFAULT": "3 per minute",
                             "RATELIMIT_STORAGE_URI": "memory://"})
    client = everywhere.test_client()
    made = client.post("/api/v1/series", json={"players": PLAYERS, "starter": "Аня"}).get_json()
    url = f"/series/{made['id']}"
    held = etag_of(client, url, headers=HX)
    statuses = [client.get(url, headers={**HX, "If-None-Match": held}).status_code for _ in range(3)]
    assert statuses == [304, 304, 429] and layer(everywhere).answered == 0


def test_the_validator_follows_every_column_it_reads(app: Flask, client: FlaskClient, made: dict[str, Any],
                                                      caplog: pytest.LogCaptureFixture) -> None:
    """The idle-poll path reads version, marks and the edit token's hash by one query and keeps the row it
    loaded for them (`series.idle_poll`): a change of any of the three is seen at the next poll."""
    from companion.storage.database import connection, hash_token

    url = f"/series/{made['id']}"
    client.set_cookie(f"e_{made['id']}", made["edit_token"], path=url)
    held = etag_of(client, url, headers=HX)
    answered, (status, _, _) = both(app, client, "GET", url, caplog, headers={**HX, "If-None-Match": held})
    assert (answered, status) == (True, 304)
    db = connection(app)
    for change in ("marks = marks + 1", f"edit_token_hash = '{hash_token('another')}'", "version = version + 1"):
        with db.conn:
            db.conn.execute(f"update series set {change} where id = ?", [made["id"]])  # noqa: S608
        answered, (status, _, _) = both(app, client, "GET", url, caplog, headers={**HX, "If-None-Match": held})
        assert (answered, status) == (False, 200), change
        held = etag_of(client, url, headers=HX)
        answered, (status, _, _) = both(app, client, "GET", url, caplog, headers={**HX, "If-None-Match": held})
        assert (answered, status) == (True, 304), change


def test_an_idle_poll_leaves_nothing_for_the_garbage_collector(app: Flask, client: FlaskClient,
                                                              made: dict[str, Any]) -> None:
    """The layer's request is not put into its environ (werkzeug's `populate_request`): that made the two a cycle,
    which only the collector frees, and under load the collections it brought on stopped every thread of the
    process (docs/benchmarks.md, «Idle polls that leave no garbage»)."""
    url = f"/series/{made['id']}"
    held = etag_of(client, url, headers=HX)
    polls = [EnvironBuilder(path=url, headers={**HX, "If-None-Match": held}).get_environ() for _ in range(5)]
    statuses: list[str] = []
    before = layer(app).answered
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        while polls:  # as the HTTP server calls the app, and then lets the request go
            app.wsgi_app(polls.pop(), lambda status, headers, exc_info=None: statuses.append(status))
        gc.collect()
        left = [type(o).__name__ for o in gc.garbage]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert statuses == ["304 NOT MODIFIED"] * 5 and layer(app).answered == before + 5
    assert left == []
