"""The FAQ search's behaviour: a known question finds its entry, an off-topic one gets "no answer".

(companion/faq/search/) Its figures on questions it never learned from are a benchmark
(benchmarks/faq_search_bench.py, docs/benchmarks.md), never a test.
"""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from companion.faq import entries as faq
from companion.faq import search
from companion.faq.search import text

HX = {"HX-Request": "true"}


def first(q: str, ruleset: str | None = None) -> str | None:
    found = search.answer(q, ruleset=ruleset).results
    return found[0].slug if found else None


def test_the_engine_is_built_once_per_process() -> None:
    assert search.search_engine() is search.search_engine()


def test_every_entry_is_found_by_its_own_question_in_both_languages() -> None:
    missed = [(e.slug, lang) for e in faq.all_entries() for lang in faq.LANGS if first(e.text(lang).question) != e.slug]
    assert not missed


@pytest.mark.parametrize("q, slug", [
    ("сколько очков стоит дама в конце", "card-points"),
    ("можно ли дамой отбить семёрку", "queen-cancels-penalty"),
    ("что делает туз", "ace"),
    ("what does an ace do", "ace"),
    ("who deals first", "who-deals"),
    ("skolko kart razdayut", "cards-dealt"),
    ("shestyorku kto kroet", "six"),
    ("можно ли играть вдвоём", "two-players"),
    ("vdvoem mozhno igrat", "two-players"),
    ("колода кончилась откуда брать", "draw-pile-empty"),
])
def test_a_known_question_finds_its_entry_first(q: str, slug: str) -> None:
    assert first(q) == slug


@pytest.mark.parametrize("q", [
    "what happens if i go over 101",
    "What happens if I go over 101?",
    "что будет если я перебрал за 101",
])
def test_one_player_over_the_line_is_the_going_over_entry_not_several_players(q: str) -> None:
    """Issue 23: "Both of you" (several players over 101) was the first answer."""
    assert first(q) == "series-end"
    assert "several-over-101" not in [r.slug for r in search.answer(q).results[:1]]


@pytest.mark.parametrize("q", [
    "how many points is an ace in blackjack",
    "сколько очков туз в блэкджеке",
    "гадание на пиковой даме что значит",
    "101 умножить на 3",
    "what does a joker do",
    "что делает джокер",
    "can we play two on two",
    "какая погода завтра в москве",
    "best pizza near me",
])
def test_an_off_topic_question_sharing_card_words_gets_no_answer(q: str) -> None:
    """Issue 23: other games, fortune-telling, sums and teams share card words but no rule answers them."""
    assert not search.answer(q).answered


def test_no_answer_offers_up_to_three_maybe_entries_and_nothing_gets_none() -> None:
    found = search.answer("сколько стоит билет в кино")
    assert not found.answered and 0 < len(found.maybe) <= search.MAYBE
    for q in ("", "   ?!  ", "zzqqxx"):
        assert search.answer(q).results == ()
    assert search.search("") == []


def test_answers_are_best_first_limited_and_carry_their_entry() -> None:
    found = search.answer("дама червей последней картой", limit=2).results
    assert 0 < len(found) <= 2
    assert [r.score for r in found] == sorted((r.score for r in found), reverse=True)
    assert all(isinstance(r, search.Result) and r.entry.slug == r.slug and 0 < r.score <= 1 for r in found)
    assert search.answer("дама", limit=0).results == ()


def test_an_entry_of_another_rule_set_gives_way() -> None:
    entry = next(e for e in faq.all_entries() if e.rulesets and "classic" not in e.rulesets)
    q = entry.en.question
    plain = {r.slug: r.score for r in search.search(q)}
    scoped = {r.slug: r.score for r in search.search(q, ruleset="classic")}
    assert scoped[entry.slug] < plain[entry.slug]


def test_the_search_learns_from_its_data_with_no_other_step() -> None:
    """A labelled question is all it takes: nothing to regenerate by hand."""
    q = "zorblat fimbly wumpus"
    entries = faq.all_entries()
    asked = [*search.labelled_questions(), *({"text": q, "expect": ["pharaoh"]} for _ in range(5))]
    assert search.FaqSearch(entries, asked).answer(q).results[0].slug == "pharaoh"


def test_learning_is_deterministic() -> None:
    entries = faq.all_entries()[:6]
    asked = [q for q in search.labelled_questions()[:300] if set(q["expect"]) <= {e.slug for e in entries}]
    a, b = search.FaqSearch(entries, asked), search.FaqSearch(entries, asked)
    assert a.model.scores("дама пик") == b.model.scores("дама пик")


def test_the_labelled_questions_name_only_entries_that_exist() -> None:
    slugs = {e.slug for e in faq.all_entries()}
    questions = search.labelled_questions()
    assert len(questions) > 3000
    assert {s for q in questions for s in q["expect"]} <= slugs  # type: ignore[attr-defined]


@pytest.mark.parametrize("words", [
    ("шестёрка", "shestyorka", "szestiorka", "shesterka"),
    ("следующий", "sleduyushchiy", "sledujuszczij"),
    ("ход", "khod", "hod", "xod"),
])
def test_every_spelling_of_a_russian_word_folds_alike(words: tuple[str, ...]) -> None:
    assert len({text.fold(w) for w in words}) == 1


def test_suit_symbols_read_as_suit_words() -> None:
    assert text.words("Q♥") == text.words("q черви")


def test_highlight_marks_matched_words_and_escapes_the_rest() -> None:
    tokens = search.answer("семёрка дамой").tokens
    marked = str(search.highlight("Дама <b> отбивает семёрку?", tokens))
    assert marked == "<mark>Дама</mark> &lt;b&gt; отбивает <mark>семёрку</mark>?"


def test_page_highlights_and_offers_maybe(client: FlaskClient) -> None:
    page = client.get("/faq", query_string={"q": "что делает семёрка", "lang": "ru"}, headers=HX)
    assert "<mark>" in page.get_data(as_text=True)
    text_ = client.get("/faq", query_string={"q": "сколько стоит билет в кино", "lang": "ru"}).get_data(as_text=True)
    assert "В FAQ нет ответа" in text_ and "Может быть, вы об этом?" in text_
    assert 0 < len(re.findall(r'class="faq-item"', text_)) <= 3
