"""Checks the v4 held-out set's form (not its answers): slugs exist, kinds and
langs are allowed, off-topic questions expect nothing, translit has no Cyrillic,
mixed has both alphabets, no duplicate texts, no text copied from an earlier set
or from an FAQ entry's own question, and every entry is expected at least twice.

Prints counts only, never a question's text (v4 is held-out only).
Run from the repository root: python3 benchmarks/faq_eval/check_v4.py
"""

from __future__ import annotations

import re
import sys
import tomllib
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EVAL = ROOT / "benchmarks" / "faq_eval"
FAQ = ROOT / "companion" / "data" / "faq"
EARLIER = ["dev", "dev2", "holdout", "v2_tune", "v2_heldout", "v3_tune", "v3_heldout"]
KINDS = {"translit", "runon", "slang", "mixed", "plain", "offtopic"}
LANGS = {"ru", "en", "translit", "mixed"}
MINIMUM = {"translit": 35, "runon": 35, "slang": 30, "mixed": 10, "plain": 40, "offtopic": 35}
CYR = re.compile(r"[а-яё]", re.IGNORECASE)
LAT = re.compile(r"[a-z]", re.IGNORECASE)


def norm(text: str) -> str:
    return " ".join(text.casefold().split())


def load(path: Path) -> list[dict[str, object]]:
    with path.open("rb") as fh:
        return list(tomllib.load(fh).get("q", []))


def main() -> int:
    qs = load(EVAL / "v4_heldout.toml")
    slugs = {p.stem for p in FAQ.glob("*.toml")}
    entry_questions = set()
    for p in FAQ.glob("*.toml"):
        with p.open("rb") as fh:
            d = tomllib.load(fh)
        for lang in ("ru", "en"):
            entry_questions.add(norm(d[lang]["question"]))
    earlier = set()
    for name in EARLIER:
        path = EVAL / f"{name}.toml"
        if path.exists():
            earlier.update(norm(str(q["text"])) for q in load(path))

    problems: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    langs: Counter[tuple[str, str]] = Counter()
    cover: Counter[str] = Counter()
    seen: set[str] = set()
    multi = 0
    for q in qs:
        text, kind, lang = str(q.get("text", "")), str(q.get("kind")), str(q.get("lang"))
        expect = q.get("expect")
        kinds[kind] += 1
        langs[(kind, lang)] += 1
        if not text.strip() or not isinstance(expect, list):
            problems["malformed"] += 1
            continue
        if kind not in KINDS:
            problems["unknown kind"] += 1
        if lang not in LANGS:
            problems["unknown lang"] += 1
        problems["unknown slug"] += sum(1 for s in expect if s not in slugs)
        if (kind == "offtopic") != (not expect):
            problems["off-topic and expect-empty disagree"] += 1
        if lang == "translit" and CYR.search(text):
            problems["translit with Cyrillic"] += 1
        if lang == "mixed" and not (CYR.search(text) and LAT.search(text)):
            problems["mixed without both alphabets"] += 1
        n = norm(text)
        if n in seen:
            problems["duplicate text"] += 1
        seen.add(n)
        if n in earlier:
            problems["same text as an earlier set"] += 1
        if n in entry_questions:
            problems["copies an entry's question"] += 1
        cover.update(expect)
        multi += len(expect) > 1

    print(f"questions: {len(qs)}")
    for kind in sorted(KINDS):
        by_lang = ", ".join(f"{lg} {n}" for (k, lg), n in sorted(langs.items()) if k == kind)
        print(f"  {kind}: {kinds[kind]} (minimum {MINIMUM[kind]}; {by_lang})")
        if kinds[kind] < MINIMUM[kind]:
            problems[f"too few {kind}"] += 1
    counts = [cover[s] for s in slugs]
    print(f"entries expected: {sum(1 for c in counts if c)} of {len(slugs)}; "
          f"per entry min {min(counts)}, max {max(counts)}")
    problems["entry expected fewer than twice"] += sum(1 for c in counts if c < 2)
    print(f"questions with two or more right entries: {multi}")
    print(f"earlier-set texts compared: {len(earlier)}")
    for name in sorted(problems):
        print(f"{name}: {problems[name]}")
    bad = sum(problems.values())
    print("OK" if bad == 0 else f"FAILED: {bad} problem(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
