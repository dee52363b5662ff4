"""axe-core on every page, light and dark: no serious or critical findings (WCAG 2 A/AA rules among them).

axe-core is vendored from npm (tests/browser/vendor/axe-4.14.1.min.js, MPL-2.0). It is injected as a
script tag, so these contexts bypass the app's Content-Security-Policy (test_csp.py checks the policy).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_scorekeeper import start_series_by_form, tap_round

pytestmark = pytest.mark.slow  # over 5 s: outside the fast lane (-m 'not slow'), always in CI

AXE = (Path(__file__).parent / "vendor" / "axe-4.14.1.min.js").read_text(encoding="utf-8")
PHONE = {"width": 390, "height": 844}
RUN = """async () => (await axe.run(document, {resultTypes: ['violations']})).violations
    .filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => v.id + ' (' + v.impact + '): ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | '))"""


def findings(page: Any) -> list[str]:
    page.add_script_tag(content=AXE)
    return list(page.evaluate(RUN))


def post_json(page: Any, base_url: str, path: str, body: dict[str, Any], token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"} | ({"Authorization": f"Bearer {token}"} if token else {})
    return page.request.post(base_url + path, data=json.dumps(body), headers=headers).json()


BIG = ["AS", "AH", "AC", "AD", "KH", "KC", "KD", "10S", "10H", "10C", "10D", "JS", "JH", "JC"]


@pytest.fixture(params=["light", "dark"])
def scheme_page(request: Any, browser: Any) -> Iterator[Any]:
    context = browser.new_context(
        viewport=PHONE, locale="ru-RU", color_scheme=request.param, bypass_csp=True, service_workers="block"
    )
    context.set_default_timeout(8000)
    yield context.new_page()
    context.close()


def test_no_serious_or_critical_findings_on_any_page(scheme_page: Any, base_url: str) -> None:
    page = scheme_page
    series_id = start_series_by_form(page, base_url, ["Аня", "Борис", "Вера"])
    share = page.url
    page.goto(f"{base_url}/series/{series_id}")
    tap_round(page, "Аня", "дама червей", {"Борис": ["туз пик"], "Вера": ["десятка треф"]})
    finished = post_json(page, base_url, "/api/v1/series", {"players": ["Аня", "Борис", "Вера"], "starter": "Аня"})
    post_json(
        page,
        base_url,
        f"/api/v1/series/{finished['id']}/rounds",
        {"winner": "Вера", "finishing_card": "7S", "hands": {"Аня": BIG, "Борис": ["6H"]}},
        finished["edit_token"],
    )
    out = post_json(page, base_url, "/api/v1/series", {"players": ["Аня", "Борис", "Вера"], "ruleset": "elimination"})
    post_json(
        page,
        base_url,
        f"/api/v1/series/{out['id']}/rounds",
        {"winner": "Вера", "finishing_card": "7S", "hands": {"Аня": BIG, "Борис": ["6H"]}},
        out["edit_token"],
    )
    pages = [
        "/",
        f"/series/{series_id}",
        f"/series/{series_id}/round",
        share,
        f"/series/{finished['id']}",
        f"/series/{out['id']}",
        "/faq",
        "/faq?q=дама",
        "/rules/igrafan",
        "/rules/compare",
        "/referee",
        "/referee?top=7S&card=AH",
        "/no-such-page",
        "/import",
    ]
    found = {}
    for path in pages:
        page.goto(path if path.startswith("http") else base_url + path)
        found[path] = findings(page)
    # refused forms: errors next to their fields, the house rules open, the said round with a question
    page.goto(base_url + "/")
    page.locator("details.house summary").click()
    page.locator("input[name=opt-loss_above]").fill("много")
    page.get_by_role("button", name="Начать партию", exact=True).last.click()
    found["start refused"] = findings(page)
    page.goto(f"{base_url}/series/{series_id}/round")
    page.locator("#say-block > summary").click()  # the dictation block opens with its questions checked too
    page.locator("#say").fill("Борис вышел дамой у Ани джокер и туз")
    page.locator("#say-result li").first.wait_for()
    page.get_by_role("button", name="Сохранить раунд").click()
    page.wait_for_load_state()
    found["round refused"] = findings(page)
    bad = {path: f for path, f in found.items() if f}
    assert not bad, bad
    assert re.search(r"/share$", share)
