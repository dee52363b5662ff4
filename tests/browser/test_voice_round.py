"""A round said instead of tapped: the dictation field fills the grid (htmx), the table checks it, one tap saves."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.test_scorekeeper import start_series, total

SAVED = re.compile(r"/series/[\w-]+(\?saved=\d+)?$")


def open_round(page: Any) -> None:
    page.get_by_role("link", name=re.compile(r"Записать раунд|Enter round")).first.click()
    page.wait_for_url(re.compile(r"/round$"))


def open_dictation(page: Any) -> None:
    page.locator("#say-block > summary").click()
    expect(page.locator("#say")).to_be_visible()


def test_a_dictated_round_fills_the_grid_and_saves_in_three_taps(new_page: Any, base_url: str) -> None:
    page = new_page()
    start_series(page, base_url, ["Аня", "Борис", "Вера"])
    open_round(page)
    taps = 0
    open_dictation(page)  # opening the block puts the caret in the field
    taps += 1
    expect(page.locator("#say")).to_be_focused()
    taps += 1  # the keyboard's microphone; dictation arrives as inserted text
    page.keyboard.insert_text("Аня вышла дамой червей. У Бори туз, король пик и семёрка. У Веры две десятки и валет.")
    # the grid shows what was understood before anything is saved
    expect(page.locator("input[name=finishing_card][value=QH]")).to_be_checked()
    expect(page.locator("input[name=hand-1][value=KS]")).to_be_checked()
    expect(page.locator("input[name=winner][value='0']")).to_be_checked()
    expect(page.locator("#pts-1")).to_have_text("22")
    expect(page.locator("#say-result")).to_contain_text("Масть не названа")
    expect(page.locator("#say-result")).to_contain_text("Всё сказанное понятно")
    expect(page.locator("#say")).to_be_focused()  # the field was kept as typed through the swap
    page.get_by_role("button", name="Сохранить как сказано").click()
    taps += 1
    page.wait_for_url(SAVED)
    assert taps == 3
    expect(total(page, "Аня")).to_have_text("−40")
    expect(total(page, "Борис")).to_have_text("22")
    expect(total(page, "Вера")).to_have_text("22")


@pytest.mark.slow  # a whole game walk of several seconds: outside the fast lane
def test_unrecognised_words_are_named_and_a_fix_in_the_grid_is_kept(new_page: Any, base_url: str) -> None:
    page = new_page()
    start_series(page, base_url, ["Аня", "Борис"])
    open_round(page)
    open_dictation(page)
    page.locator("#say").fill("Борис вышел на семёрке пик у Ани джокер и десятка")
    expect(page.locator("#say-result")).to_contain_text("«джокер»")
    expect(page.locator("input[name=finishing_card][value='7S']")).to_be_checked()
    # the assumed ten was the ten of spades; the table says it was the ten of hearts
    page.locator(".tab", has_text="Аня").click()
    page.locator(".panel.active input[value='10S'] + span").click()
    page.locator(".panel.active input[value='10H'] + span").click()
    page.get_by_role("button", name="Сохранить как сказано").click()
    page.wait_for_url(SAVED)
    expect(total(page, "Аня")).to_have_text("10")
    page.locator(".rounds a", has_text="1").click()
    expect(page.locator("input[name=hand-0][value='10H']")).to_be_checked()


@pytest.mark.slow  # over 5 s: outside the fast lane, always in CI
def test_save_as_said_says_what_to_check_and_the_asked_cards_are_marked(new_page: Any, base_url: str) -> None:
    page = new_page()
    start_series(page, base_url, ["Аня", "Борис", "Вера"])
    open_round(page)
    open_dictation(page)
    page.locator("#say").fill("Аня вышла на тузе пик. У Бори две дамы. Гоша: король. У Веры семёрка.")
    result = page.locator("#say-result")
    expect(result).to_contain_text("У игрока Борис дамы (2): каких мастей?")
    expect(result).to_contain_text("«Гоша» — такого игрока за столом нет. Чьи карты К?")
    expect(page.locator(".panel[data-panel=p1] label.ask")).to_have_count(4)  # every free queen, marked
    expect(page.locator("input[name^=hand-][value^=K]:checked")).to_have_count(0)  # Гоша's king: nobody's
    page.get_by_role("button", name="Сохранить как сказано").click()
    expect(page.locator(".say .error")).to_contain_text("Пока не сохранено")
    assert page.url.endswith("/round")
    # the table answers in the grid, then one tap saves
    page.locator(".tab", has_text="Борис").click()
    page.locator(".panel.active input[value='QH'] + span").click()
    page.locator(".panel.active input[value='QC'] + span").click()
    page.get_by_role("button", name="Сохранить как сказано").click()
    page.wait_for_url(SAVED)
    expect(total(page, "Борис")).to_have_text("60")  # a queens-only hand with the queen of hearts: 40 + 20


def test_the_dictation_block_is_one_line_until_used(new_page: Any, base_url: str) -> None:
    page = new_page()
    start_series(page, base_url, ["Аня", "Борис", "Вера", "Глеб"])
    open_round(page)
    block = page.locator("#say-block")
    assert block.bounding_box()["height"] <= 50
    expect(page.locator("#say")).to_be_hidden()
    expect(page.get_by_text("микрофоном клавиатуры")).to_be_hidden()  # the help is behind a tap
    open_dictation(page)
    expect(page.get_by_text("микрофоном клавиатуры")).to_be_hidden()
    page.locator(".say-help > summary").click()
    expect(page.get_by_text("микрофоном клавиатуры")).to_be_visible()


def test_without_javascript_fill_the_grid_posts_the_form(browser: Any, base_url: str) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="ru-RU", java_script_enabled=False, service_workers="block"
    )
    try:
        page = context.new_page()
        start_series(page, base_url, ["Аня", "Борис"])
        open_round(page)
        open_dictation(page)
        page.locator("#say").fill("аня вышла на тузе пик у бориса король червей и дама")
        page.get_by_role("button", name="Заполнить сетку").click()
        expect(page.locator("input[name=finishing_card][value=AS]")).to_be_checked()
        expect(page.locator("input[name=hand-1][value=KH]")).to_be_checked()
        page.get_by_role("button", name="Сохранить как сказано").click()
        page.wait_for_url(SAVED)
        expect(total(page, "Борис")).to_have_text("7")
    finally:
        context.close()
