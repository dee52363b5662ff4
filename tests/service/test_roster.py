"""Players joining and leaving between rounds: the rules core's replay and the API (every refused write)."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given
from hypothesis import strategies as st

from companion.core.series import PlayerStatus, RosterChange, RoundInput, SeriesSetup, replay


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


ROUND_1 = {"winner": "Аня", "finishing_card": "Q♥", "hands": {"Борис": ["10c", "jd"], "Вера": ["qs"]}}


@pytest.fixture
def played(client: FlaskClient, series: dict[str, Any]) -> dict[str, Any]:
    """Round 1 played: Аня −40, Борис 12, Вера 20."""
    r = client.post(f"/api/v1/series/{series['id']}/rounds", headers=bearer(series["edit_token"]), json=ROUND_1)
    assert r.status_code == 201
    return series


def players_url(game: dict[str, Any], rest: str = "") -> str:
    return f"/api/v1/series/{game['id']}/players{rest}"


def join(client: FlaskClient, game: dict[str, Any], body: Any, token: str | None = None) -> Any:
    return client.post(players_url(game), json=body, headers=bearer(token or game["edit_token"]))


def statuses(body: dict[str, Any]) -> dict[str, tuple[int, str]]:
    return {p["name"]: (p["total"], p["status"]) for p in body["players"]}


# -- the core ---------------------------------------------------------------------------------------------


def test_replay_seats_a_joiner_and_lets_a_player_leave() -> None:
    setup = SeriesSetup.create(["Аня", "Борис", "Вера"], starter="Аня")
    first = RoundInput.from_json(ROUND_1, setup)
    setup = setup.with_roster([RosterChange(1, "Дима", True, 20), RosterChange(1, "Борис", False)])
    second = RoundInput.from_json({"winner": "Дима", "finishing_card": "7h", "hands": {"Аня": ["6s"], "Вера": ["6c"]}},
                                  setup)
    st_ = replay(setup, [first, second])
    assert setup.players == ("Аня", "Борис", "Вера", "Дима")
    assert st_.statuses["Борис"] is PlayerStatus.LEFT and "Борис" not in st_.losers
    assert st_.totals == {"Аня": -34, "Борис": 12, "Вера": 26, "Дима": 20}
    assert st_.rounds[0].points.keys() == {"Аня", "Борис", "Вера"}
    assert [e["type"] for e in st_.rounds[1].events][:2] == ["joined", "left"]


@given(st.integers(min_value=0, max_value=101))
def test_a_joiner_starts_at_the_total_given_and_earlier_rounds_do_not_change(total: int) -> None:
    setup = SeriesSetup.create(["Аня", "Борис"], starter="Аня")
    first = RoundInput.from_json({"winner": "Аня", "finishing_card": "7h", "hands": {"Борис": ["10c"]}}, setup)
    before = replay(setup, [first])
    after = replay(setup.with_roster([RosterChange(1, "Вера", True, total)]), [first])
    assert after.totals["Вера"] == total and after.statuses["Вера"] is PlayerStatus.PLAYING
    assert after.rounds[0].points == before.rounds[0].points


# -- joining -----------------------------------------------------------------------------------------------


def test_a_new_player_starts_at_the_highest_total_in_play(client: FlaskClient, played: dict[str, Any]) -> None:
    r = join(client, played, {"name": "Дима"})
    assert r.status_code == 201
    assert statuses(r.get_json())["Дима"] == (20, "playing")


def test_a_new_player_starts_at_the_total_the_table_chose(client: FlaskClient, played: dict[str, Any]) -> None:
    r = join(client, played, {"name": "Глеб", "total": 0})
    assert r.status_code == 201 and statuses(r.get_json())["Глеб"] == (0, "playing")


def test_a_joiner_gets_a_seat_and_plays_the_next_round(client: FlaskClient, played: dict[str, Any]) -> None:
    join(client, played, {"name": "Дима"})
    seats = client.get(f"/api/v1/series/{played['id']}/seats", headers=bearer(played["edit_token"])).get_json()
    assert [s["player"] for s in seats["seats"]] == ["Аня", "Борис", "Вера", "Дима"]
    r = client.post(f"/api/v1/series/{played['id']}/rounds", headers=bearer(played["edit_token"]),
                    json={"winner": "Вера", "finishing_card": "7h", "hands": {"Аня": ["6s"], "Борис": ["6c"]}})
    assert r.status_code == 422 and "Дима" in r.get_json()["error"]["message"]  # his hand is missing
    r = client.post(f"/api/v1/series/{played['id']}/rounds", headers=bearer(played["edit_token"]),
                    json={"winner": "Вера", "finishing_card": "7h",
                          "hands": {"Аня": ["6s"], "Борис": ["6c"], "Дима": ["8d"]}})
    assert r.status_code == 201
    assert r.get_json()["rounds"][1]["events"][0] == {"type": "joined", "player": "Дима", "total": 20}


def test_a_duplicate_name_is_422(client: FlaskClient, played: dict[str, Any]) -> None:
    r = join(client, played, {"name": "борис"})
    assert r.status_code == 422 and "борис" in r.get_json()["error"]["message"]


def test_over_the_rule_sets_limit_is_422(client: FlaskClient) -> None:
    created = client.post("/api/v1/series", json={"players": ["А", "Б", "В", "Г"], "starter": "А"})
    game = created.get_json()  # igrafan with 36 cards: 2 to 4 players
    r = join(client, game, {"name": "Д"})
    assert r.status_code == 422 and "4" in r.get_json()["error"]["message"]
    assert len(client.get(f"/api/v1/series/{game['id']}").get_json()["players"]) == 4
    assert client.delete(players_url(game, "/Б"), headers=bearer(game["edit_token"])).status_code == 200
    assert join(client, game, {"name": "Д"}).status_code == 201  # four at the table again, five names


def test_joining_needs_the_edit_token(client: FlaskClient, played: dict[str, Any]) -> None:
    assert client.post(players_url(played), json={"name": "Дима"}).status_code == 401
    assert join(client, played, {"name": "Дима"}, "wrong").status_code == 403
    seat = client.get(f"/api/v1/series/{played['id']}/seats", headers=bearer(played["edit_token"]))
    assert join(client, played, {"name": "Дима"}, seat.get_json()["seats"][1]["token"]).status_code == 403


def test_bad_join_bodies(client: FlaskClient, played: dict[str, Any]) -> None:
    assert join(client, played, {"name": 5}).status_code == 400
    assert join(client, played, {"name": "Дима", "total": "54"}).status_code == 400
    assert join(client, played, {"name": "Дима", "total": 150}).status_code == 422
    assert join(client, played, {"name": " "}).status_code == 422
    assert len(client.get(f"/api/v1/series/{played['id']}").get_json()["players"]) == 3


def test_no_one_joins_a_finished_series(client: FlaskClient, series: dict[str, Any]) -> None:
    client.post(f"/api/v1/series/{series['id']}/rounds", headers=bearer(series["edit_token"]),
                json={"winner": "Аня", "finishing_card": "Q♥", "typed_points": {"Борис": 120, "Вера": 5}})
    assert join(client, series, {"name": "Дима"}).status_code == 409
    assert client.delete(players_url(series, "/Вера"), headers=bearer(series["edit_token"])).status_code == 409


# -- leaving -----------------------------------------------------------------------------------------------


def test_a_player_leaves_not_lost_and_keeps_their_rounds(client: FlaskClient, played: dict[str, Any]) -> None:
    r = client.delete(players_url(played, "/Борис"), headers=bearer(played["edit_token"]))
    assert r.status_code == 200
    body = r.get_json()
    assert statuses(body)["Борис"] == (12, "left") and body["losers"] == [] and body["status"] == "active"
    assert body["rounds"][0]["hands"]["Борис"] == ["10♣", "J♦"]
    r = client.post(f"/api/v1/series/{played['id']}/rounds", headers=bearer(played["edit_token"]),
                    json={"winner": "Вера", "finishing_card": "7h", "hands": {"Аня": ["6s"], "Борис": ["6c"]}})
    assert r.status_code == 422 and "Борис" in r.get_json()["error"]["message"]  # no hand for one who left
    r = client.put(f"/api/v1/series/{played['id']}/draft/Борис", json={"cards": ["6c"]},
                   headers=bearer(played["edit_token"]))
    assert r.status_code == 422


def test_at_least_two_stay_in_play(client: FlaskClient, played: dict[str, Any]) -> None:
    assert client.delete(players_url(played, "/Борис"), headers=bearer(played["edit_token"])).status_code == 200
    r = client.delete(players_url(played, "/Вера"), headers=bearer(played["edit_token"]))
    assert r.status_code == 422 and "2" in r.get_json()["error"]["message"]
    assert client.delete(players_url(played, "/Борис"), headers=bearer(played["edit_token"])).status_code == 422


def test_leaving_is_refused_without_the_edit_token_or_for_nobody(client: FlaskClient, played: dict[str, Any]) -> None:
    assert client.delete(players_url(played, "/Борис")).status_code == 401
    assert client.delete(players_url(played, "/Борис"), headers=bearer("wrong")).status_code == 403
    assert client.delete(players_url(played, "/Гена"), headers=bearer(played["edit_token"])).status_code == 404


def test_corrections_and_undo_keep_joins_between_the_same_rounds(client: FlaskClient, played: dict[str, Any]) -> None:
    token = bearer(played["edit_token"])
    join(client, played, {"name": "Дима"})
    r = client.put(f"/api/v1/series/{played['id']}/rounds/1", headers=token,
                   json={**ROUND_1, "hands": {"Борис": ["10c"], "Вера": ["qs", "kc"]}})
    assert r.status_code == 200
    assert statuses(r.get_json())["Дима"] == (20, "playing")  # the total chosen then is kept
    r = client.delete(f"/api/v1/series/{played['id']}/rounds/1", headers=token)
    assert r.status_code == 200
    assert statuses(r.get_json())["Дима"] == (20, "playing")
    assert r.get_json()["rounds"] == []  # round 1 removed: he sat down before any round


def test_joins_and_leaves_in_the_page_pdf_csv_and_table(app: Flask, client: FlaskClient,
                                                          played: dict[str, Any]) -> None:
    token = bearer(played["edit_token"])
    join(client, played, {"name": "Дима"})
    client.delete(players_url(played, "/Борис"), headers=token)
    client.post(f"/api/v1/series/{played['id']}/rounds", headers=token,
                json={"winner": "Вера", "finishing_card": "7h", "hands": {"Аня": ["6s"], "Дима": ["8d"]}})
    page = client.get(f"/series/{played['id']}").get_data(as_text=True)
    assert "Дима садится за стол с 20" in page and "Борис выходит из-за стола с 12" in page
    csv = client.get(f"/series/{played['id']}/scoresheet.csv").get_data(as_text=True)
    assert "Борис выходит из-за стола с 12" in csv and "Дима садится за стол с 20" in csv
    from companion.service import series as series_service
    from companion.storage.database import get_db
    from companion.web.pages.export import sheet_document

    with app.test_request_context("/", headers={"Accept-Language": "ru"}):
        series = series_service.load(get_db(), played["id"])
        assert series is not None
        sheet = sheet_document(series)[0]
    assert "Борис выходит из-за стола с 12" in sheet and "не за столом" in sheet
    table = client.get(f"/api/v1/tables/{played['table']}").get_json()
    counted = {p["name"]: (p["series_played"], p["series_lost"]) for p in table["players"]}
    assert counted["Дима"] == (1, 0) and counted["Борис"] == (1, 0)


def test_the_share_page_adds_and_lets_leave(client: FlaskClient, played: dict[str, Any]) -> None:
    editor = client.application.test_client()
    editor.get(f"/series/{played['id']}/edit?token={played['edit_token']}")
    page = editor.get(f"/series/{played['id']}/share").get_data(as_text=True)
    assert "Пусто: 20" in page
    assert editor.post(f"/series/{played['id']}/players", data={"name": "Дима", "total": ""}).status_code == 303
    r = editor.post(f"/series/{played['id']}/players", data={"name": "Дима"})
    assert r.status_code == 422 and "дважды" in r.get_data(as_text=True)
    assert editor.post(f"/series/{played['id']}/players", data={"name": "Ян", "total": "x"}).status_code == 422
    assert editor.post(f"/series/{played['id']}/players/1/leave").status_code == 303
    body = client.get(f"/api/v1/series/{played['id']}").get_json()
    assert statuses(body) == {"Аня": (-40, "playing"), "Борис": (12, "left"), "Вера": (20, "playing"),
                              "Дима": (20, "playing")}
    assert client.post(f"/series/{played['id']}/players/0/leave").status_code == 403


def test_export_and_import_keep_joins_and_leaves(client: FlaskClient, played: dict[str, Any]) -> None:
    from companion.service.record import comparable

    token = bearer(played["edit_token"])
    join(client, played, {"name": "Дима"})
    client.delete(players_url(played, "/Борис"), headers=token)
    client.post(f"/api/v1/series/{played['id']}/rounds", headers=token,
                json={"winner": "Вера", "finishing_card": "7h", "hands": {"Аня": ["6s"], "Дима": ["8d"]}})
    exported = client.get(f"/api/v1/series/{played['id']}/export").get_json()
    assert exported["players"] == ["Аня", "Борис", "Вера"]
    assert exported["roster"] == [{"after": 1, "player": "Дима", "joins": True, "total": 20},
                                  {"after": 1, "player": "Борис", "joins": False, "total": 12}]
    imported = client.post("/api/v1/series/import", json=exported)
    assert imported.status_code == 201
    again = client.get(f"/api/v1/series/{imported.get_json()['id']}/export").get_json()
    assert comparable(again) == comparable(exported)
    assert statuses(imported.get_json()) == statuses(client.get(f"/api/v1/series/{played['id']}").get_json())
    assert client.post("/api/v1/series/import", json={**exported, "roster": [{"after": "1"}]}).status_code == 400
