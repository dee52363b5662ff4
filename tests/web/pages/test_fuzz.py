"""No query string or path a client sends to the pages gets a 500."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.slow  # over 5 s: outside the fast lane (-m 'not slow'), always in CI

TEXT = st.text(max_size=12)
PARAMS = st.dictionaries(
    st.sampled_from(
        ["q", "ruleset", "lang", "players", "top", "card", "ordered_suit", "from", "token", "limit", "n", "x"]
    ),
    st.one_of(TEXT, st.sampled_from(["9H", "QS", "♦", "igrafan", "classic", "ru", "en", "2", "-1", "99"])),
    max_size=5,
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    path=st.sampled_from(
        [
            "/",
            "/faq",
            "/faq/six",
            "/faq/{x}",
            "/rules",
            "/rules/{x}",
            "/rules/classic",
            "/referee",
            "/series/{id}",
            "/series/{id}/round",
            "/series/{id}/round/1",
            "/series/{id}/share",
            "/series/{id}/edit",
            "/series/{id}/scoresheet.csv",
            "/series/{x}",
        ]
    ),
    params=PARAMS,
    x=st.text(
        alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="/?#%"), min_size=1, max_size=10
    ),
    fragment=st.booleans(),
)
def test_pages_never_fail(
    app: Flask, series: dict[str, Any], path: str, params: dict[str, str], x: str, fragment: bool
) -> None:
    client = app.test_client()
    url = path.replace("{id}", series["id"]).replace("{x}", x)
    headers = {"HX-Request": "true"} if fragment else {}
    response = client.get(url, query_string=params, headers=headers)
    assert response.status_code < 500, (url, params, response.status_code)
    response = client.post(url, data=params, headers=headers)
    assert response.status_code < 500, ("POST", url, params, response.status_code)
