"""The server never answers 500 to what a client sends to the phone pages."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import create_app

pytestmark = pytest.mark.slow  # over 5 s: outside the fast lane (-m 'not slow'), always in CI

texts = st.text(max_size=12)
field_values = st.one_of(
    texts, st.sampled_from(["0", "1", "7", "-3", "QH", "10C", "5S", "AH", "TT", "", "999999999999"])
)
forms = st.dictionaries(
    st.sampled_from(
        [
            "name",
            "ruleset",
            "starter",
            "op",
            "version",
            "winner",
            "finishing_card",
            "hand-0",
            "hand-1",
            "hand-7",
            "points-0",
            "points-1",
            "redeal",
            "n",
            "opt-deck",
            "opt-resets",
            "opt-loss_above",
            "opt-queens_only",
            "opt-on_loss",
        ]
    ),
    st.lists(field_values, max_size=4),
    max_size=8,
)


def make_app(tmp: str) -> Flask:
    return create_app({"TESTING": True, "DATABASE": f"{tmp}/fuzz.sqlite3", "SECRET_KEY": "t"})


def test_no_form_gets_a_500(tmp_path: Any) -> None:
    client = make_app(str(tmp_path)).test_client()  # one app for the whole test; each example gets a new series

    @settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(form=forms)
    def check(form: dict[str, list[str]]) -> None:
        created = client.post("/new", data={"name": ["A", "B"]})
        series_id = created.headers["Location"].split("/")[2]
        client.post(
            f"/series/{series_id}/round", data={"version": "1", "winner": "0", "finishing_card": "8C", "hand-1": "AH"}
        )
        for url in (
            "/new",
            f"/series/{series_id}/round",
            f"/series/{series_id}/round/1",
            f"/series/{series_id}/round/preview",
            f"/series/{series_id}/round/1/delete",
            f"/series/{series_id}/again",
        ):
            response = client.post(url, data=form)
            assert response.status_code < 500, (url, form, response.get_data(as_text=True)[:500])
        for url in (f"/series/{series_id}?lang=xx", "/?from=zzz", f"/series/{series_id}/edit?token="):
            assert client.get(url).status_code < 500

    check()
