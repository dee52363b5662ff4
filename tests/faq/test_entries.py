"""Checks on the FAQ data files (companion/data/faq/*.toml), read directly with tomllib.

The format is described in docs/faq-format.md, the required slugs in docs/faq-slugs.md.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from companion.faq.rule_values import PLACEHOLDER

ROOT = Path(__file__).resolve().parents[2]
FAQ_DIR = ROOT / "companion" / "data" / "faq"
SLUGS_DOC = ROOT / "docs" / "faq-slugs.md"

RULESETS = {"igrafan", "classic", "elimination", "elvista", "pharaoh"}
SOURCES = {"000", "001", "002", "003", "004"}
LANGS = ("ru", "en")
TEXT_FIELDS = ("question", "verdict", "answer")
SLUG_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
CYRILLIC = re.compile(r"[А-Яа-яЁё]")
LATIN = re.compile(r"[A-Za-z]")
# Proper names that stay in Latin letters in Russian text.
LATIN_NAMES = re.compile(r"\b(?:Elvista|IgraFan|Magic Board|Crazy Eights|Uno|UNO|Wild|Draw Four)\b")


def _load_all() -> dict[Path, dict[str, Any]]:
    return {path: tomllib.loads(path.read_text(encoding="utf-8")) for path in sorted(FAQ_DIR.glob("*.toml"))}


ENTRIES = _load_all()
BY_SLUG = {data.get("slug"): data for data in ENTRIES.values()}
IDS = [path.stem for path in ENTRIES]


def _required_slugs() -> list[str]:
    slugs = []
    for line in SLUGS_DOC.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^\s*-\s*([a-z0-9][a-z0-9-]*)\s*:", line)
        if m:
            slugs.append(m.group(1))
    return slugs


def test_there_are_entries() -> None:
    assert ENTRIES, f"no FAQ files in {FAQ_DIR}"


def test_slugs_unique() -> None:
    slugs = [data.get("slug") for data in ENTRIES.values()]
    dupes = sorted({s for s in slugs if slugs.count(s) > 1})
    assert not dupes, f"duplicate slugs: {dupes}"


def test_every_documented_slug_has_a_file() -> None:
    required = _required_slugs()
    assert len(required) >= 40, "could not parse the slug list in docs/faq-slugs.md"
    missing = [s for s in required if not (FAQ_DIR / f"{s}.toml").is_file()]
    assert not missing, f"slugs without a file: {missing}"


def test_questions_unique() -> None:
    for lang in LANGS:
        seen: dict[str, str] = {}
        for data in ENTRIES.values():
            q = " ".join(data[lang]["question"].lower().split())
            assert q not in seen, f"{lang} question shared by {seen[q]} and {data['slug']}: {q!r}"
            seen[q] = data["slug"]


@pytest.mark.parametrize("path", list(ENTRIES), ids=IDS)
class TestEntry:
    def test_file_name_is_slug(self, path: Path) -> None:
        slug = ENTRIES[path].get("slug")
        assert slug == path.stem
        assert SLUG_RE.match(slug), slug

    def test_top_level_keys(self, path: Path) -> None:
        data = ENTRIES[path]
        assert set(data) <= {"slug", "sources", "related", "rulesets", "ru", "en"}, sorted(data)

    def test_languages_complete(self, path: Path) -> None:
        data = ENTRIES[path]
        for lang in LANGS:
            assert lang in data, f"missing [{lang}]"
            block = data[lang]
            assert set(block) <= {"question", "verdict", "answer", "keywords", "by_ruleset"}, sorted(block)
            for field in TEXT_FIELDS:
                value = block.get(field)
                assert isinstance(value, str) and value.strip(), f"{lang}.{field} is empty"
                assert value == value.strip(), f"{lang}.{field} has leading/trailing whitespace"

    def test_verdict_single_line(self, path: Path) -> None:
        for lang in LANGS:
            verdict = ENTRIES[path][lang]["verdict"]
            assert "\n" not in verdict, f"{lang}.verdict spans several lines"

    def test_answer_paragraphs(self, path: Path) -> None:
        for lang in LANGS:
            answer = ENTRIES[path][lang]["answer"]
            paragraphs = [p for p in answer.split("\n\n") if p.strip()]
            assert 1 <= len(paragraphs) <= 4, f"{lang}.answer has {len(paragraphs)} paragraphs"

    def test_keywords(self, path: Path) -> None:
        for lang in LANGS:
            keywords = ENTRIES[path][lang].get("keywords", [])
            assert isinstance(keywords, list)
            assert all(isinstance(k, str) and k.strip() for k in keywords), keywords
            assert len(keywords) == len({k.lower() for k in keywords}), f"{lang}.keywords repeat: {keywords}"

    def test_related(self, path: Path) -> None:
        data = ENTRIES[path]
        related = data.get("related", [])
        assert isinstance(related, list) and related, "related is empty"
        assert data["slug"] not in related, "related points to itself"
        assert len(related) == len(set(related)), f"related repeats: {related}"
        unknown = [s for s in related if s not in BY_SLUG]
        assert not unknown, f"related slugs without an entry: {unknown}"

    def test_sources(self, path: Path) -> None:
        sources = ENTRIES[path].get("sources")
        assert isinstance(sources, list) and sources, "sources is empty"
        assert set(sources) <= SOURCES, f"unknown sources: {sorted(set(sources) - SOURCES)}"

    def test_rulesets(self, path: Path) -> None:
        data = ENTRIES[path]
        rulesets = data.get("rulesets")
        assert isinstance(rulesets, list) and rulesets, "rulesets is empty"
        assert set(rulesets) <= RULESETS, f"unknown rule sets: {sorted(set(rulesets) - RULESETS)}"
        for lang in LANGS:
            by = data[lang].get("by_ruleset", {})
            assert set(by) <= RULESETS, f"{lang}.by_ruleset has unknown ids: {sorted(set(by) - RULESETS)}"
            assert set(by) <= set(rulesets), f"{lang}.by_ruleset names a set the entry does not apply to"
            assert "igrafan" not in by, "the main answer describes igrafan; no by_ruleset note for it"
            assert all(isinstance(v, str) and v.strip() for v in by.values())
        assert set(data["ru"].get("by_ruleset", {})) == set(data["en"].get("by_ruleset", {})), (
            "ru and en by_ruleset cover different sets"
        )

    def test_russian_is_russian(self, path: Path) -> None:
        ru = ENTRIES[path]["ru"]
        for field in TEXT_FIELDS:
            assert CYRILLIC.search(ru[field]), f"ru.{field} has no Cyrillic letters"
        texts = [ru["answer"], *ru.get("by_ruleset", {}).values()]
        for text in texts:
            text = LATIN_NAMES.sub("", PLACEHOLDER.sub("", text))  # placeholders are filled from the rule set
            letters = CYRILLIC.findall(text) + LATIN.findall(text)
            latin_share = len(LATIN.findall(text)) / max(1, len(letters))
            assert latin_share < 0.2, f"ru text looks untranslated: {text[:80]!r}"

    def test_english_is_english(self, path: Path) -> None:
        en = ENTRIES[path]["en"]
        texts = [en[f] for f in TEXT_FIELDS] + list(en.get("by_ruleset", {}).values()) + en.get("keywords", [])
        for text in texts:
            assert not CYRILLIC.search(text), f"en text contains Cyrillic: {text[:80]!r}"
