"""«Вернуть раунд N» asks first (issue 21): the question as a page without JavaScript, asked again when the series
changed meanwhile, and a round that cannot come back says why and offers no button."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient


def removed_round_two(client: FlaskClient) -> tuple[dict[str, Any], str]:
    """Аня and Борис, three rounds by the API (Борис 11, 10, 4), round 2 removed through the page; the restore URL."""
    made = client.post("/api/v1/series", json={"players": ["Аня", "Борис"], "starter": "Аня"}).get_json()
    client.get(f"/series/{made['id']}/edit?token={made['edit_token']}")  # this client is the editor's phone
    for card, hand in (("8c", "as"), ("8d", "10s"), ("8h", "ks")):
        body = {"winner": "Аня", "finishing_card": card, "hands": {"Борис": [hand]}}
        assert client.post(f"/api/v1/series/{made['id']}/rounds", json=body,
                           headers={"Authorization": f"Bearer {made['edit_token']}"}).status_code == 201
    delete = client.post(f"/series/{made['id']}/round/2/delete", data={"version": str(version(client, made["id"]))})
    assert delete.status_code == 303
    return made, f"/series/{made['id']}/history/4/restore"


def version(client: FlaskClient, series_id: str) -> int:
    return int(client.get(f"/api/v1/series/{series_id}").get_json()["version"])


def totals(client: FlaskClient, series_id: str) -> dict[str, int]:
    return {p["name"]: p["total"] for p in client.get(f"/api/v1/series/{series_id}").get_json()["players"]}


def test_the_question_is_a_page_and_names_what_changes(client: FlaskClient) -> None:
    made, restore = removed_round_two(client)
    series = client.get(f"/series/{made['id']}").get_data(as_text=True)
    assert 'hx-confirm="Вернуть удалённый раунд 2? Тогда раунд вернётся как раунд 2, итоги изменятся: Борис 15 → 25. ' \
           'С тех пор записан новый раунд 2 — он станет раундом 3."' in series  # the dialog with JavaScript
    seen = str(version(client, made["id"]))
    for asked in (client.post(restore, data={"version": seen}), client.get(restore)):  # no JavaScript; the link
        page = asked.get_data(as_text=True)
        assert asked.status_code == 200 and "итоги изменятся: Борис 15 → 25" in page
        assert "С тех пор записан новый раунд 2 — он станет раундом 3." in page
        assert 'name="confirmed" value="1"' in page and "Оставить счёт как есть" in page
    assert totals(client, made["id"]) == {"Аня": 0, "Борис": 15}  # asking changed nothing
    assert client.post(restore, data={"version": seen, "confirmed": "1"}).status_code == 303
    assert totals(client, made["id"]) == {"Аня": 0, "Борис": 25}
    assert client.get(restore).status_code == 303  # back already: the link leads to the series


def test_a_question_asked_before_the_series_changed_is_asked_again(client: FlaskClient) -> None:
    made, restore = removed_round_two(client)
    seen = str(version(client, made["id"]))  # the version the question was asked at
    body = {"winner": "Аня", "finishing_card": "9c", "hands": {"Борис": ["js"]}}
    assert client.post(f"/api/v1/series/{made['id']}/rounds", json=body,
                       headers={"Authorization": f"Bearer {made['edit_token']}"}).status_code == 201
    stale = client.post(restore, data={"version": seen, "confirmed": "1"})
    page = stale.get_data(as_text=True)
    assert stale.status_code == 409 and "За это время партия изменилась" in page
    assert "Борис 17 → 27" in page  # what it does now, with the new round counted
    assert totals(client, made["id"]) == {"Аня": 0, "Борис": 17}


def test_a_round_that_cannot_come_back_says_why(client: FlaskClient) -> None:
    made = client.post("/api/v1/series", json={"players": ["Аня", "Борис"], "starter": "Аня"}).get_json()
    client.get(f"/series/{made['id']}/edit?token={made['edit_token']}")
    auth = {"Authorization": f"Bearer {made['edit_token']}"}
    for points in (20, 90):  # Борис 110 after round 2: over the line, the series is over
        body = {"winner": "Аня", "finishing_card": "9c", "typed_points": {"Борис": points}}
        assert client.post(f"/api/v1/series/{made['id']}/rounds", json=body, headers=auth).status_code == 201
    assert client.post(f"/series/{made['id']}/round/2/delete",
                       data={"version": str(version(client, made["id"]))}).status_code == 303
    body = {"winner": "Аня", "finishing_card": "9d", "typed_points": {"Борис": 5}}  # the series went on instead
    assert client.post(f"/api/v1/series/{made['id']}/rounds", json=body, headers=auth).status_code == 201
    page = client.get(f"/series/{made['id']}/history/3/restore").get_data(as_text=True)  # round 2 back: over at 2
    assert "Раунд 2 вернуть нельзя:" in page and 'name="confirmed"' not in page
    assert client.post(f"/series/{made['id']}/history/3/restore",
                       data={"confirmed": "1"}).status_code == 422  # and sent anyway, it is refused, nothing stored
    assert totals(client, made["id"]) == {"Аня": 0, "Борис": 25}
