"""Every route of the app, every method it takes, hostile bodies and parameters: never a 5xx (issue 24).

The routes come from the app's own URL map, so a route added later is fuzzed without being listed here.
Import documents are real exports with one value replaced anywhere inside; forms get random fields and
files. A 5xx fails with the route, the method and what was sent.
"""

from __future__ import annotations

import copy
import io
import json
import re
from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.slow

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-(10**30), 10**30), st.floats(allow_nan=False),
                    st.text(max_size=12), st.sampled_from(["Аня", "9h", "Q♥", "igrafan", "", "\u0000", "1" * 40]))
JSON = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                      st.dictionaries(st.text(max_size=10), inner, max_size=4)),
                    max_leaves=14)
RAW = st.one_of(
    st.builds(lambda n: "[" * n + "]" * n, st.integers(30, 5_000)),
    st.builds(lambda n: '{"a":' * n + "1" + "}" * n, st.integers(30, 5_000)),
    st.sampled_from(['{"x": NaN}', '{"x": Infinity}', '"\\ud800"', "{", "", "\xff\xfe", '{"n": 1e999}',
                     '{"n": ' + "9" * 5_000 + "}"]),
)
PARAM_VALUES = st.one_of(st.text(max_size=16), st.sampled_from(["9" * 5_000, "-1", "0", "²", "ru", "en", "%0a"]))
HEADER_VALUES = st.one_of(st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=16),
                          st.sampled_from(["9" * 5_000, "-1", '"3"', 'W/"2"', "ru", "en;q=0.5"]))
PARAMS = st.dictionaries(st.sampled_from(["q", "limit", "lang", "ruleset", "token", "n", "from", "download", "x"]),
                         PARAM_VALUES, max_size=4)
FORM = st.dictionaries(st.sampled_from(["players", "ruleset", "winner", "finishing_card", "points", "token",
                                        "lang", "name", "from", "into", "text", "x"]), PARAM_VALUES, max_size=5)
SLUG = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="/?#%\\"),
               min_size=1, max_size=12)


def routes(app: Flask) -> list[tuple[str, str]]:
    found = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            found.append((rule.rule, method))
    return sorted(found)


_EXPORTS: dict[str, dict[str, Any]] = {}


def export_document(client: Any, series: dict[str, Any], kind: str = "series") -> dict[str, Any]:
    """The series' (or its table's) export, made once per series: the examples draw from the same document
    whatever earlier examples did to the series."""
    key = f"{series['id']}/{kind}"
    if key not in _EXPORTS:
        _EXPORTS[key] = _export(client, series, kind)
    return copy.deepcopy(_EXPORTS[key])


def _export(client: Any, series: dict[str, Any], kind: str) -> dict[str, Any]:
    auth = {"Authorization": f"Bearer {series['edit_token']}"}
    for body in ({"redeal": True}, {"winner": "Аня", "finishing_card": "9h", "typed_points": {"Борис": 5, "Вера": 0}}):
        client.post(f"/api/v1/series/{series['id']}/rounds", json=body, headers=auth)
    url = f"/api/v1/series/{series['id']}/export" if kind == "series" else f"/api/v1/tables/{series['table']}/export"
    answer = client.get(url)
    assert answer.status_code == 200, url
    document: dict[str, Any] = answer.get_json()
    return document


def paths_in(value: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [here]
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths_in(item, (*here, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += paths_in(item, (*here, index))
    return found


def replaced(document: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    changed = copy.deepcopy(document)
    target = changed
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return changed


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(data=st.data())
def test_no_route_answers_5xx(app: Flask, series: dict[str, Any], data: st.DataObject) -> None:
    client = app.test_client()
    rule, method = data.draw(st.sampled_from(routes(app)), label="route")
    values = {
        "series_id": st.sampled_from([series["id"], "nope"]),
        "table_id": st.sampled_from([series["table"], "nope"]),
        "n": st.integers(-1, 4),
        "merge_id": st.integers(-1, 3),
    }

    def fill(match: re.Match[str]) -> str:
        name = match.group(2)
        return str(data.draw(values.get(name, SLUG), label=name))

    url = re.sub(r"<(?:(\w+):)?(\w+)>", fill, rule)
    params = data.draw(PARAMS, label="params")
    headers = {"Authorization": f"Bearer {series['edit_token']}", "Sec-Fetch-Site": "same-origin",
               **data.draw(st.dictionaries(st.sampled_from(["If-Match", "Idempotency-Key", "HX-Request",
                                                            "Accept-Language", "If-None-Match"]),
                                           HEADER_VALUES, max_size=2), label="headers")}
    kind = data.draw(st.sampled_from(["json", "raw", "form", "file", "document"]), label="body")
    body: dict[str, Any] = {}
    if method != "GET":
        if kind == "json":
            body = {"json": data.draw(JSON, label="json")}
        elif kind == "raw":
            body = {"data": data.draw(RAW, label="raw").encode("utf-8", "surrogatepass"),
                    "content_type": "application/json"}
        elif kind == "form":
            body = {"data": data.draw(FORM, label="form")}
        else:
            if kind == "document":
                document = export_document(client, series)
                path = data.draw(st.sampled_from(paths_in(document)), label="path")
                text = json.dumps(replaced(document, path, data.draw(JSON, label="value")))
            else:
                text = data.draw(RAW, label="file")
            if kind == "file" or data.draw(st.booleans(), label="as a file"):
                body = {"data": {"file": (io.BytesIO(text.encode("utf-8", "surrogatepass")), "series.json")},
                        "content_type": "multipart/form-data"}
            else:
                body = {"data": text.encode("utf-8", "surrogatepass"), "content_type": "application/json"}
    response = client.open(url, method=method, query_string=params, headers=headers, **body)
    assert response.status_code < 500, (method, url, params, kind, response.status_code,
                                        response.get_data(as_text=True)[:300])


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_import_documents_changed_anywhere_are_refused_or_stored_never_5xx(app: Flask, series: dict[str, Any],
                                                                           data: st.DataObject) -> None:
    client = app.test_client()
    document = export_document(client, series, data.draw(st.sampled_from(["series", "table"]), label="file"))
    path = data.draw(st.sampled_from(paths_in(document)), label="path")
    changed = replaced(document, path, data.draw(JSON, label="value"))
    for url in ("/api/v1/series/import", "/api/v1/tables/import"):
        response = client.post(url, json=changed)
        assert response.status_code in (201, 400, 413, 422), (url, path, response.get_data(as_text=True)[:300])
    upload = {"file": (io.BytesIO(json.dumps(changed).encode()), "series.json")}
    page = client.post("/import", data=upload, content_type="multipart/form-data",
                       headers={"Sec-Fetch-Site": "same-origin"})
    assert page.status_code in (303, 413, 422), (path, page.status_code)
