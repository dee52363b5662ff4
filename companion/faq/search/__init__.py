"""Search over the FAQ entries (`companion.faq.entries`): the referee that answers a question in words.

Which entry a question asks about, or whether none does, is a classifier's call (`model`): it is
learned, at start-up, from the entries' own questions and keywords, from the questions players
asked (`data/faq_questions/`, each labelled with the entries that answer it) and from questions
no entry answers (`data/faq_not_answered.toml`). What it learned is kept in the app's instance
folder under a hash of that data and of the search's code, never committed: edit an entry or add a
question and the next start learns from it. `text` is the one analyser; `highlight` marks the
words of a shown text that the question used.

`answer(q)` gives the answers, best first, or "no answer" with up to three "maybe" entries;
`search(q)` ranks every entry without deciding.
"""

from __future__ import annotations

import contextlib
import ctypes
import math
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from flask import current_app, has_app_context

from companion.faq.entries import DATA, LANGS, FaqEntry, all_entries
from companion.faq.search.highlight import highlight
from companion.faq.search.model import NONE, Example, learned
from companion.faq.search.text import forget, words

QUESTIONS = DATA / "faq_questions"  # one file per range of sets, read in name order
NOT_ANSWERED = DATA / "faq_not_answered.toml"
MAYBE = 3           # entries offered as "maybe" with no answer, and listed at least with an answer
LISTED = 0.01       # ...and further answers while their probability is at least this
SHARPNESS = 8.0     # the scores' softmax temperature: a margin of 1 between two entries is e⁸ : 1
OFF_RULESET = 0.3   # score taken from entries that do not apply to the requested rule set


@dataclass(frozen=True)
class Result:
    slug: str
    score: float  # the model's probability that this entry answers the question (0..1)
    entry: FaqEntry


@dataclass(frozen=True)
class Answer:
    """What the search says about one question."""

    results: tuple[Result, ...]  # the answers, best first; empty: no answer
    maybe: tuple[Result, ...]    # with no answer: the closest entries (up to MAYBE)
    tokens: tuple[str, ...] = ()  # the question's folded words (for highlighting)

    @property
    def answered(self) -> bool:
        return bool(self.results)

    @property
    def searched_for(self) -> str | None:
        """The query as read when it was rewritten; the search reads every spelling as written."""
        return None


def labelled_questions(folder: Path = QUESTIONS) -> list[dict[str, object]]:
    """The labelled questions (`set`, `text`, `lang`, `kind`, `expect`), as written, file by file in name order."""
    found: list[dict[str, object]] = []
    for path in sorted(folder.glob("*.toml")):
        with path.open("rb") as f:
            found.extend(tomllib.load(f)["q"])
    return found


def examples(entries: Iterable[FaqEntry], questions: Iterable[dict[str, object]]) -> list[Example]:
    """What the model learns from: each entry's questions and keywords, each question under every
    entry it expects (none: `NONE`), and the subjects no entry settles."""
    found = [Example(t, e.slug, whole=t == e.text(lang).question) for e in entries for lang in LANGS
             for t in (e.text(lang).question, *e.text(lang).keywords)]
    for q in questions:
        expect = [str(s) for s in q["expect"]]  # type: ignore[attr-defined]
        found.extend(Example(str(q["text"]), slug) for slug in expect or [NONE])
    with NOT_ANSWERED.open("rb") as f:
        found.extend(Example(t, NONE) for subject in tomllib.load(f)["subject"] for t in subject["texts"])
    return found


class FaqSearch:
    def __init__(self, entries: Iterable[FaqEntry], questions: Iterable[dict[str, object]] | None = None,
                 cache: Path | None = None) -> None:
        """Learn from `entries` and `questions` (default: the labelled questions), or read back what
        was learned from the same into the folder `cache` before."""
        self.entries = {e.slug: e for e in entries}
        asked = labelled_questions() if questions is None else questions
        self.model = learned(examples(self.entries.values(), asked), cache)

    def ranked(self, q: str, ruleset: str | None = None) -> list[tuple[str, float]]:
        """Every class (entries and NONE) with its probability, best first."""
        scores = self.model.scores(q)
        for slug, entry in self.entries.items():
            if not entry.applies_to(ruleset):
                scores[slug] = scores.get(slug, 0.0) - OFF_RULESET
        top = max(scores.values())
        odds = {c: math.exp(SHARPNESS * (s - top)) for c, s in scores.items()}
        total = sum(odds.values())
        return sorted(((c, p / total) for c, p in odds.items()), key=lambda cp: (-cp[1], cp[0]))

    def _results(self, ranked: Sequence[tuple[str, float]]) -> list[Result]:
        return [Result(c, round(p, 4), self.entries[c]) for c, p in ranked if c in self.entries]

    def search(self, q: str, lang: str | None = None, ruleset: str | None = None, limit: int = 10) -> list[Result]:
        """Every entry by the model's score, best first, when `q` has a word the model knows."""
        if limit <= 0 or not self.model.knows(q):
            return []
        return self._results(self.ranked(q, ruleset))[:limit]

    def answer(self, q: str, lang: str | None = None, ruleset: str | None = None, limit: int = 10) -> Answer:
        """The answers to `q`, best first; or none and up to MAYBE closest entries."""
        tokens = tuple(w for w in words(q) if len(w) > 2)
        if limit <= 0 or not self.model.knows(q):
            return Answer((), (), tokens)
        ranked = self.ranked(q, ruleset)
        results = self._results(ranked)
        if ranked[0][0] == NONE:  # "maybe" only for a question with a word the search knows: «zzqqxx» gets none
            maybe = results[: min(MAYBE, limit)] if self.model.knows_a_word(q) else []
            return Answer((), tuple(maybe), tokens)
        listed = [r for i, r in enumerate(results[:limit]) if i < MAYBE or r.score >= LISTED]
        return Answer(tuple(listed), (), tokens)


@lru_cache(maxsize=1)
def search_engine() -> FaqSearch:
    """The process-wide engine over every FAQ entry (built at start-up, before workers fork), kept
    in the current app's instance folder."""
    engine = FaqSearch(all_entries(), cache=Path(current_app.instance_path) if has_app_context() else None)
    forget()
    release_freed_memory()
    return engine


def release_freed_memory() -> None:
    """Learning frees ~40 MiB of small objects and arrays that glibc's heap keeps for the process
    unless asked to hand them back (docs/benchmarks.md); elsewhere nothing to do."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def search(q: str, lang: str | None = None, ruleset: str | None = None, limit: int = 10) -> list[Result]:
    """Every entry ranked for `q`, best first (the process-wide engine)."""
    return search_engine().search(q, lang=lang, ruleset=ruleset, limit=limit)


def answer(q: str, lang: str | None = None, ruleset: str | None = None, limit: int = 10) -> Answer:
    """The answers to `q`, or "no answer" with up to three "maybe" entries."""
    return search_engine().answer(q, lang=lang, ruleset=ruleset, limit=limit)


__all__: Sequence[str] = ("Answer", "FaqSearch", "Result", "answer", "highlight", "search", "search_engine")
