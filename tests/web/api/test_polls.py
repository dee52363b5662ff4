"""An idle poll is answered 304 from the series row alone: no rounds loaded, nothing replayed."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.service import series as series_service
from companion.storage import database as storage
from companion.web.pages import series as series_page


def test_an_idle_poll_does_not_load_the_series(client: FlaskClient, series: dict[str, Any],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"/series/{series['id']}"
    first = client.get(url, headers={"HX-Request": "true"})
    assert first.status_code == 200
    etag = first.headers["ETag"]

    def refuse(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("an idle poll loaded the series")

    monkeypatch.setattr(series_service, "load", refuse)
    monkeypatch.setattr(series_page, "load_or_404", refuse)
    monkeypatch.setattr(storage, "load_rounds", refuse)
    for _ in range(3):
        again = client.get(url, headers={"HX-Request": "true", "If-None-Match": etag})
        assert again.status_code == 304 and again.data == b""
    assert client.get("/series/nope", headers={"HX-Request": "true"}).status_code == 404


def test_the_cache_keeps_what_is_polled_most(monkeypatch: pytest.MonkeyPatch) -> None:
    cache = series_service._RecentSeries(size=2)
    rows = [storage.SeriesRow(id=f"s{i}", ruleset="igrafan", options={}, players=["А", "Б"], starter="А",
                              starter_drawn=False, edit_token_hash="", version=1, created_at="", updated_at="",
                              table_id=None, rounds=[]) for i in range(3)]
    entries = [series_service.Series(row, None, (), None) for row in rows]  # type: ignore[arg-type]
    cache.put(entries[0])
    cache.put(entries[1])
    assert cache.get(rows[0]) is entries[0]  # a hit makes s0 the most recent
    cache.put(entries[2])
    assert cache.get(rows[0]) is entries[0] and cache.get(rows[1]) is None
