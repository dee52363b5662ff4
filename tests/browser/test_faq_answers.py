"""Issue 12 on the phone: Russian typed in Latin letters, an honest "no answer", and the cited rule."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect


def test_transliterated_question_finds_its_entry_and_marks_words(new_page: Any, base_url: str) -> None:
    """The search reads Latin letters as they are (issue 20): no «Показаны ответы для», the words marked."""
    page = new_page()
    page.goto(base_url + "/faq")
    page.locator("#faq-q").press_sequentially("mozhno li damoi pobit semerku", delay=10)
    results = page.locator("#faq-results")
    first = results.locator(".faq-item").first
    expect(first).to_have_attribute("href", re.compile(r"^/faq/queen-cancels-penalty"))
    expect(first.locator("mark").first).to_be_visible()


def test_off_topic_question_gets_no_answer_and_maybe(new_page: Any, base_url: str) -> None:
    page = new_page()
    page.goto(base_url + "/faq")
    page.locator("#faq-q").press_sequentially("сколько стоит билет в кино", delay=10)
    results = page.locator("#faq-results")
    expect(results.locator(".no-answer")).to_contain_text("В FAQ нет ответа")
    expect(results.locator("ul.maybe .faq-item")).to_have_count(3)


def test_entry_cites_the_rule_card_row_of_its_rule_set(new_page: Any, base_url: str) -> None:
    page = new_page()
    page.goto(base_url + "/faq/seven?ruleset=elimination")
    expect(page.locator(".answer-for")).to_contain_text("«На вылет»")
    page.locator(".cite a").click()
    expect(page).to_have_url(re.compile(r"/rules/elimination#rule-seven$"))
    expect(page.locator("#rule-seven")).to_be_visible()


def test_a_series_with_house_options_gets_its_own_answer_and_row(new_page: Any, base_url: str) -> None:
    """Issue 23: igrafan with the six making the next player draw one, asked from the series page."""
    page = new_page()
    created = page.request.post(base_url + "/api/v1/series", data={
        "players": ["Аня", "Борис", "Вера"], "starter": "Аня", "options": {"six": "next-draws-1"}}).json()
    page.goto(f"{base_url}/series/{created['id']}")
    page.locator("header nav a", has_text="Вопросы").click()
    expect(page.locator("div.rs-note")).to_contain_text("Ответы для этого стола: Аня, Борис, Вера")
    six = page.locator("#faq-results .faq-item[href^='/faq/six?']")
    expect(six).to_contain_text("Следующий берёт 1 карту")  # the list answers for the table too
    six.click()
    expect(page).to_have_url(re.compile(rf"/faq/six\?series={created['id']}$"))
    expect(page.locator(".verdict-big")).to_contain_text("Следующий берёт 1 карту")
    expect(page.locator(".answer-for")).to_contain_text("Домашние правила:")
    page.locator(".cite a").click()
    expect(page).to_have_url(re.compile(rf"/rules/igrafan\?series={created['id']}#rule-six$"))
    expect(page.locator("#rule-house-rules h2")).to_have_text("Домашние правила этого стола")
    expect(page.locator("#rule-six")).to_contain_text("берёт 1")
