"""One error path for the whole app: JSON under /api/, the error page (in the request's language) elsewhere."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.core.errors import N_, RuleError


def api_error(response: Any) -> dict[str, str]:
    body = response.get_json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}
    return body["error"]


def test_an_unknown_page_is_the_error_page_in_the_request_language(client: FlaskClient) -> None:
    ru = client.get("/no/such/page")
    en = client.get("/no/such/page", headers={"Accept-Language": "en"})
    assert ru.status_code == en.status_code == 404
    assert ru.mimetype == "text/html" and "Здесь ничего нет" in ru.text
    assert "Nothing here" in en.text and "Nothing here" not in ru.text


@pytest.mark.parametrize("path", ["/series/nope", "/series/nope/scoresheet.pdf", "/series/nope/scoresheet.csv",
                                  "/series/nope/share", "/faq/no-such-entry", "/rules/no-such-set"])
def test_every_page_404_is_the_error_page(client: FlaskClient, path: str) -> None:
    response = client.get(path, headers={"Accept-Language": "en"})
    assert response.status_code == 404 and response.mimetype == "text/html"
    assert "Nothing here" in response.text


def test_a_wrong_method_on_a_page_is_the_error_page_with_allow(client: FlaskClient) -> None:
    response = client.delete("/", headers={"Accept-Language": "en"})
    assert response.status_code == 405 and response.mimetype == "text/html"
    assert "does not accept that kind of request" in response.text
    assert "GET" in response.headers["Allow"]


def test_api_errors_are_json(client: FlaskClient) -> None:
    unknown = client.get("/api/v1/nothing")
    assert unknown.status_code == 404 and api_error(unknown)["code"] == "not-found"
    wrong = client.delete("/api/v1/rulesets")
    assert wrong.status_code == 405 and api_error(wrong)["code"] == "method-not-allowed"
    assert "GET" in wrong.headers["Allow"]


def test_a_rule_error_from_a_page_view_is_the_error_page(app: Flask) -> None:
    @app.get("/boom")
    def boom() -> str:
        raise RuleError(N_("Write at least two names."))

    response = app.test_client().get("/boom", headers={"Accept-Language": "ru"})
    assert response.status_code == 422 and response.mimetype == "text/html"
    assert "Не сохранено" in response.text
    assert "Напишите хотя бы два имени." in response.text


def test_a_rule_error_from_the_api_is_json(app: Flask) -> None:
    @app.get("/api/v1/boom")
    def boom() -> str:
        raise RuleError(N_("Write at least two names."))

    response = app.test_client().get("/api/v1/boom")
    assert response.status_code == 422 and api_error(response)["code"] == "refused"


def test_too_large_a_form_is_the_error_page(client: FlaskClient) -> None:
    response = client.post("/new", data={"name": "x" * 70000}, headers={"Accept-Language": "en"})
    assert response.status_code == 413 and response.mimetype == "text/html"
    assert "too large" in response.text


def test_an_untrusted_host_gets_a_plain_400(tmp_path: Any) -> None:
    from companion import create_app

    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "t.sqlite3"), "SECRET_KEY": "t",
                      "TRUSTED_HOSTS": ["localhost"]})
    response = app.test_client().get("/", headers={"Host": "evil.example", "Accept-Language": "en"})
    assert response.status_code == 400 and response.mimetype == "text/plain"
    assert "could not be read" in response.text
