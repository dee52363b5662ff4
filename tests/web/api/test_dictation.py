"""POST /api/v1/round-from-text (issues 10, 21): a round read from what the table says."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

PLAYERS = ["Аня", "Борис", "Вера"]


# -- the API ---------------------------------------------------------------------


def post(client: FlaskClient, body: Any, lang: str = "ru") -> Any:
    return client.post("/api/v1/round-from-text", json=body, headers={"Accept-Language": lang})


def test_api_contract(client: FlaskClient) -> None:
    r = post(
        client,
        {
            "text": "Аня вышла дамой червей. У Бориса туз, король пик и семёрка. У Веры две десятки и валет.",
            "players": PLAYERS,
        },
    )
    assert r.status_code == 200
    body = r.get_json()
    assert list(body)[:5] == ["winner", "finishing_card", "hands", "unrecognised", "questions"]
    assert body["winner"] == "Аня" and body["finishing_card"] == "Q♥" and body["unrecognised"] == []
    assert body["hands"]["Борис"][1] == "K♠" and len(body["hands"]["Вера"]) == 3
    # assumed suits are named in the questions, in Russian notation for a Russian table
    assert any("Масть не названа" in q and "Т♠" in q for q in body["questions"])
    assert body["ready"] is True


def test_api_rank_and_question_mark_where_the_suit_matters(client: FlaskClient) -> None:
    body = post(
        client,
        {
            "text": "Anna went out with a queen, Boris has a king",
            "players": ["Anna", "Boris"],
            "ruleset": "elvista",
            "options": {"spade_king_points": 40},
        },
        "en",
    ).get_json()
    assert body["finishing_card"] == "Q?" and body["hands"] == {"Boris": ["K?"]}
    assert any("queen" in q for q in body["questions"]) and any("king of spades" in q for q in body["questions"])
    assert body["ready"] is False


def test_the_parsed_body_posts_as_a_round(client: FlaskClient, series: dict[str, Any]) -> None:
    body = post(
        client, {"text": "Аня вышла на десятке пик. У Бориса туз, король пик. У Веры две десятки", "players": PLAYERS}
    ).get_json()
    assert body["ready"]
    r = client.post(
        f"/api/v1/series/{series['id']}/rounds",
        headers={"Authorization": f"Bearer {series['edit_token']}"},
        json={k: body[k] for k in ("winner", "finishing_card", "hands")},
    )
    assert r.status_code == 201
    assert r.get_json()["players"][1]["total"] == 15 and r.get_json()["players"][2]["total"] == 20


def test_api_refusals_say_how(client: FlaskClient) -> None:
    cases = [
        ({"players": PLAYERS}, 400, "text"),
        ({"text": 5, "players": PLAYERS}, 400, "text"),
        ({"text": "x" * 3000, "players": PLAYERS}, 400, "2000"),
        ({"text": "x"}, 400, "players"),
        ({"text": "x", "players": ["Аня", "аня"]}, 400, "повторяться"),
        ({"text": "x", "players": [""]}, 400, "players"),
        ({"text": "x", "players": PLAYERS, "ruleset": "nope"}, 422, "nope"),
        ({"text": "x", "players": PLAYERS, "options": {"deck": 5}}, 422, "deck"),
        ([1, 2], 400, "JSON"),
    ]
    for body, status, word in cases:
        r = post(client, body)
        assert r.status_code == status, body
        assert word in r.get_json()["error"]["message"], (body, r.get_json())
    assert client.post("/api/v1/round-from-text", data="{", content_type="application/json").status_code == 400
