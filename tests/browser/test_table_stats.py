"""Two series at one table, played on a phone (390×844): the head to head and the period switch on the table page,
and «Поделиться итогом», checked against a hand count."""

from __future__ import annotations

import re
import sqlite3
from datetime import UTC, datetime
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.test_scorekeeper import start_series, total

PLAYERS = ["Аня", "Борис", "Вера"]


def typed_round(page: Any, winner: str, finish: str, points: dict[str, int]) -> None:
    """One round with the points typed in: the winner, their last card, then each other player's points."""
    page.get_by_role("link", name=re.compile(r"Записать раунд")).first.click()
    page.wait_for_url(re.compile(r"/round$"))
    expect(page.locator("#round-form[data-ready]")).to_have_count(1)  # its script is on: a tap before would be lost
    page.locator("label.pill", has_text=winner).click()
    page.locator(f"[data-panel=finish] input[aria-label='{finish}'] + span").click()
    for player, value in points.items():
        page.locator(".tab", has_text=player).click()
        page.locator(f"input[name=points-{PLAYERS.index(player)}]").fill(str(value))
    page.get_by_role("button", name="Сохранить раунд").click()
    page.wait_for_url(re.compile(r"/series/[\w-]+(\?saved=\d+)?$"))


def pair(page: Any, first: str, second: str) -> list[list[str]]:
    """One pair's numbers on the table page, row by row: [first's, second's]."""
    rows = page.locator(f"table.pair[data-pair='{first}|{second}'] tbody tr")
    return [[rows.nth(i).locator("td").nth(k).inner_text() for k in (0, 1)] for i in range(rows.count())]


def move_to_last_year(tmp_path_factory: pytest.TempPathFactory, series_id: str) -> None:
    """The first series as if started last year: its start (and last write, which keys the replay cache) moved."""
    found = sorted({p.resolve() for p in tmp_path_factory.getbasetemp().glob("browser*/browser.sqlite3")})
    assert len(found) == 1
    stamp = f"{datetime.now(UTC).year - 1}-06-15T20:00:00+00:00"
    with sqlite3.connect(found[0]) as db:
        db.execute("update series set created_at = ?, updated_at = ? where id = ?", [stamp, stamp, series_id])


@pytest.mark.slow
def test_two_series_head_to_head_and_the_period_switch(new_page: Any, base_url: str,
                                                       tmp_path_factory: pytest.TempPathFactory) -> None:
    page = new_page()
    first = start_series(page, base_url, PLAYERS)
    page.goto(f"{base_url}/series/{first}")
    # Series 1: Аня out on 8♥ (Борис 60, Вера 85); Борис out on Q♠ while Вера carried 85 (16 from the line: near)
    # and Вера lands on 101 → 0 (a reset in Борис's round); Вера out on A♠, Аня 30 + 80 = 110: over, pushed by Вера.
    typed_round(page, "Аня", "восьмёрка червей", {"Борис": 60, "Вера": 85})
    typed_round(page, "Борис", "дама пик", {"Аня": 30, "Вера": 16})
    expect(total(page, "Вера")).to_have_text("0")
    typed_round(page, "Вера", "туз пик", {"Аня": 80, "Борис": 10})
    expect(page.locator(".end")).to_be_visible()

    # The share button of the end screen: the text in 101 terms, the picture, copy, Telegram and WhatsApp.
    page.get_by_role("link", name="Поделиться итогом").click()
    page.wait_for_url(re.compile(r"/result$"))
    expect(page.locator("[data-share-text]")).to_have_value(re.compile(
        r"^Серия 1: проигрыш — Аня \(110\)\.\nБорис: выход на даме пик \(−20\), Вера: ровно 101, сброс до 0\."))
    assert page.evaluate("document.querySelector('.result-chart').naturalWidth") == 640  # the PNG loaded
    expect(page.get_by_role("button", name="Поделиться: текст и картинка")).to_be_hidden()  # plain HTTP: no share
    expect(page.get_by_role("link", name="Telegram")).to_have_attribute("href", re.compile(r"^https://t\.me/share/url\?url="))
    expect(page.get_by_role("link", name="WhatsApp")).to_have_attribute("href", re.compile(r"^https://wa\.me/\?text=%D0%A1"))
    page.get_by_role("button", name="Скопировать текст").click()
    expect(page.locator("[data-copied]")).to_be_visible()
    page.get_by_role("link", name="К таблице счёта").click()

    # Series 2, same players: Борис out on Q♥ (Аня 90, Вера 50: both far from the line before it);
    # Борис out on Q♣ while Аня carried 90 (near) and Вера 50 (not); Вера out on 7♠, Аня 95 + 30 = 125, over.
    page.get_by_role("button", name="Новая партия с теми же игроками").click()
    page.wait_for_url(lambda url: "/series/" in url and first not in url)
    second = re.search(r"/series/([\w-]+)", page.url)
    assert second and second.group(1) != first
    page.goto(f"{base_url}/series/{second.group(1)}")
    typed_round(page, "Борис", "дама червей", {"Аня": 90, "Вера": 50})
    typed_round(page, "Борис", "дама треф", {"Аня": 5, "Вера": 10})
    typed_round(page, "Вера", "семёрка пик", {"Аня": 30, "Борис": 0})
    expect(page.locator(".end")).to_be_visible()

    page.get_by_role("link", name=re.compile("Наш стол")).click()
    page.wait_for_url(re.compile(r"/table$"))
    # By hand, both series (rows: pushed over, queen near the line, went out as the other reset, series lost):
    # Аня | Борис: Аня lost both with Борис there; Борис's Q♣ came with Аня at 90.
    assert pair(page, "Аня", "Борис") == [["0", "0"], ["0", "1"], ["0", "0"], ["2", "0"]]
    # Аня | Вера: Вера pushed Аня over in both series; Аня lost both with Вера there.
    assert pair(page, "Аня", "Вера") == [["0", "2"], ["0", "0"], ["0", "0"], ["2", "0"]]
    # Борис | Вера: Борис's Q♠ with Вера at 85, and her reset in that round.
    assert pair(page, "Борис", "Вера") == [["0", "0"], ["1", "0"], ["1", "0"], ["0", "0"]]
    expect(page.locator(".rival[data-player='Аня']")).to_contain_text("Главный обидчик: Вера (2 раза)")
    expect(page.locator(".rival[data-player='Вера']")).to_contain_text("Главная жертва: Аня (2 раза)")

    # The period switch: with series 1 moved to last year, this month and this year hold series 2 only.
    move_to_last_year(tmp_path_factory, first)
    page.get_by_role("link", name="Этот месяц").click()
    expect(page.locator("#period-note")).to_have_text("Этот месяц: начата 1 серия.")
    assert pair(page, "Аня", "Борис") == [["0", "0"], ["0", "1"], ["0", "0"], ["1", "0"]]
    assert pair(page, "Аня", "Вера") == [["0", "1"], ["0", "0"], ["0", "0"], ["1", "0"]]
    assert pair(page, "Борис", "Вера") == [["0", "0"], ["0", "0"], ["0", "0"], ["0", "0"]]
    page.get_by_role("link", name="Этот год").click()
    expect(page.locator("#period-note")).to_have_text("Этот год: начата 1 серия.")
    page.get_by_role("link", name="Всё время").click()
    expect(page.locator(".set-tabs.period a[aria-current=page]")).to_have_text("Всё время")
    assert pair(page, "Аня", "Вера") == [["0", "2"], ["0", "0"], ["0", "0"], ["2", "0"]]


SHARE_STUB = """
window.__shared = [];
Object.defineProperty(navigator, "canShare", {value: (data) => true, configurable: true});
Object.defineProperty(navigator, "share", {value: (data) => { window.__shared.push({text: data.text,
  files: (data.files || []).map((f) => ({name: f.name, type: f.type, size: f.size}))}); return Promise.resolve(); },
  configurable: true});
"""


def test_with_the_web_share_api_one_tap_shares_the_text_and_the_picture(new_page: Any, base_url: str) -> None:
    page = new_page(locale="en-GB")
    page.add_init_script(SHARE_STUB)  # a phone's share sheet, as the Web Share API offers it on HTTPS
    created = page.request.post(f"{base_url}/api/v1/series", data={"players": PLAYERS, "starter": "Аня"}).json()
    page.request.post(f"{base_url}/api/v1/series/{created['id']}/rounds",
                      data={"winner": "Борис", "finishing_card": "Q♥", "typed_points": {"Аня": 12, "Вера": 7}},
                      headers={"Authorization": f"Bearer {created['edit_token']}"})
    page.goto(f"{base_url}/series/{created['id']}?lang=en")
    page.get_by_role("link", name="Share the result so far").click()
    page.wait_for_url(re.compile(r"/result$"))
    page.get_by_role("button", name="Share: text and picture").click()
    page.wait_for_function("() => window.__shared.length === 1")
    shared = page.evaluate("window.__shared[0]")
    # During the series: the round so far, Борис's queen of hearts (−40), the totals, the link.
    assert shared["text"].split("\n")[:3] == [
        "Series 1, after round 1.",
        "Борис went out on the queen of hearts (−40).",
        "Totals: Борис −40 · Вера 7 · Аня 12.",
    ]
    assert shared["files"][0]["type"] == "image/png" and 1_000 < shared["files"][0]["size"] < 40_000
