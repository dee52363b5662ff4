"""The FAQ entries: `data/faq/*.toml` read once per process into frozen dataclasses.

An entry is one file (docs/faq-format.md): its group, its texts in both languages, its
keywords, the rule-card rows its verdict rests on, and the cases and notes that make
its answer follow the rules in force. `FaqEntry.text(lang, ruleset)` is the answer for
one rule set (a preset, or a table's with its house options): the first case whose
conditions the rules meet gives the verdict and the explanation, every note whose
conditions they meet adds a paragraph, and every number is filled from the same rules
(`rule_values`). No preset's name decides anything: conditions read rule values only.
`tests/faq/test_entries.py` checks the files, `tests/faq/test_rule_values.py` the answers.
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
from companion.core.rules import DEFAULT_RULESET, RULESETS, RuleSet
from companion.faq.rule_values import Condition, condition_holds, facts, fill

DATA = Path(__file__).parent.parent / "data"
FAQ_DIR = DATA / "faq"
LANGS = LANGUAGES  # the FAQ is written in every language of the app
MAX_QUERY_LENGTH = 300  # a longer search text is cut (page and API alike)
GROUPS = ("basics", "queens", "special", "turn", "scoring", "about")  # the FAQ list's sections, in order


class FaqFormatError(ValueError):
    """An FAQ file does not follow docs/faq-format.md."""


@dataclass(frozen=True)
class FaqText:
    """One language of an entry: as written (`entry.ru`), or the answer for one rule set (`entry.text`)."""

    question: str
    verdict: str
    answer: str
    keywords: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()  # paragraphs the rules in force add
    decision: str = ""  # which decision of docs/rules-decisions.md the verdict follows (no rule-card row states it)
    source_lines: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}), hash=False)
    # what each written source says on the point, one line in our words, by source id

    def full_answer(self) -> str:
        """Verdict, explanation and notes: paragraphs joined by a blank line."""
        return "\n\n".join(p.strip() for p in (self.verdict, self.answer, *self.notes) if p and p.strip())

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "question": self.question, "verdict": self.verdict, "answer": self.answer,
            "keywords": list(self.keywords), "notes": list(self.notes),
            "sources": dict(self.source_lines),
        }
        if self.decision:
            data["decision"] = self.decision
        return data


@dataclass(frozen=True)
class Case:
    """Texts that replace the entry's own where the rules meet `when` (a field left out keeps the entry's)."""

    when: Condition
    texts: Mapping[str, Mapping[str, str]] = field(hash=False)  # lang → {"verdict": …, "answer": …}


@dataclass(frozen=True)
class Note:
    """A paragraph added where the rules meet `when`."""

    when: Condition
    texts: Mapping[str, str] = field(hash=False)  # lang → text


@dataclass(frozen=True)
class FaqEntry:
    slug: str
    group: str
    sources: tuple[str, ...]
    related: tuple[str, ...]
    rulesets: tuple[str, ...]
    ru: FaqText
    en: FaqText
    cites: tuple[str, ...] = ()  # rule-card rows the verdict rests on, in order of preference
    cases: tuple[Case, ...] = ()
    notes: tuple[Note, ...] = ()

    def text(self, lang: str, ruleset: RuleSet | str | None = None) -> FaqText:
        """The entry in `lang` for `ruleset` (a preset's id, or a rule set with a table's options;
        default: the default set): its case, its notes and its numbers from those rules."""
        if isinstance(ruleset, RuleSet):
            rs = ruleset
        else:
            rs = RULESETS.get(ruleset or DEFAULT_RULESET, RULESETS[DEFAULT_RULESET])
        return _answer(self, "en" if lang == "en" else "ru", rs)

    def depends_on(self) -> tuple[str, ...]:
        """The rule values the answer reads in its conditions, in order of first use."""
        keys: list[str] = []
        for when in [c.when for c in self.cases] + [n.when for n in self.notes]:
            keys += [k for k, _ in when if k not in keys]
        return tuple(keys)

    def applies_to(self, ruleset: str | None) -> bool:
        return ruleset is None or not self.rulesets or ruleset in self.rulesets


@lru_cache(maxsize=4096)
def _answer(entry: FaqEntry, lang: str, rs: RuleSet) -> FaqText:
    raw = entry.en if lang == "en" else entry.ru
    have = facts(rs)
    case = next((c for c in entry.cases if condition_holds(c.when, have)), None)
    chosen = dict(case.texts.get(lang, {})) if case else {}
    notes = tuple(fill(n.texts[lang], rs, lang) for n in entry.notes if condition_holds(n.when, have))
    return replace(
        raw, question=fill(raw.question, rs, lang), verdict=fill(chosen.get("verdict", raw.verdict), rs, lang),
        answer=fill(chosen.get("answer", raw.answer), rs, lang), notes=notes,
        decision=fill(raw.decision, rs, lang),
    )


# -- reading the files ----------------------------------------------------------------------


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
    lines = data.get("sources", {})
    if not isinstance(lines, dict) or not all(isinstance(v, str) for v in lines.values()):
        raise FaqFormatError(f"{where}: “sources” must map source ids to one line each")
    decision = data.get("decision", "")
    if not isinstance(decision, str):
        raise FaqFormatError(f"{where}: “decision” must be a string")
    return FaqText(
        question=data["question"].strip(), verdict=data["verdict"].strip(), answer=data["answer"].strip(),
        keywords=_strings(data, "keywords", where), decision=decision.strip(),
        source_lines=MappingProxyType({k: v.strip() for k, v in lines.items()}),
    )


def _condition(data: Any, where: str) -> Condition:
    if not isinstance(data, dict) or not data:
        raise FaqFormatError(f"{where}: “when” must be a table of rule value → value or list of values")
    return tuple((key, tuple(v) if isinstance(v, list) else (v,)) for key, v in data.items())


def _cases(data: Mapping[str, Any], slug: str) -> tuple[Case, ...]:
    cases = []
    for i, raw in enumerate(data.get("case", [])):
        where = f"{slug} case {i + 1}"
        texts = {lang: {k: v.strip() for k, v in raw.get(lang, {}).items() if k in ("verdict", "answer")}
                 for lang in LANGS}
        if not all(texts.values()) or {k for t in texts.values() for k in t} != set(texts["ru"]) | set(texts["en"]):
            raise FaqFormatError(f"{where}: needs the same texts (verdict, answer) in ru and en")
        cases.append(Case(_condition(raw.get("when"), where), MappingProxyType(texts)))
    return tuple(cases)


def _notes(data: Mapping[str, Any], slug: str) -> tuple[Note, ...]:
    notes = []
    for i, raw in enumerate(data.get("note", [])):
        where = f"{slug} note {i + 1}"
        if not all(isinstance(raw.get(lang), str) and raw[lang].strip() for lang in LANGS):
            raise FaqFormatError(f"{where}: needs a text in ru and en")
        notes.append(Note(_condition(raw.get("when"), where),
                          MappingProxyType({lang: raw[lang].strip() for lang in LANGS})))
    return tuple(notes)


def parse_entry(data: Mapping[str, Any], slug: str) -> FaqEntry:
    """One entry from its parsed TOML; `slug` is the file name, which must match."""
    if data.get("slug") != slug:
        raise FaqFormatError(f"{slug}.toml: slug = {data.get('slug')!r} must equal the file name")
    ru, en = _text(data.get("ru"), f"{slug} [ru]"), _text(data.get("en"), f"{slug} [en]")  # first: the texts
    group = data.get("group")
    if group not in GROUPS:
        raise FaqFormatError(f"{slug}.toml: group = {group!r} must be one of {', '.join(GROUPS)}")
    return FaqEntry(
        slug=slug, group=group,
        sources=_strings(data, "sources", slug),
        related=_strings(data, "related", slug),
        rulesets=_strings(data, "rulesets", slug),
        ru=ru, en=en, cites=_strings(data, "rule_card", slug),
        cases=_cases(data, slug), notes=_notes(data, slug),
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
    return entries


@lru_cache(maxsize=1)
def _entries() -> Mapping[str, FaqEntry]:
    return MappingProxyType(load_entries())


def all_entries() -> tuple[FaqEntry, ...]:
    return tuple(_entries().values())


def get_entry(slug: str) -> FaqEntry | None:
    return _entries().get(slug)
