"""Checks the v3 evaluation set's form (not its answers): slugs exist, kinds and
langs are allowed, off-topic questions expect nothing, no duplicate texts, no
text copied from the earlier sets or from an FAQ entry's own question.

Prints counts only, never a question's text (the held-out half stays unread).
Run: python3 benchmarks/faq_eval/check_v3.py
"""

from __future__ import annotations

import collections
import pathlib
import re
import sys
import tomllib
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parents[2]
EVAL = ROOT / "benchmarks" / "faq_eval"
FAQ = ROOT / "companion" / "data" / "faq"
KINDS = ("translit", "runon", "slang", "mixed", "plain", "offtopic")
LANGS = {"ru", "en", "translit", "mixed"}
MINIMUM = {"translit": 40, "runon": 40, "slang": 30, "mixed": 10, "plain": 40, "offtopic": 40}
OLDER = ("dev", "dev2", "holdout", "v2_tune", "v2_heldout")
CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)
LATIN = re.compile("[a-z]", re.IGNORECASE)


def norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip().casefold())


def load(name: str) -> list[dict[str, Any]]:
    questions: list[dict[str, Any]] = tomllib.loads((EVAL / f"{name}.toml").read_text(encoding="utf-8"))["q"]
    return questions


def main() -> int:
    slugs = {p.stem for p in FAQ.glob("*.toml")}
    problems: list[str] = []
    halves = {"tune": load("v3_tune"), "heldout": load("v3_heldout")}
    for half, questions in halves.items():
        for i, q in enumerate(questions):
            where = f"{half} #{i + 1}"
            text, kind, lang, expect = q.get("text"), q.get("kind"), q.get("lang"), q.get("expect")
            if set(q) != {"text", "kind", "lang", "expect"} or not (isinstance(text, str) and isinstance(expect, list)):
                problems.append(f"{where}: needs exactly text, kind, lang, expect")
                continue
            if kind not in KINDS:
                problems.append(f"{where}: unknown kind")
            if lang not in LANGS:
                problems.append(f"{where}: unknown lang")
            if any(e not in slugs for e in expect) or len(set(expect)) != len(expect):
                problems.append(f"{where}: expect names a missing slug or one twice")
            if (kind == "offtopic") != (expect == []):
                problems.append(f"{where}: off-topic questions, and only they, expect []")
            if lang == "translit" and CYRILLIC.search(text):
                problems.append(f"{where}: translit text has Cyrillic letters")
            if lang == "mixed" and not (CYRILLIC.search(text) and LATIN.search(text)):
                problems.append(f"{where}: mixed text lacks one of the two alphabets")
            if kind == "runon" and re.search(r"[,.?!;:—]", text):
                problems.append(f"{where}: run-on text has punctuation")
    texts = [norm(str(q["text"])) for qs in halves.values() for q in qs]
    dup = sum(c - 1 for c in collections.Counter(texts).values() if c > 1)
    older = {norm(str(q["text"])) for name in OLDER for q in load(name)}
    own = set()
    for p in FAQ.glob("*.toml"):
        entry = tomllib.loads(p.read_text(encoding="utf-8"))
        own |= {norm(entry[lang]["question"]) for lang in ("ru", "en")}
    collisions = sum(t in older for t in texts)
    copies = sum(t in own for t in texts)
    counts = {half: collections.Counter(str(q["kind"]) for q in qs) for half, qs in halves.items()}
    print("kind       tune  held-out  total")
    for kind in KINDS:
        total = counts["tune"][kind] + counts["heldout"][kind]
        print(f"{kind:<10} {counts['tune'][kind]:>4}  {counts['heldout'][kind]:>8}  {total:>5}")
        if total < MINIMUM[kind]:
            problems.append(f"{kind}: {total} questions, at least {MINIMUM[kind]} wanted")
    print(f"{'all':<10} {len(halves['tune']):>4}  {len(halves['heldout']):>8}  {len(texts):>5}")
    cover = {half: collections.Counter(e for q in qs for e in q["expect"]) for half, qs in halves.items()}
    absent = sorted(s for s in slugs if not cover["tune"][s] or not cover["heldout"][s])
    print(f"entries covered: {sum(1 for s in slugs if cover['tune'][s] + cover['heldout'][s])}/{len(slugs)}, "
          f"absent from a half: {len(absent)}")
    print(f"duplicate texts: {dup}; same text as an earlier set: {collisions}; copies of an FAQ question: {copies}")
    if dup or collisions or copies:
        problems.append("rewrite the duplicated or copied texts")
    for problem in problems:
        print("problem:", problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
