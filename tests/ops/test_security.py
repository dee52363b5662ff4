"""Headers, forged writes from another origin, trusted hosts, rate limits and the request log."""

from __future__ import annotations

import logging
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import create_app


def make(tmp_path: Any, **config: Any) -> Flask:
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "s.sqlite3"), "SECRET_KEY": "t", **config})


def editor(client: FlaskClient) -> str:
    """Start a series through the form (this client becomes its editor); returns the series id."""
    response = client.post("/new", data={"name": ["Аня", "Борис"], "starter": "0"})
    assert response.status_code == 303, response.data
    return response.headers["Location"].split("/")[2]


ROUND = {"winner": "0", "finishing_card": "9h", "hand-1": ["10c"]}


def pages(client: FlaskClient) -> list[str]:
    series_id = editor(client)
    client.post(f"/series/{series_id}/round", data=ROUND)
    return ["/", f"/series/{series_id}", f"/series/{series_id}/share", f"/series/{series_id}/round",
            f"/series/{series_id}/round/1", "/faq", "/faq?q=дама", "/referee", "/rules/igrafan", "/nope",
            "/import", f"/series/{series_id}/table", "/rules", "/faq/seven",
            f"/api/v1/series/{series_id}", "/static/app.js"]


def test_every_response_has_the_security_headers(client: FlaskClient) -> None:
    for path in pages(client):
        response = client.get(path)
        csp = response.headers.get("Content-Security-Policy", "")
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp and "script-src 'self'" in csp, path
        assert "frame-ancestors 'none'" in csp, path
        assert response.headers["X-Content-Type-Options"] == "nosniff", path
        assert response.headers.get("Referrer-Policy"), path


def test_pages_have_no_inline_script_or_style(client: FlaskClient) -> None:
    """What the CSP would block: inline <script>, <style>, style="…" and on…= handlers."""
    for path in pages(client):
        response = client.get(path)
        if response.mimetype != "text/html":
            continue
        html = response.get_data(as_text=True)
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), path
        assert "<style" not in html, path
        assert not re.search(r"\sstyle=", html), path
        assert not re.search(r"\son[a-z]+=", html), path
        assert "visibilityState" not in html, path  # an hx-trigger filter needs eval


def test_htmx_is_configured_for_the_csp(client: FlaskClient) -> None:
    html = client.get("/").get_data(as_text=True)
    assert '"includeIndicatorStyles":false' in html and '"allowEval":false' in html


def test_share_page_is_not_stored_and_leaks_no_referrer(client: FlaskClient) -> None:
    series_id = editor(client)
    response = client.get(f"/series/{series_id}/share")
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["Referrer-Policy"] == "no-referrer"


def test_a_write_from_another_port_of_the_same_host_is_refused(client: FlaskClient) -> None:
    series_id = editor(client)
    # a page on http://localhost:9000 posting with the editor's cookie (same site, other origin)
    for headers in ({"Sec-Fetch-Site": "same-site", "Origin": "http://localhost:9000"},
                    {"Sec-Fetch-Site": "cross-site"},
                    {"Origin": "http://localhost:9000"},
                    {"Origin": "null"}):
        response = client.post(f"/series/{series_id}/round", data=ROUND, headers=headers)
        assert response.status_code == 403, headers
        assert "не со страницы приложения" in response.get_data(as_text=True)
        assert client.post(f"/series/{series_id}/round/1/delete", headers=headers).status_code == 403
    assert client.get(f"/api/v1/series/{series_id}").get_json()["rounds"] == []


def test_a_write_from_the_app_itself_is_accepted(client: FlaskClient) -> None:
    series_id = editor(client)
    response = client.post(f"/series/{series_id}/round", data=ROUND,
                           headers={"Sec-Fetch-Site": "same-origin", "Origin": "http://localhost"})
    assert response.status_code == 303
    response = client.post(f"/series/{series_id}/round", data={**ROUND, "finishing_card": "8h"},
                           headers={"Origin": "http://localhost"})  # an older browser: Origin only
    assert response.status_code == 303
    assert len(client.get(f"/api/v1/series/{series_id}").get_json()["rounds"]) == 2


def test_the_bearer_api_is_exempt(client: FlaskClient, series: dict[str, Any]) -> None:
    response = client.post(f"/api/v1/series/{series['id']}/rounds", json={"redeal": True},
                           headers={"Authorization": f"Bearer {series['edit_token']}", "Sec-Fetch-Site": "cross-site"})
    assert response.status_code == 201


def test_only_trusted_hosts_are_served(tmp_path: Any) -> None:
    client = make(tmp_path, TRUSTED_HOSTS=["192.0.2.7", "localhost"]).test_client()
    assert client.get("/", headers={"Host": "192.0.2.7:8101"}).status_code == 200
    assert client.get("/", headers={"Host": "evil.example"}).status_code == 400
    assert client.get("/api/v1/health", headers={"Host": "rebind.evil.example:8101"}).status_code == 400


def test_served_host_names_and_any_ip_address_are_accepted(tmp_path: Any) -> None:
    """What `companion serve` sets (SERVED_HOSTS): its names; IP addresses pass (rebinding needs a name)."""
    client = make(tmp_path, SERVED_HOSTS=["bar-laptop", "bar-laptop.local", "localhost"]).test_client()
    for host in ["bar-laptop:8101", "BAR-LAPTOP.local", "192.168.7.20:8101", "10.0.0.5", "[fe80::1]:8101", "[::1]"]:
        assert client.get("/api/v1/health", headers={"Host": host}).status_code == 200, host
    for host in ["evil.example", "rebind.evil.example:8101", "bar-laptop.evil.example"]:
        assert client.get("/", headers={"Host": host}).status_code == 400, host


def test_series_creation_is_rate_limited_with_retry_after(tmp_path: Any) -> None:
    client = make(tmp_path, RATELIMIT_ENABLED=True, RATELIMIT_CREATE="2 per minute").test_client()
    body = {"players": ["Аня", "Борис"]}
    assert [client.post("/api/v1/series", json=body).status_code for _ in range(2)] == [201, 201]
    refused = client.post("/api/v1/series", json=body, headers={"Accept-Language": "en"})
    assert refused.status_code == 429
    assert refused.get_json()["error"]["code"] == "too-many-requests"
    assert "Too many requests" in refused.get_json()["error"]["message"]
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    page = client.post("/new", data={"name": ["Аня", "Борис"]})  # the form shares the limit
    assert page.status_code == 429 and "Подождите" in page.get_data(as_text=True)
    assert "Retry-After" in page.headers
    # another address has its own budget
    other = client.post("/api/v1/series", json=body, environ_base={"REMOTE_ADDR": "192.0.2.9"})
    assert other.status_code == 201


def test_writes_and_search_are_rate_limited(tmp_path: Any) -> None:
    client = make(tmp_path, RATELIMIT_ENABLED=True, RATELIMIT_WRITES="3 per minute",
                  RATELIMIT_SEARCH="2 per minute").test_client()
    created = client.post("/api/v1/series", json={"players": ["Аня", "Борис"]}).get_json()
    auth = {"Authorization": f"Bearer {created['edit_token']}"}
    codes = [client.post(f"/api/v1/series/{created['id']}/rounds", json={"redeal": True}, headers=auth).status_code
             for _ in range(4)]
    assert codes == [201, 201, 201, 429]
    assert client.get(f"/api/v1/series/{created['id']}").status_code == 200  # reading is not limited
    searches = [client.get("/api/v1/faq?q=дама").status_code for _ in range(3)]
    assert searches == [200, 200, 429]


def test_limits_are_off_in_tests_unless_asked_for(client: FlaskClient) -> None:
    assert all(client.post("/api/v1/series", json={"players": ["А", "Б"]}).status_code == 201 for _ in range(70))


def test_request_log_has_one_line_per_request_and_no_secrets(client: FlaskClient, caplog: pytest.LogCaptureFixture,
                                                            series: dict[str, Any]) -> None:
    token = series["edit_token"]
    with caplog.at_level(logging.INFO, logger="companion.requests"):
        client.get(f"/series/{series['id']}/edit?token={token}&lang=en")
        client.post(f"/api/v1/series/{series['id']}/rounds", json={"redeal": True},
                    headers={"Authorization": f"Bearer {token}"})
    lines = [r.getMessage() for r in caplog.records if r.name == "companion.requests"]
    assert len(lines) == 2
    assert all(token not in line for line in lines)
    assert "token=…" in lines[0] and "lang=en" in lines[0] and " 303 " in lines[0]
    assert f"POST /api/v1/series/{series['id']}/rounds 201" in lines[1]


def test_csv_cells_that_look_like_formulas_are_neutralised(client: FlaskClient) -> None:
    names = ['=HYPERLINK("//ev.il","Жми")', "@SUM(A1:A9)"]  # names are at most 30 characters
    created = client.post("/api/v1/series", json={"players": [names[0], names[1], "+Вера"], "starter": names[0]})
    assert created.status_code == 201, created.get_json()
    series = created.get_json()
    body = {"winner": names[0], "finishing_card": "9h", "hands": {names[1]: ["10c"], "+Вера": ["jd"]}}
    assert client.post(f"/api/v1/series/{series['id']}/rounds", json=body,
                       headers={"Authorization": f"Bearer {series['edit_token']}"}).status_code == 201
    import csv
    import io

    sheet = client.get(f"/series/{series['id']}/scoresheet.csv", headers={"Accept-Language": "en"})
    text = sheet.get_data(as_text=True)
    cells = [cell for row in csv.reader(io.StringIO(text.lstrip("\ufeff"))) for cell in row]
    assert "'" + names[0] in cells  # exported as text: a spreadsheet shows it and runs nothing
    assert "'@SUM(A1:A9)" in cells and "'+Вера" in cells
    assert not [
        c
        for c in cells
        if c.startswith(("=", "@", "\t", "\r")) or (c.startswith(("+", "-")) and not c.lstrip("+-").isdigit())
    ]
    from companion.ops.security import csv_cell

    assert [csv_cell(v) for v in ["-2+3", "\tx", "\rx", "+1+1", "=1", "Аня"]] == [
        "'-2+3",
        "'\tx",
        "'\rx",
        "'+1+1",
        "'=1",
        "Аня",
    ]
    assert [csv_cell(v) for v in [-40, "-40", "+27", 3]] == [-40, "-40", "+27", 3]  # numbers stay numbers


def test_behind_a_proxy_the_client_address_comes_from_x_forwarded_for(tmp_path: Any) -> None:
    client = make(tmp_path, RATELIMIT_ENABLED=True, RATELIMIT_CREATE="1 per minute", PROXY_FIX=1).test_client()
    body = {"players": ["Аня", "Борис"]}
    first = client.post("/api/v1/series", json=body, headers={"X-Forwarded-For": "192.0.2.1"})
    second = client.post("/api/v1/series", json=body, headers={"X-Forwarded-For": "192.0.2.2"})
    again = client.post("/api/v1/series", json=body, headers={"X-Forwarded-For": "192.0.2.1"})
    assert (first.status_code, second.status_code, again.status_code) == (201, 201, 429)
