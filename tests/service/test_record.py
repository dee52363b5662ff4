"""JSON export and import of a series: exact round trip, precise refusals, nothing stored on error."""

from __future__ import annotations

import copy
import io
import json
from typing import Any

from flask.testing import FlaskClient

from companion.service.record import comparable

ROUNDS = [
    {"winner": "Аня", "finishing_card": "Q♥", "hands": {"Борис": ["10c", "jd", "КП", "Тч"], "Вера": ["qs"]}},
    {"redeal": True},
    {"winner": "Борис", "finishing_card": "8♦", "typed_points": {"Аня": 30, "Вера": 90}},
]


def auth(series: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {series['edit_token']}"}


def played(client: FlaskClient, series: dict[str, Any]) -> dict[str, Any]:
    """The fixture series with three rounds, one corrected and one undone and re-entered."""
    url = f"/api/v1/series/{series['id']}/rounds"
    for body in ROUNDS:
        assert client.post(url, json=body, headers=auth(series)).status_code == 201
    fixed = {"winner": "Аня", "finishing_card": "9♥", "hands": {"Борис": ["10c"], "Вера": ["qs"]}}
    assert client.put(f"{url}/1", json=fixed, headers=auth(series)).status_code == 200
    assert client.delete(f"{url}/3", headers=auth(series)).status_code == 200
    assert client.post(url, json=ROUNDS[2], headers=auth(series)).status_code == 201
    return series


def export(client: FlaskClient, series_id: str) -> dict[str, Any]:
    response = client.get(f"/api/v1/series/{series_id}/export")
    assert response.status_code == 200
    return response.get_json()


def count_series(client: FlaskClient) -> int:
    from companion.storage.database import connect

    db = connect(client.application.config["DATABASE"])
    try:
        return int(db.execute("select count(*) from series").fetchone()[0])
    finally:
        db.close()


def test_export_holds_the_whole_series(client: FlaskClient, series: dict[str, Any]) -> None:
    played(client, series)
    doc = export(client, series["id"])
    assert doc["format"] == "sto-odno-series" and doc["format_version"] == 1
    assert doc["ruleset"] == "igrafan" and doc["players"] == ["Аня", "Борис", "Вера"] and doc["starter"] == "Аня"
    assert doc["view_url"].endswith(f"/series/{series['id']}")
    assert len(doc["rounds"]) == 3 and doc["rounds"][1] == {"redeal": True}
    assert [h["action"] for h in doc["history"]] == ["add", "add", "add", "edit", "delete", "add"]
    assert (
        doc["history"][3]["before"]["finishing_card"] == "Q♥" and doc["history"][3]["after"]["finishing_card"] == "9♥"
    )
    assert "edit_token" not in json.dumps(doc)


def test_export_import_export_is_the_same_document(client: FlaskClient, series: dict[str, Any]) -> None:
    played(client, series)
    first = export(client, series["id"])
    response = client.post("/api/v1/series/import", json=first)
    assert response.status_code == 201
    created = response.get_json()
    assert created["id"] != series["id"] and created["edit_token"] and created["edit_token"] != series["edit_token"]
    assert response.headers["Location"] == f"/api/v1/series/{created['id']}"
    original = client.get(f"/api/v1/series/{series['id']}").get_json()
    assert [p["total"] for p in created["players"]] == [p["total"] for p in original["players"]]
    second = export(client, created["id"])
    assert comparable(second) == comparable(first)
    assert second["id"] == created["id"]
    # the copy is a series like any other: its token is accepted, and the finished copy refuses another round
    more = {"winner": "Вера", "finishing_card": "A♠", "hands": {"Аня": ["7♣"], "Борис": ["6♦"]}}
    refused = client.post(f"/api/v1/series/{created['id']}/rounds", json=more, headers=auth(created))
    assert refused.status_code == 409 and refused.get_json()["error"]["code"] == "series-finished"


def test_the_import_of_a_finished_series_in_every_rule_set(client: FlaskClient) -> None:
    from companion.core.rules import RULESETS

    for ruleset in RULESETS.values():
        players = ["Аня", "Борис"]
        created = client.post(
            "/api/v1/series", json={"players": players, "ruleset": ruleset.id, "starter": "Аня"}
        ).get_json()
        for _ in range(12):
            body = {"winner": "Аня", "finishing_card": "A♠", "typed_points": {"Борис": 30}}
            if (
                client.post(f"/api/v1/series/{created['id']}/rounds", json=body, headers=auth(created)).status_code
                != 201
            ):
                break
        first = export(client, created["id"])
        copy_ = client.post("/api/v1/series/import", json=first).get_json()
        assert comparable(export(client, copy_["id"])) == comparable(first), ruleset.id
        assert copy_["status"] == "finished" and copy_["losers"] == ["Борис"]


def test_a_file_without_history_is_imported_with_its_rounds_added(client: FlaskClient, series: dict[str, Any]) -> None:
    doc = export(client, played(client, series)["id"])
    del doc["history"]
    created = client.post("/api/v1/series/import", json=doc).get_json()
    history = client.get(f"/api/v1/series/{created['id']}/history").get_json()["history"]
    assert [h["action"] for h in history] == ["add"] * 3


def refused(client: FlaskClient, body: Any, lang: str = "en", **kwargs: Any) -> tuple[int, dict[str, Any]]:
    before = count_series(client)
    if isinstance(body, (bytes, str)):
        response = client.post(
            "/api/v1/series/import", data=body, content_type="application/json", headers={"Accept-Language": lang}
        )
    else:
        response = client.post("/api/v1/series/import", json=body, headers={"Accept-Language": lang})
    assert count_series(client) == before, "nothing may be stored"
    return response.status_code, response.get_json()["error"]


def test_refusals_name_the_problem_and_store_nothing(client: FlaskClient, series: dict[str, Any]) -> None:
    doc = export(client, played(client, series)["id"])

    status, error = refused(client, b"{not json")
    assert status == 400 and error["code"] == "malformed-json"
    status, error = refused(client, [1, 2])
    assert status == 400 and "one JSON object" in error["message"]
    status, error = refused(client, {**doc, "format": "something-else"})
    assert status == 422 and "sto-odno-series" in error["message"]
    status, error = refused(client, {**doc, "format_version": 7})
    assert status == 422 and "version 7" in error["message"] and "version 1" in error["message"]
    status, error = refused(client, {k: v for k, v in doc.items() if k != "players"})
    assert status == 400 and "players" in error["message"]

    bad_card = copy.deepcopy(doc)
    bad_card["rounds"][2]["finishing_card"] = "Z♦"
    status, error = refused(client, bad_card)
    assert status == 422 and error["message"].startswith("Round 3:") and "Z♦" in error["message"]

    twice = copy.deepcopy(doc)
    twice["rounds"][0]["hands"]["Вера"] = ["10♣"]  # Борис holds the ten of clubs already
    twice.pop("history")
    status, error = refused(client, twice)
    assert status == 422 and error["message"].startswith("Round 1:") and "10♣" in error["message"]
    assert "Борис" in error["message"] and "Вера" in error["message"]

    status, error = refused(client, twice, lang="ru")
    assert error["message"].startswith("Раунд 1:")

    tampered = copy.deepcopy(doc)
    tampered["rounds"][0]["hands"]["Вера"] = ["K♠"]
    status, error = refused(client, tampered)
    assert status == 422 and "history" in error["message"]

    unknown_player = copy.deepcopy(doc)
    unknown_player["rounds"][0]["winner"] = "Глеб"
    unknown_player.pop("history")
    status, error = refused(client, unknown_player)
    assert error["message"].startswith("Round 1:") and "Глеб" in error["message"]


def test_a_large_series_may_be_imported(client: FlaskClient) -> None:
    created = client.post(
        "/api/v1/series",
        json={
            "players": ["Аня", "Борис", "Вера", "Глеб"],
            "starter": "Аня",
            "options": {"deck": 52, "resets": {}, "loss_above": 1000},
        },
    ).get_json()
    doc = export(client, created["id"])
    body = {"winner": "Аня", "finishing_card": "A♠", "hands": {}, "typed_points": {"Борис": 1, "Вера": 2, "Глеб": 3}}
    doc["rounds"] = [body] * 300
    doc["history"] = [
        {"n": n, "action": "add", "at": "2026-11-29T20:00:00+00:00", "before": None, "after": body}
        for n in range(1, 301)
    ]
    raw = json.dumps(doc, ensure_ascii=False).encode()
    assert len(raw) > 64 * 1024
    response = client.post("/api/v1/series/import", data=raw, content_type="application/json")
    assert response.status_code == 201, response.get_json()
    assert len(response.get_json()["rounds"]) == 300


def test_the_import_page(client: FlaskClient, series: dict[str, Any]) -> None:
    doc = export(client, played(client, series)["id"])
    page = client.get("/import", headers={"Accept-Language": "ru"})
    assert page.status_code == 200 and 'type="file"' in page.get_data(as_text=True)
    assert "/import" in client.get("/").get_data(as_text=True)

    bad = dict(doc, format_version=2)
    response = client.post(
        "/import", data={"file": (io.BytesIO(json.dumps(bad).encode()), "s.json")}, headers={"Accept-Language": "en"}
    )
    assert response.status_code == 422 and "version 2" in response.get_data(as_text=True)
    response = client.post("/import", data={"file": (io.BytesIO(b"\x00\xff"), "s.json")})
    assert response.status_code == 422
    response = client.post("/import", data={})
    assert response.status_code == 422

    response = client.post(
        "/import", data={"file": (io.BytesIO(json.dumps(doc, ensure_ascii=False).encode()), "s.json")}
    )
    assert response.status_code == 303 and "/share" in response.headers["Location"]
    new_id = response.headers["Location"].split("/series/")[1].split("/")[0]
    assert comparable(export(client, new_id)) == comparable(doc)
    # this phone may now edit the imported series
    assert client.get(f"/series/{new_id}/share").status_code == 200


def test_export_download_and_unknown_series(client: FlaskClient, series: dict[str, Any]) -> None:
    response = client.get(f"/api/v1/series/{series['id']}/export?download=1")
    assert response.headers["Content-Disposition"].startswith('attachment; filename="sto-odno-')
    assert response.headers["Content-Disposition"].endswith('-anya-boris-vera.json"')
    assert client.get("/api/v1/series/nope/export").status_code == 404


# -- a whole table -------------------------------------------------------------------------


def test_a_table_survives_export_and_import_with_the_same_statistics(client: FlaskClient,
                                                                   series: dict[str, Any]) -> None:
    from companion.service.record import comparable_table

    played(client, series)  # Вера lost
    second = client.post("/api/v1/series", json={"after": series["id"], "players": ["Аня", "Боря", "Вера"],
                                                 "starter": "Аня"}, headers=auth(series)).get_json()
    add = {"winner": "Аня", "finishing_card": "A♠", "typed_points": {"Боря": 70, "Вера": 3}}
    for _ in range(2):
        client.post(f"/api/v1/series/{second['id']}/rounds", json=add, headers=auth(second))
    table_url = f"/api/v1/tables/{series['table']}"
    merge = {"from": "Боря", "into": "Борис"}
    assert client.post(f"{table_url}/merges", json=merge, headers=auth(second)).status_code == 201
    stats = client.get(table_url).get_json()
    first = client.get(f"{table_url}/export").get_json()
    assert first["format"] == "sto-odno-table" and len(first["series"]) == 2 and first["merges"][0]["from"] == "Боря"

    response = client.post("/api/v1/tables/import", json=first)
    assert response.status_code == 201
    body = response.get_json()
    copy_id = body["table"]["id"]
    assert copy_id != series["table"] and len(body["series"]) == 2 and all(s["edit_token"] for s in body["series"])
    assert body["table"]["players"] == stats["players"]
    assert comparable_table(client.get(f"/api/v1/tables/{copy_id}/export").get_json()) == comparable_table(first)
    # the copy's tokens edit the copy's table (undo the merge there, not here)
    merge_id = client.get(f"/api/v1/tables/{copy_id}/merges").get_json()["merges"][0]["id"]
    token = {"Authorization": f"Bearer {body['series'][0]['edit_token']}"}
    assert client.delete(f"/api/v1/tables/{copy_id}/merges/{merge_id}", headers=token).status_code == 200
    assert client.get(table_url).get_json() == stats


def test_a_refused_table_file_names_the_series_and_stores_nothing(client: FlaskClient, series: dict[str, Any]) -> None:
    played(client, series)
    doc = client.get(f"/api/v1/tables/{series['table']}/export").get_json()
    broken = copy.deepcopy(doc)
    broken["series"][0]["rounds"][0]["finishing_card"] = "Z♥"
    before = count_series(client)
    response = client.post("/api/v1/tables/import", json=broken, headers={"Accept-Language": "en"})
    assert response.status_code == 422
    assert response.get_json()["error"]["message"].startswith("Series 1: Round 1:")
    stranger = {"from": "Глеб", "into": "Аня", "at": "2026-11-29T20:00:00+00:00", "undone_at": None}
    bad_merge = dict(doc, merges=[stranger])
    assert client.post("/api/v1/tables/import", json=bad_merge).status_code == 422
    assert client.post("/api/v1/tables/import", json=dict(doc, series=[])).status_code == 400
    assert count_series(client) == before


def test_the_import_page_takes_a_table_file(client: FlaskClient, series: dict[str, Any]) -> None:
    played(client, series)
    doc = client.get(f"/api/v1/tables/{series['table']}/export").get_json()
    upload = io.BytesIO(json.dumps(doc, ensure_ascii=False).encode())
    response = client.post("/import", data={"file": (upload, "t.json")})
    assert response.status_code == 303 and response.headers["Location"].endswith("/table")
    page = client.get(response.headers["Location"], headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Merge the names" in page  # this phone edits the imported table
