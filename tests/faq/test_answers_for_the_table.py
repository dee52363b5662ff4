"""The FAQ answers for the rules of the table asking (issue 23): a preset, or a series' own rules
with its house options, through the API and the pages; citations a player can open."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.core.rules import RULESETS
from companion.faq import entries as faq
from companion.faq.sources import source_name


def house_series(client: FlaskClient, ruleset: str = "igrafan", **options: Any) -> str:
    body = {"players": ["Аня", "Борис", "Вера"], "ruleset": ruleset, "starter": "Аня", "options": options}
    created = client.post("/api/v1/series", json=body)
    assert created.status_code == 201, created.get_json()
    series_id: str = created.get_json()["id"]
    return series_id


def test_one_entry_for_a_preset_is_that_presets_answer(client: FlaskClient) -> None:
    """The issue's first finding: `?ruleset=` was ignored and the default text returned."""
    body = client.get("/api/v1/faq/six?ruleset=classic").get_json()
    assert body["rules"] == {"ruleset": "classic", "options": {}}
    assert body["ru"]["verdict"].startswith("Следующий берёт 1 карту")
    assert body["en"]["verdict"].startswith("The next player draws 1 card")
    assert not body["en"]["verdict"].startswith("Cover it yourself")
    assert body["url"] == "/faq/six?ruleset=classic"
    assert body["rule_card"]["url"] == "/rules/classic#rule-six" and body["rule_card"]["text"]


def test_one_entry_for_a_series_follows_its_house_options(client: FlaskClient) -> None:
    """igrafan with the six making the next player draw one is not told «Кройте её сами»."""
    series_id = house_series(client, six="next-draws-1")
    body = client.get(f"/api/v1/faq/six?series={series_id}&lang=en").get_json()
    assert body["rules"] == {"ruleset": "igrafan", "options": {"six": "next-draws-1"}, "series": series_id}
    assert "Кройте её сами" not in body["ru"]["verdict"] and "Следующий берёт 1 карту" in body["ru"]["verdict"]
    assert body["url"] == f"/faq/six?series={series_id}"
    assert body["rule_card"]["url"] == f"/rules/igrafan?series={series_id}#rule-six"
    assert "draws 1" in body["rule_card"]["text"]


@pytest.mark.parametrize(("query", "status", "says"), [
    ({"series": "nope"}, 404, "nope"),
    ({"ruleset": "nope"}, 422, "nope"),
    ({"series": "x", "ruleset": "classic"}, 400, "series"),
])
def test_bad_rules_are_named(client: FlaskClient, query: dict[str, str], status: int, says: str) -> None:
    for url in ("/api/v1/faq/six", "/api/v1/faq"):
        response = client.get(url, query_string={**query, "lang": "en"})
        assert response.status_code == status
        assert says in response.get_json()["error"]["message"]


def test_search_for_a_series_answers_for_its_rules(client: FlaskClient) -> None:
    series_id = house_series(client, "igrafan", penalty_transfer=True)
    body = client.get("/api/v1/faq", query_string={"q": "можно перевести семёрку", "series": series_id}).get_json()
    found = next(r for r in body["results"] if r["slug"] == "penalty-transfer")
    assert found["answer"].startswith("Да: семёрку переводят своей семёркой")
    assert found["url"] == f"/faq/penalty-transfer?series={series_id}"
    plain = client.get("/api/v1/faq", query_string={"q": "можно перевести семёрку"}).get_json()
    assert next(r for r in plain["results"] if r["slug"] == "penalty-transfer")["answer"].startswith("Нет")


def test_the_faq_opened_from_a_series_is_headed_with_its_rules(client: FlaskClient) -> None:
    series_id = house_series(client, "igrafan", six="next-draws-1")
    series_page = client.get(f"/series/{series_id}?lang=ru").get_data(as_text=True)
    assert f'href="/faq?series={series_id}"' in series_page
    page = html.unescape(client.get(f"/faq?series={series_id}&lang=ru").get_data(as_text=True))
    assert "Ответы для этого стола: Аня, Борис, Вера" in page
    assert "Домашние правила: Шестёрка сыграна" in page or "Домашние правила:" in page
    assert f'href="/faq/six?series={series_id}"' in page
    assert f'name="series" value="{series_id}"' in page  # the search box keeps the table's rules
    entry_page = html.unescape(client.get(f"/faq/six?series={series_id}&lang=ru").get_data(as_text=True))
    body = entry_page[entry_page.index("<main"):]
    assert "Следующий берёт 1 карту" in body and "Кройте её сами" not in body
    assert "Ответ для этого стола: Аня, Борис, Вера" in body
    found = client.get(f"/faq?series={series_id}&q=шестёрка&lang=ru").get_data(as_text=True)
    assert f'/faq/six?series={series_id}' in found


@pytest.mark.parametrize("entry", faq.all_entries(), ids=lambda e: e.slug)
def test_every_answer_shows_its_rule_card_row_or_its_decision_and_its_sources_in_words(
        client: FlaskClient, entry: faq.FaqEntry) -> None:
    page = html.unescape(client.get(f"/faq/{entry.slug}?lang=en").get_data(as_text=True))
    text = entry.text("en")
    if entry.cites:
        link = re.search(r'<p class="cite"><a href="(/rules/igrafan#rule-[a-z-]+)">The rule: ([^<]+)</a> — (.+)</p>',
                         page)
        assert link, entry.slug
    else:
        assert f"the app's decision: {text.decision}" in page
    for source in entry.sources:  # by name in words, with what it says on the point
        assert f"<b>{source_name(source)}</b>: {text.source_lines[source]}" in page
    assert "seed 0" not in page and "документ 0" not in page


def test_the_checker_shows_the_rule_card_row_it_applied(client: FlaskClient) -> None:
    asked = client.get("/referee?lang=en&ruleset=classic&top=9H&card=6H&players=3")
    page = html.unescape(asked.get_data(as_text=True))
    assert '<p class="cite"><a href="/rules/classic#rule-six">The rule applied: 6</a> — ' in page
    series_id = house_series(client, "igrafan", six="next-draws-2")
    page = html.unescape(client.get(f"/referee?lang=en&series={series_id}&top=9H&card=6H").get_data(as_text=True))
    assert f'href="/rules/igrafan?series={series_id}#rule-six"' in page and "draws 2 cards" in page


def test_the_rule_card_shows_the_tables_house_rules_first(client: FlaskClient) -> None:
    series_id = house_series(client, "classic", ten_reverses=True)
    page = html.unescape(client.get(f"/rules/classic?series={series_id}&lang=ru").get_data(as_text=True))
    house = page.index("Домашние правила этого стола")
    assert house < page.index('id="rule-six"')
    assert "Десятка" in page[house:page.index('id="rule-six"')] or "десятка" in page[house:page.index('id="rule-six"')]
    assert f'href="/faq?series={series_id}"' in page  # «Вопросы» for this table's rules


def test_a_preset_and_the_same_rules_as_house_options_get_the_same_answer() -> None:
    """No preset's name decides a verdict: igrafan set up like elvista answers like elvista."""
    elvista = RULESETS["elvista"].defaults
    changes = elvista.changes_from(RULESETS["igrafan"].defaults)
    like = RULESETS["igrafan"].with_options(changes)
    for entry in faq.all_entries():
        for lang in faq.LANGS:
            assert entry.text(lang, like).full_answer() == entry.text(lang, "elvista").full_answer(), entry.slug
