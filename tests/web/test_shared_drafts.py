"""The draft's changed answer made once for every process (`seats_api.shared_draft_slot`, `web.http.shared_answers`).

Every hand, save and confirmation changes the draft for every phone of a table, and each then fetches it.
The first fetch is Flask's and is kept beside the database; the other phones' fetches — from any process,
here a second app on the same database — get those bytes back. Each answer must be exactly Flask's alone
(FAST_POLL = False): status, headers but Date, body, log line; and every change of the draft, the rounds,
the confirmations or the players must make the kept answer a miss.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from gzip import decompress
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web.test_shared_answers import PLAYERS, answer, build, flask_alone, layer

# Names and hands long enough for gzip (600 bytes: `shell.compress`), which makes the draft's strong ETag weak
LONG = ["Аня Константинопольская", "Борис Константинопольский", "Вера Константинопольская"]
DECK = [f"{rank}{suit}" for suit in "sdhc" for rank in [*map(str, range(2, 11)), "j", "q", "k", "a"]]
BIG = {LONG[0]: DECK[50:], LONG[1]: DECK[:25], LONG[2]: DECK[25:50]}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def seated(tmp_path: Any, players: list[str], options: dict[str, Any]) -> tuple[Flask, Flask, dict[str, Any],
                                                                                dict[str, str]]:
    """Two apps on one database (two processes of `companion serve`), a series, and its seat tokens."""
    first, second = build(tmp_path), build(tmp_path)
    editor = first.test_client()
    made = editor.post("/api/v1/series", json={"players": players, "starter": players[0], "options": options})
    assert made.status_code == 201, made.get_data(as_text=True)
    series = made.get_json()
    seats = editor.get(f"/api/v1/series/{series['id']}/seats", headers=bearer(series["edit_token"])).get_json()
    return first, second, series, {s["player"]: s["token"] for s in seats["seats"]}


@pytest.fixture
def table(tmp_path: Any) -> tuple[Flask, Flask, dict[str, Any], dict[str, str]]:
    return seated(tmp_path, PLAYERS, {})


def seat_phone(app: Flask, made: dict[str, Any], token: str) -> FlaskClient:
    """A seat's phone: it opened its seat link, so it carries the seat cookie (which the draft never reads)."""
    client = app.test_client()
    assert client.get(f"/series/{made['id']}/seat/open?token={token}", follow_redirects=True).status_code == 200
    return client


@pytest.mark.parametrize("gzip", [True, False])
def test_a_changed_draft_is_made_once_and_served_to_every_phone_as_flask_answers(
        tmp_path: Any, caplog: pytest.LogCaptureFixture, gzip: bool) -> None:
    first, second, made, tokens = seated(tmp_path, LONG, {"deck": 52})
    url = f"/api/v1/series/{made['id']}/draft"
    encoding = {"Accept-Encoding": "gzip"} if gzip else {}
    phones = [(first, first.test_client())] + [
        (app, seat_phone(app, made, tokens[p])) for app, p in zip((first, second, second), LONG, strict=True)]
    held = [str(client.get(url, headers=encoding).headers["ETag"]) for _app, client in phones]
    for player, cards in BIG.items():
        put = first.test_client().put(f"{url}/{player}", json={"cards": cards}, headers=bearer(tokens[player]))
        assert put.status_code == 200
    fetched, now = [], []
    for (app, client), etag in zip(phones, held, strict=True):
        asked = {**encoding, "Accept": "application/json", "If-None-Match": etag}
        before = layer(app).replayed
        got = answer(app, client, url, caplog, asked)
        fetched.append(layer(app).replayed > before)
        assert got == flask_alone(app, client, url, caplog, asked)
        assert got[0] == 200 and len(got[3]) == 1
        body = json.loads(decompress(got[2]) if gzip else got[2])
        assert {p: len(h["cards"]) for p, h in body["hands"].items()} == {p: len(c) for p, c in BIG.items()}
        assert (("Content-Encoding", "gzip") in got[1]) == gzip
        now.append(dict(got[1])["ETag"])
    assert fetched == [False, True, True, True]  # made by the first process, then served from the kept answer
    assert layer(first).answers.kept == 1 and layer(second).answers.kept == 0
    assert len(set(now)) == 1 and now[0].startswith('W/"' if gzip else '"')
    for (app, client), etag in zip(phones, now, strict=True):  # the ETag the phone got, weak or strong: a 304
        answered = layer(app).answered
        got = answer(app, client, url, caplog, {**encoding, "If-None-Match": etag})
        assert got[0] == 304 and layer(app).answered == answered + 1


def changes(made: dict[str, Any], tokens: dict[str, str]) -> list[tuple[str, Callable[[FlaskClient], Any]]]:
    """Every kind of write that changes what the draft answers (and one that does not: a renewed seat link)."""
    series, edit = f"/api/v1/series/{made['id']}", bearer(made["edit_token"])
    round_one = {"winner": "Аня", "finishing_card": "9h", "hands": "draft"}
    return [
        ("a seat's hand", lambda c: c.put(f"{series}/draft/Борис", json={"cards": ["js"]},
                                          headers=bearer(tokens["Борис"]))),
        ("the editor's hand", lambda c: c.put(f"{series}/draft/Вера", json={"cards": ["jh"]}, headers=edit)),
        ("a hand taken back", lambda c: c.delete(f"{series}/draft/Вера", headers=edit)),
        ("the same hand from the seat", lambda c: c.put(f"{series}/draft/Вера", json={"cards": ["jh"]},
                                                        headers=bearer(tokens["Вера"]))),
        ("the save", lambda c: c.post(f"{series}/rounds", json=round_one, headers=edit)),
        ("a confirmation", lambda c: c.post(f"{series}/rounds/1/confirmation", json={"agree": True},
                                            headers=bearer(tokens["Борис"]))),
        ("a dispute", lambda c: c.post(f"{series}/rounds/1/confirmation", json={"agree": False, "note": "не так"},
                                       headers=bearer(tokens["Вера"]))),
        ("a correction", lambda c: c.put(f"{series}/rounds/1", headers=edit, json={
            "winner": "Аня", "finishing_card": "9h", "hands": {"Борис": ["js"], "Вера": ["qh"]}})),
        ("a hand of the next round", lambda c: c.put(f"{series}/draft/Борис", json={"cards": ["ks"]},
                                                     headers=bearer(tokens["Борис"]))),
        ("a player joins", lambda c: c.post(f"{series}/players", json={"name": "Дима"}, headers=edit)),
        ("a player leaves", lambda c: c.delete(f"{series}/players/Дима", headers=edit)),
        ("a seat link renewed", lambda c: c.post(f"{series}/seats/Вера/renew", headers=edit)),
    ]


def test_every_change_makes_the_kept_draft_a_miss(table: tuple[Flask, Flask, dict[str, Any], dict[str, str]],
                                                  caplog: pytest.LogCaptureFixture) -> None:
    first, second, made, tokens = table
    url = f"/api/v1/series/{made['id']}/draft"
    one, other = first.test_client(), seat_phone(second, made, tokens["Аня"])
    asked = {"Accept": "application/json", "If-None-Match": '"an-older-draft"'}
    last = answer(first, one, url, caplog, asked)
    for what, change in changes(made, tokens):
        assert change(first.test_client()).status_code in (200, 201, 204), what
        replayed = layer(first).replayed
        made_here = answer(first, one, url, caplog, asked)  # the first phone after the change: Flask's, kept
        assert made_here == flask_alone(first, one, url, caplog, asked), what
        replayed_there = layer(second).replayed
        got = answer(second, other, url, caplog, asked)  # another process: the kept answer
        assert layer(second).replayed == replayed_there + 1, what
        assert got == flask_alone(second, other, url, caplog, asked) and got[:3] == made_here[:3], what
        if what == "a seat link renewed":  # the draft did not change: the kept answer still holds
            assert layer(first).replayed == replayed + 1 and got[:3] == last[:3]
        else:
            assert layer(first).replayed == replayed, what  # a miss: made again
            assert dict(got[1])["ETag"] != dict(last[1])["ETag"] and got[2] != last[2], what
        # a phone of the other process holding the draft as it was: a 304 only if the draft did not change
        holding = {**asked, "If-None-Match": dict(last[1])["ETag"]}
        status = answer(second, other, url, caplog, holding)[0]
        assert status == (304 if what == "a seat link renewed" else 200), what
        assert flask_alone(second, other, url, caplog, holding)[0] == status
        last = got
    final = json.loads(last[2])
    assert final["round"] == 2 and list(final["hands"]) == ["Борис"] and "Дима" not in final["hands"]


def test_a_draft_that_is_no_200_is_never_kept(table: tuple[Flask, Flask, dict[str, Any], dict[str, str]],
                                              caplog: pytest.LogCaptureFixture) -> None:
    first, _second, made, _tokens = table
    client = first.test_client()
    for url in [f"/api/v1/series/{made['id']}x/draft", f"/api/v1/series/{made['id']}/draft?round=1"]:
        asked = {"If-None-Match": '"an-older-draft"'}
        got = answer(first, client, url, caplog, asked)
        assert got == flask_alone(first, client, url, caplog, asked)
    assert layer(first).answers.kept == 0 and layer(first).replayed == 0
