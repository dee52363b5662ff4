"""No doubled, lost or wrongly refused writes: Idempotency-Key, retried races, edits naming their round, caps."""

from __future__ import annotations

import json
import threading
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from companion.service import series as series_service
from companion.storage import database as storage

ROUND = {"winner": "Аня", "finishing_card": "9h", "hands": {"Борис": ["10c"], "Вера": ["jd"]}}


def auth(series: dict[str, Any], **more: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {series['edit_token']}", **more}


def rounds_of(client: FlaskClient, series_id: str) -> list[Any]:
    return list(client.get(f"/api/v1/series/{series_id}").get_json()["rounds"])


# -- Idempotency-Key (API) ---------------------------------------------------------------------


def test_a_retried_add_with_the_same_key_records_one_round_and_gets_the_same_answer(
        client: FlaskClient, series: dict[str, Any]) -> None:
    url = f"/api/v1/series/{series['id']}/rounds"
    first = client.post(url, json=ROUND, headers=auth(series, **{"Idempotency-Key": "tap-1"}))
    again = client.post(url, json=ROUND, headers=auth(series, **{"Idempotency-Key": "tap-1"}))
    assert first.status_code == again.status_code == 201
    assert again.get_json() == first.get_json() and again.headers["Idempotent-Replayed"] == "true"
    assert len(rounds_of(client, series["id"])) == 1
    other = client.post(url, json={"redeal": True}, headers=auth(series, **{"Idempotency-Key": "tap-1"}))
    assert other.status_code == 422 and other.get_json()["error"]["code"] == "idempotency-key-reused"
    assert client.post(url, json=ROUND, headers=auth(series, **{"Idempotency-Key": "tap-2"})).status_code == 201
    assert len(rounds_of(client, series["id"])) == 2


def test_keyed_edits_and_deletes_happen_once(client: FlaskClient, series: dict[str, Any]) -> None:
    url = f"/api/v1/series/{series['id']}/rounds"
    for _ in range(3):
        client.post(url, json=ROUND, headers=auth(series))
    key = {"Idempotency-Key": "del-2"}
    first = client.delete(f"{url}/2", headers=auth(series, **key))
    again = client.delete(f"{url}/2", headers=auth(series, **key))
    assert first.status_code == again.status_code == 200 and again.get_json() == first.get_json()
    assert len(rounds_of(client, series["id"])) == 2  # not two rounds removed
    edit = {"winner": "Борис", "finishing_card": "9h", "hands": {"Аня": ["10c"], "Вера": ["jd"]}}
    assert client.put(f"{url}/1", json=edit, headers=auth(series, **{"Idempotency-Key": "e1"})).status_code == 200
    assert client.put(f"{url}/1", json=edit, headers=auth(series, **{"Idempotency-Key": "e1"})).status_code == 200
    history = client.get(f"/api/v1/series/{series['id']}/history").get_json()["history"]
    assert [h["action"] for h in history] == ["add", "add", "add", "delete", "edit"]


def test_a_malformed_key_is_a_clear_400(client: FlaskClient, series: dict[str, Any]) -> None:
    response = client.post(f"/api/v1/series/{series['id']}/rounds", json=ROUND,
                           headers=auth(series, **{"Idempotency-Key": "x" * 300}))
    assert response.status_code == 400 and "Idempotency-Key" in response.get_json()["error"]["message"]
    assert rounds_of(client, series["id"]) == []


def test_concurrent_retries_with_one_key_record_one_round(app: Flask, series: dict[str, Any]) -> None:
    url = f"/api/v1/series/{series['id']}/rounds"
    statuses: list[int] = []
    barrier = threading.Barrier(6)

    def send() -> None:
        client = app.test_client()
        barrier.wait()
        statuses.append(client.post(url, json=ROUND, headers=auth(series, **{"Idempotency-Key": "same"})).status_code)

    threads = [threading.Thread(target=send) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == [201] * 6
    assert len(rounds_of(app.test_client(), series["id"])) == 1


# -- Idempotency (the round form) -------------------------------------------------------------------


def form_series(client: FlaskClient) -> str:
    created = client.post("/new", data={"name": ["Аня", "Борис"], "starter": "0"})
    return created.headers["Location"].split("/")[2]


def test_a_double_tapped_round_form_records_one_round(client: FlaskClient) -> None:
    series_id = form_series(client)
    html = client.get(f"/series/{series_id}/round").get_data(as_text=True)
    key = html.split('name="idempotency_key" value="')[1].split('"')[0]
    assert len(key) >= 16
    data = {"version": "1", "idempotency_key": key, "winner": "0", "finishing_card": "9h", "hand-1": ["10c"]}
    first = client.post(f"/series/{series_id}/round", data=data)
    second = client.post(f"/series/{series_id}/round", data=data)  # the same form sent again
    assert first.status_code == second.status_code == 303
    assert first.headers["Location"] == second.headers["Location"]
    assert len(rounds_of(client, series_id)) == 1
    changed = client.post(f"/series/{series_id}/round", data={**data, "hand-1": ["jd"]})  # Back, edit, resend
    assert changed.status_code == 409  # the stale form is a conflict, not silently dropped nor doubled
    assert len(rounds_of(client, series_id)) == 1
    fresh_key = client.get(f"/series/{series_id}/round").get_data(as_text=True).split(
        'name="idempotency_key" value="')[1].split('"')[0]
    assert fresh_key != key


# -- races without If-Match ---------------------------------------------------------------------------


def test_concurrent_adds_without_if_match_never_get_an_unrequested_409(app: Flask, series: dict[str, Any]) -> None:
    url = f"/api/v1/series/{series['id']}/rounds"
    statuses: list[int] = []
    lock = threading.Lock()
    barrier = threading.Barrier(10)

    def editor() -> None:
        client = app.test_client()
        barrier.wait()
        for _ in range(5):
            status = client.post(url, json={"redeal": True}, headers=auth(series)).status_code
            with lock:
                statuses.append(status)

    threads = [threading.Thread(target=editor) for _ in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == [201] * 50
    assert len(rounds_of(app.test_client(), series["id"])) == 50


def test_an_edit_without_if_match_is_retried_while_only_other_rounds_moved(
        app: Flask, client: FlaskClient, series: dict[str, Any], monkeypatch: Any) -> None:
    url = f"/api/v1/series/{series['id']}/rounds"
    client.post(url, json=ROUND, headers=auth(series))
    client.post(url, json={"redeal": True}, headers=auth(series))
    real_edit = series_service.edit_round
    interfere = {"times": 1}

    def edit_after_someone_added(db: Any, s: Any, n: int, data: Any, v: Any = None, k: Any = None) -> Any:
        if interfere["times"]:  # another editor adds a round between our read and our write
            interfere["times"] -= 1
            series_service.add_round(db, series_service.load(db, s.id), {"redeal": True})
        return real_edit(db, s, n, data, v, k)

    monkeypatch.setattr(series_service, "edit_round", edit_after_someone_added)
    edit = {"winner": "Борис", "finishing_card": "9h", "hands": {"Аня": ["10c"], "Вера": ["jd"]}}
    response = client.put(f"{url}/1", json=edit, headers=auth(series))
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["rounds"][0]["winner"] == "Борис" and len(response.get_json()["rounds"]) == 3


def test_an_edit_without_if_match_of_a_round_changed_meanwhile_is_a_409_naming_it(
        app: Flask, client: FlaskClient, series: dict[str, Any], monkeypatch: Any) -> None:
    url = f"/api/v1/series/{series['id']}/rounds"
    client.post(url, json=ROUND, headers=auth(series))
    client.post(url, json={"redeal": True}, headers=auth(series))
    real_delete = series_service.delete_round
    interfere = {"times": 1}

    def delete_after_someone_edited(db: Any, s: Any, n: int, v: Any = None, k: Any = None) -> Any:
        if interfere["times"]:  # another editor corrects round 1 in between
            interfere["times"] -= 1
            fresh = series_service.load(db, s.id)
            series_service.edit_round(db, fresh, 1, {"winner": "Вера", "finishing_card": "9h",
                                                     "hands": {"Аня": ["10c"], "Борис": ["jd"]}})
        return real_delete(db, s, n, v, k)

    monkeypatch.setattr(series_service, "delete_round", delete_after_someone_edited)
    response = client.delete(f"{url}/1", headers=auth(series, **{"Accept-Language": "en"}))
    assert response.status_code == 409
    message = response.get_json()["error"]["message"]
    assert "Round 1 was changed by someone else" in message and "version 4" in message
    body = client.get(f"/api/v1/series/{series['id']}").get_json()
    assert len(body["rounds"]) == 2 and body["rounds"][0]["winner"] == "Вера"  # the other editor's change stays


# -- caps -------------------------------------------------------------------------------------------


def test_a_series_holds_at_most_max_rounds(client: FlaskClient, series: dict[str, Any], monkeypatch: Any) -> None:
    monkeypatch.setattr(series_service, "MAX_ROUNDS", 3)
    url = f"/api/v1/series/{series['id']}/rounds"
    assert [client.post(url, json={"redeal": True}, headers=auth(series)).status_code for _ in range(3)] == [201] * 3
    refused = client.post(url, json={"redeal": True}, headers=auth(series, **{"Accept-Language": "en"}))
    assert refused.status_code == 422 and "at most 3 rounds" in refused.get_json()["error"]["message"]
    assert len(rounds_of(client, series["id"])) == 3
    assert client.put(f"{url}/1", json={"redeal": True}, headers=auth(series)).status_code == 200  # edits still work


def test_too_many_players_is_a_422_naming_the_limit(client: FlaskClient) -> None:
    names = [f"Игрок {i}" for i in range(13)]
    response = client.post("/api/v1/series", json={"players": names}, headers={"Accept-Language": "en"})
    assert response.status_code == 422
    assert "players" in response.get_json()["error"]["message"] and "13" in response.get_json()["error"]["message"]


# -- a stored series this version cannot replay --------------------------------------------------------


def test_a_stored_series_that_no_longer_replays_is_a_clear_error_not_500(app: Flask, client: FlaskClient,
                                                                          series: dict[str, Any]) -> None:
    client.post(f"/api/v1/series/{series['id']}/rounds", json=ROUND, headers=auth(series))
    with app.app_context():
        db = storage.get_db()
        db.execute("update rounds set data = ? where series_id = ?",
                   [json.dumps({"winner": "Гоша", "finishing_card": "9h"}), series["id"]])  # foreign data
        db.execute("update series set version = version + 1 where id = ?", [series["id"]])
    api = client.get(f"/api/v1/series/{series['id']}", headers={"Accept-Language": "en"})
    assert api.status_code == 409 and api.get_json()["error"]["code"] == "unreadable-series"
    assert "another version of the app" in api.get_json()["error"]["message"]
    page = client.get(f"/series/{series['id']}")
    assert page.status_code == 409 and "другая версия приложения" in page.get_data(as_text=True)
    for path in (f"/series/{series['id']}/scoresheet.csv", f"/series/{series['id']}/round"):
        assert client.get(path).status_code < 500


def test_an_import_beyond_max_rounds_is_refused(client: FlaskClient, series: dict[str, Any], monkeypatch: Any) -> None:
    url = f"/api/v1/series/{series['id']}/rounds"
    for _ in range(3):
        client.post(url, json={"redeal": True}, headers=auth(series))
    document = client.get(f"/api/v1/series/{series['id']}/export").get_json()
    monkeypatch.setattr(series_service, "MAX_ROUNDS", 2)
    response = client.post("/api/v1/series/import", json=document, headers={"Accept-Language": "en"})
    assert response.status_code == 422
    assert "at most 2 rounds; this file has 3" in response.get_json()["error"]["message"]


def test_a_removed_round_is_restored_once_in_place_and_the_export_still_imports(client: FlaskClient) -> None:
    series_id = form_series(client)
    for card in ("9h", "8h", "7h"):
        client.post(f"/series/{series_id}/round", data={"winner": "0", "finishing_card": card, "hand-1": ["10c"]})
    before = rounds_of(client, series_id)
    version = client.get(f"/api/v1/series/{series_id}").get_json()["version"]
    assert client.post(f"/series/{series_id}/round/2/delete", data={"version": str(version)}).status_code == 303
    page = client.get(f"/series/{series_id}").get_data(as_text=True)
    assert "Вернуть раунд 2" in page
    action = page.split('action="')[1:]
    restore = next(a.split('"')[0] for a in action if a.split('"')[0].endswith("/restore"))
    asked = client.post(restore)  # without JavaScript the question is a page first; nothing changes yet
    assert asked.status_code == 200 and "вернётся как раунд 2" in asked.get_data(as_text=True)
    assert len(rounds_of(client, series_id)) == 2
    assert client.post(restore, data={"confirmed": "1"}).status_code == 303
    assert client.post(restore, data={"confirmed": "1"}).status_code == 303  # a second tap: nothing more
    after = rounds_of(client, series_id)
    assert [r["finishing_card"] for r in after] == [r["finishing_card"] for r in before]  # back at its place
    history = client.get(f"/api/v1/series/{series_id}/history").get_json()["history"]
    assert [h["action"] for h in history] == ["add", "add", "add", "delete", "restore"]
    assert "Вернуть раунд 2" not in client.get(f"/series/{series_id}").get_data(as_text=True)
    document = client.get(f"/api/v1/series/{series_id}/export").get_json()
    imported = client.post("/api/v1/series/import", json=document)
    assert imported.status_code == 201, imported.get_json()
    assert len(imported.get_json()["rounds"]) == 3
