"""The double-tap trap: a second tap where «Сохранить раунд» was must never undo or change anything,
and an undone round comes back from the history in one tap."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.test_scorekeeper import start_series, total

pytestmark = pytest.mark.slow  # over 5 s: outside the fast lane (-m 'not slow'), always in CI

PHONE = {"width": 390, "height": 844}
DESTRUCTIVE = """([x, y]) => {
  const el = document.elementFromPoint(x, y);
  if (!el) return null;
  const form = el.closest('form');
  const action = form ? form.getAttribute('action') || '' : '';
  const button = el.closest('button, input[type=submit]');
  return (form && button && /delete|restore|again/.test(action)) ? action : null;
}"""


def rounds(page: Any, base_url: str, series_id: str) -> int:
    return len(page.request.get(f"{base_url}/api/v1/series/{series_id}").json()["rounds"])


def fill_round(page: Any, js: bool, k: int) -> None:
    """Winner A (going out on an eight), B and C each a card from their own grid."""
    page.locator("label.pill", has_text="A").first.click()
    page.locator("[data-panel=finish] input[aria-label='восьмёрка треф'] + span").click()
    for i, (player, card) in enumerate([("B", "туз червей"), ("C", "король пик")], start=1):
        if js:
            page.locator(".tab", has_text=player).click()
            page.locator(f".panel.active input[aria-label='{card}'] + span").click()
        else:
            page.locator(f"[data-panel=p{i}] input[aria-label='{card}'] + span").click()


@pytest.mark.parametrize("js", [False, True], ids=["no-js", "js"])
def test_a_second_tap_where_save_was_changes_nothing(browser: Any, base_url: str, js: bool) -> None:
    context = browser.new_context(viewport=PHONE, locale="ru-RU", java_script_enabled=js, service_workers="block")
    context.set_default_timeout(8000)
    try:
        page = context.new_page()
        series_id = start_series(page, base_url, ["A", "B", "C"])
        for k in range(1, 7):
            page.goto(f"{base_url}/series/{series_id}/round")
            fill_round(page, js, k)
            save = page.get_by_role("button", name="Сохранить раунд")
            box = save.bounding_box()
            x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
            save.click()
            page.wait_for_url(re.compile(rf"/series/{series_id}(\?saved=\d+)?$"))  # ?saved=: the undo offer (issue 10)
            page.wait_for_load_state("load")
            assert page.evaluate(DESTRUCTIVE, [x, y]) is None, f"after round {k}: a destructive button under Save"
            page.mouse.click(x, y)  # the second tap of a double tap, on the page that followed
            page.wait_for_load_state("load")
            assert rounds(page, base_url, series_id) == k, f"the second tap after round {k} changed the rounds"
    finally:
        context.close()


def test_a_double_tapped_save_records_one_round(browser: Any, base_url: str) -> None:
    context = browser.new_context(viewport=PHONE, locale="ru-RU", java_script_enabled=False)
    context.set_default_timeout(8000)
    try:
        page = context.new_page()
        series_id = start_series(page, base_url, ["A", "B", "C"])
        page.goto(f"{base_url}/series/{series_id}/round")
        fill_round(page, False, 1)
        page.get_by_role("button", name="Сохранить раунд").dblclick()
        page.wait_for_url(re.compile(rf"/series/{series_id}(\?saved=\d+)?$"))  # ?saved=: the undo offer (issue 10)
        page.wait_for_load_state("load")
        assert rounds(page, base_url, series_id) == 1
    finally:
        context.close()


@pytest.mark.parametrize("js", [False, True], ids=["no-js", "js"])
def test_an_undone_round_is_restored_from_the_history_once(browser: Any, base_url: str, js: bool) -> None:
    context = browser.new_context(viewport=PHONE, locale="ru-RU", java_script_enabled=js, service_workers="block")
    context.set_default_timeout(8000)
    try:
        page = context.new_page()
        page.on("dialog", lambda dialog: dialog.accept())  # the undo asks first (with JavaScript)
        series_id = start_series(page, base_url, ["A", "B", "C"])
        page.goto(f"{base_url}/series/{series_id}/round")
        fill_round(page, js, 1)
        page.get_by_role("button", name="Сохранить раунд").click()
        page.wait_for_url(re.compile(rf"/series/{series_id}(\?saved=\d+)?$"))  # ?saved=: the undo offer (issue 10)
        expect(total(page, "B")).to_have_text("11")
        page.get_by_role("button", name=re.compile("Отменить раунд 1")).click()
        expect(total(page, "B")).to_have_text("0")
        assert rounds(page, base_url, series_id) == 0
        page.get_by_role("button", name=re.compile("Вернуть раунд 1")).click()  # it asks first (issue 21)
        if not js:  # the question is a page: one more tap to bring it back
            page.get_by_role("button", name="Вернуть", exact=True).click()
        expect(total(page, "B")).to_have_text("11")
        assert rounds(page, base_url, series_id) == 1
        expect(page.get_by_role("button", name=re.compile("Вернуть раунд 1"))).to_have_count(0)  # restored once
    finally:
        context.close()
