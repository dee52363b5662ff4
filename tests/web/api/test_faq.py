"""The FAQ API: `GET /api/v1/faq` (search and list) and `GET /api/v1/faq/<slug>`.

(companion/web/api/faq.py; the search itself: tests/faq/test_search.py)
"""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.faq import entries as faq


def test_api_search_shape(client: FlaskClient) -> None:
    response = client.get("/api/v1/faq", query_string={"q": "дама червей последней картой", "lang": "ru"})
    assert response.status_code == 200
    results = response.get_json()["results"]
    assert results and set(results[0]) == {"slug", "question", "answer", "url", "score"}
    first = results[0]
    entry = faq.get_entry(first["slug"])
    assert entry is not None
    assert first["question"] == entry.ru.question
    assert first["answer"] == f"{entry.ru.verdict}\n\n{entry.ru.answer}"
    assert first["url"] == f"/faq/{first['slug']}"
    assert isinstance(first["score"], float)
    assert [r["score"] for r in results] == sorted((r["score"] for r in results), reverse=True)


def test_api_search_in_english_and_request_language(app: Flask) -> None:
    body = app.test_client().get("/api/v1/faq?q=queen+of+hearts&lang=en").get_json()
    entry = faq.get_entry(body["results"][0]["slug"])
    assert entry is not None and body["results"][0]["question"] == entry.en.question
    body = app.test_client().get("/api/v1/faq?q=queen", headers={"Accept-Language": "en"}).get_json()
    entry = faq.get_entry(body["results"][0]["slug"])
    assert entry is not None and body["results"][0]["question"] == entry.en.question
    body = app.test_client().get("/api/v1/faq?q=queen", headers={"Accept-Language": "ru"}).get_json()
    entry = faq.get_entry(body["results"][0]["slug"])
    assert entry is not None and body["results"][0]["question"] == entry.ru.question


def test_api_ruleset_note_and_url(client: FlaskClient) -> None:
    entry = next(e for e in faq.all_entries() if "elimination" in e.en.by_ruleset)
    body = client.get(
        "/api/v1/faq", query_string={"q": entry.en.question, "lang": "en", "ruleset": "elimination"}
    ).get_json()
    found = next(r for r in body["results"] if r["slug"] == entry.slug)
    assert found["answer"].endswith(entry.en.by_ruleset["elimination"])
    assert found["url"] == f"/faq/{entry.slug}?ruleset=elimination"


def test_api_list_without_query(client: FlaskClient) -> None:
    results = client.get("/api/v1/faq?lang=en").get_json()["results"]
    assert [r["slug"] for r in results] == [e.slug for e in faq.all_entries()]
    assert all(r["score"] is None for r in results)
    assert all(set(r) == {"slug", "question", "answer", "url", "score"} for r in results)
    assert client.get("/api/v1/faq?q=").get_json()["results"] == client.get("/api/v1/faq").get_json()["results"]


def test_api_one_entry_in_full(client: FlaskClient) -> None:
    entry = faq.all_entries()[0]
    body = client.get(f"/api/v1/faq/{entry.slug}").get_json()
    assert body["slug"] == entry.slug
    assert body["related"] == list(entry.related) and body["sources"] == list(entry.sources)
    assert body["rulesets"] == list(entry.rulesets)
    for lang in ("ru", "en"):
        text = entry.text(lang)
        assert body[lang] == {
            "question": text.question,
            "verdict": text.verdict,
            "answer": text.answer,
            "keywords": list(text.keywords),
            "by_ruleset": dict(text.by_ruleset),
        }


def _error(response: Any) -> dict[str, str]:
    body = response.get_json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}
    return body["error"]


def test_api_unknown_entry_is_404(client: FlaskClient) -> None:
    response = client.get("/api/v1/faq/no-such-entry", headers={"Accept-Language": "en"})
    assert response.status_code == 404
    error = _error(response)
    assert error["code"] == "not-found" and "no-such-entry" in error["message"]
    ru = _error(client.get("/api/v1/faq/no-such-entry?lang=ru"))
    assert "no-such-entry" in ru["message"] and ru["message"] != error["message"]


def test_api_unknown_ruleset_is_422(client: FlaskClient) -> None:
    response = client.get("/api/v1/faq?q=дама&ruleset=poker")
    assert response.status_code == 422
    assert _error(response)["code"] == "invalid-option"
    assert client.get("/api/v1/faq?ruleset=poker").status_code == 422


def test_api_bad_language_is_400(client: FlaskClient) -> None:
    response = client.get("/api/v1/faq?q=дама&lang=de")
    assert response.status_code == 400
    assert "de" in _error(response)["message"]


def test_api_bad_limit_is_400(client: FlaskClient) -> None:
    assert client.get("/api/v1/faq?q=дама&limit=0").status_code == 400
    assert client.get("/api/v1/faq?q=дама&limit=x").status_code == 400
    assert len(client.get("/api/v1/faq?q=дама&limit=2").get_json()["results"]) <= 2


def test_api_no_answer_shape(client: FlaskClient) -> None:
    body = client.get("/api/v1/faq", query_string={"q": "сколько стоит билет в кино"}).get_json()
    assert body["results"] == []
    assert 0 < len(body["maybe"]) <= 3
    assert all(set(m) == {"slug", "question", "answer", "url", "score"} for m in body["maybe"])


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=60))
def test_api_never_answers_500(client: FlaskClient, q: str) -> None:
    response = client.get("/api/v1/faq", query_string={"q": q})
    assert response.status_code == 200
    assert set(response.get_json()) <= {"results", "maybe", "searched_for"}
