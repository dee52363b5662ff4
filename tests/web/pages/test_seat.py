"""The seat pages: the seat link's cookie, what a seat may do and may not, the share page's seat links."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient


@pytest.fixture
def seat_tokens(client: FlaskClient, series: dict[str, Any]) -> dict[str, str]:
    r = client.get(f"/api/v1/series/{series['id']}/seats", headers={"Authorization": f"Bearer {series['edit_token']}"})
    return {s["player"]: s["token"] for s in r.get_json()["seats"]}


LIVE = {"HX-Request": "true", "HX-Target": "seat-live"}  # what seat.js asks for: the live part alone


def phone(app_client: FlaskClient) -> FlaskClient:
    return app_client.application.test_client()


def seated(client: FlaskClient, series: dict[str, Any], token: str) -> FlaskClient:
    other = phone(client)
    r = other.get(f"/series/{series['id']}/seat/open?token={token}")
    assert r.status_code == 303 and r.headers["Location"] == f"/series/{series['id']}/seat"
    return other


ROUND_ONE = {"winner": "Аня", "finishing_card": "Q♥", "hands": {"Борис": ["10c", "jd"], "Вера": ["qs"]}}


def save_round(client: FlaskClient, series: dict[str, Any], body: dict[str, Any]) -> None:
    """The editor saves a round through the API (the seats then show it)."""
    answer = client.post(f"/api/v1/series/{series['id']}/rounds", json=body,
                         headers={"Authorization": f"Bearer {series['edit_token']}"})
    assert answer.status_code == 201, answer.get_json()


def test_the_seat_link_sets_an_httponly_cookie_and_no_referrer(client: FlaskClient, series: dict[str, Any],
                                                                 seat_tokens: dict[str, str]) -> None:
    r = phone(client).get(f"/series/{series['id']}/seat/open?token={seat_tokens['Борис']}")
    cookie = r.headers["Set-Cookie"]
    assert cookie.startswith(f"s_{series['id']}=") and "HttpOnly" in cookie and f"Path=/series/{series['id']}" in cookie
    assert "SameSite=Lax" in cookie
    assert r.headers["Referrer-Policy"] == "no-referrer" and r.headers["Cache-Control"] == "no-store"


def test_the_seat_token_is_never_logged(client: FlaskClient, series: dict[str, Any], seat_tokens: dict[str, str],
                                        caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="companion.requests"):
        phone(client).get(f"/series/{series['id']}/seat/open?token={seat_tokens['Борис']}")
    assert "/seat/open?token=…" in caplog.text and seat_tokens["Борис"] not in caplog.text


def test_a_wrong_or_renewed_seat_link_is_refused(client: FlaskClient, series: dict[str, Any],
                                                 seat_tokens: dict[str, str]) -> None:
    r = phone(client).get(f"/series/{series['id']}/seat/open?token=wrong")
    assert r.status_code == 403 and "Set-Cookie" not in r.headers
    borya = seated(client, series, seat_tokens["Борис"])
    renewed = client.post(f"/api/v1/series/{series['id']}/seats/Борис/renew",
                          headers={"Authorization": f"Bearer {series['edit_token']}"})
    assert renewed.status_code == 200
    assert borya.get(f"/series/{series['id']}/seat").status_code == 403  # the phone's old cookie stops at once
    page = phone(client).get(f"/series/{series['id']}/seat/open?token={seat_tokens['Борис']}")
    assert page.status_code == 403 and "обновил" in page.get_data(as_text=True)


def test_the_seat_page_shows_its_own_line_first(client: FlaskClient, series: dict[str, Any],
                                                seat_tokens: dict[str, str]) -> None:
    vera = seated(client, series, seat_tokens["Вера"])
    page = vera.get(f"/series/{series['id']}/seat").get_data(as_text=True)
    assert "Телефон: Вера" in page
    assert page.index('class="name">Вера') < page.index('class="name">Аня')
    assert seat_tokens["Вера"] not in page  # the secret is in the cookie only


def test_a_seat_sends_its_hand_and_sees_whose_card_it_is(client: FlaskClient, series: dict[str, Any],
                                                         seat_tokens: dict[str, str]) -> None:
    sid = series["id"]
    borya, vera = seated(client, series, seat_tokens["Борис"]), seated(client, series, seat_tokens["Вера"])
    r = borya.post(f"/series/{sid}/seat/hand", data={"card": ["10C", "JD"]})
    assert r.status_code == 303
    assert client.get(f"/api/v1/series/{sid}/draft").get_json()["hands"]["Борис"]["by"] == "seat"
    r = vera.post(f"/series/{sid}/seat/hand", data={"card": ["JD"]})
    assert r.status_code == 422
    assert "уже в руке у игрока Борис" in r.get_data(as_text=True)
    assert "Вера" not in client.get(f"/api/v1/series/{sid}/draft").get_json()["hands"]
    assert borya.post(f"/series/{sid}/seat/hand", data={}).status_code == 303  # nothing ticked: no hand
    assert client.get(f"/api/v1/series/{sid}/draft").get_json()["hands"] == {}


def test_a_phone_without_a_seat_cannot_write(client: FlaskClient, series: dict[str, Any]) -> None:
    other = phone(client)
    assert other.get(f"/series/{series['id']}/seat").status_code == 403
    assert other.post(f"/series/{series['id']}/seat/hand", data={"card": ["10C"]}).status_code == 403
    assert other.post(f"/series/{series['id']}/draft/1", data={"card": ["10C"]}).status_code == 403
    assert client.get(f"/api/v1/series/{series['id']}/draft").get_json()["hands"] == {}


def test_the_seat_poll_is_304_until_something_changes(client: FlaskClient, series: dict[str, Any],
                                                      seat_tokens: dict[str, str]) -> None:
    sid = series["id"]
    vera = seated(client, series, seat_tokens["Вера"])
    borya = seated(client, series, seat_tokens["Борис"])
    first = vera.get(f"/series/{sid}/seat", headers=LIVE)
    etag = first.headers["ETag"]
    assert f"data-etag='{etag}'" in first.get_data(as_text=True)  # seat.js asks with the ETag the page holds
    assert vera.get(f"/series/{sid}/seat", headers={**LIVE, "If-None-Match": etag}).status_code == 304
    vera.post(f"/series/{sid}/seat/hand", data={"card": ["QS"]})  # a hand: the live part shows no hands
    assert vera.get(f"/series/{sid}/seat", headers={**LIVE, "If-None-Match": etag}).status_code == 304
    save_round(client, series,
               {"winner": "Аня", "finishing_card": "Q♥", "hands": "draft", "typed_points": {"Борис": 5}})
    saved = vera.get(f"/series/{sid}/seat", headers={**LIVE, "If-None-Match": etag})
    assert saved.status_code == 200 and 'id="seat-live"' in saved.get_data(as_text=True)
    etag = saved.headers["ETag"]
    borya.post(f"/series/{sid}/seat/rounds/1/confirmation", data={"agree": "1"})  # another's «Right»: nothing new
    assert vera.get(f"/series/{sid}/seat", headers={**LIVE, "If-None-Match": etag}).status_code == 304
    borya.post(f"/series/{sid}/seat/rounds/1/confirmation", data={"agree": "0", "note": "не так"})  # a dispute
    disputed = vera.get(f"/series/{sid}/seat", headers={**LIVE, "If-None-Match": etag})
    assert disputed.status_code == 200 and "Борис оспаривает раунд: «не так»" in disputed.get_data(as_text=True)


def editor_phone(client: FlaskClient, series: dict[str, Any]) -> FlaskClient:
    editor = phone(client)
    assert editor.get(f"/series/{series['id']}/edit?token={series['edit_token']}").status_code == 303
    return editor


def test_the_editor_page_sends_its_ticks_into_the_draft(client: FlaskClient, series: dict[str, Any]) -> None:
    editor = editor_phone(client, series)
    r = editor.post(f"/series/{series['id']}/draft/2", data={"card": ["QS"]})
    assert r.status_code == 200 and r.get_json() == {"player": "Вера", "cards": ["Q♠"], "points": 20, "by": "editor"}
    round_page = editor.get(f"/series/{series['id']}/round").get_data(as_text=True)
    assert 'name="hand-2" value="QS" aria-label="дама пик" checked' in round_page  # the draft fills the form
    assert editor.post(f"/series/{series['id']}/draft/9", data={"card": ["QS"]}).status_code == 404
    assert editor.post(f"/series/{series['id']}/draft/1", data={"card": ["QS"]}).status_code == 422


def test_seat_confirmation_forms(client: FlaskClient, series: dict[str, Any], seat_tokens: dict[str, str]) -> None:
    sid = series["id"]
    save_round(client, series, ROUND_ONE)
    borya = seated(client, series, seat_tokens["Борис"])
    page = borya.get(f"/series/{sid}/seat").get_data(as_text=True)
    assert "Раунд 1: у вас 10♣ В♦ = 12, итог 12" in page and "Верно" in page
    disputed = borya.post(f"/series/{sid}/seat/rounds/1/confirmation", data={"agree": "0", "note": "не так"})
    assert disputed.status_code == 303
    assert borya.post(f"/series/{sid}/seat/rounds/2/confirmation", data={"agree": "1"}).status_code == 404
    shown = client.get(f"/series/{sid}").get_data(as_text=True)
    assert "Борис оспаривает раунд: «не так»" in shown
    assert client.get(f"/api/v1/series/{sid}").get_json()["rounds"][0]["confirmations"] == {"Борис": "disputed"}


def test_the_share_page_offers_a_seat_link_per_player(client: FlaskClient, series: dict[str, Any]) -> None:
    editor = editor_phone(client, series)
    page = editor.get(f"/series/{series['id']}/share").get_data(as_text=True)
    for name in ("Аня", "Борис", "Вера"):
        assert f"Телефон: {name}" in page
    assert page.count("/seat/open?token=") == 3 * 2  # the link and its text
    assert page.count("<svg") >= 4  # the view QR and one per seat
    old = page.split("/seat/open?token=")[1].split('"')[0]
    r = editor.post(f"/series/{series['id']}/share/seats/0/renew")
    assert r.status_code == 303
    assert phone(client).get(f"/series/{series['id']}/seat/open?token={old}").status_code == 403
    assert phone(client).post(f"/series/{series['id']}/share/seats/0/renew").status_code == 403


# -- «Send» and «Right» / «Not right» answered in place (static/seat.js) --------------------------------------

JSON = {"Accept": "application/json"}


def test_a_seat_sends_its_hand_in_place(client: FlaskClient, series: dict[str, Any],
                                        seat_tokens: dict[str, str]) -> None:
    sid = series["id"]
    borya, vera = seated(client, series, seat_tokens["Борис"]), seated(client, series, seat_tokens["Вера"])
    r = borya.post(f"/series/{sid}/seat/hand", data={"card": ["10C", "JD"], "round": "1"}, headers=JSON)
    assert r.status_code == 200
    assert r.get_json() == {"round": 1, "player": "Борис", "cards": ["10♣", "J♦"], "points": 12, "by": "seat",
                            "text": "В раунде: 10♣ В♦ = 12"}
    assert client.get(f"/api/v1/series/{sid}/draft").get_json()["hands"]["Борис"]["cards"] == ["10♣", "J♦"]
    english = borya.post(f"/series/{sid}/seat/hand", data={"card": ["10C", "JD"]},
                         headers={**JSON, "Accept-Language": "en"})
    assert english.get_json()["text"] == "In the round: 10♣ J♦ = 12"
    # a card in another hand: 422 naming its holder, nothing stored
    r = vera.post(f"/series/{sid}/seat/hand", data={"card": ["JD"]}, headers=JSON)
    assert r.status_code == 422 and "уже в руке у игрока Борис" in r.get_json()["error"]
    assert "Вера" not in client.get(f"/api/v1/series/{sid}/draft").get_json()["hands"]
    # nothing ticked: no hand, and the page's hint again
    r = borya.post(f"/series/{sid}/seat/hand", data={"round": "1"}, headers=JSON)
    assert r.status_code == 200 and r.get_json()["cards"] == [] and "«Отправить»" in r.get_json()["text"]
    assert client.get(f"/api/v1/series/{sid}/draft").get_json()["hands"] == {}
    # a hand for a round saved meanwhile: 409, not carried into the next round
    save_round(client, series, {"winner": "Аня", "finishing_card": "Q♥", "typed_points": {"Борис": 5, "Вера": 3}})
    r = borya.post(f"/series/{sid}/seat/hand", data={"card": ["QS"], "round": "1"}, headers=JSON)
    assert r.status_code == 409 and "Раунд 1 уже сохранён" in r.get_json()["error"]
    assert client.get(f"/api/v1/series/{sid}/draft").get_json()["hands"] == {}
    # without a seat: 403, as the form post
    assert phone(client).post(f"/series/{sid}/seat/hand", data={"card": ["QS"]}, headers=JSON).status_code == 403
    # the form post (no JavaScript) is still answered 303 to the seat page
    assert borya.post(f"/series/{sid}/seat/hand", data={"card": ["QS"]}).status_code == 303


def test_a_seat_confirms_in_place(client: FlaskClient, series: dict[str, Any], seat_tokens: dict[str, str]) -> None:
    sid = series["id"]
    save_round(client, series, ROUND_ONE)
    borya = seated(client, series, seat_tokens["Борис"])
    r = borya.post(f"/series/{sid}/seat/rounds/1/confirmation", data={"agree": "1"}, headers=LIVE)
    body = r.get_data(as_text=True)
    assert r.status_code == 200 and body.lstrip().startswith('<section id="seat-live"')
    assert "Вы подтвердили этот раунд." in body and "<html" not in body
    # the answer carries the live part's ETag and version: seat.js's next refresh is a 304
    again = borya.get(f"/series/{sid}/seat", headers={**LIVE, "If-None-Match": r.headers["ETag"]})
    assert again.status_code == 304
    stamp = client.get(f"/api/v1/series/{sid}/draft").get_json()["version"]
    assert f'data-version="{stamp}"' in body
    r = borya.post(f"/series/{sid}/seat/rounds/1/confirmation", data={"agree": "0", "note": "не так"}, headers=LIVE)
    assert r.status_code == 200 and "Вы оспорили этот раунд. «не так»" in r.get_data(as_text=True)
    assert client.get(f"/api/v1/series/{sid}").get_json()["rounds"][0]["confirmations"] == {"Борис": "disputed"}
    # refused: no seat (403), no such round (404), a round the player did not play (422, said in the live part)
    other = phone(client)
    assert other.post(f"/series/{sid}/seat/rounds/1/confirmation", data={"agree": "1"}, headers=LIVE).status_code == 403
    assert borya.post(f"/series/{sid}/seat/rounds/2/confirmation", data={"agree": "1"}, headers=LIVE).status_code == 404
    joined = client.post(f"/api/v1/series/{sid}/players", json={"name": "Глеб"},
                         headers={"Authorization": f"Bearer {series['edit_token']}"})
    assert joined.status_code == 201
    tokens = client.get(f"/api/v1/series/{sid}/seats",
                        headers={"Authorization": f"Bearer {series['edit_token']}"}).get_json()["seats"]
    gleb = seated(client, series, next(s["token"] for s in tokens if s["player"] == "Глеб"))
    r = gleb.post(f"/series/{sid}/seat/rounds/1/confirmation", data={"agree": "1"}, headers=LIVE)
    assert r.status_code == 422 and "Глеб не играл в раунде 1" in r.get_data(as_text=True)
    assert 'id="seat-live"' in r.get_data(as_text=True)


def test_a_seats_live_refresh_is_answered_before_flask(app: Flask, client: FlaskClient, series: dict[str, Any],
                                                      seat_tokens: dict[str, str],
                                                      caplog: pytest.LogCaptureFixture) -> None:
    from tests.web.test_fast_poll import both

    sid = series["id"]
    vera = seated(client, series, seat_tokens["Вера"])
    url = f"/series/{sid}/seat"
    for language in ({}, {"Accept-Language": "en"}):
        etag = vera.get(url, headers={**LIVE, **language}).headers["ETag"]
        answered, (status, _headers, _body) = both(app, vera, "GET", url, caplog,
                                                   headers={**LIVE, **language, "If-None-Match": etag})
        assert answered and status == 304
    # the whole page, a stale ETag, another seat's ETag, a phone without the seat: Flask answers, as before
    page_etag = vera.get(url).headers["ETag"]
    borya = seated(client, series, seat_tokens["Борис"])
    borya_etag = borya.get(url, headers=LIVE).headers["ETag"]
    for who, headers, expected in [(vera, {"If-None-Match": page_etag}, 304),
                                   (vera, {**LIVE, "If-None-Match": 'W/"old"'}, 200),
                                   (vera, {**LIVE, "If-None-Match": borya_etag}, 200),
                                   (phone(client), {**LIVE, "If-None-Match": etag}, 403)]:
        answered, (status, _headers, _body) = both(app, who, "GET", url, caplog, headers=headers)
        assert not answered and status == expected
