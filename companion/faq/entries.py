"""The FAQ entries: `data/faq/*.toml` read once per process into frozen dataclasses.

The format is docs/faq-format.md; `tests/test_faq_content.py` checks the files.
The search over these entries is `companion.faq.search`.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from companion.core.languages import LANGUAGES
from companion.core.rules import RULESETS, RuleSet
from companion.faq.rule_values import fill

DATA = Path(__file__).parent.parent / "data"
FAQ_DIR = DATA / "faq"
LANGS = LANGUAGES  # the FAQ is written in every language of the app
MAX_QUERY_LENGTH = 300  # a longer search text is cut (page and API alike)



class FaqFormatError(ValueError):
    """An FAQ file does not follow docs/faq-format.md."""


@dataclass(frozen=True)
class FaqText:
    """One language of an entry."""

    question: str
    verdict: str
    answer: str
    keywords: tuple[str, ...] = ()
    by_ruleset: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}), hash=False)

    def full_answer(self, ruleset: str | None = None) -> str:
        """Verdict, explanation and, for `ruleset`, its note: paragraphs joined by a blank line."""
        parts = [self.verdict, self.answer]
        if ruleset and ruleset in self.by_ruleset:
            parts.append(self.by_ruleset[ruleset])
        return "\n\n".join(p.strip() for p in parts if p and p.strip())

    def to_json(self) -> dict[str, Any]:
        return {
            "question": self.question, "verdict": self.verdict, "answer": self.answer,
            "keywords": list(self.keywords), "by_ruleset": dict(self.by_ruleset),
        }


@dataclass(frozen=True)
class FaqEntry:
    slug: str
    sources: tuple[str, ...]
    related: tuple[str, ...]
    rulesets: tuple[str, ...]
    ru: FaqText
    en: FaqText
    cites: tuple[str, ...] = ()  # rule-card rows the verdict rests on (data/faq_citations.toml)

    def text(self, lang: str, ruleset: RuleSet | str | None = None) -> FaqText:
        """The entry in `lang`, its numbers filled from `ruleset` (a preset's id, or a rule set with
        a table's options; default: the default set). Each rule set's note is filled from that set,
        or from `ruleset` itself when it is that set."""
        raw = self.en if lang == "en" else self.ru
        rs = RULESETS.get(ruleset) if isinstance(ruleset, str) else ruleset
        if rs is None or rs == RULESETS[rs.id]:
            return _filled(self, lang, rs.id if rs is not None else None)
        return _fill_text(raw, rs, lang)

    def applies_to(self, ruleset: str | None) -> bool:
        return ruleset is None or not self.rulesets or ruleset in self.rulesets


def _strings(data: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise FaqFormatError(f"{where}: “{key}” must be a list of strings")
    return tuple(value)


def _text(data: Any, where: str) -> FaqText:
    if not isinstance(data, dict):
        raise FaqFormatError(f"{where}: the table is missing")
    for key in ("question", "verdict", "answer"):
        if not isinstance(data.get(key), str) or not data[key].strip():
            raise FaqFormatError(f"{where}: “{key}” must be a non-empty string")
    notes = data.get("by_ruleset", {})
    if not isinstance(notes, dict) or not all(isinstance(v, str) for v in notes.values()):
        raise FaqFormatError(f"{where}: “by_ruleset” must map rule-set ids to strings")
    return FaqText(
        question=data["question"].strip(), verdict=data["verdict"].strip(), answer=data["answer"].strip(),
        keywords=_strings(data, "keywords", where), by_ruleset=MappingProxyType(dict(notes)),
    )


def parse_entry(data: Mapping[str, Any], slug: str) -> FaqEntry:
    """One entry from its parsed TOML; `slug` is the file name, which must match."""
    if data.get("slug") != slug:
        raise FaqFormatError(f"{slug}.toml: slug = {data.get('slug')!r} must equal the file name")
    return FaqEntry(
        slug=slug,
        sources=_strings(data, "sources", slug),
        related=_strings(data, "related", slug),
        rulesets=_strings(data, "rulesets", slug),
        ru=_text(data.get("ru"), f"{slug} [ru]"),
        en=_text(data.get("en"), f"{slug} [en]"),
    )


def load_entries(folder: Path = FAQ_DIR) -> dict[str, FaqEntry]:
    """Every entry in `folder`, by slug, in slug order."""
    entries = {}
    for path in sorted(folder.glob("*.toml"), key=lambda p: p.stem):
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as error:
            raise FaqFormatError(f"{path.name}: {error}") from error
        entries[path.stem] = parse_entry(data, path.stem)
    for slug, rows in citations().items():
        if slug in entries:
            entries[slug] = replace(entries[slug], cites=rows)
    return entries


CITATIONS_FILE = DATA / "faq_citations.toml"


def citations(path: Path = CITATIONS_FILE) -> dict[str, tuple[str, ...]]:
    """Entry slug → the rule-card rows its verdict rests on (see the file's header)."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    out = {}
    for slug, rows in data.items():
        if not isinstance(rows, list) or not all(isinstance(r, str) for r in rows):
            raise FaqFormatError(f"{path.name}: “{slug}” must be a list of rule-card row keys")
        out[slug] = tuple(rows)
    return out


def _fill_text(raw: FaqText, rs: RuleSet | None, lang: str) -> FaqText:
    notes = {rid: fill(note, rs if rs is not None and rid == rs.id else RULESETS.get(rid), lang)
             for rid, note in raw.by_ruleset.items()}
    return replace(raw, question=fill(raw.question, rs, lang), verdict=fill(raw.verdict, rs, lang),
                   answer=fill(raw.answer, rs, lang), by_ruleset=MappingProxyType(notes))


@lru_cache(maxsize=1024)
def _filled(entry: FaqEntry, lang: str, ruleset_id: str | None) -> FaqText:
    raw = entry.en if lang == "en" else entry.ru
    return _fill_text(raw, RULESETS[ruleset_id] if ruleset_id else None, lang)


@lru_cache(maxsize=1)
def _entries() -> Mapping[str, FaqEntry]:
    return MappingProxyType(load_entries())


def all_entries() -> tuple[FaqEntry, ...]:
    return tuple(_entries().values())


def get_entry(slug: str) -> FaqEntry | None:
    return _entries().get(slug)
