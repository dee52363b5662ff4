"""Checks on the FAQ data files (companion/data/faq/*.toml), read directly with tomllib.

The format is described in docs/faq-format.md, the required slugs in docs/faq-slugs.md.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from companion.faq import entries as faq
from companion.faq.rule_values import PLACEHOLDER, unknown_facts, unknown_placeholders

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


TOP_KEYS = {"slug", "group", "sources", "related", "rulesets", "rule_card", "ru", "en", "case", "note"}
LANG_KEYS = {"question", "verdict", "answer", "keywords", "decision", "sources"}


def _texts(data: dict[str, Any], lang: str) -> list[str]:
    """Every text an entry shows in `lang`: its own, its cases' and its notes'."""
    block = data.get(lang, {})
    texts = [block.get(f, "") for f in TEXT_FIELDS] + [block.get("decision", "")]
    texts += list(block.get("sources", {}).values())
    texts += [case.get(lang, {}).get(f, "") for case in data.get("case", []) for f in ("verdict", "answer")]
    texts += [note.get(lang, "") for note in data.get("note", [])]
    return [t for t in texts if isinstance(t, str) and t]


def _format_problems(data: dict[str, Any], path: Path) -> list[str]:
    wrong = []
    slug = data.get("slug")
    if slug != path.stem or not SLUG_RE.match(str(slug)):
        wrong.append(f"slug {slug!r} must be the file name, in lower-case words joined by hyphens")
    if not set(data) <= TOP_KEYS:
        wrong.append(f"unknown keys: {sorted(set(data) - TOP_KEYS)}")
    if data.get("group") not in faq.GROUPS:
        wrong.append(f"group {data.get('group')!r} must be one of {faq.GROUPS}")
    for lang in LANGS:
        block = data.get(lang)
        if not isinstance(block, dict):
            wrong.append(f"missing [{lang}]")
            continue
        if not set(block) <= LANG_KEYS:
            wrong.append(f"[{lang}] has unknown keys: {sorted(set(block) - LANG_KEYS)}")
        for field in TEXT_FIELDS:
            value = block.get(field)
            if not (isinstance(value, str) and value.strip()) or value != value.strip():
                wrong.append(f"{lang}.{field} is empty or has leading/trailing whitespace")
        if "\n" in str(block.get("verdict", "")):
            wrong.append(f"{lang}.verdict spans several lines")
        paragraphs = [p for p in str(block.get("answer", "")).split("\n\n") if p.strip()]
        if not 1 <= len(paragraphs) <= 4:
            wrong.append(f"{lang}.answer has {len(paragraphs)} paragraphs (1 to 4)")
        keywords = block.get("keywords", [])
        if not isinstance(keywords, list) or not all(isinstance(k, str) and k.strip() for k in keywords):
            wrong.append(f"{lang}.keywords must be a list of words")
        elif len(keywords) != len({k.lower() for k in keywords}):
            wrong.append(f"{lang}.keywords repeat")
        lines = block.get("sources", {})
        if set(lines) != set(data.get("sources", [])):
            wrong.append(f"{lang}.sources must say in one line what each named source says, and only those")
        wrong += [f"{lang}.sources[{s}] spans several lines" for s, line in lines.items() if "\n" in line]
    return wrong


def _reference_problems(data: dict[str, Any]) -> list[str]:
    wrong = []
    related = data.get("related", [])
    if not related or data.get("slug") in related or len(related) != len(set(related)):
        wrong.append(f"related must name other entries, once each: {related}")
    wrong += [f"related entry {s!r} does not exist" for s in related if s not in BY_SLUG]
    sources = data.get("sources")
    if not sources or not set(sources) <= SOURCES:
        wrong.append(f"sources must name some of {sorted(SOURCES)}: {sources}")
    rulesets = data.get("rulesets")
    if not rulesets or not set(rulesets) <= RULESETS:
        wrong.append(f"rulesets must name some of {sorted(RULESETS)}: {rulesets}")
    decided = all(data.get(lang, {}).get("decision") for lang in LANGS)
    if not data.get("rule_card") and not decided:
        wrong.append("needs rule_card rows, or a decision (docs/rules-decisions.md) in ru and en")
    for kind in ("case", "note"):
        for i, item in enumerate(data.get(kind, []), 1):
            when = item.get("when")
            if not isinstance(when, dict) or not when:
                wrong.append(f"{kind} {i}: when must name rule values")
                continue
            unknown = unknown_facts(tuple((k, ()) for k in when))
            if unknown:
                wrong.append(f"{kind} {i}: {unknown} are no rule values")
            for lang in LANGS:
                if kind == "note" and not (isinstance(item.get(lang), str) and item[lang].strip()):
                    wrong.append(f"note {i}: no {lang} text")
                if kind == "case" and set(item.get(lang, {})) != set(item.get("ru", {})) | set(item.get("en", {})):
                    wrong.append(f"case {i}: ru and en replace different texts")
    return wrong


def _language_problems(data: dict[str, Any]) -> list[str]:
    wrong = []
    for field in TEXT_FIELDS:
        if not CYRILLIC.search(str(data.get("ru", {}).get(field, ""))):
            wrong.append(f"ru.{field} has no Cyrillic letters")
    for text in _texts(data, "ru"):
        bare = LATIN_NAMES.sub("", PLACEHOLDER.sub("", text))  # placeholders are filled from the rule set
        letters = CYRILLIC.findall(bare) + LATIN.findall(bare)
        if len(LATIN.findall(bare)) / max(1, len(letters)) >= 0.2:
            wrong.append(f"ru text looks untranslated: {text[:80]!r}")
    for text in _texts(data, "en") + data.get("en", {}).get("keywords", []):
        if CYRILLIC.search(text):
            wrong.append(f"en text contains Cyrillic: {text[:80]!r}")
    for lang in LANGS:
        for text in _texts(data, lang):
            wrong += [f"unknown placeholder {p} in {lang}" for p in unknown_placeholders(text)]
    return wrong


@pytest.mark.parametrize("path", list(ENTRIES), ids=IDS)
def test_entry_follows_the_format(path: Path) -> None:
    """Every problem of one file at once (docs/faq-format.md)."""
    data = ENTRIES[path]
    wrong = _format_problems(data, path) + _reference_problems(data) + _language_problems(data)
    assert not wrong, f"{path.name}:\n" + "\n".join(wrong)


def test_the_loader_names_a_file_that_breaks_the_format(tmp_path: Path) -> None:
    text = 'question = "?"\nverdict = "Yes."\nanswer = "Yes."\n'
    (tmp_path / "odd.toml").write_text(f'slug = "odd"\ngroup = "nowhere"\n[ru]\n{text}[en]\n{text}', encoding="utf-8")
    with pytest.raises(faq.FaqFormatError, match="group"):
        faq.load_entries(tmp_path)
