"""The referee's pages without JavaScript: FAQ search, entry permalinks, rule cards, the play checker."""

from __future__ import annotations

import html
import re

import pytest
from flask.testing import FlaskClient

from companion.core.cards import Card, Rank, Suit
from companion.core.rules import RULESETS
from companion.core.scoring import card_points
from companion.faq import entries as faq
from companion.faq import search as faq_search
from companion.faq.sources import source_name

PAGES = ["/faq", "/faq?q=дама", "/faq/queen-wild", "/faq/queen-wild?ruleset=pharaoh", "/rules", "/rules/igrafan",
         "/rules/elimination", "/referee", "/referee?top=9H&card=7H"]
HX = {"HX-Request": "true"}


def text_of(fragment: str) -> str:
    """Visible text: tags dropped, entities decoded, spaces squeezed."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", fragment))).strip()


def element(page: str, element_id: str) -> str:
    """The markup of the element with this id, up to its closing tag (elements are not nested in the same tag)."""
    m = re.search(rf'<(\w+)[^>]*\bid="{re.escape(element_id)}"[^>]*>(.*?)</\1>', page, flags=re.S)
    assert m, f"no element #{element_id}"
    return m.group(2)


def verdict_of(page: str) -> str:
    """The markup of the verdict area (it holds nested elements, so: up to the end of <main>)."""
    return page[page.index('id="verdict"'):page.index("</main>")]


def result_slugs(page: str) -> list[str]:
    return re.findall(r'class="faq-item" href="/faq/([a-z0-9-]+)', page)


@pytest.mark.parametrize("url", PAGES)
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_page_answers_in_both_languages(client: FlaskClient, url: str, lang: str) -> None:
    response = client.get(url, headers={"Accept-Language": lang})
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert f'<html lang="{lang}">' in page
    assert "app.css" in page
    assert "HX-Request" in response.headers["Vary"]


def test_russian_is_the_default_and_english_is_english(client: FlaskClient) -> None:
    ru = client.get("/referee").get_data(as_text=True)
    en = client.get("/referee?lang=en").get_data(as_text=True)
    assert "Верхняя карта" in ru and "Top card" not in ru
    assert "Top card" in en and "Верхняя карта" not in en


@pytest.mark.parametrize("q, slug", [
    ("можно ли дамой отбить семерку", "queen-cancels-penalty"),
    ("можно ли дамой отбить семёрку", "queen-cancels-penalty"),
    ("сколько стоит пиковый король в руке", "spade-king-in-hand"),
    ("can a queen cancel a seven", "queen-cancels-penalty"),
    ("дама на любую карту", "queen-wild"),
])
def test_search_without_javascript_shows_the_right_entry_first(client: FlaskClient, q: str, slug: str) -> None:
    response = client.get("/faq", query_string={"q": q})
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "<html" in page and f'value="{html.escape(q)}"' in page  # the whole page, the query in the box
    assert result_slugs(page)[0] == slug
    assert result_slugs(page)[0] == faq_search.search(q)[0].slug  # the engine the API uses


def test_search_box_is_an_active_search(client: FlaskClient) -> None:
    page = client.get("/faq").get_data(as_text=True)
    box = re.search(r'<input id="faq-q"[^>]*>', page, flags=re.S)
    assert box
    for attribute in ('autofocus', 'inputmode="search"', 'name="q"', 'hx-get="/faq"',
                      'hx-trigger="input changed delay:200ms', 'hx-target="#faq-results"'):
        assert attribute in box.group(0)


def test_verdict_comes_before_the_question(client: FlaskClient) -> None:
    page = client.get("/faq", query_string={"q": "can a queen cancel a seven", "lang": "en"}).get_data(as_text=True)
    first = re.search(r'<a class="faq-item".*?</a>', page, flags=re.S)
    assert first
    entry = faq.get_entry("queen-cancels-penalty")
    assert entry
    item = re.sub(r"</?mark>", "", first.group(0))  # matched words are highlighted
    assert item.index(html.escape(entry.en.verdict)) < item.index(html.escape(entry.en.question, quote=False))


def test_htmx_request_gets_only_the_results(client: FlaskClient) -> None:
    response = client.get("/faq?q=%D0%B4%D0%B0%D0%BC%D0%BE%D0%B9+%D0%BE%D1%82%D0%B1%D0%B8%D1%82%D1%8C+7", headers=HX)
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "<html" not in page and "<header" not in page and 'id="faq-q"' not in page
    assert result_slugs(page)[0] == "queen-cancels-penalty"
    assert "HX-Request" in response.headers["Vary"]


def test_boosted_navigation_and_history_restore_get_the_whole_page(client: FlaskClient) -> None:
    for extra in ({"HX-Boosted": "true"}, {"HX-History-Restore-Request": "true"}):
        page = client.get("/faq?q=seven", headers={**HX, **extra}).get_data(as_text=True)
        assert "<html" in page and 'id="faq-q"' in page


def test_without_a_query_every_entry_is_listed_once_in_groups(client: FlaskClient) -> None:
    page = client.get("/faq?lang=en").get_data(as_text=True)
    slugs = result_slugs(page)
    assert sorted(slugs) == sorted(e.slug for e in faq.all_entries())
    assert page.count("<h2>") >= 5 and "Queens" in page


def test_nothing_found_says_so(client: FlaskClient) -> None:
    page = client.get("/faq?q=zzqqxx&lang=en").get_data(as_text=True)
    assert "has no answer" in page and not result_slugs(page)  # issue 12: a plain "no answer"


def test_ruleset_adapts_the_answers(client: FlaskClient) -> None:
    entry = faq.get_entry("queen-cancels-penalty")
    assert entry
    note = entry.en.by_ruleset["elimination"]
    listed = client.get("/faq", query_string={"q": "queen cancel seven", "ruleset": "elimination", "lang": "en"})
    page = listed.get_data(as_text=True)
    assert html.escape(note, quote=False) in page or note in html.unescape(page)
    assert "/faq/queen-cancels-penalty?ruleset=elimination" in page
    plain = client.get("/faq", query_string={"q": "queen cancel seven", "lang": "en"}).get_data(as_text=True)
    assert note not in html.unescape(plain)
    # an unknown rule set is ignored, not an error
    assert client.get("/faq?q=seven&ruleset=nope").status_code == 200


def test_entry_page_verdict_first_then_explanation_notes_sources_related_qr(client: FlaskClient) -> None:
    entry = faq.get_entry("queen-cancels-penalty")
    assert entry
    response = client.get("/faq/queen-cancels-penalty?lang=en&ruleset=elvista")
    page = html.unescape(response.get_data(as_text=True))
    assert response.status_code == 200
    body = page[page.index("<main"):]
    text = entry.text("en", "elvista")  # the answer's numbers filled from the set in force (issue 8)
    assert body.index(text.verdict) < body.index(text.question) < body.index(text.answer.split("\n\n")[0])
    assert text.by_ruleset["elvista"] in page and text.by_ruleset["elimination"] in page
    assert "draw 4 cards" in text.answer  # elvista's king of spades
    assert "in force" in page
    for source in entry.sources:  # issue 12: sources by name in words, never a file number
        assert source_name(source) in page
    assert "seed 0" not in page
    for slug in entry.related:
        assert f'href="/faq/{slug}?ruleset=elvista"' in page
    assert "<svg" in page and "http://localhost/faq/queen-cancels-penalty" in page


def test_language_switch_keeps_the_slug(client: FlaskClient) -> None:
    page = client.get("/faq/six").get_data(as_text=True)
    assert 'href="/faq/six?lang=en"' in page


@pytest.mark.parametrize("url", ["/faq/no-such-entry", "/rules/no-such-set"])
def test_unknown_slug_or_rule_set_is_a_404_page(client: FlaskClient, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 404 and response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    assert '<html lang="ru">' in page and "Здесь ничего нет" in page


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_rule_card_numbers_come_from_the_rule_set(client: FlaskClient, ruleset_id: str) -> None:
    rs = RULESETS[ruleset_id]
    opt = rs.defaults
    page = client.get(f"/rules/{ruleset_id}?lang=en").get_data(as_text=True)

    def numbers(element_id: str) -> list[int]:
        return [int(n) for n in re.findall(r"\d+", text_of(element(page, element_id)))]

    assert numbers("rule-spade-king") == [rs.defaults.spade_king_draw]
    assert numbers("rule-seven") == [7, rs.defaults.seven_draw]
    assert numbers("rule-hand-size") == [rs.defaults.hand_size]
    assert numbers("rule-deck") == [opt.deck]
    assert numbers("rule-queen-finish") == [opt.queen_finish_points, opt.queen_finish_special_points]
    assert numbers("rule-resets") == [n for pair in opt.resets for n in pair]
    assert str(opt.loss_above) in text_of(element(page, "rule-loss"))
    six = text_of(element(page, "rule-six"))
    assert ("cover" in six) == (rs.defaults.six.value == "self-cover")
    assert ("reverses" in text_of(element(page, "rule-ten")).lower()) == rs.defaults.ten_reverses
    points = element(page, "rule-points")
    values = [int(v) for v in re.findall(r"<td>(\d+)</td>", points)]
    assert card_points(Card(Rank.NINE, Suit.HEARTS), opt) in values
    assert values[-2] == card_points(Card(Rank.KING, Suit.SPADES), opt)  # K♠ sits before the ace
    assert values[-1] == card_points(Card(Rank.ACE, Suit.HEARTS), opt)


def test_rule_card_is_in_russian_with_russian_ranks(client: FlaskClient) -> None:
    page = client.get("/rules/igrafan?lang=ru").get_data(as_text=True)
    spade_king = text_of(element(page, "rule-spade-king"))
    assert spade_king.startswith("К♠") and "5 карт" in spade_king
    assert "Каждому сдают по 5 карт." in text_of(element(page, "rule-hand-size"))


def test_comparison_table_has_every_set_and_their_numbers(client: FlaskClient) -> None:
    page = client.get("/rules?lang=en").get_data(as_text=True)
    for rs in RULESETS.values():
        assert f'href="/rules/{rs.id}"' in page
    row = re.search(r'<tr id="compare-spade-king">(.*?)</tr>', page, flags=re.S)
    assert row
    cells = re.findall(r"<td>(.*?)</td>", row.group(1))
    expected = [rs.defaults.spade_king_draw for rs in RULESETS.values()]
    assert [int(re.search(r"\d+", c).group(0)) for c in cells] == expected


def test_referee_page_has_radio_card_grids_with_names(client: FlaskClient) -> None:
    page = client.get("/referee?lang=ru").get_data(as_text=True)
    assert page.count('type="radio" name="top"') == 36 and page.count('type="radio" name="card"') == 36
    assert 'aria-label="дама червей"' in page
    assert 'name="suit"' not in page  # the ordered suit is asked only after a queen
    assert 'hx-get="/referee"' in page and 'hx-target="#verdict"' in page


def test_referee_post_without_javascript_shows_the_verdict(client: FlaskClient) -> None:
    form = {"ruleset": "igrafan", "players": "3", "top": "9H", "card": "7H"}
    response = client.post("/referee?lang=en", data=form)
    assert response.status_code == 303
    assert "top=9H" in response.headers["Location"] and "card=7H" in response.headers["Location"]
    page = client.post("/referee?lang=en", data=form, follow_redirects=True).get_data(as_text=True)
    verdict = text_of(verdict_of(page))
    assert "Yes, it may be played" in verdict
    assert "matches" in verdict
    assert "draws 2 cards" in verdict
    assert "one is skipped" in verdict  # a seven with three players: the next one draws and skips
    assert 'href="/faq/seven?ruleset=igrafan"' in page


def test_referee_illegal_play_says_why(client: FlaskClient) -> None:
    page = client.get("/referee?lang=en&top=9H&card=7D").get_data(as_text=True)
    verdict = text_of(verdict_of(page))
    assert "No, it may not be played" in verdict and "same colour" in verdict
    assert "same-colour" in verdict_of(page)


def test_referee_in_russian_writes_cards_the_russian_way(client: FlaskClient) -> None:
    page = client.get("/referee?top=9H&card=QC&players=2").get_data(as_text=True)
    verdict = text_of(verdict_of(page))
    assert "Да, так можно" in verdict and "Д♣" in verdict and "Ходит соперник" in verdict


def test_referee_asks_for_the_suit_after_a_queen(client: FlaskClient) -> None:
    page = client.get("/referee?lang=en&top=QH&card=7S").get_data(as_text=True)
    assert 'name="suit"' in page and "Which suit was named" in page
    page = client.get("/referee?lang=en&top=QH&suit=S&card=7S").get_data(as_text=True)
    assert "Yes, it may be played" in text_of(verdict_of(page))
    page = client.get("/referee?lang=en&top=QH&suit=D&card=7S").get_data(as_text=True)
    assert "No, it may not be played" in text_of(verdict_of(page))


def test_referee_players_follow_the_rule_set(client: FlaskClient) -> None:
    page = client.get("/referee?ruleset=pharaoh&players=4&top=AH&card=7H&lang=en").get_data(as_text=True)
    assert re.findall(r'name="players" value="(\d+)"', page) == ["2"]
    assert "opponent" in text_of(verdict_of(page))


def test_referee_htmx_swaps_the_verdict_only(client: FlaskClient) -> None:
    response = client.get("/referee?lang=en&ruleset=elimination&players=4&top=QH&suit=H&card=10H", headers=HX)
    page = response.get_data(as_text=True)
    assert response.status_code == 200 and "HX-Request" in response.headers["Vary"]
    assert "<html" not in page and 'name="top"' not in page
    assert "Yes, it may be played" in page
    assert 'id="referee-players" class="players" hx-swap-oob="true"' in page
    assert re.findall(r'name="players" value="(\d+)"', page) == ["2", "3", "4", "5", "6"]
    assert 'id="referee-suit" hx-swap-oob="true"' in page and 'name="suit"' in page


def test_referee_ignores_garbage_and_prompts(client: FlaskClient) -> None:
    page = client.get("/referee?lang=en&top=ZZ&card=<b>&players=x&ruleset=%00").get_data(as_text=True)
    assert "Tap the top card" in page
    page = client.get("/referee?lang=en&top=9H&card=9H").get_data(as_text=True)
    assert "cannot be played on itself" in page


def test_from_a_series_the_referee_pages_open_on_its_rule_set(client: FlaskClient) -> None:
    created = client.post("/api/v1/series", json={"players": ["Аня", "Борис"], "ruleset": "classic"}).get_json()
    page = client.get(f"/series/{created['id']}").get_data(as_text=True)
    assert 'href="/faq?ruleset=classic"' in page
    # issue 8: the series' own rules (options, deck) go along as series=<id>
    assert f'href="/rules/classic?series={created["id"]}"' in page
    assert f'href="/referee?series={created["id"]}"' in page
    faq_page = client.get("/faq?ruleset=classic").get_data(as_text=True)
    assert 'href="/rules/classic"' in faq_page


def test_the_language_switch_keeps_the_question(client: FlaskClient) -> None:
    page = client.get("/faq", query_string={"q": "дама на семёрку"}).get_data(as_text=True)
    assert (
        'href="/faq?q=%D0%B4%D0%B0%D0%BC%D0%B0+%D0%BD%D0%B0+%D1%81%D0%B5%D0%BC%D1%91%D1%80%D0%BA%D1%83&amp;lang=en"'
        in page
    )


def test_referee_page_has_a_penalty_pending_switch(client: FlaskClient) -> None:
    """Issue 8 / RULES.md §7: right after 7♣ a queen does not cancel the penalty: never «Да»; with the
    switch on "already taken" the next player plays on the seven as on any card."""
    page = client.get("/referee?top=7C&card=QH&players=3").get_data(as_text=True)
    verdict = text_of(verdict_of(page))
    assert "Да, так можно" not in verdict and "сначала возьмите 2 и пропустите ход" in verdict
    assert 'name="pending" value="1" checked' in page
    page = client.get("/referee?top=KS&card=KH&players=3").get_data(as_text=True)
    assert "Да, так можно" not in text_of(verdict_of(page))
    page = client.get("/referee?top=7C&card=QH&players=3&pending=0&lang=en").get_data(as_text=True)
    assert "Yes, it may be played" in text_of(verdict_of(page))
    assert 'name="pending" value="0" checked' in page
    response = client.post("/referee", data={"top": "7C", "card": "QH", "players": "3", "pending": "0"})
    assert "pending=0" in response.headers["Location"]
    assert 'name="pending"' not in client.get("/referee?top=9C&card=QH").get_data(as_text=True)


def test_referee_and_rule_card_opened_from_a_series_use_its_options_and_deck(client: FlaskClient) -> None:
    """Issue 8: a 52-card table with house rules asks the referee about 2–5 and about 5–6 players, and
    its rule card shows its house rules."""
    created = client.post("/api/v1/series", json={
        "players": ["А", "Б", "В", "Г", "Д"], "ruleset": "igrafan",
        "options": {"deck": 52, "spade_king_draw": 4, "ace_answer": True}}).get_json()
    sid = created["id"]
    page = client.get(f"/referee?series={sid}&lang=en").get_data(as_text=True)
    assert page.count('type="radio" name="top"') == 52
    assert re.findall(r'name="players" value="(\d+)"', page) == ["2", "3", "4", "5", "6"]
    assert 'name="players" value="5" checked' in page  # the series' players still in play
    assert f'name="series" value="{sid}"' in page and 'name="ruleset"' not in page
    page = client.get(f"/referee?series={sid}&top=9S&card=KS&lang=en").get_data(as_text=True)
    assert "draws 4 cards" in text_of(verdict_of(page))
    page = client.get(f"/referee?series={sid}&top=AS&card=AH&lang=en").get_data(as_text=True)
    assert "Yes, it may be played" in text_of(verdict_of(page))  # an ace answers an ace (the option)
    card = client.get(f"/rules/igrafan?series={sid}&lang=en").get_data(as_text=True)
    house = text_of(element(card, "rule-house-rules"))
    assert "52 cards" in house and "4 cards" in house and "An ace may be answered with an ace" in house
    assert [int(n) for n in re.findall(r"\d+", text_of(element(card, "rule-spade-king")))] == [4]
    plain = client.get("/rules/igrafan?lang=en").get_data(as_text=True)
    assert 'id="rule-house-rules"' not in plain


def test_rule_card_with_house_rules_on_the_url(client: FlaskClient) -> None:
    """The same card from URL options (opt-<key>, as the start form names them); bad values are ignored."""
    url = "/rules/elvista?lang=en&opt-eight=must-cover&opt-spade_king_draw=5&opt-deck=7"
    page = client.get(url).get_data(as_text=True)
    assert "must cover it; a round may not end on it" in text_of(element(page, "rule-eight"))
    assert [int(n) for n in re.findall(r"\d+", text_of(element(page, "rule-spade-king")))] == [5]
    check = re.search(r'href="(/referee\?[^"]*)"[^>]*>Check a play', page)
    assert check and "opt-eight=must-cover" in check.group(1) and "opt-spade_king_draw=5" in check.group(1)
    assert "opt-deck" not in check.group(1)


def test_standings_say_who_starts_and_why(client: FlaskClient) -> None:
    """Seed 002, RULES.md §7: in classic the deal rotates; the standings name the next starter and the rule."""
    classic = client.post("/api/v1/series", json={"players": ["Аня", "Борис", "Вера"], "ruleset": "classic",
                                                   "starter": "Борис"}).get_json()
    assert classic["next_starter_rule"] == "rotate"
    body = {"winner": "Аня", "finishing_card": "8♥", "typed_points": {"Борис": 5, "Вера": 7}}
    client.post(f"/api/v1/series/{classic['id']}/rounds", json=body,
                headers={"Authorization": f"Bearer {classic['edit_token']}"})
    page = client.get(f"/series/{classic['id']}?lang=en").get_data(as_text=True)
    line = text_of(element(page, "next-starter"))
    assert "Round 2: Вера starts." in line and "the player after the last starter" in line
    igrafan = client.post("/api/v1/series", json={"players": ["Аня", "Борис"], "starter": "Борис"}).get_json()
    assert igrafan["next_starter_rule"] == "winner"
    page = client.get(f"/series/{igrafan['id']}?lang=en").get_data(as_text=True)
    assert "The winner of the last round starts." in text_of(element(page, "next-starter"))
