"""Seats over HTTP: seat links, the draft of the round being entered, confirmations, and every refused write."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.storage.database import connect, hash_token

PLAYERS = ["Аня", "Борис", "Вера"]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def game(client: FlaskClient, series: dict[str, Any]) -> dict[str, Any]:
    """The series fixture with its seat tokens by player."""
    r = client.get(f"/api/v1/series/{series['id']}/seats", headers=bearer(series["edit_token"]))
    assert r.status_code == 200
    return {**series, "seats": {s["player"]: s["token"] for s in r.get_json()["seats"]}}


def url(game: dict[str, Any], rest: str) -> str:
    return f"/api/v1/series/{game['id']}/{rest}"


def put(client: FlaskClient, game: dict[str, Any], player: str, cards: list[str], token: str | None = None) -> Any:
    return client.put(url(game, f"draft/{player}"), json={"cards": cards},
                      headers=bearer(token or game["seats"][player]))


def save_from_draft(client: FlaskClient, game: dict[str, Any], winner: str = "Аня", card: str = "Q♥") -> Any:
    return client.post(url(game, "rounds"), headers=bearer(game["edit_token"]),
                       json={"winner": winner, "finishing_card": card, "hands": "draft"})


# -- seat links -------------------------------------------------------------------------------------------


def test_seats_list_one_link_per_player_in_seating_order(client: FlaskClient, game: dict[str, Any]) -> None:
    r = client.get(url(game, "seats"), headers=bearer(game["edit_token"]))
    seats = r.get_json()["seats"]
    assert [s["player"] for s in seats] == PLAYERS
    for s in seats:
        assert s["url"].endswith(f"/series/{game['id']}/seat/open?token={s['token']}")
        assert len(s["token"]) * 6 >= 128  # url-safe base64: six bits a character
    assert r.headers["Cache-Control"] == "no-store"
    again = client.get(url(game, "seats"), headers=bearer(game["edit_token"])).get_json()["seats"]
    assert [s["token"] for s in again] == [s["token"] for s in seats]  # the links the table scanned stay valid


def test_seat_tokens_are_stored_only_as_hashes(app: Flask, game: dict[str, Any]) -> None:
    db = connect(app.config["DATABASE"])
    dump = "\n".join(db.conn.iterdump())
    for token in game["seats"].values():
        assert token not in dump
        assert hash_token(token) in dump


def test_seats_need_the_edit_token(client: FlaskClient, game: dict[str, Any]) -> None:
    assert client.get(url(game, "seats")).status_code == 401
    assert client.get(url(game, "seats"), headers=bearer("nope")).status_code == 403
    r = client.get(url(game, "seats"), headers=bearer(game["seats"]["Борис"]))
    assert r.status_code == 403
    assert r.get_json()["error"]["code"] == "forbidden"


def test_renew_gives_a_new_link_and_the_old_token_gets_403(client: FlaskClient, game: dict[str, Any]) -> None:
    old = game["seats"]["Борис"]
    r = client.post(url(game, "seats/Борис/renew"), headers=bearer(game["edit_token"]))
    assert r.status_code == 200
    body = r.get_json()
    assert body["player"] == "Борис" and body["token"] != old and body["url"].endswith(body["token"])
    assert put(client, game, "Борис", ["10c"], old).status_code == 403
    assert put(client, game, "Борис", ["10c"], body["token"]).status_code == 200
    listed = client.get(url(game, "seats"), headers=bearer(game["edit_token"])).get_json()["seats"]
    assert {s["player"]: s["token"] for s in listed}["Борис"] == body["token"]


def test_renew_is_refused_without_the_edit_token_or_for_nobody(client: FlaskClient, game: dict[str, Any]) -> None:
    assert client.post(url(game, "seats/Борис/renew")).status_code == 401
    assert client.post(url(game, "seats/Борис/renew"), headers=bearer(game["seats"]["Борис"])).status_code == 403
    r = client.post(url(game, "seats/Гена/renew"), headers=bearer(game["edit_token"]))
    assert r.status_code == 404
    assert "Гена" in r.get_json()["error"]["message"]


# -- the draft --------------------------------------------------------------------------------------------


def test_a_seat_sends_its_hand_normalised_and_scored(client: FlaskClient, game: dict[str, Any]) -> None:
    r = put(client, game, "Борис", ["10c", "jd", "КП", "Тч"])
    assert r.status_code == 200
    assert r.get_json() == {"round": 1, "player": "Борис", "cards": ["10♣", "J♦", "K♠", "A♥"], "points": 27}
    draft = client.get(url(game, "draft")).get_json()
    assert draft == {"round": 1, "hands": {"Борис": {"cards": ["10♣", "J♦", "K♠", "A♥"], "points": 27, "by": "seat"}},
                     "version": "1"}


def test_the_editor_may_send_any_hand(client: FlaskClient, game: dict[str, Any]) -> None:
    r = put(client, game, "вера", ["qs"], game["edit_token"])
    assert r.status_code == 200 and r.get_json()["player"] == "Вера"
    assert client.get(url(game, "draft")).get_json()["hands"]["Вера"]["by"] == "editor"


def test_another_players_seat_is_refused(client: FlaskClient, game: dict[str, Any]) -> None:
    r = put(client, game, "Вера", ["qs"], game["seats"]["Борис"])
    assert r.status_code == 403
    assert "Борис" in r.get_json()["error"]["message"]
    assert client.get(url(game, "draft")).get_json()["hands"] == {}


def test_a_draft_write_needs_a_token(client: FlaskClient, game: dict[str, Any]) -> None:
    assert client.put(url(game, "draft/Борис"), json={"cards": ["10c"]}).status_code == 401
    assert put(client, game, "Борис", ["10c"], "wrong").status_code == 403
    assert client.delete(url(game, "draft/Борис")).status_code == 401


def test_a_card_outside_the_deck_is_422(client: FlaskClient, game: dict[str, Any]) -> None:
    r = put(client, game, "Борис", ["2c"])  # 36 cards: sixes to aces
    assert r.status_code == 422
    assert r.get_json()["error"]["code"] == "invalid-card"


def test_a_card_in_another_hand_is_422_naming_its_holder(client: FlaskClient, game: dict[str, Any]) -> None:
    assert put(client, game, "Борис", ["10c", "jd"]).status_code == 200
    r = put(client, game, "Вера", ["jd", "qs"])
    assert r.status_code == 422
    assert "Борис" in r.get_json()["error"]["message"]
    assert "Вера" not in client.get(url(game, "draft")).get_json()["hands"]


def test_bad_cards_field_is_400(client: FlaskClient, game: dict[str, Any]) -> None:
    r = client.put(url(game, "draft/Борис"), json={"cards": "10c"}, headers=bearer(game["seats"]["Борис"]))
    assert r.status_code == 400


def test_an_unknown_player_is_404(client: FlaskClient, game: dict[str, Any]) -> None:
    r = put(client, game, "Гена", ["10c"], game["edit_token"])
    assert r.status_code == 404
    assert client.delete(url(game, "draft/Гена"), headers=bearer(game["edit_token"])).status_code == 404


def test_a_finished_series_is_409(client: FlaskClient, game: dict[str, Any]) -> None:
    r = client.post(url(game, "rounds"), headers=bearer(game["edit_token"]),
                    json={"winner": "Аня", "finishing_card": "Q♥", "typed_points": {"Борис": 120, "Вера": 5}})
    assert r.get_json()["status"] == "finished"
    r = put(client, game, "Вера", ["10c"])
    assert r.status_code == 409
    assert r.get_json()["error"]["code"] == "series-finished"
    assert client.delete(url(game, "draft/Вера"), headers=bearer(game["seats"]["Вера"])).status_code == 409


def test_delete_removes_the_hand(client: FlaskClient, game: dict[str, Any]) -> None:
    put(client, game, "Борис", ["10c"])
    r = client.delete(url(game, "draft/Борис"), headers=bearer(game["seats"]["Борис"]))
    assert r.status_code == 204 and r.data == b""
    assert client.get(url(game, "draft")).get_json()["hands"] == {}
    r = client.delete(url(game, "draft/Борис"), headers=bearer(game["seats"]["Вера"]))
    assert r.status_code == 403


def test_the_draft_answers_304_until_it_changes(client: FlaskClient, game: dict[str, Any]) -> None:
    first = client.get(url(game, "draft"))
    etag = first.headers["ETag"]
    assert client.get(url(game, "draft"), headers={"If-None-Match": etag}).status_code == 304
    put(client, game, "Борис", ["10c"])
    changed = client.get(url(game, "draft"), headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag


def test_saving_from_the_draft_takes_its_hands_and_empties_it(client: FlaskClient, game: dict[str, Any]) -> None:
    put(client, game, "Борис", ["10c", "jd"])
    put(client, game, "Вера", ["qs"])
    put(client, game, "Аня", ["7h"])  # sent before she went out: the winner has no hand
    r = save_from_draft(client, game)
    assert r.status_code == 201
    round_1 = r.get_json()["rounds"][0]
    assert round_1["hands"] == {"Борис": ["10♣", "J♦"], "Вера": ["Q♠"]}
    assert round_1["points"]["Борис"] == 12
    assert client.get(url(game, "draft")).get_json() == {"round": 2, "hands": {}, "version": "2"}


def test_a_missing_hand_stops_the_save_naming_the_player(client: FlaskClient, game: dict[str, Any]) -> None:
    put(client, game, "Борис", ["10c"])
    r = save_from_draft(client, game)
    assert r.status_code == 422
    assert "Вера" in r.get_json()["error"]["message"]
    assert client.get(f"/api/v1/series/{game['id']}").get_json()["rounds"] == []
    assert "Борис" in client.get(url(game, "draft")).get_json()["hands"]  # nothing stored, nothing lost


def test_a_seat_token_on_any_round_write_is_403(client: FlaskClient, game: dict[str, Any]) -> None:
    seat = bearer(game["seats"]["Борис"])
    body = {"winner": "Аня", "finishing_card": "Q♥", "hands": {"Борис": ["10c"], "Вера": ["qs"]}}
    assert client.post(url(game, "rounds"), headers=seat, json=body).status_code == 403
    assert client.post(url(game, "rounds"), headers=seat, json={**body, "hands": "draft"}).status_code == 403
    assert client.post(url(game, "rounds"), headers=bearer(game["edit_token"]), json=body).status_code == 201
    assert client.put(url(game, "rounds/1"), headers=seat, json=body).status_code == 403
    assert client.delete(url(game, "rounds/1"), headers=seat).status_code == 403
    assert len(client.get(f"/api/v1/series/{game['id']}").get_json()["rounds"]) == 1


# -- confirmations ----------------------------------------------------------------------------------------


@pytest.fixture
def played(client: FlaskClient, game: dict[str, Any]) -> dict[str, Any]:
    put(client, game, "Борис", ["10c", "jd"])
    put(client, game, "Вера", ["qs"])
    assert save_from_draft(client, game).status_code == 201
    return game


def confirm(client: FlaskClient, game: dict[str, Any], player: str, body: Any, n: int = 1) -> Any:
    return client.post(url(game, f"rounds/{n}/confirmation"), json=body, headers=bearer(game["seats"][player]))


def round_json(client: FlaskClient, game: dict[str, Any], n: int = 1) -> dict[str, Any]:
    rounds: list[dict[str, Any]] = client.get(f"/api/v1/series/{game['id']}").get_json()["rounds"]
    return rounds[n - 1]


def test_agree_and_dispute_show_in_the_series_json(client: FlaskClient, played: dict[str, Any]) -> None:
    assert round_json(client, played)["confirmations"] == {} and round_json(client, played)["disputes"] == []
    r = confirm(client, played, "Борис", {"agree": True})
    assert r.status_code == 200
    r = confirm(client, played, "Вера", {"agree": False, "note": "у меня была дама треф"})
    assert r.status_code == 200
    assert r.get_json()["disputes"] == [{"player": "Вера", "note": "у меня была дама треф"}]
    shown = round_json(client, played)
    assert shown["confirmations"] == {"Борис": "agreed", "Вера": "disputed"}
    assert shown["disputes"] == [{"player": "Вера", "note": "у меня была дама треф"}]


def test_a_confirmation_changes_the_series_etag(client: FlaskClient, played: dict[str, Any]) -> None:
    etag = client.get(f"/api/v1/series/{played['id']}").headers["ETag"]
    draft = client.get(url(played, "draft")).headers["ETag"]
    confirm(client, played, "Борис", {"agree": True})
    assert client.get(url(played, "draft"), headers={"If-None-Match": draft}).status_code == 200  # seats follow it
    r = client.get(f"/api/v1/series/{played['id']}", headers={"If-None-Match": etag})
    assert r.status_code == 200 and r.headers["ETag"] != etag
    # a round write sending that ETag as If-Match still names the same version
    version = r.get_json()["version"]
    assert r.headers["ETag"].strip('"').split(".")[0] == str(version)


def test_withdrawing_a_dispute(client: FlaskClient, played: dict[str, Any]) -> None:
    confirm(client, played, "Вера", {"agree": False})
    assert round_json(client, played)["disputes"] == [{"player": "Вера", "note": ""}]
    confirm(client, played, "Вера", {"agree": True})
    assert round_json(client, played)["disputes"] == []
    assert round_json(client, played)["confirmations"] == {"Вера": "agreed"}


def test_a_correction_clears_the_rounds_confirmations(client: FlaskClient, played: dict[str, Any]) -> None:
    confirm(client, played, "Борис", {"agree": True})
    confirm(client, played, "Вера", {"agree": False, "note": "дама треф, не пик"})
    r = client.put(url(played, "rounds/1"), headers=bearer(played["edit_token"]),
                   json={"winner": "Аня", "finishing_card": "Q♥", "hands": {"Борис": ["10c", "jd"], "Вера": ["qc"]}})
    assert r.status_code == 200
    shown = round_json(client, played)
    assert shown["confirmations"] == {} and shown["disputes"] == []


def test_the_edit_token_cannot_confirm(client: FlaskClient, played: dict[str, Any]) -> None:
    r = client.post(url(played, "rounds/1/confirmation"), json={"agree": True}, headers=bearer(played["edit_token"]))
    assert r.status_code == 403
    assert client.post(url(played, "rounds/1/confirmation"), json={"agree": True}).status_code == 401
    r = client.post(url(played, "rounds/1/confirmation"), json={"agree": True}, headers=bearer("wrong"))
    assert r.status_code == 403
    assert round_json(client, played)["confirmations"] == {}


def test_confirming_a_round_that_does_not_exist_is_404(client: FlaskClient, played: dict[str, Any]) -> None:
    assert confirm(client, played, "Борис", {"agree": True}, n=2).status_code == 404


def test_a_confirmation_must_say_agree(client: FlaskClient, played: dict[str, Any]) -> None:
    r = confirm(client, played, "Борис", {"agree": "yes"})
    assert r.status_code == 400
    assert "agree" in r.get_json()["error"]["message"]
    assert confirm(client, played, "Борис", {"agree": False, "note": 5}).status_code == 400


def test_a_dispute_is_in_the_csv_and_the_pdf_text(client: FlaskClient, played: dict[str, Any]) -> None:
    confirm(client, played, "Вера", {"agree": False, "note": "дама треф"})
    csv = client.get(f"/series/{played['id']}/scoresheet.csv").get_data(as_text=True)
    assert "Вера оспаривает раунд: «дама треф»" in csv
    page = client.get(f"/series/{played['id']}").get_data(as_text=True)
    assert "Вера оспаривает раунд: «дама треф»" in page


def test_a_dispute_is_in_the_pdf(app: Flask, client: FlaskClient, played: dict[str, Any]) -> None:
    from companion.service import series as series_service
    from companion.storage.database import get_db
    from companion.web.pages.export import sheet_document

    confirm(client, played, "Вера", {"agree": False, "note": "дама треф"})
    with app.test_request_context("/", headers={"Accept-Language": "ru"}):
        series = series_service.load(get_db(), played["id"])
        assert series is not None
        assert "Вера оспаривает раунд: «дама треф»" in sheet_document(series)[0]


def test_a_seat_token_opens_nothing_else(client: FlaskClient, game: dict[str, Any]) -> None:
    seat = bearer(game["seats"]["Борис"])
    r = client.post("/api/v1/tables/" + game["table"] + "/merges", json={"from": "Боря", "into": "Борис"},
                    headers=seat)
    assert r.status_code == 403
    assert client.post("/api/v1/series", json={"after": game["id"]}, headers=seat).status_code == 403
    assert client.post(url(game, "players"), json={"name": "Дима"}, headers=seat).status_code == 403
    assert client.delete(url(game, "players/Вера"), headers=seat).status_code == 403
    assert client.post(url(game, "seats/Борис/renew"), headers=seat).status_code == 403


def test_seat_tokens_are_in_no_export(client: FlaskClient, played: dict[str, Any]) -> None:
    documents = [client.get(url(played, "export")).get_data(as_text=True),
                 client.get(f"/series/{played['id']}/scoresheet.csv").get_data(as_text=True),
                 client.get(f"/api/v1/series/{played['id']}").get_data(as_text=True),
                 client.get(f"/series/{played['id']}").get_data(as_text=True),
                 client.get(url(played, "history")).get_data(as_text=True)]
    for token in played["seats"].values():
        assert not any(token in text for text in documents)


def test_a_hand_for_a_round_saved_meanwhile_is_409_and_not_kept(client: FlaskClient, played: dict[str, Any]) -> None:
    r = client.put(url(played, "draft/Борис"), json={"cards": ["6c"], "round": 1},
                   headers=bearer(played["seats"]["Борис"]))
    assert r.status_code == 409 and r.get_json()["error"]["code"] == "round-saved"
    assert client.get(url(played, "draft")).get_json()["hands"] == {}  # not carried into round 2
    r = client.put(url(played, "draft/Борис"), json={"cards": ["6c"], "round": 2},
                   headers=bearer(played["seats"]["Борис"]))
    assert r.status_code == 200
    r = client.put(url(played, "draft/Борис"), json={"cards": ["6c"], "round": "2"},
                   headers=bearer(played["seats"]["Борис"]))
    assert r.status_code == 400
