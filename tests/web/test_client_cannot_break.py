"""Issue 24, «Nothing a client can break»: imports parsed strictly, numbers of any length in queries and
headers, a log line nobody can forge, and an edit that lands on the round it named."""

from __future__ import annotations

import io
import json
import logging
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.storage import database as storage

ROUND = {"redeal": True}  # every redeal round is stored alike: two of them differ only by identity


def auth(series: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {series['edit_token']}"}


def nested(depth: int, kind: str) -> str:
    return "[" * depth + "]" * depth if kind == "list" else '{"a":' * depth + "1" + "}" * depth


def played(k: int) -> dict[str, Any]:
    """A round that never ends the series (the winner rotates, the others score nothing)."""
    players = ["Аня", "Борис", "Вера"]
    winner = players[k % 3]
    others = [p for p in players if p != winner]
    return {"winner": winner, "finishing_card": "9h", "typed_points": {others[0]: 0, others[1]: 0}}


def export_of(client: FlaskClient, series: dict[str, Any], rounds: int) -> dict[str, Any]:
    for k in range(rounds):
        answer = client.post(f"/api/v1/series/{series['id']}/rounds", json=played(k), headers=auth(series))
        assert answer.status_code == 201, answer.get_json()
    document: dict[str, Any] = client.get(f"/api/v1/series/{series['id']}/export").get_json()
    return document


# -- deeply nested import documents ------------------------------------------------------------------


@pytest.mark.parametrize("depth", [40, 1_000, 100_000])
@pytest.mark.parametrize("kind", ["list", "object"])
@pytest.mark.parametrize("url", ["/api/v1/series/import", "/api/v1/tables/import"])
def test_a_deeply_nested_import_is_a_clear_400(client: FlaskClient, depth: int, kind: str, url: str) -> None:
    response = client.post(url, data=nested(depth, kind).encode(), content_type="application/json")
    assert response.status_code == 400, response.get_data(as_text=True)[:300]
    assert "слишком глубоко" in response.get_json()["error"]["message"]
    english = client.post(url, data=nested(depth, kind).encode(), content_type="application/json",
                          headers={"Accept-Language": "en"})
    assert "nested too deeply" in english.get_json()["error"]["message"]
    assert client.get("/api/v1/health").get_json()["database"]["series"] == 0


@pytest.mark.parametrize("depth", [40, 1_000, 100_000])
@pytest.mark.parametrize("kind", ["list", "object"])
def test_a_deeply_nested_file_on_the_import_page_is_a_clear_page_error(client: FlaskClient, depth: int,
                                                                        kind: str) -> None:
    upload = {"file": (io.BytesIO(nested(depth, kind).encode()), "series.json")}
    response = client.post("/import", data=upload, content_type="multipart/form-data")
    assert response.status_code == 422, response.status_code
    page = response.get_data(as_text=True)
    assert 'role="alert"' in page and "слишком глубоко" in page


@pytest.mark.parametrize("bad", ['{"format": NaN}', '{"players": ["\\ud800"]}', '{"version": 1' + "0" * 40 + "}"])
def test_what_the_api_refuses_in_a_body_the_import_refuses_too(client: FlaskClient, bad: str) -> None:
    response = client.post("/api/v1/series/import", data=bad.encode(), content_type="application/json")
    assert response.status_code == 400 and response.get_json()["error"]["code"] == "bad-request"


def test_an_export_of_hundreds_of_rounds_imports_back(client: FlaskClient, series: dict[str, Any]) -> None:
    document = export_of(client, series, 300)
    body = json.dumps(document).encode()
    assert len(body) > 64 * 1024  # over the app's limit for other bodies
    response = client.post("/api/v1/series/import", data=body, content_type="application/json")
    assert response.status_code == 201, response.get_data(as_text=True)[:300]
    assert len(response.get_json()["rounds"]) == 300


# -- numbers of any length -----------------------------------------------------------------------------


@pytest.mark.parametrize("limit", ["9" * 5_000, "1" + "0" * 4_400, "-" + "9" * 5_000, "١٢"])
def test_a_faq_limit_of_thousands_of_digits_is_a_clear_400(client: FlaskClient, limit: str) -> None:
    response = client.get("/api/v1/faq", query_string={"q": "шестёрка", "limit": limit})
    assert response.status_code == 400
    assert "limit" in response.get_json()["error"]["message"]


def test_an_if_match_of_thousands_of_digits_is_a_clear_400(client: FlaskClient, series: dict[str, Any]) -> None:
    response = client.post(f"/api/v1/series/{series['id']}/rounds", json=ROUND,
                           headers={**auth(series), "If-Match": "9" * 5_000})
    assert response.status_code == 400 and "If-Match" in response.get_json()["error"]["message"]


# -- the request log -------------------------------------------------------------------------------------


def log_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "companion.requests"]


def test_a_newline_in_a_query_cannot_forge_a_log_line(client: FlaskClient, caplog: pytest.LogCaptureFixture) -> None:
    forged = "x\n127.0.0.1 POST /api/v1/series/abc/rounds 201 1.0ms\r\x1b[31m\u2028"
    with caplog.at_level(logging.INFO, logger="companion.requests"):
        client.get("/faq", query_string={"q": forged})
    (line,) = log_lines(caplog)
    assert "\n" not in line and "\r" not in line and "\x1b" not in line and "\u2028" not in line
    assert "\\x0a127.0.0.1 POST" in line and "\\x1b" in line


def test_a_long_query_writes_a_short_log_line(client: FlaskClient, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="companion.requests"):
        client.get("/faq", query_string={"q": "я" * 60_000})
    (line,) = log_lines(caplog)
    assert len(line) < 1_200 and "chars)" in line


# -- an edit names its round by identity -------------------------------------------------------------------


def test_an_edit_racing_a_delete_does_not_land_on_the_neighbour(app: Flask, client: FlaskClient,
                                                                 series: dict[str, Any],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Round 2 and round 3 are alike; a delete of round 2 lands between the edit's read and its write.
    Round 3 then sits where round 2 was: the edit must not change it (409), whatever its content."""
    for _ in range(3):
        client.post(f"/api/v1/series/{series['id']}/rounds", json=ROUND, headers=auth(series))
    edit = {"winner": "Аня", "finishing_card": "9h", "typed_points": {"Борис": 1, "Вера": 2}}
    save = storage.save_rounds
    raced: list[bool] = []

    def delete_first(db: Any, row: storage.SeriesRow, new_rounds: Any, **kwargs: Any) -> Any:
        if kwargs.get("action") == "edit" and not raced:
            raced.append(True)
            fresh = storage.load_series(db, row.id)
            assert fresh is not None
            save(db, fresh, fresh.rounds[:1] + fresh.rounds[2:], action="delete", n=2)
        return save(db, row, new_rounds, **kwargs)

    monkeypatch.setattr(storage, "save_rounds", delete_first)
    response = client.put(f"/api/v1/series/{series['id']}/rounds/2", json=edit, headers=auth(series))
    assert raced
    assert response.status_code == 409, response.get_json()
    rounds = client.get(f"/api/v1/series/{series['id']}").get_json()["rounds"]
    assert len(rounds) == 2 and all(r.get("redeal") for r in rounds)  # nothing was edited


def test_an_edit_racing_a_write_elsewhere_still_lands(app: Flask, client: FlaskClient, series: dict[str, Any],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A new round added meanwhile moves nothing: the edit is retried on the fresh state and stored."""
    for _ in range(2):
        client.post(f"/api/v1/series/{series['id']}/rounds", json=ROUND, headers=auth(series))
    save = storage.save_rounds
    raced: list[bool] = []

    def add_first(db: Any, row: storage.SeriesRow, new_rounds: Any, **kwargs: Any) -> Any:
        if kwargs.get("action") == "edit" and not raced:
            raced.append(True)
            fresh = storage.load_series(db, row.id)
            assert fresh is not None
            save(db, fresh, [*fresh.rounds, ROUND], action="add", n=len(fresh.rounds) + 1)
        return save(db, row, new_rounds, **kwargs)

    monkeypatch.setattr(storage, "save_rounds", add_first)
    edit = {"winner": "Аня", "finishing_card": "9h", "typed_points": {"Борис": 1, "Вера": 2}}
    response = client.put(f"/api/v1/series/{series['id']}/rounds/1", json=edit, headers=auth(series))
    assert raced and response.status_code == 200, response.get_json()
    rounds = response.get_json()["rounds"]
    assert len(rounds) == 3 and not rounds[0].get("redeal") and rounds[1].get("redeal")


def test_every_stored_round_keeps_its_id_across_edits_and_moves(app: Flask, client: FlaskClient,
                                                                 series: dict[str, Any]) -> None:
    for _ in range(3):
        client.post(f"/api/v1/series/{series['id']}/rounds", json=ROUND, headers=auth(series))
    with app.app_context():
        before = storage.load_series(storage.get_db(), series["id"])
    assert before is not None and len(set(before.round_ids)) == 3
    client.put(f"/api/v1/series/{series['id']}/rounds/3", json={"winner": "Аня", "finishing_card": "9h",
                                                                "typed_points": {"Борис": 1, "Вера": 2}},
               headers=auth(series))
    client.delete(f"/api/v1/series/{series['id']}/rounds/1", headers=auth(series))
    with app.app_context():
        after = storage.load_series(storage.get_db(), series["id"])
    assert after is not None and after.round_ids == before.round_ids[1:]
