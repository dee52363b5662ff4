"""A whole game night on one phone (issue 21): four players, rounds tapped, the Wi-Fi dropped at a save and the page
reloaded, taps kept across a reload, a redeal, a correction, an undo, and a loss at 102: nothing is lost."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.test_offline_round import SAVED, open_round, rounds_stored, save, tap
from tests.browser.test_scorekeeper import start_series_by_form, tap_round, total

PLAYERS = ["Аня", "Борис", "Вера", "Глеб"]


def entry(winner: str, finish: str, hands: dict[str, list[str]]) -> dict[str, Any]:
    """A round as the API gives it back."""
    return {"winner": winner, "finishing_card": finish, "hands": hands}


def page_totals(page: Any) -> dict[str, str]:
    return {p: total(page, p).inner_text() for p in PLAYERS}


def api_totals(page: Any, base_url: str, series_id: str) -> dict[str, str]:
    players = page.request.get(f"{base_url}/api/v1/series/{series_id}").json()["players"]
    return {p["name"]: str(p["total"]).replace("-", "−") for p in players}


@pytest.mark.slow
def test_a_game_night_on_a_phone_loses_nothing(new_page: Any, base_url: str) -> None:
    page = new_page()
    series_id = start_series_by_form(page, base_url, PLAYERS)
    entered: list[dict[str, Any]] = []  # what the table entered, round by round, as the API names cards

    tap_round(page, "Аня", "восьмёрка треф", {"Борис": ["туз пик"], "Вера": ["король пик"], "Глеб": ["шестёрка пик"]})
    entered.append(entry("Аня", "8♣", {"Борис": ["A♠"], "Вера": ["K♠"], "Глеб": ["6♠"]}))
    tap_round(page, "Борис", "девятка червей", {"Аня": ["десятка бубен"], "Вера": ["валет треф"], "Глеб": ["туз треф"]})
    entered.append(entry("Борис", "9♥", {"Аня": ["10♦"], "Вера": ["J♣"], "Глеб": ["A♣"]}))

    # round 3: the Wi-Fi drops at «Сохранить раунд»; it comes back, the page is reloaded while the laptop is still
    # out of reach, and the round goes by itself once it can
    open_round(page)
    tap(page, "Вера", "семёрка бубен", {"Аня": ["король треф"], "Борис": ["десятка пик"], "Глеб": ["валет червей"]})
    page.context.set_offline(True)
    save(page)
    expect(page.locator("#offline-said")).to_have_text("Нет связи — раунд 3 сохранён на телефоне и отправится сам.")
    sends = re.compile(r"/series/[\w-]+/round$")
    page.route(sends, lambda route: route.abort() if route.request.method == "POST" else route.continue_())
    page.context.set_offline(False)
    page.reload()
    expect(page.locator(".offline .queued")).to_contain_text("Раунд 3 сохранён на телефоне и отправится сам")
    page.unroute(sends)
    page.wait_for_url(SAVED, timeout=40000)  # the next retry sends it, and the totals follow
    entered.append(entry("Вера", "7♦", {"Аня": ["K♣"], "Борис": ["10♠"], "Глеб": ["J♥"]}))
    assert len(rounds_stored(page, base_url, series_id)) == 3

    # round 4: half tapped, the page reloaded by accident; the taps are still there
    open_round(page)
    tap(page, "Глеб", "восьмёрка пик", {"Аня": ["туз червей"]})
    page.reload()
    expect(page.locator("input[name=hand-0][value=AH]")).to_be_checked()
    page.locator(".tab", has_text="Борис").click()
    page.locator(".panel.active input[aria-label='девятка треф'] + span").click()
    page.locator(".tab", has_text="Вера").click()
    page.locator(".panel.active input[aria-label='шестёрка червей'] + span").click()
    save(page)
    page.wait_for_url(SAVED)
    entered.append(entry("Глеб", "8♠", {"Аня": ["A♥"], "Борис": ["9♣"], "Вера": ["6♥"]}))

    # round 5: a redeal
    open_round(page)
    page.get_by_role("button", name="Пересдача").click()
    expect(page.locator(".rounds")).to_contain_text("Пересдача: очков нет")
    entered.append({"redeal": True})

    # a correction: round 2 had Вера's jack wrong, it was a queen
    page.get_by_role("link", name="Исправить раунд 2").click()
    page.wait_for_url(re.compile(r"/round/2$"))
    page.locator(".tab", has_text="Вера").click()
    page.locator(".panel.active input[aria-label='валет треф'] + span").click()
    page.locator(".panel.active input[aria-label='дама треф'] + span").click()
    save(page)
    page.wait_for_url(SAVED)
    entered[1]["hands"]["Вера"] = ["Q♣"]

    # round 6 saved for the wrong winner, undone at once, entered again
    tap_round(page, "Аня", "семёрка треф", {"Борис": ["туз бубен"], "Вера": ["король бубен"], "Глеб": ["дама бубен"]})
    page.get_by_role("button", name="Отменить раунд 6").click()
    expect(page.get_by_role("button", name="Вернуть раунд 6")).to_be_visible()
    tap_round(page, "Борис", "семёрка треф", {"Аня": ["туз бубен"], "Вера": ["король бубен"], "Глеб": ["дама бубен"]})
    entered.append(entry("Борис", "7♣", {"Аня": ["A♦"], "Вера": ["K♦"], "Глеб": ["Q♦"]}))

    # round 7: Глеб's points typed in, to 102: over the line, the series is over
    gleb = int(total(page, "Глеб").inner_text().replace("−", "-"))
    open_round(page)
    tap(page, "Аня", "девятка бубен", {"Борис": ["семёрка пик"], "Вера": ["восьмёрка червей"]},
        points={"Глеб": str(102 - gleb)})
    save(page)
    page.wait_for_url(SAVED)
    entered.append({"winner": "Аня", "finishing_card": "9♦", "hands": {"Борис": ["7♠"], "Вера": ["8♥"]},
                    "typed_points": {"Глеб": 102 - gleb}})
    expect(page.locator(".end")).to_contain_text("Партия окончена")
    expect(total(page, "Глеб")).to_have_text("102")

    stored = rounds_stored(page, base_url, series_id)
    assert len(stored) == len(entered) == 7  # every round once: the queued one too, the undone one not
    for n, (want, got) in enumerate(zip(entered, stored, strict=True), start=1):
        if want.get("redeal"):
            assert got["redeal"], n
            continue
        assert (got["winner"], got["finishing_card"], got["hands"]) == \
            (want["winner"], want["finishing_card"], want["hands"]), n
        assert got["typed_points"] == want.get("typed_points", {}), n
    assert page_totals(page) == api_totals(page, base_url, series_id)
    assert page.evaluate("localStorage.getItem('companion.rounds-to-send')") == "[]"
