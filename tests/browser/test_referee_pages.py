"""A phone at the table settles a dispute: the FAQ's search as you type, and the play checker by taps.

Both checks make sure htmx did the work: a marker set on `window` before typing
or tapping would be gone after a full page load.
"""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect


def mark(page: Any) -> None:
    page.evaluate("window.__stillHere = true")


def same_document(page: Any) -> bool:
    return bool(page.evaluate("window.__stillHere === true"))


def test_faq_finds_a_question_with_a_typo_as_you_type(new_page: Any, base_url: str) -> None:
    page = new_page()
    page.goto(base_url + "/faq")
    box = page.locator("#faq-q")
    expect(box).to_be_focused()  # autofocus
    assert box.get_attribute("inputmode") == "search"
    mark(page)
    box.press_sequentially("можно ли дамой отбить семерку", delay=15)
    first = page.locator("#faq-results .faq-item").first
    expect(first).to_have_attribute("href", re.compile(r"^/faq/queen-cancels-penalty"))
    expect(first.locator(".verdict-line")).to_have_text("Нет.")
    assert same_document(page)
    expect(page).to_have_url(re.compile(r"/faq\?q="))  # the address is the shareable page

    box.fill("")
    box.press_sequentially("пиковый каороль в руке", delay=15)  # a typo: «каороль»
    expect(first).to_have_attribute("href", re.compile(r"^/faq/spade-king-in-hand"))
    assert same_document(page)

    # the address shown is the same page rendered by the server
    page.goto(page.url)
    expect(page.locator("#faq-results .faq-item").first).to_have_attribute(
        "href", re.compile(r"^/faq/spade-king-in-hand")
    )


def test_referee_verdict_after_tapping_two_cards(new_page: Any, base_url: str) -> None:
    page = new_page()
    page.goto(base_url + "/referee")
    expect(page.locator(".prompt")).to_contain_text("верхней карты")
    mark(page)
    page.locator("input[name=top][aria-label='девятка червей'] + span").click()
    expect(page.locator(".prompt")).to_contain_text("карты, которую")
    page.locator("input[name=card][aria-label='семёрка червей'] + span").click()
    verdict = page.locator("#verdict .verdict")
    expect(verdict).to_have_class(re.compile(r"\blegal\b"))
    expect(verdict).to_contain_text("Да, так можно")
    expect(verdict).to_contain_text("берёт 2 карты")
    expect(verdict.locator(".why a")).to_have_attribute("href", re.compile(r"^/faq/seven"))
    expect(verdict.locator(".cite a")).to_have_attribute("href", "/rules/igrafan#rule-seven")  # the row applied

    page.locator("input[name=card][aria-label='семёрка бубен'] + span").click()
    expect(verdict).to_have_class(re.compile(r"\billegal\b"))
    expect(verdict).to_contain_text("Нет, так нельзя")

    # after a queen the named suit is asked for, and decides
    page.locator("input[name=top][aria-label='дама червей'] + span").click()
    expect(page.locator(".prompt")).to_contain_text("Какую масть")
    page.locator("#referee-suit input[value=D] + span").click()
    expect(verdict).to_contain_text("Да, так можно")
    page.locator("#referee-suit input[value=S] + span").click()
    expect(verdict).to_contain_text("Нет, так нельзя")

    # two players: a seven lets the same player go again
    page.locator("#referee-players input[value='2'] + span").click()
    page.locator("#referee-suit input[value=D] + span").click()
    expect(verdict).to_contain_text("Да, так можно")
    assert same_document(page)
    expect(page).to_have_url(re.compile(r"players=2"))
    box = page.locator("label.c").first.bounding_box()
    assert box and box["height"] >= 44 and box["width"] >= 44  # a fingertip, even with two grids side by side
