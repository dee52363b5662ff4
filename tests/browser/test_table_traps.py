"""No dead ends at the table (issue 10), each at 390×844: a winner whose hand is still ticked, refused forms,
«Пересдача», undo, the share page, the house-rules form, the winner's tab, colours, arrows and cell sizes."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.test_scorekeeper import start_series, start_series_by_form, tap_round, total

PHONE = {"width": 390, "height": 844}


def open_round(page: Any) -> None:
    page.get_by_role("link", name=re.compile(r"Записать раунд")).first.click()
    page.wait_for_url(re.compile(r"/round$"))


def card(page: Any, name: str) -> Any:
    return page.locator(f".panel.active input[aria-label='{name}'] + span")


def no_js_page(browser: Any) -> tuple[Any, Any]:
    context = browser.new_context(viewport=PHONE, locale="ru-RU", java_script_enabled=False, service_workers="block")
    context.set_default_timeout(8000)
    return context, context.new_page()


def test_picking_as_winner_a_player_with_ticked_cards_offers_to_clear_them(new_page: Any, base_url: str) -> None:
    page = new_page()
    start_series(page, base_url, ["Аня", "Борис"])
    open_round(page)
    card(page, "туз пик").click()  # Аня's tab is open first: cards ticked for her by mistake
    card(page, "король червей").click()
    page.locator("label.pill", has_text="Аня").click()
    offer = page.locator(".clear-hand[data-clear='0']")
    expect(offer).to_be_visible()
    expect(page.locator("[data-panel=finish]")).to_be_visible()  # the winner's tab: the finishing card grid
    offer.get_by_role("button").click()
    expect(offer).to_be_hidden()
    assert page.locator("input[name=hand-0]:checked").count() == 0
    # the winner's tab then shows the finishing card once it is tapped
    card(page, "дама червей").click()
    expect(page.locator(".tab", has_text="Аня")).to_contain_text("Д♥")
    expect(page.locator(".tab", has_text="Аня")).to_contain_text("−40")


def test_clearing_the_winners_hand_without_javascript(browser: Any, base_url: str) -> None:
    context, page = no_js_page(browser)
    try:
        start_series(page, base_url, ["Аня", "Борис"])
        open_round(page)
        page.locator("input[name=hand-0][value=AS] + span").click()
        page.locator("label.pill", has_text="Аня").click()
        page.get_by_role("button", name="Сохранить раунд").click()  # refused: the winner has cards
        offer = page.locator(".clear-hand[data-clear='0']")
        expect(offer).to_be_visible()
        offer.get_by_role("button").click()
        assert page.locator("input[name=hand-0]:checked").count() == 0
        expect(page.locator("input[name=winner][value='0']")).to_be_checked()
    finally:
        context.close()


def refuse_pharaoh_for_three(page: Any, base_url: str) -> None:
    page.goto(base_url + "/")
    names = page.locator("input[name=name]")
    for i, name in enumerate(["Аня", "Борис", "Вера"]):
        names.nth(i).fill(name)
    page.locator("input[name=ruleset][value=pharaoh]").check()
    page.get_by_role("button", name="Начать партию", exact=True).last.click()


def test_a_refused_start_page_shows_and_focuses_its_first_error(new_page: Any, browser: Any, base_url: str) -> None:
    page = new_page()
    refuse_pharaoh_for_three(page, base_url)
    error = page.locator("#names-error")
    expect(error).to_be_visible()
    expect(error).to_be_in_viewport()
    expect(error).to_contain_text("ровно 2")
    assert "pharaoh" not in error.inner_text() and "от 2 до 2" not in error.inner_text()
    assert page.evaluate("document.activeElement.name") == "name"
    # names that differ only by case: the second one is focused
    names = page.locator("input[name=name]")
    page.locator("input[name=ruleset][value=igrafan]").check()
    names.nth(2).fill("аня")
    page.get_by_role("button", name="Начать партию", exact=True).last.click()
    expect(page.locator("#names-error")).to_be_in_viewport()
    expect(page.locator("input[name=name]").nth(2)).to_be_focused()
    # without JavaScript too
    context, plain = no_js_page(browser)
    try:
        refuse_pharaoh_for_three(plain, base_url)
        expect(plain.locator("#names-error")).to_be_in_viewport()
        assert plain.evaluate("document.activeElement.name") == "name"
    finally:
        context.close()


def test_a_refused_round_lists_each_problem_once_and_focuses_it(new_page: Any, base_url: str) -> None:
    page = new_page()
    start_series(page, base_url, ["Аня", "Борис"])
    open_round(page)
    page.locator("label.pill", has_text="Аня").click()
    page.get_by_role("button", name="Сохранить раунд").click()  # no finishing card, no hand for Борис
    first = page.locator("[data-first-error]")
    expect(first).to_be_in_viewport()
    problems = page.locator("#preview .problems li").all_inner_texts()
    assert problems and len(problems) == len(set(problems))
    assert not any("finishing_card" in p or "«" in p and "»" in p and "_" in p for p in problems)


@pytest.mark.slow  # a whole game walk of several seconds: outside the fast lane
def test_redeal_asks_before_throwing_away_tapped_cards(new_page: Any, base_url: str) -> None:
    page = new_page()
    start_series(page, base_url, ["Аня", "Борис"])
    open_round(page)
    card(page, "туз пик").click()
    page.get_by_role("button", name="Пересдача").click()
    expect(page.locator(".confirm")).to_be_visible()
    expect(page.locator("input[name=hand-0][value=AS]")).to_be_checked()  # nothing lost
    page.get_by_role("button", name="Оставить карты").click()
    expect(page.locator(".confirm")).to_have_count(0)
    expect(page.locator("input[name=hand-0][value=AS]")).to_be_checked()
    page.get_by_role("button", name="Пересдача").click()
    page.get_by_role("button", name="Всё равно пересдать").click()
    page.wait_for_url(re.compile(r"/series/[\w-]+(\?saved=\d+)?$"))
    expect(page.locator(".rounds")).to_contain_text("Пересдача")


@pytest.mark.slow
def test_a_just_saved_round_can_be_undone_in_one_tap_away_from_the_save_button(new_page: Any, base_url: str) -> None:
    page = new_page()
    page.clock.install()  # the page's timers, run at their pace until fast-forwarded below
    start_series(page, base_url, ["Аня", "Борис"])
    open_round(page)
    save_box = page.get_by_role("button", name="Сохранить раунд").bounding_box()
    page.goto(page.url.rsplit("/round", 1)[0])
    tap_round(page, "Аня", "дама червей", {"Борис": ["туз пик"]})
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    undo = page.get_by_role("button", name="Отменить раунд 1")
    expect(page.locator("form.undo.just-saved")).to_have_count(1)
    box = undo.bounding_box()
    assert box["y"] + box["height"] < save_box["y"] - 100  # nowhere near where «Сохранить раунд» was
    undo.click()  # one tap: no question asked right after saving
    expect(page.locator(".rounds")).to_have_count(0)
    expect(total(page, "Аня")).to_have_text("0")
    assert dialogs == []
    # a few seconds later the undo asks first again
    tap_round(page, "Аня", "дама червей", {"Борис": ["туз пик"]})
    expect(page.locator("form.undo.just-saved[data-timer]")).to_have_count(1)  # the window's timer is armed
    page.clock.fast_forward(12_000)  # the one-tap window (data-one-tap, 12 s) without waiting for it
    expect(page.locator("form.undo")).to_have_attribute("hx-confirm", re.compile("Отменить раунд 1"))
    expect(page.locator("form.undo.just-saved")).to_have_count(0)
    page.get_by_role("button", name="Отменить раунд 1").click()
    expect(page.locator(".rounds tbody tr").first).to_be_visible()  # dismissed: nothing undone
    assert len(dialogs) == 1


def test_share_page_shows_the_series_as_it_stands(new_page: Any, base_url: str) -> None:
    page = new_page()
    series_id = start_series_by_form(page, base_url, ["Аня", "Борис"])
    expect(page.locator("h1")).to_have_text("Партия создана")
    page.goto(f"{base_url}/series/{series_id}")
    tap_round(page, "Аня", "туз пик", {"Борис": ["король червей"]})
    page.goto(f"{base_url}/series/{series_id}/share")
    expect(page.locator(".big-note").first).to_contain_text("Раунд 2")
    expect(page.get_by_role("link", name="Записать раунд 2")).to_be_visible()


def test_house_rules_show_the_chosen_presets_values(new_page: Any, base_url: str) -> None:
    page = new_page()
    page.goto(base_url + "/")
    page.locator("details.house summary").click()
    resets = page.locator("input[name=opt-resets]")
    expect(resets).to_have_attribute("placeholder", "101 → 0")
    page.locator("input[name=ruleset][value=elimination]").check()
    expect(resets).to_have_attribute("placeholder", "100 → 0")
    expect(page.locator("input[name=opt-loss_above]")).to_have_attribute("placeholder", "101")
    page.locator("input[name=ruleset][value=pharaoh]").check()
    expect(page.locator("input[name=opt-loss_above]")).to_have_attribute("placeholder", "99")


@pytest.mark.slow
def test_colours_arrows_and_card_cells(new_page: Any, base_url: str) -> None:
    page = new_page()
    start_series(page, base_url, ["Аня", "Борис"])
    open_round(page)
    red = "getComputedStyle(document.querySelector(\"input[name='hand-0'][value='{}'] + span\")).color"
    plain_red = page.evaluate(red.format("KH"))
    card(page, "туз червей").click()
    assert page.evaluate(red.format("AH")) == plain_red  # a chosen card keeps its suit colour
    for url in (page.url, base_url + "/referee"):
        page.goto(url)
        boxes = [b for b in (c.bounding_box() for c in page.locator(".cards .c span").all()) if b]
        assert boxes and min(b["width"] for b in boxes) >= 44
        row = sorted((b for b in boxes if abs(b["y"] - boxes[0]["y"]) < 1), key=lambda b: b["x"])
        gaps = [b2["x"] - (b1["x"] + b1["width"]) for b1, b2 in zip(row, row[1:], strict=False)]
        assert min(gaps) >= 2  # a gap between cells
    page.goto(base_url + "/")
    arrow = page.evaluate("getComputedStyle(document.querySelector('details.house summary'), '::before').width")
    assert arrow not in ("auto", "0px")
