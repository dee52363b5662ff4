"""The table's record on a phone: a finished series leads to the next one and to the table page; a series
file imports back; house rules open the start page preselected. All under the CSP, without violations."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import expect

from tests.browser.test_csp import violations, watched
from tests.browser.test_scorekeeper import start_series


def finish(page: Any, base_url: str, series_id: str, loser: str, winner: str) -> None:
    """Two rounds of 60 typed points for `loser` through the API (the phone's cookie is not needed there)."""
    token = page.context.cookies(f"{base_url}/series/{series_id}")
    edit = next(c["value"] for c in token if c["name"] == f"e_{series_id}")
    for _ in range(2):
        response = page.request.post(f"{base_url}/api/v1/series/{series_id}/rounds", headers={
            "Authorization": f"Bearer {edit}", "Content-Type": "application/json"}, data=json.dumps(
            {"winner": winner, "finishing_card": "A♠", "typed_points": {loser: 60, "Борис": 0}}))
        assert response.status == 201


def test_next_series_joins_the_table_and_the_table_page_names_who_loses(new_page: Any, base_url: str) -> None:
    page, console = watched(new_page)
    first = start_series(page, base_url, ["Аня", "Борис", "Вера"])
    finish(page, base_url, first, "Вера", "Аня")
    page.goto(f"{base_url}/series/{first}")
    page.get_by_role("button", name="Новая партия с теми же игроками").click()
    page.wait_for_url(re.compile(r"/series/[\w-]+/share$"))
    second = page.url.rsplit("/", 2)[-2]
    assert second != first
    finish(page, base_url, second, "Вера", "Аня")
    page.goto(f"{base_url}/series/{second}")
    page.get_by_role("link", name=re.compile("Наш стол")).click()
    page.wait_for_url(re.compile(rf"/series/{second}/table$"))
    expect(page.locator("main h1")).to_have_text("Наш стол")
    expect(page.locator(".big-note")).to_contain_text("Чаще всех проигрывает Вера: 2 серии из 2.")
    expect(page.locator("table.stats")).to_be_visible()
    expect(page.locator(".chart polyline")).to_have_count(3)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the table page scrolls sideways ({width}px)"
    # the editor may merge names; merging two players of one series is refused next to the form
    page.select_option("select[name=from]", "Аня")
    page.select_option("select[name=into]", "Вера")
    page.get_by_role("button", name="Объединить имена").click()
    expect(page.locator("[role=alert]")).to_contain_text("разные игроки")
    assert violations(page, console) == []


def test_a_series_file_imports_back(new_page: Any, base_url: str, tmp_path: Any) -> None:
    page, console = watched(new_page)
    series_id = start_series(page, base_url, ["Аня", "Борис"])
    document = page.request.get(f"{base_url}/api/v1/series/{series_id}/export").json()
    path = tmp_path / "series.json"
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**document, "format_version": 9}), encoding="utf-8")

    page.goto(f"{base_url}/import")
    page.set_input_files("input[type=file]", str(bad))
    page.get_by_role("button", name="Загрузить").click()
    expect(page.locator("[role=alert]")).to_contain_text("версии 9")
    page.set_input_files("input[type=file]", str(path))
    page.get_by_role("button", name="Загрузить").click()
    page.wait_for_url(re.compile(r"/series/[\w-]+/share$"))
    assert page.url.rsplit("/", 2)[-2] != series_id
    assert violations(page, console) == []


def test_house_rules_link_opens_the_start_page_with_them(new_page: Any, base_url: str) -> None:
    page, console = watched(new_page)
    page.goto(base_url + "/")
    page.locator("input[name=name]").nth(0).fill("Аня")
    page.locator("input[name=name]").nth(1).fill("Борис")
    page.locator("details.house summary").click()
    page.select_option("select[name=opt-deck]", "52")
    page.get_by_role("button", name="Начать партию", exact=True).last.click()
    page.wait_for_url(re.compile(r"/share$"))
    link = page.locator("a[href*='/r/']").first.get_attribute("href")
    other = new_page()
    other.goto(link)
    expect(other.locator(".house-rules")).to_contain_text("52")
    expect(other.locator("select[name=opt-deck]")).to_have_value("52")
    assert violations(page, console) == []
