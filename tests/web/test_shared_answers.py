"""Changed fragments rendered once for every process (`web.http.shared_answers`, through `web.http.fast_poll`).

After a save, every phone of a table fetches the changed standings fragment. The first fetch is
rendered by Flask and kept beside the database; the other phones' fetches — from any process of the
server, here a second app built on the same database — get those bytes back. Each kept answer must be
exactly what Flask alone answers (FAST_POLL = False): status, headers but Date, body, log line.
"""

from __future__ import annotations

import logging
import re
from gzip import decompress
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import create_app

PLAYERS = ["Аня", "Борис", "Вера"]
HX = {"HX-Request": "true", "HX-Target": "live"}


def build(tmp_path: Any) -> Flask:
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "test.sqlite3"), "SECRET_KEY": "test"})


def layer(app: Flask) -> Any:
    return app.extensions["companion.fast_poll"]


def answer(app: Flask, client: FlaskClient, url: str, caplog: pytest.LogCaptureFixture,
           headers: dict[str, str]) -> tuple[int, list[tuple[str, str]], bytes, list[str]]:
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="companion.requests"):
        response = client.get(url, headers=headers)
    lines = [re.sub(r"[\d.]+ms$", "…ms", r.getMessage()) for r in caplog.records if r.name == "companion.requests"]
    return (response.status_code, sorted((k, v) for k, v in response.headers.items() if k != "Date"),
            response.get_data(), lines)


def flask_alone(app: Flask, client: FlaskClient, url: str, caplog: pytest.LogCaptureFixture,
                headers: dict[str, str]) -> tuple[int, list[tuple[str, str]], bytes, list[str]]:
    app.config["FAST_POLL"] = False
    try:
        return answer(app, client, url, caplog, headers)
    finally:
        app.config["FAST_POLL"] = True


def save(client: FlaskClient, made: dict[str, Any], k: int) -> None:
    winner = PLAYERS[k % 3]
    others = [p for p in PLAYERS if p != winner]
    saved = client.post(f"/api/v1/series/{made['id']}/rounds",
                        headers={"Authorization": f"Bearer {made['edit_token']}"},
                        json={"winner": winner, "finishing_card": "9h", "typed_points": {others[0]: 1, others[1]: 2}})
    assert saved.status_code == 201


def phone(app: Flask, url: str, language: str | None = None) -> tuple[FlaskClient, str]:
    """A reader's phone that opened the series page (so its recent list starts with it): its client and ETag."""
    client = app.test_client()
    if language:
        client.set_cookie("lang", language)
    client.get(url)
    return client, str(client.get(url, headers=HX).headers["ETag"])


@pytest.fixture
def two(tmp_path: Any) -> tuple[Flask, Flask, dict[str, Any]]:
    """Two apps on one database, as two processes of `companion serve`, and a series."""
    first, second = build(tmp_path), build(tmp_path)
    made = first.test_client().post("/api/v1/series", json={"players": PLAYERS, "starter": "Аня"}).get_json()
    return first, second, made


@pytest.mark.parametrize("gzip", [True, False])
def test_a_changed_fragment_is_rendered_once_and_served_to_every_process_as_flask_answers(
        two: tuple[Flask, Flask, dict[str, Any]], caplog: pytest.LogCaptureFixture, gzip: bool) -> None:
    first, second, made = two
    url = f"/series/{made['id']}"
    encoding = {"Accept-Encoding": "gzip"} if gzip else {}
    phones = [phone(app, url) for app in (first, second, second)]
    save(first.test_client(), made, 1)
    fetched = []
    for (client, held), app in zip(phones, (first, second, second), strict=True):
        asked = {**HX, **encoding, "If-None-Match": held}
        before = layer(app).replayed
        got = answer(app, client, url, caplog, asked)
        fetched.append(layer(app).replayed > before)
        assert got == flask_alone(app, client, url, caplog, asked)
        body = decompress(got[2]) if gzip else got[2]
        assert got[0] == 200 and dict(got[1])["ETag"] == 'W/"v2-ru-r-f"' and "Борис".encode() in body
        assert ("Content-Encoding", "gzip") in got[1] if gzip else ("Content-Encoding", "gzip") not in got[1]
    assert fetched == [False, True, True]  # rendered by the first process, then served from the kept answer
    assert layer(first).answers.kept == 1 and layer(second).answers.kept == 0


def test_each_language_has_its_own_answer(two: tuple[Flask, Flask, dict[str, Any]],
                                          caplog: pytest.LogCaptureFixture) -> None:
    first, second, made = two
    url = f"/series/{made['id']}"
    russian, english, english_too = phone(first, url), phone(first, url, "en"), phone(second, url, "en")
    save(first.test_client(), made, 1)
    for (client, held), app in [(russian, first), (english, first), (english_too, second)]:
        asked = {**HX, "If-None-Match": held}
        got = answer(app, client, url, caplog, asked)
        assert got == flask_alone(app, client, url, caplog, asked)
    assert layer(first).answers.kept == 2 and layer(second).replayed == 1  # ru and en rendered, en served again
    assert answer(first, russian[0], url, caplog, {**HX, "If-None-Match": russian[1]})[2] != got[2]


def test_a_new_round_is_never_answered_by_the_kept_fragment(two: tuple[Flask, Flask, dict[str, Any]],
                                                            caplog: pytest.LogCaptureFixture) -> None:
    first, second, made = two
    url = f"/series/{made['id']}"
    (one, held_one), (other, held_other) = phone(first, url), phone(second, url)
    save(first.test_client(), made, 1)
    kept = answer(first, one, url, caplog, {**HX, "If-None-Match": held_one})
    save(first.test_client(), made, 2)  # a second round: the kept answer is of the version before
    replayed = layer(second).replayed
    got = answer(second, other, url, caplog, {**HX, "If-None-Match": held_other})
    assert layer(second).replayed == replayed and got != kept
    assert got == flask_alone(second, other, url, caplog, {**HX, "If-None-Match": held_other})
    assert dict(got[1])["ETag"] != dict(kept[1])["ETag"]


def test_answers_that_differ_per_phone_are_never_kept(two: tuple[Flask, Flask, dict[str, Any]],
                                                      caplog: pytest.LogCaptureFixture) -> None:
    first, second, made = two
    url = f"/series/{made['id']}"
    editor, held_editor = phone(first, url)
    editor.set_cookie(f"e_{made['id']}", made["edit_token"], path=url)
    held_editor = str(editor.get(url, headers=HX).headers["ETag"])
    reader, held = phone(first, url)
    save(first.test_client(), made, 1)
    for client, asked in [
        (editor, {**HX, "If-None-Match": held_editor}),  # the editor's fragment has buttons
        (reader, {"If-None-Match": held}),  # the whole page, not the fragment
    ]:
        got = answer(first, client, url, caplog, asked)
        assert got == flask_alone(first, client, url, caplog, asked)
        assert got[0] == 200
    # a phone that never opened the page: the answer puts the series in its recent list (a cookie of its own)
    fresh = answer(first, first.test_client(), url, caplog, {**HX, "If-None-Match": held})
    alone = flask_alone(first, first.test_client(), url, caplog, {**HX, "If-None-Match": held})
    assert [k for k, _ in fresh[1]] == [k for k, _ in alone[1]] and fresh[2] == alone[2]
    assert any(k == "Set-Cookie" for k, _ in fresh[1])
    assert layer(first).answers.kept == 0 and layer(first).replayed == 0
    answer(first, reader, url + "?saved=2", caplog, {**HX, "If-None-Match": held})  # a query string: Flask's
    assert layer(first).answers.kept == 0


def test_a_new_start_forgets_the_kept_answers(tmp_path: Any, caplog: pytest.LogCaptureFixture) -> None:
    app = build(tmp_path)
    made = app.test_client().post("/api/v1/series", json={"players": PLAYERS, "starter": "Аня"}).get_json()
    url = f"/series/{made['id']}"
    client, held = phone(app, url)
    save(app.test_client(), made, 1)
    answer(app, client, url, caplog, {**HX, "If-None-Match": held})
    folder = layer(app).answers.folder
    assert len(list(folder.iterdir())) == 1
    build(tmp_path)  # the server started again (a restored database may repeat a version number)
    assert list(folder.iterdir()) == []
    # ... or a `companion` command built the app beside a running server: its next answers are kept again
    folder.rmdir()
    save(app.test_client(), made, 2)
    answer(app, client, url, caplog, {**HX, "If-None-Match": held})
    assert len(list(folder.iterdir())) == 1 and layer(app).answers.kept == 2


def test_a_database_in_memory_keeps_nothing(tmp_path: Any) -> None:
    app = create_app({"TESTING": True, "DATABASE": ":memory:", "SECRET_KEY": "test"})
    assert layer(app).answers is None


def test_phones_asking_in_the_same_instant_wait_for_one_render(two: tuple[Flask, Flask, dict[str, Any]],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A pushed change makes every phone of the table ask at once: the first renders, the others (in this process
    or another) wait for it and get what it kept."""
    import threading
    import time

    from companion.web.pages import series as series_page

    first, second, made = two
    url = f"/series/{made['id']}"
    phones = [phone(app, url) for app in (first, second, first, second)]
    save(first.test_client(), made, 1)
    renders, slow = [], series_page.render_series

    def render_slowly(*args: Any, **kwargs: Any) -> Any:
        renders.append(1)
        time.sleep(0.3)  # long enough for every phone to arrive while the first renders
        return slow(*args, **kwargs)

    monkeypatch.setattr(series_page, "render_series", render_slowly)
    got: list[tuple[int, bytes]] = []

    def ask(client: FlaskClient, held: str) -> None:
        response = client.get(url, headers={**HX, "If-None-Match": held})
        got.append((response.status_code, response.get_data()))

    threads = [threading.Thread(target=ask, args=held) for held in phones]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(renders) == 1 and len(got) == 4 and {status for status, _ in got} == {200}
    assert len({body for _, body in got}) == 1
    assert layer(first).replayed + layer(second).replayed == 3
