"""The FAQ loader, the search analyser and engine, and the FAQ API.

(companion/faq.py, companion/faq_search/, web/faq_api.py)
"""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import faq_search
from companion.faq import entries as faq

ROOT = Path(__file__).resolve().parent.parent
EVAL = ROOT / "benchmarks" / "faq_eval"
TUNING_SETS = ("dev", "dev2")  # the sets tuned on; holdout is never read by the tests


def tuning_questions() -> list[dict[str, Any]]:
    return [q for name in TUNING_SETS for q in tomllib.loads((EVAL / f"{name}.toml").read_text(encoding="utf-8"))["q"]]


# -- loader ---------------------------------------------------------------------


def test_all_entry_files_load() -> None:
    files = sorted(p.stem for p in faq.FAQ_DIR.glob("*.toml"))
    assert files, "no FAQ files"
    assert [e.slug for e in faq.all_entries()] == files


@pytest.mark.parametrize("entry", faq.all_entries(), ids=lambda e: e.slug)
def test_entry_has_both_languages(entry: faq.FaqEntry) -> None:
    for lang in faq.LANGS:
        text = entry.text(lang)
        assert text.question and text.verdict and text.answer
    assert any("а" <= ch <= "я" for ch in entry.ru.question.lower())
    assert entry.en.question.isascii() or any("a" <= ch <= "z" for ch in entry.en.question.lower())
    assert set(entry.ru.by_ruleset) == set(entry.en.by_ruleset)
    for slug in entry.related:
        assert faq.get_entry(slug) is not None, f"{entry.slug}: related “{slug}” does not exist"


def test_entries_are_frozen_and_cached() -> None:
    entry = faq.all_entries()[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        entry.slug = "x"  # type: ignore[misc]
    assert faq.get_entry(entry.slug) is entry
    assert faq.get_entry("no-such-entry") is None
    assert faq_search.search_engine() is faq_search.search_engine()


def test_full_answer_adds_the_rule_set_note() -> None:
    entry = next(e for e in faq.all_entries() if e.ru.by_ruleset)
    ruleset, note = next(iter(entry.ru.by_ruleset.items()))
    assert entry.ru.full_answer().startswith(entry.ru.verdict)
    assert note not in entry.ru.full_answer()
    assert entry.ru.full_answer(ruleset).endswith(note)


def test_loader_refuses_a_slug_that_is_not_the_file_name(tmp_path: Path) -> None:
    source = faq.FAQ_DIR / f"{faq.all_entries()[0].slug}.toml"
    (tmp_path / "other-name.toml").write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(faq.FaqFormatError, match="file name"):
        faq.load_entries(tmp_path)


def test_loader_refuses_a_missing_language(tmp_path: Path) -> None:
    (tmp_path / "x.toml").write_text(
        'slug = "x"\n[ru]\nquestion = "В?"\nverdict = "Да."\nanswer = "Да."\n', encoding="utf-8"
    )
    with pytest.raises(faq.FaqFormatError, match=r"\[en\]"):
        faq.load_entries(tmp_path)


# -- analysis: card notations -----------------------------------------------------

QUEEN_OF_HEARTS = [
    "дама червей",
    "червовая дама",
    "даму червей",
    "Д♥",
    "Дч",
    "дч",
    "Д ♥",
    "queen of hearts",
    "Q♥",
    "qh",
    "QH",
    "hearts queen",
    "Q♡",
    "дама черви",
    "червонная дама",
]
KING_OF_SPADES = [
    "пиковый король",
    "король пик",
    "пикового короля",
    "королём пик",
    "КП",
    "кп",
    "K♠",
    "k♠",
    "king of spades",
    "spade king",
    "KS",
    "король вини",
    "К♠",
    "винный король",
]
TEN_OF_CLUBS = [
    "10♣",
    "10c",
    "10т",
    "10к",
    "десятка треф",
    "десятка крести",
    "трефовая десятка",
    "крестовая десятка",
    "ten of clubs",
    "10 of clubs",
    "club ten",
]
ACE_OF_DIAMONDS = ["туз бубен", "бубновый туз", "туз буби", "Т♦", "тб", "A♦", "ace of diamonds", "AD"]
SEVEN = ["семёрка", "семерка", "семёрку", "семь", "7", "seven", "sevens", "7s"]


@pytest.mark.parametrize(
    "phrases,card",
    [
        (QUEEN_OF_HEARTS, "zzcqh"),
        (KING_OF_SPADES, "zzcks"),
        (TEN_OF_CLUBS, "zzc10c"),
        (ACE_OF_DIAMONDS, "zzcad"),
    ],
)
def test_every_notation_of_a_card_gives_the_same_tokens(phrases: list[str], card: str) -> None:
    rank = "zzr" + card[3:-1]
    for phrase in phrases:
        assert faq_search.card_concepts(phrase) == [rank, card], phrase


def test_rank_words_and_digits_share_a_token() -> None:
    for phrase in SEVEN:
        assert faq_search.card_concepts(phrase) == ["zzr7"], phrase
    assert (
        faq_search.card_concepts("дама")
        == faq_search.card_concepts("queen")
        == faq_search.card_concepts("дамой")
        == ["zzrq"]
    )
    assert faq_search.card_concepts("туз") == faq_search.card_concepts("aces") == ["zzra"]


def test_suit_words_share_a_token() -> None:
    for group, token in (
        (["крести", "трефы", "clubs", "♣", "трефовый"], "zzsc"),
        (["вини", "пики", "spades", "♠"], "zzss"),
        (["буби", "бубны", "diamonds", "♦"], "zzsd"),
        (["черви", "червы", "hearts", "♥"], "zzsh"),
    ):
        for word in group:
            assert faq_search.card_concepts(word) == [token], word


def test_card_phrases_in_a_sentence() -> None:
    tokens = faq_search.analyse("Можно ли дамой червей покрыть пикового короля?")
    assert "zzcqh" in tokens and "zzcks" in tokens
    # "семёрку или пикового короля": the seven stays a plain seven
    assert faq_search.card_concepts("семёрку или пикового короля") == ["zzr7", "zzrk", "zzcks"]


def test_english_words_are_not_taken_for_cards() -> None:
    assert faq_search.card_concepts("as soon as I had drawn") == []
    assert faq_search.card_concepts("ad hoc") == []


def test_analyser_folds_case_yo_and_stems() -> None:
    assert faq_search.analyse("ЁЛКА") == faq_search.analyse("елка")
    assert faq_search.analyse("пересдача") == faq_search.analyse("Пересдали")
    assert faq_search.analyse("drawing cards") == faq_search.analyse("draws card")
    assert faq_search.analyse("и а но the of") == []


def test_synonyms_cross_languages() -> None:
    assert faq_search.analyse("штраф") == faq_search.analyse("penalty")
    assert faq_search.analyse("пересдача") == faq_search.analyse("redeal")
    assert faq_search.analyse("вдвоём") == faq_search.analyse("два игрока") == faq_search.analyse("two players")


def test_language_detection() -> None:
    assert faq_search.detect_language("дама червей") == "ru"
    assert faq_search.detect_language("queen of hearts") == "en"
    assert faq_search.detect_language("Q♥ сколько") == "ru"


# -- typo fallback ---------------------------------------------------------------


def test_edit_distance() -> None:
    assert faq_search.edit_distance("sevn", "seven") == 1
    assert faq_search.edit_distance("сколко", "сколько") == 1
    assert faq_search.edit_distance("qeuen", "queen") == 1  # a swap counts once
    assert faq_search.edit_distance("abc", "xyz", limit=1) == 2


def test_unknown_words_are_corrected_to_indexed_ones() -> None:
    engine = faq_search.search_engine()
    assert engine.analyse_query("sevn") == faq_search.analyse("seven")
    assert engine.analyse_query("пересдчаа") == faq_search.analyse("пересдача")
    assert engine.analyse_query("шестерrа")  # mixed scripts stay harmless


def test_typos_still_find_the_entry() -> None:
    assert faq_search.search("qeen of harts finish")[0].slug == "queen-finish" or "queen-finish" in [
        r.slug for r in faq_search.search("qeen of harts finish")[:3]
    ]
    assert faq_search.search("пиквый корол")[0].slug.startswith("spade-king")


def test_short_or_known_words_are_not_corrected() -> None:
    engine = faq_search.search_engine()
    assert engine.spell.correct("abc") is None
    assert engine.spell.correct("zzzzzzzz") is None


# -- search ----------------------------------------------------------------------


def test_search_finds_by_question_in_both_languages() -> None:
    assert faq_search.search("пиковый король")[0].slug.startswith("spade-king")
    assert faq_search.search("king of spades played")[0].slug.startswith("spade-king")
    assert faq_search.search("пересдача")[0].slug in {"redeal", "deadlock"}


def test_search_mixed_language_query() -> None:
    slugs = [r.slug for r in faq_search.search("Д♥ last card minus сколько", limit=3)]
    assert "queen-finish" in slugs


def test_search_results_are_ordered_and_limited() -> None:
    results = faq_search.search("дама", limit=5)
    assert 0 < len(results) <= 5
    assert [r.score for r in results] == sorted((r.score for r in results), reverse=True)
    assert all(isinstance(r, faq_search.Result) and r.entry.slug == r.slug for r in results)


def test_search_with_nothing_to_find() -> None:
    assert faq_search.search("") == []
    assert faq_search.search("   ?!  ") == []
    assert faq_search.search("и а но") == []
    assert faq_search.search('"quotes" AND OR NEAR( * ^') is not None  # FTS5 syntax in a query is harmless


def test_ruleset_demotes_entries_that_do_not_apply() -> None:
    off = next(e for e in faq.all_entries() if e.rulesets and "igrafan" not in e.rulesets)
    query = off.en.question
    plain = {r.slug: r.score for r in faq_search.search(query)}
    scoped = {r.slug: r.score for r in faq_search.search(query, ruleset="igrafan")}
    assert scoped[off.slug] < plain[off.slug]


def test_card_relations() -> None:
    """A number before a rank counts cards; a card "on/на" another card names the played rank."""
    assert faq_search.analyse("две семёрки") == faq_search.analyse("two sevens") == [faq_search.SAME_RANK, "zzr7"]
    assert (
        faq_search.analyse("взять две") == faq_search.analyse("draw 2") == ["zzdraw", faq_search.number_token("2")]
    )  # not a card
    assert faq_search.onto_token("q") in faq_search.analyse("дама пик на десятку бубей")
    assert faq_search.onto_token("q") in faq_search.analyse("can I put a queen on a ten of diamonds")
    assert faq_search.ONTO_SAME in faq_search.analyse("даму на даму")
    assert faq_search.ONTO_SAME in faq_search.analyse("крестовую даму на бубновую")  # the noun left out: a queen
    assert faq_search.ONTO_SUIT in faq_search.analyse("бубну на черву")
    assert faq_search.subject_rank(faq_search.analyse("Q♠ on 7♥")) == "q"
    assert faq_search.subject_rank(faq_search.analyse("что делает семёрка")) == "7"
    assert faq_search.subject_rank(faq_search.analyse("пара восьмёрок")) is None


def test_shared_stem_does_not_pick_a_group() -> None:
    """ "закончил" (went out) and "закончилась" (ran out) share a stem: only the listed words map."""
    assert faq_search.analyse("закончил") != faq_search.analyse("закончилась")


def test_dev_set_quality_gate() -> None:
    """Tuning sets only, dev + dev2 (holdout is measured by benchmarks/faq_search_bench.py, never gated here)."""
    questions = tuning_questions()
    top1 = top3 = 0
    misses = []
    for q in questions:
        slugs = [r.slug for r in faq_search.search(q["text"], limit=3)]
        top1 += bool(slugs) and slugs[0] in q["expect"]
        hit3 = any(s in q["expect"] for s in slugs)
        top3 += hit3
        if not hit3:
            misses.append((q["text"], slugs))
    assert top3 / len(questions) >= 0.97, misses
    assert top1 / len(questions) >= 0.9


# -- API -------------------------------------------------------------------------


def test_api_search_shape(client: FlaskClient) -> None:
    response = client.get("/api/v1/faq", query_string={"q": "дама червей последней картой", "lang": "ru"})
    assert response.status_code == 200
    results = response.get_json()["results"]
    assert results and set(results[0]) == {"slug", "question", "answer", "url", "score"}
    first = results[0]
    entry = faq.get_entry(first["slug"])
    assert entry is not None
    assert first["question"] == entry.ru.question
    assert first["answer"] == f"{entry.ru.verdict}\n\n{entry.ru.answer}"
    assert first["url"] == f"/faq/{first['slug']}"
    assert isinstance(first["score"], float)
    assert [r["score"] for r in results] == sorted((r["score"] for r in results), reverse=True)


def test_api_search_in_english_and_request_language(app: Flask) -> None:
    body = app.test_client().get("/api/v1/faq?q=queen+of+hearts&lang=en").get_json()
    entry = faq.get_entry(body["results"][0]["slug"])
    assert entry is not None and body["results"][0]["question"] == entry.en.question
    body = app.test_client().get("/api/v1/faq?q=queen", headers={"Accept-Language": "en"}).get_json()
    entry = faq.get_entry(body["results"][0]["slug"])
    assert entry is not None and body["results"][0]["question"] == entry.en.question
    body = app.test_client().get("/api/v1/faq?q=queen", headers={"Accept-Language": "ru"}).get_json()
    entry = faq.get_entry(body["results"][0]["slug"])
    assert entry is not None and body["results"][0]["question"] == entry.ru.question


def test_api_ruleset_note_and_url(client: FlaskClient) -> None:
    entry = next(e for e in faq.all_entries() if "elimination" in e.en.by_ruleset)
    body = client.get(
        "/api/v1/faq", query_string={"q": entry.en.question, "lang": "en", "ruleset": "elimination"}
    ).get_json()
    found = next(r for r in body["results"] if r["slug"] == entry.slug)
    assert found["answer"].endswith(entry.en.by_ruleset["elimination"])
    assert found["url"] == f"/faq/{entry.slug}?ruleset=elimination"


def test_api_list_without_query(client: FlaskClient) -> None:
    results = client.get("/api/v1/faq?lang=en").get_json()["results"]
    assert [r["slug"] for r in results] == [e.slug for e in faq.all_entries()]
    assert all(r["score"] is None for r in results)
    assert all(set(r) == {"slug", "question", "answer", "url", "score"} for r in results)
    assert client.get("/api/v1/faq?q=").get_json()["results"] == client.get("/api/v1/faq").get_json()["results"]


def test_api_one_entry_in_full(client: FlaskClient) -> None:
    entry = faq.all_entries()[0]
    body = client.get(f"/api/v1/faq/{entry.slug}").get_json()
    assert body["slug"] == entry.slug
    assert body["related"] == list(entry.related) and body["sources"] == list(entry.sources)
    assert body["rulesets"] == list(entry.rulesets)
    for lang in ("ru", "en"):
        text = entry.text(lang)
        assert body[lang] == {
            "question": text.question,
            "verdict": text.verdict,
            "answer": text.answer,
            "keywords": list(text.keywords),
            "by_ruleset": dict(text.by_ruleset),
        }


def _error(response: Any) -> dict[str, str]:
    body = response.get_json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}
    return body["error"]


def test_api_unknown_entry_is_404(client: FlaskClient) -> None:
    response = client.get("/api/v1/faq/no-such-entry", headers={"Accept-Language": "en"})
    assert response.status_code == 404
    error = _error(response)
    assert error["code"] == "not-found" and "no-such-entry" in error["message"]
    ru = _error(client.get("/api/v1/faq/no-such-entry?lang=ru"))
    assert "no-such-entry" in ru["message"] and ru["message"] != error["message"]


def test_api_unknown_ruleset_is_422(client: FlaskClient) -> None:
    response = client.get("/api/v1/faq?q=дама&ruleset=poker")
    assert response.status_code == 422
    assert _error(response)["code"] == "invalid-option"
    assert client.get("/api/v1/faq?ruleset=poker").status_code == 422


def test_api_bad_language_is_400(client: FlaskClient) -> None:
    response = client.get("/api/v1/faq?q=дама&lang=de")
    assert response.status_code == 400
    assert "de" in _error(response)["message"]


def test_api_bad_limit_is_400(client: FlaskClient) -> None:
    assert client.get("/api/v1/faq?q=дама&limit=0").status_code == 400
    assert client.get("/api/v1/faq?q=дама&limit=x").status_code == 400
    assert len(client.get("/api/v1/faq?q=дама&limit=2").get_json()["results"]) <= 2
