"""After a save, a table's watchers share one render of the standings fragment (issue 9's load work)."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from companion.web.pages import series as series_views

POLL = {"HX-Request": "true"}
ROUND = {"winner": "Аня", "finishing_card": "9h", "hands": {"Борис": ["10c"], "Вера": ["jd"]}}


def count_renders(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    real = series_views.render_series

    def counting(series: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(series.id)
        return real(series, *args, **kwargs)

    monkeypatch.setattr(series_views, "render_series", counting)
    return calls


def test_readers_share_one_render_per_version_and_get_the_same_bytes(
        app: Flask, series: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    calls = count_renders(monkeypatch)
    url = f"/series/{series['id']}"
    phones = [app.test_client() for _ in range(3)]
    first = [phone.get(url, headers=POLL) for phone in phones]
    assert [r.status_code for r in first] == [200, 200, 200]
    assert len({r.get_data() for r in first}) == 1
    assert len(calls) == 1

    saved = app.test_client().post(f"{url}/rounds".replace("/series/", "/api/v1/series/"), json=ROUND,
                                   headers={"Authorization": f"Bearer {series['edit_token']}"})
    assert saved.status_code == 201
    after = [phone.get(url, headers={**POLL, "If-None-Match": first[0].headers["ETag"]}) for phone in phones]
    assert [r.status_code for r in after] == [200, 200, 200]  # the new version, not the cached old one
    assert len({r.get_data() for r in after}) == 1
    assert after[0].get_data() != first[0].get_data()
    assert len(calls) == 2


def test_languages_and_editors_are_never_mixed(app: Flask, series: dict[str, Any],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"/series/{series['id']}"
    reader = app.test_client()
    russian = reader.get(url, headers={**POLL, "Accept-Language": "ru"}).get_data(as_text=True)
    english = reader.get(url, headers={**POLL, "Accept-Language": "en"}).get_data(as_text=True)
    assert "View only" in english and "View only" not in russian
    editor = app.test_client()
    assert editor.get(f"{url}/edit?token={series['edit_token']}").status_code in (302, 303)
    calls = count_renders(monkeypatch)
    body = editor.get(url, headers={**POLL, "Accept-Language": "en"}).get_data(as_text=True)
    assert calls == [series["id"]]  # an editor's fragment is rendered for them, never taken from readers
    assert "Enter round 1" in body
    assert body != english
