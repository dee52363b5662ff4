"""Small hostile inputs: deep JSON, lone surrogates, Unicode digits, huge numbers, invisible characters in names.

Each gets 400/422 with a clear message and nothing is stored; the hypothesis
fuzzers below generate exactly these kinds of input.
"""

from __future__ import annotations

import json
import unicodedata
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.errors import SeriesSetupError
from companion.core.series import SeriesSetup

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
JSON_ENDPOINTS = ["/api/v1/series", "/api/v1/score", "/api/v1/referee/play"]


def raw(client: FlaskClient, url: str, text: str, method: str = "post", **headers: str) -> Any:
    return getattr(client, method)(url, data=text.encode(), content_type="application/json", headers=headers)


def clear_400(response: Any) -> str:
    assert response.status_code == 400, response.get_data(as_text=True)
    error = response.get_json()["error"]
    assert error["code"] == "bad-request" and error["message"]
    return str(error["message"])


def auth(series: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {series['edit_token']}"}


def stored(client: FlaskClient, series: dict[str, Any]) -> tuple[int, int]:
    body = client.get(f"/api/v1/series/{series['id']}").get_json()
    return body["version"], len(body["rounds"])


# -- deep nesting ---------------------------------------------------------------------------


def test_json_nested_a_thousand_levels_is_a_clear_400(client: FlaskClient, series: dict[str, Any]) -> None:
    deep = "[" * 1000 + "]" * 1000  # 2 KB
    for url in [*JSON_ENDPOINTS, f"/api/v1/series/{series['id']}/rounds"]:
        message = clear_400(raw(client, url, deep, Authorization=auth(series)["Authorization"]))
        assert "слишком глубоко" in message
    objects = '{"a":' * 1000 + "1" + "}" * 1000
    english = raw(client, "/api/v1/series", objects, **{"Accept-Language": "en"})
    assert "nested too deeply" in clear_400(english)
    assert stored(client, series) == (1, 0)


def test_moderate_nesting_is_still_read(client: FlaskClient) -> None:
    body = {"players": ["Аня", "Борис"], "options": {"resets": {"101": 0}}}
    assert client.post("/api/v1/series", json=body).status_code == 201


# -- lone surrogates ---------------------------------------------------------------------------


def test_a_lone_surrogate_anywhere_is_a_clear_400(client: FlaskClient, series: dict[str, Any]) -> None:
    bodies = [
        ("/api/v1/series", '{"players": ["\\ud800", "Борис"]}'),
        ("/api/v1/series", '{"players": ["Аня", "Борис"], "starter": "\\udfff"}'),
        ("/api/v1/series", '{"\\ud83d": 1, "players": ["Аня", "Борис"]}'),
        (f"/api/v1/series/{series['id']}/rounds", '{"winner": "\\ud800", "finishing_card": "9h"}'),
        (f"/api/v1/series/{series['id']}/rounds", '{"redeal": true, "hands": {"Борис": ["\\udc00"]}}'),
        ("/api/v1/score", '{"cards": ["\\ud800"]}'),
        ("/api/v1/referee/play", '{"top": "9h", "card": "\\ud800"}'),
    ]
    for url, text in bodies:
        assert "суррогат" in clear_400(raw(client, url, text, **auth(series))), text
    assert stored(client, series) == (1, 0)
    pair = raw(client, "/api/v1/series", '{"players": ["\\ud83d\\ude00 Аня", "Борис"]}')  # a real pair: 😀
    assert pair.status_code == 201 and pair.get_json()["players"][0]["name"] == "😀 Аня"


# -- Unicode digits ----------------------------------------------------------------------------


def test_unicode_digits_in_headers_and_queries_are_a_clear_400(client: FlaskClient, series: dict[str, Any]) -> None:
    url = f"/api/v1/series/{series['id']}/rounds"
    for value in ["²", "١", "٣", "³", "𝟙", "1²"]:
        message = clear_400(client.post(url, json={"redeal": True}, headers={**auth(series), "If-Match": value}))
        assert "If-Match" in message
        assert clear_400(client.get("/api/v1/faq", query_string={"limit": value}))
        assert client.get(f"/api/v1/series/{series['id']}", headers={"If-None-Match": value}).status_code == 200
    assert stored(client, series) == (1, 0)


# -- huge numbers ---------------------------------------------------------------------------------


def test_huge_numbers_in_options_and_typed_points_are_refused(client: FlaskClient, series: dict[str, Any]) -> None:
    huge = 10**30
    for options in [{"resets": {"101": huge}}, {"resets": {"100": -huge}}, {"loss_above": huge},
                    {"nine_points": 2**63}]:
        response = client.post("/api/v1/series", json={"players": ["Аня", "Борис"], "options": options})
        assert response.status_code == 400, options  # a number no table uses is malformed input
        assert response.get_json()["error"]["message"]
    body = {"winner": "Аня", "finishing_card": "9h", "typed_points": {"Борис": huge, "Вера": 3}}
    message = clear_400(client.post(f"/api/v1/series/{series['id']}/rounds", json=body, headers=auth(series)))
    assert "1000000" in message.replace(" ", "")
    assert stored(client, series) == (1, 0)
    assert client.get(f"/series/{series['id']}").status_code == 200
    assert clear_400(raw(client, "/api/v1/series", '{"players": ["А", "Б"], "options": {"loss_above": NaN}}'))
    assert clear_400(raw(client, "/api/v1/series", '{"players": ["А", "Б"], "options": {"loss_above": 1e999}}'))


# -- names ----------------------------------------------------------------------------------------


def test_names_are_nfc_and_lookalikes_are_duplicates() -> None:
    decomposed = unicodedata.normalize("NFD", "Алёна")
    assert decomposed != "Алёна"
    setup = SeriesSetup.create([decomposed, "Борис"])
    assert setup.players[0] == "Алёна"
    for twins in (["Алёна", decomposed], ["Аня", "Aня"], ["Max", "Мах"], ["Ａня", "аня"], ["Аня", " АНЯ "]):
        try:
            SeriesSetup.create(twins)
        except SeriesSetupError as error:
            assert "twice" in str(error)
        else:
            raise AssertionError(f"{twins} accepted as two players")
    assert SeriesSetup.create(["Tom", "Том"]).players == ("Tom", "Том")  # "m" and "м" do not look alike


def test_invisible_and_control_characters_in_names_are_refused(client: FlaskClient) -> None:
    for name in ["Аня\u202e", "\u2066Аня\u2069", "Ан\u200bя", "Аня\u200d", "\ufeffАня", "Аня\x00", "Аня\x1b[31m",
                 "Ан\u00adя", "\ue000Аня"]:
        response = client.post("/api/v1/series", json={"players": [name, "Борис"]})
        assert response.status_code == 422, repr(name)
        assert "невидимый или управляющий символ" in response.get_json()["error"]["message"]
    page = client.post("/new", data={"name": ["Аня\u202e", "Борис"]})
    assert page.status_code == 422 and "невидимый" in page.get_data(as_text=True)


def test_a_round_may_name_a_player_in_another_normal_form(client: FlaskClient) -> None:
    created = client.post("/api/v1/series", json={"players": ["Алёна", "Борис"], "starter": "Алёна"}).get_json()
    body = {"winner": unicodedata.normalize("NFD", "Алёна"), "finishing_card": "9h", "hands": {"Борис": ["10c"]}}
    response = client.post(f"/api/v1/series/{created['id']}/rounds", json=body, headers=auth(created))
    assert response.status_code == 201 and response.get_json()["rounds"][0]["winner"] == "Алёна"


# -- fuzzers that generate exactly these ---------------------------------------------------------------

SURROGATES = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)
HUGE = st.one_of(st.integers(min_value=1_000_001), st.integers(max_value=-1_000_001))
UNICODE_DIGITS = st.text(st.characters(categories=["Nd", "No"], exclude_characters="0123456789"), min_size=1,
                         max_size=4)


def nested(depth: int, kind: str) -> str:
    return ("[" * depth + "]" * depth) if kind == "list" else ('{"k":' * depth + "0" + "}" * depth)


def with_surrogate(text: str, surrogate: str, at: int) -> str:
    at = min(at, len(text))
    return text[:at] + surrogate + text[at:]


def check(response: Any) -> None:
    assert response.status_code < 500, response.get_data(as_text=True)
    if response.status_code >= 400:
        error = response.get_json()["error"]
        assert error["code"] and error["message"]


@FUZZ
@given(depth=st.integers(33, 3000), kind=st.sampled_from(["list", "object"]), url=st.sampled_from(JSON_ENDPOINTS))
def test_fuzz_deep_json(app: Flask, depth: int, kind: str, url: str) -> None:
    response = raw(app.test_client(), url, nested(depth, kind))
    clear_400(response)


@FUZZ
@given(surrogate=SURROGATES, at=st.integers(0, 8), where=st.sampled_from(["player", "starter", "key", "option"]))
def test_fuzz_lone_surrogates_in_series(app: Flask, surrogate: str, at: int, where: str) -> None:
    body: dict[str, Any] = {"players": ["Аня", "Борис"]}
    if where == "player":
        body["players"][0] = with_surrogate("Аня", surrogate, at)
    elif where == "starter":
        body["starter"] = with_surrogate("Борис", surrogate, at)
    elif where == "key":
        body[with_surrogate("ruleset", surrogate, at)] = "igrafan"
    else:
        body["options"] = {"on_loss": with_surrogate("eliminate", surrogate, at)}
    clear_400(raw(app.test_client(), "/api/v1/series", json.dumps(body)))  # ensure_ascii: "\udXXX" escapes


@FUZZ
@given(surrogate=SURROGATES, at=st.integers(0, 4), field=st.sampled_from(["winner", "finishing_card", "hand", "typed"]))
def test_fuzz_lone_surrogates_in_rounds(app: Flask, series: dict[str, Any], surrogate: str, at: int,
                                        field: str) -> None:
    body: dict[str, Any] = {"winner": "Аня", "finishing_card": "9h", "hands": {"Борис": ["10c"], "Вера": ["jd"]}}
    if field == "winner":
        body["winner"] = with_surrogate("Аня", surrogate, at)
    elif field == "finishing_card":
        body["finishing_card"] = with_surrogate("9h", surrogate, at)
    elif field == "hand":
        body["hands"]["Борис"] = [with_surrogate("10c", surrogate, at)]
    else:
        body["typed_points"] = {with_surrogate("Вера", surrogate, at): 3}
    client = app.test_client()
    clear_400(raw(client, f"/api/v1/series/{series['id']}/rounds", json.dumps(body), **auth(series)))
    assert stored(client, series) == (1, 0)


@FUZZ
@given(number=st.one_of(HUGE, st.integers(-10**40, 10**40)),
       where=st.sampled_from(["reset-to", "reset-from", "loss_above", "nine_points", "typed", "score-option"]))
def test_fuzz_integers_of_any_size(app: Flask, series: dict[str, Any], number: int, where: str) -> None:
    client = app.test_client()
    if where == "typed":
        body: dict[str, Any] = {"winner": "Аня", "finishing_card": "9h", "typed_points": {"Борис": number, "Вера": 1}}
        response = client.post(f"/api/v1/series/{series['id']}/rounds", json=body, headers=auth(series))
    elif where == "score-option":
        response = client.post("/api/v1/score", json={"cards": ["9h"], "options": {"nine_points": number}})
    else:
        options = {"reset-to": {"resets": {"101": number}}, "reset-from": {"resets": {str(number): 0}},
                   "loss_above": {"loss_above": number}, "nine_points": {"nine_points": number}}[where]
        response = client.post("/api/v1/series", json={"players": ["Аня", "Борис"], "options": options,
                                                        "starter": "Аня"})
    check(response)
    if abs(number) > 1_000_000 and where != "reset-from":
        assert response.status_code == 400
    if response.status_code == 201 and where != "typed":  # whatever was accepted must keep working
        created = response.get_json()
        round_body = {"winner": "Аня", "finishing_card": "9h", "typed_points": {"Борис": 101}}
        check(client.post(f"/api/v1/series/{created['id']}/rounds", json=round_body, headers=auth(created)))
        assert client.get(f"/api/v1/series/{created['id']}").status_code == 200
        assert client.get(f"/series/{created['id']}").status_code == 200
        assert client.get(f"/series/{created['id']}/scoresheet.csv").status_code == 200


@FUZZ
@given(digits=UNICODE_DIGITS, where=st.sampled_from(["if-match", "limit", "form-version", "form-winner",
                                                       "form-points", "form-option", "preview-n"]))
def test_fuzz_unicode_digits(app: Flask, digits: str, where: str) -> None:
    client = app.test_client()
    created = client.post("/new", data={"name": ["Аня", "Борис"], "starter": "0"})
    series_id = created.headers["Location"].split("/")[2]
    if where == "if-match":
        token = client.get(f"/series/{series_id}/share").get_data(as_text=True).split("token=")[1].split('"')[0]
        response = client.delete(f"/api/v1/series/{series_id}/rounds/1",
                                 headers={"If-Match": digits, "Authorization": f"Bearer {token}"})
        assert response.status_code == 400  # not the version, whatever digits: no round is looked up
    elif where == "limit":
        response = client.get("/api/v1/faq", query_string={"limit": digits})
        assert response.status_code == 400
    elif where == "form-option":
        response = client.post("/new", data={"name": ["Аня", "Борис"], "opt-loss_above": digits,
                                             "opt-resets": f"{digits} → 0"})
        assert response.status_code == 422
    elif where == "preview-n":
        response = client.post(f"/series/{series_id}/round/preview", data={"n": digits, "winner": digits})
    else:
        field = {"form-version": "version", "form-winner": "winner", "form-points": "points-1"}[where]
        data = {"winner": "0", "finishing_card": "9h", "hand-1": ["10c"], field: digits}
        response = client.post(f"/series/{series_id}/round", data=data)
    assert response.status_code < 500
