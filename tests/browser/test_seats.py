"""Four phones at one table: the scorekeeper and three seats play a round; a dispute shows until corrected."""

from __future__ import annotations

import re
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.test_scorekeeper import start_series

SEATED = ["Борис", "Вера", "Глеб"]
HANDS = {"Борис": ["десятка треф", "валет бубен"], "Вера": ["дама пик"], "Глеб": ["туз пик", "шестёрка бубен"]}


def card(page: Any, name: str) -> Any:
    return page.locator(f"#seat-form input[aria-label='{name}'] + span")


def seat_links(editor: Any) -> dict[str, str]:
    links = {}
    for player in SEATED:
        details = editor.locator("#seats details", has_text=player)
        links[player] = details.locator("a").get_attribute("href")
    return links


@pytest.mark.slow
def test_four_phones_play_a_round_with_seats(new_page: Any, base_url: str, tmp_path: Path) -> None:
    editor = new_page()
    series_id = start_series(editor, base_url, ["Аня", *SEATED])
    expect(editor.locator("#seats summary")).to_have_count(4)
    editor.screenshot(path="/tmp/seats-share.png", full_page=True)
    links = seat_links(editor)
    seats = {}
    for player in SEATED:
        seats[player] = new_page()
        seats[player].goto(links[player])
        expect(seats[player]).to_have_url(re.compile(rf"/series/{series_id}/seat$"))  # the secret left the address
        expect(seats[player].locator("h1")).to_have_text(f"Телефон: {player}")
        expect(seats[player].locator(".totals .player").first).to_contain_text(player)  # their own line first
    seats["Борис"].screenshot(path="/tmp/seat-page.png", full_page=True)

    editor.goto(f"{base_url}/series/{series_id}/round")
    lags = {}
    for i, player in enumerate(SEATED, start=1):
        seat = seats[player]
        for name in HANDS[player]:
            card(seat, name).click()
        sent = time.monotonic()
        seat.get_by_role("button", name="Отправить").click()
        expect(seat.locator("#seat-sent")).to_contain_text("В раунде:")
        # the scorekeeper's grid fills itself, without a reload, marked as sent from that phone
        for name in HANDS[player]:
            expect(editor.locator(f"input[name='hand-{i}'][aria-label='{name}']")).to_be_checked()
        lags[player] = time.monotonic() - sent
        expect(editor.locator(f"[data-tab='{i}'] .seat-mark")).to_have_count(1)
    print("seat → scorekeeper lag, s:", {p: round(s, 2) for p, s in lags.items()})
    editor.screenshot(path="/tmp/seats-round.png")

    # a card already in another hand: the seat is told whose
    seats["Глеб"].reload()
    card(seats["Глеб"], "дама пик").click()
    seats["Глеб"].get_by_role("button", name="Отправить").click()
    expect(seats["Глеб"].locator("#seat-form .error")).to_contain_text("Вера")
    card(seats["Глеб"], "дама пик").click()
    seats["Глеб"].get_by_role("button", name="Отправить").click()
    expect(seats["Глеб"].locator("#seat-form .error")).to_have_count(0)

    # the scorekeeper: three taps
    editor.locator("label.pill", has_text="Аня").click()
    editor.locator("[data-panel=finish] input[aria-label='дама червей'] + span").click()
    saved = time.monotonic()
    editor.get_by_role("button", name="Сохранить раунд").click()
    editor.wait_for_url(re.compile(r"/series/[\w-]+(\?saved=\d+)?$"))
    expect(editor.locator(".totals .player", has_text="Борис").locator(".total")).to_have_text("12")

    scored = {"Борис": "Раунд 1: у вас 10♣ В♦ = 12, итог 12", "Вера": "Раунд 1: у вас Д♠ = 20, итог 20",
              "Глеб": "Раунд 1: у вас 6♦ Т♠ = 17, итог 17"}
    for player, text in scored.items():
        expect(seats[player].locator("#seat-round")).to_contain_text(text)
        lags[f"save → {player}"] = time.monotonic() - saved
    seats["Борис"].get_by_role("button", name="Верно").click()
    expect(seats["Борис"].locator("#seat-round")).to_contain_text("Вы подтвердили этот раунд.")
    vera = seats["Вера"]
    vera.locator("summary", has_text="Не так").click()
    vera.get_by_label("Что не так?").fill("у меня была дама треф")
    vera.get_by_role("button", name="Оспорить раунд 1").click()
    vera.screenshot(path="/tmp/seat-disputed.png", full_page=True)
    disputed = time.monotonic()
    dispute = "Вера оспаривает раунд: «у меня была дама треф»"
    for name, phone in [("editor", editor), *seats.items()]:
        expect(phone.locator("body")).to_contain_text(dispute, timeout=10000)
        lags[f"dispute → {name}"] = time.monotonic() - disputed
    print("lags, s:", {k: round(v, 2) for k, v in lags.items()})
    expect(editor.locator("tr.agreed")).to_contain_text("Борис")

    pdf = editor.request.get(f"{base_url}/series/{series_id}/scoresheet.pdf")
    assert pdf.ok
    (tmp_path / "sheet.pdf").write_bytes(pdf.body())
    text = subprocess.run(["pdftotext", str(tmp_path / "sheet.pdf"), "-"], capture_output=True, text=True,
                          check=True).stdout
    assert "оспаривает раунд" in " ".join(text.split())

    # the scorekeeper corrects round 1: the dispute is gone everywhere
    editor.goto(f"{base_url}/series/{series_id}/round/1")
    editor.locator(".tab", has_text="Вера").click()
    editor.locator(".panel.active input[aria-label='дама пик'] + span").click()
    editor.locator(".panel.active input[aria-label='дама треф'] + span").click()
    editor.get_by_role("button", name="Сохранить раунд").click()
    editor.wait_for_url(re.compile(r"/series/[\w-]+$"))
    for phone in [editor, *seats.values()]:
        expect(phone.locator("body")).not_to_contain_text(dispute, timeout=10000)
    expect(vera.locator("#seat-round")).to_contain_text("Раунд 1: у вас Д♣ = 20")
    expect(vera.get_by_role("button", name="Верно")).to_be_visible()


@pytest.mark.slow
def test_a_seat_sends_and_confirms_in_place(new_page: Any, base_url: str) -> None:
    """With JavaScript, «Отправить» and «Верно» / «Не так» are answered on the page itself: no reload, no
    whole seat page fetched; after the save the grid empties for the next round in place too."""
    editor = new_page()
    series_id = start_series(editor, base_url, ["Аня", "Борис"])
    link = editor.locator("#seats details", has_text="Борис").locator("a").get_attribute("href")
    seat = new_page()
    seat.goto(link)
    expect(seat.locator("#seat-form")).to_have_count(1)
    pages: list[str] = []  # every whole seat page the phone asks for after this point
    seat.on("request", lambda r: pages.append(r.method) if r.url.endswith(f"/series/{series_id}/seat")
            and "hx-target" not in r.headers else None)
    seat.evaluate("window.stayed = true")  # gone if the page were loaded again

    for name in HANDS["Борис"]:
        card(seat, name).click()
    seat.context.set_offline(True)  # the Wi-Fi drops: nothing sent, and the phone says so where the tap was
    seat.get_by_role("button", name="Отправить").click()
    expect(seat.locator("#seat-form .error")).to_have_text(
        "Нет связи — ничего не отправлено. Нажмите ещё раз, когда связь вернётся.")
    seat.screenshot(path="/tmp/seat-offline.png", full_page=True)
    seat.context.set_offline(False)
    seat.get_by_role("button", name="Отправить").click()
    expect(seat.locator("#seat-sent")).to_have_text("В раунде: 10♣ В♦ = 12")
    expect(seat.locator("#seat-form .error")).to_have_count(0)
    seat.screenshot(path="/tmp/seat-sent.png", full_page=True)

    editor.goto(f"{base_url}/series/{series_id}/round")
    expect(editor.locator("input[name='hand-1'][aria-label='валет бубен']")).to_be_checked()
    editor.locator("label.pill", has_text="Аня").click()
    editor.locator("[data-panel=finish] input[aria-label='дама червей'] + span").click()
    editor.get_by_role("button", name="Сохранить раунд").click()
    editor.wait_for_url(re.compile(r"/series/[\w-]+(\?saved=\d+)?$"))

    expect(seat.locator("#seat-round")).to_contain_text("Раунд 1: у вас 10♣ В♦ = 12, итог 12")
    expect(seat.locator("#seat-title")).to_have_text("Раунд 2: ваши оставшиеся карты")
    expect(seat.locator("#seat-form input[name=card]:checked")).to_have_count(0)
    expect(seat.locator("#seat-form input[name=round]")).to_have_value("2")
    seat.get_by_role("button", name="Верно").click()
    expect(seat.locator("#seat-round")).to_contain_text("Вы подтвердили этот раунд.")
    seat.screenshot(path="/tmp/seat-confirmed.png", full_page=True)

    expect(seat.get_by_role("button", name="Верно")).to_have_count(0)
    assert seat.evaluate("window.stayed") is True and pages == []
