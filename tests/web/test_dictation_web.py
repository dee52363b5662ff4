"""POST /api/v1/round-from-text (issues 10, 21) and the round page's dictation field without JavaScript."""

from __future__ import annotations

import re
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



# -- the round page's text field without JavaScript ---------------------------------


def test_round_page_fills_the_grid_from_text_and_saves_only_what_was_shown(app: Any, client: FlaskClient) -> None:
    from tests.test_ui_play import create, load

    series_id = create(client)
    url = f"/series/{series_id}/round"
    v = str(load(app, series_id).version)
    text = "Аня вышла на десятке пик. У Бориса туз и король пик. У Веры джокер и две десятки. У Глеба дама и туз червей"
    page = client.post(url, data={"version": v, "say": text, "op": "say"})
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and len(load(app, series_id).entries) == 0  # shown, not stored
    assert re.search(r'name="winner" value="0"[^>]*checked', html)
    assert re.search(r'name="finishing_card" value="10S"[^>]*checked', html)
    assert re.search(r'name="hand-1" value="KS"[^>]*checked', html)
    assert "«джокер»" in html and "Не понято" in html
    assert f'name="said" value="{text}"' in html
    # «Save as said» with the grid showing that text saves it as it stands
    data = {
        "version": v,
        "say": text,
        "said": text,
        "op": "say-save",
        "winner": "0",
        "finishing_card": "10S",
        "hand-1": ["AS", "KS"],
        "hand-2": ["10H", "10C"],
        "hand-3": ["QD", "AH"],
    }
    saved = client.post(url, data=data)
    assert saved.status_code == 303 and dict(load(app, series_id).standings.totals)["Вера"] == 20
    # «Save as said» with a text the reader is sure of saves it in one tap
    text2 = "Борис вышел на семёрке пик. У Ани туз. У Веры король. У Глеба девятка"
    v = str(load(app, series_id).version)
    again = client.post(url, data={"version": v, "say": text2, "op": "say-save"})
    assert again.status_code == 303 and len(load(app, series_id).entries) == 2
    assert load(app, series_id).entries[1].winner == "Борис"
    # an empty text says what to write, next to the field
    empty = client.post(url, data={"version": v, "say": " ", "op": "say"})
    assert empty.status_code == 422 and "Сначала скажите или напишите раунд" in empty.get_data(as_text=True)


def test_save_as_said_says_what_to_check_and_marks_the_asked_cards(app: Any, client: FlaskClient) -> None:
    from tests.test_ui_play import create, load

    series_id = create(client)
    url = f"/series/{series_id}/round"
    v = str(load(app, series_id).version)
    text = "Аня вышла на тузе пик. У Бориса две дамы. У Веры семёрка. У Глеба король"
    refused = client.post(url, data={"version": v, "say": text, "op": "say-save"})
    html = refused.get_data(as_text=True)
    assert refused.status_code == 422 and len(load(app, series_id).entries) == 0  # never a silent re-render
    assert "Пока не сохранено" in html and "У игрока Борис дамы (2): каких мастей?" in html
    assert html.count("Борис дамы") == 1  # asked once for the group
    # the two queens are shown in Борис's grid, every free queen marked as needing its suit
    assert len(re.findall(r'class="c[^"]* ask"><input type="checkbox" name="hand-1" value="Q[SHDC]"', html)) == 4
    assert re.search(r'name="finishing_card" value="AS"[^>]*checked', html)
    assert f'name="said" value="{text}"' in html
    # the same text again, the grid untouched: still refused
    grid = {"winner": "0", "finishing_card": "AS", "hand-2": ["7S"], "hand-3": ["KH"]}
    again = client.post(url, data={"version": v, "say": text, "said": text, "op": "say-save", **grid})
    assert again.status_code == 422 and len(load(app, series_id).entries) == 0
    # the queens tapped in the grid: the table's answer is saved
    done = client.post(url, data={"version": v, "say": text, "said": text, "op": "say-save", **grid,
                                  "hand-1": ["QH", "QC"]})
    assert done.status_code == 303 and len(load(app, series_id).entries) == 1


def test_a_name_of_nobody_at_the_table_never_credits_the_player_before(app: Any, client: FlaskClient) -> None:
    from tests.test_ui_play import create, load

    series_id = create(client)  # Аня, Борис, Вера, Глеб
    url = f"/series/{series_id}/round"
    v = str(load(app, series_id).version)
    text = "Аня вышла на тузе пик. Вера: король. Гоша: туз бубновый, семёрка. У Бориса валет"
    html = client.post(url, data={"version": v, "say": text, "op": "say"}).get_data(as_text=True)
    assert re.search(r'name="hand-2" value="K[HCD]"[^>]*checked', html)  # Вера's king, the suit assumed
    assert not re.search(r'name="hand-\d" value="(AD|7[SHDC])"[^>]*checked', html)  # Гоша's cards: nobody's
    assert "«Гоша» — такого игрока за столом нет. Чьи карты Т♦, 7?" in html


def test_dictation_as_htmx_answers_with_the_filled_form(app: Any, client: FlaskClient) -> None:
    from tests.test_ui_play import create, load

    series_id = create(client)
    url = f"/series/{series_id}/round"
    v = str(load(app, series_id).version)
    text = "Боря вышел на даме червей. У Ани туз. У Веры семёрка. У Глеба десятка"
    r = client.post(url, data={"version": v, "say": text, "op": "say"}, headers={"HX-Request": "true"})
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and len(load(app, series_id).entries) == 0
    assert 'id="round-form"' in html and re.search(r'name="winner" value="1"[^>]*checked', html)
    assert re.search(r'name="finishing_card" value="QH"[^>]*checked', html)
    assert "Всё сказанное понятно" in html
