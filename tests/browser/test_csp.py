"""Every page under the Content-Security-Policy: zero violations, and htmx still works (preview, boost, poll)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.test_scorekeeper import start_series_by_form, tap_round

pytestmark = pytest.mark.slow  # over 5 s: outside the fast lane (-m 'not slow'), always in CI

WATCH = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__csp.push(e.violatedDirective + " " + e.blockedURI + " " + (e.sourceFile || "") + ":" + e.lineNumber);
});
"""


def watched(new_page: Any) -> tuple[Any, list[str]]:
    page = new_page()
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if "Content Security Policy" in m.text else None)
    page.add_init_script(WATCH)
    return page, console


def violations(page: Any, console: list[str]) -> list[str]:
    return list(page.evaluate("window.__csp || []")) + console


def test_every_page_loads_under_the_csp_without_violations(new_page: Any, base_url: str) -> None:
    page, console = watched(new_page)
    seen: list[str] = []

    def visit(path: str) -> None:
        response = page.goto(base_url + path)
        assert "script-src 'self'" in response.headers["content-security-policy"], path  # under the policy
        page.wait_for_load_state("networkidle")
        seen.extend(f"{path}: {v}" for v in violations(page, console))
        console.clear()

    series_id = start_series_by_form(page, base_url, ["Аня", "Борис", "Вера"])
    seen.extend(f"start/share: {v}" for v in violations(page, console))
    tap_round(
        page, "Аня", "девятка червей", {"Борис": ["десятка треф"], "Вера": ["дама пик"]}
    )  # htmx preview + boosted save
    seen.extend(f"round: {v}" for v in violations(page, console))
    for path in [
        "/",
        f"/series/{series_id}",
        f"/series/{series_id}/share",
        f"/series/{series_id}/round",
        f"/series/{series_id}/round/1",
        "/faq",
        "/faq?q=дама",
        "/referee",
        "/rules/igrafan",
        "/nope",
        "/?lang=en",
    ]:
        visit(path)
    assert seen == []
    assert page.evaluate("document.documentElement.className") == "js"  # boot.js ran


def test_the_standings_poll_runs_under_the_csp(new_page: Any, base_url: str) -> None:
    editor, _ = watched(new_page)
    series_id = start_series_by_form(editor, base_url, ["Аня", "Борис"])
    viewer, console = watched(new_page)
    viewer.clock.install()  # the page's timers, run at their pace until fast-forwarded below
    viewer.goto(f"{base_url}/series/{series_id}")
    with viewer.expect_request(re.compile(rf"/series/{series_id}$"), timeout=9000):
        viewer.clock.fast_forward(4000)  # the 4 s poll fires (hx-trigger without an eval filter)
    tap_round(editor, "Аня", "девятка червей", {"Борис": ["десятка треф"]})
    viewer.clock.fast_forward(4000)  # and the next one
    expect(viewer.locator(".totals .player", has_text="Борис").locator(".total")).to_have_text("10", timeout=9000)
    assert violations(viewer, console) == []
