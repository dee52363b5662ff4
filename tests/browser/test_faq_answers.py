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
