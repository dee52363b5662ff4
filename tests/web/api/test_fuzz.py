"""Whatever a client sends, the API answers with a clear status below 500 and the error JSON."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.slow  # over 5 s: outside the fast lane (-m 'not slow'), always in CI

CARDS = st.sampled_from(["10♣", "Q♥", "qs", "T♦", "5♠", "", "КП", "Дч", "x", "6♠", "A♦", "9♣"])
NAMES = st.sampled_from(["Аня", "Борис", "Вера", "Гоша", "", " аня "])
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-5, 200), st.text(max_size=8), CARDS, NAMES)
JSON = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                      st.dictionaries(st.text(max_size=12), inner, max_size=4)),
                    max_leaves=12)
ROUND = st.fixed_dictionaries(
    {},
    optional={
        "winner": st.one_of(NAMES, JSON),
        "finishing_card": st.one_of(CARDS, JSON),
        "redeal": st.one_of(st.booleans(), JSON),
        "hands": st.one_of(st.dictionaries(NAMES, st.one_of(st.lists(CARDS, max_size=5), JSON), max_size=4), JSON),
        "typed_points": st.one_of(st.dictionaries(NAMES, st.one_of(st.integers(-3, 150), JSON), max_size=3), JSON),
    },
)
SERIES = st.fixed_dictionaries(
    {},
    optional={
        "players": st.one_of(st.lists(NAMES, max_size=6), JSON),
        "ruleset": st.one_of(
            st.sampled_from(["igrafan", "classic", "elimination", "elvista", "pharaoh", "poker"]), JSON
        ),
        "options": st.one_of(
            st.dictionaries(
                st.sampled_from(["deck", "nine_points", "resets", "on_loss", "loss_above", "x"]), JSON, max_size=3
            ),
            JSON,
        ),
        "starter": st.one_of(NAMES, JSON),
    },
)


def check(response: Any) -> None:
    assert response.status_code < 500, response.get_data(as_text=True)
    if response.status_code >= 400:
        error = response.get_json()["error"]
        assert error["code"] and error["message"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.one_of(ROUND, JSON), method=st.sampled_from(["post", "put"]), n=st.integers(0, 3))
def test_round_bodies(app: Flask, series: dict[str, Any], body: Any, method: str, n: int) -> None:
    client = app.test_client()
    auth = {"Authorization": f"Bearer {series['edit_token']}"}
    url = f"/api/v1/series/{series['id']}/rounds" + (f"/{n}" if method == "put" else "")
    check(getattr(client, method)(url, json=body, headers=auth))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.one_of(SERIES, JSON))
def test_series_bodies(app: Flask, body: Any) -> None:
    check(app.test_client().post("/api/v1/series", json=body))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    body=st.one_of(
        JSON,
        st.fixed_dictionaries(
            {}, optional={"ruleset": JSON, "cards": st.one_of(st.lists(CARDS), JSON), "options": JSON}
        ),
    )
)
def test_score_bodies(app: Flask, body: Any) -> None:
    check(app.test_client().post("/api/v1/score", json=body))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    body=st.one_of(
        JSON,
        st.fixed_dictionaries(
            {},
            optional={
                "ruleset": st.one_of(st.sampled_from(["igrafan", "classic", "elvista"]), JSON),
                "players": st.one_of(st.integers(-1, 9), JSON),
                "top": st.one_of(CARDS, JSON),
                "card": st.one_of(CARDS, JSON),
                "ordered_suit": st.one_of(st.sampled_from(["♦", "S", "x"]), JSON),
                "pending_draw": JSON,
                "covering": JSON,
                "clockwise": JSON,
            },
        ),
    )
)
def test_referee_bodies(app: Flask, body: Any) -> None:
    check(app.test_client().post("/api/v1/referee/play", json=body))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(q=st.text(max_size=40), ruleset=st.text(max_size=10), lang=st.text(max_size=3))
def test_faq_queries(app: Flask, q: str, ruleset: str, lang: str) -> None:
    check(app.test_client().get("/api/v1/faq", query_string={"q": q, "ruleset": ruleset, "lang": lang}))
