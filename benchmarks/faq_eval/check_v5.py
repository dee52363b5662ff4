"""Checks the form of the v5 set (not its answers), both halves together:
slugs exist, kinds and langs are allowed and fit the kind, off-topic questions
expect nothing (and only they), translit has no Cyrillic, mixed has both
alphabets, no duplicate texts across both files, no text equal to one of an
earlier set (dev, dev2, holdout, v2_*, v3_*, v4_heldout) or to an FAQ entry's
own question, minimum counts per kind, the halves split evenly per kind, and
every entry expected at least four times and in both halves.

Prints counts only, never a question's text (v5_heldout is report only).
Exits non-zero on any problem.
Run from the repository root: python3 benchmarks/faq_eval/check_v5.py
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
HALVES = ["v5_tune", "v5_heldout"]
EARLIER = ["dev", "dev2", "holdout", "v2_tune", "v2_heldout", "v3_tune", "v3_heldout", "v4_heldout"]
KINDS = {"translit", "runon", "slang", "mixed", "plain", "offtopic"}
LANGS = {"ru", "en", "translit", "mixed"}
# the langs each kind may carry
KIND_LANGS = {
    "translit": {"translit"},
    "mixed": {"mixed"},
    "runon": {"ru", "en"},
    "slang": {"ru", "en"},
    "plain": {"ru", "en"},
    "offtopic": LANGS,
}
MINIMUM = {"translit": 60, "runon": 60, "slang": 45, "mixed": 20, "plain": 50, "offtopic": 50}
MIN_TOTAL = 260
MIN_PER_ENTRY = 4
CYR = re.compile(r"[а-яё]", re.IGNORECASE)
LAT = re.compile(r"[a-z]", re.IGNORECASE)


def norm(text: str) -> str:
    return " ".join(text.casefold().split())


def load(path: Path) -> list[dict[str, object]]:
    with path.open("rb") as fh:
        return list(tomllib.load(fh).get("q", []))


def main() -> int:
    problems: Counter[str] = Counter()
    sets: dict[str, list[dict[str, object]]] = {}
    for name in HALVES:
        path = EVAL / f"{name}.toml"
        if not path.exists():
            problems[f"missing {name}.toml"] += 1
            sets[name] = []
        else:
            sets[name] = load(path)
    slugs = {p.stem for p in FAQ.glob("*.toml")}
    entry_questions = set()
    for p in FAQ.glob("*.toml"):
        with p.open("rb") as fh:
            d = tomllib.load(fh)
        for lang in ("ru", "en"):
            entry_questions.add(norm(d[lang]["question"]))
    earlier: set[str] = set()
    earlier_files = 0
    for name in EARLIER:
        path = EVAL / f"{name}.toml"
        if path.exists():
            earlier_files += 1
            earlier.update(norm(str(q["text"])) for q in load(path))
        else:
            problems[f"earlier set {name}.toml not found"] += 1

    kinds: dict[str, Counter[str]] = {h: Counter() for h in HALVES}
    langs: Counter[tuple[str, str]] = Counter()
    cover: dict[str, Counter[str]] = {h: Counter() for h in HALVES}
    seen: set[str] = set()
    multi = 0
    for half in HALVES:
        for q in sets[half]:
            text, kind, lang = str(q.get("text", "")), str(q.get("kind")), str(q.get("lang"))
            expect = q.get("expect")
            kinds[half][kind] += 1
            langs[(kind, lang)] += 1
            if not text.strip() or not isinstance(expect, list):
                problems["malformed"] += 1
                continue
            if kind not in KINDS:
                problems["unknown kind"] += 1
            if lang not in LANGS:
                problems["unknown lang"] += 1
            elif kind in KINDS and lang not in KIND_LANGS[kind]:
                problems["lang does not fit the kind"] += 1
            problems["unknown slug"] += sum(1 for s in expect if s not in slugs)
            if len(set(expect)) != len(expect):
                problems["slug listed twice in one expect"] += 1
            if (kind == "offtopic") != (not expect):
                problems["off-topic and expect-empty disagree"] += 1
            if lang == "translit" and CYR.search(text):
                problems["translit with Cyrillic"] += 1
            if lang == "mixed" and not (CYR.search(text) and LAT.search(text)):
                problems["mixed without both alphabets"] += 1
            if lang == "ru" and not CYR.search(text):
                problems["ru without Cyrillic"] += 1
            if lang == "en" and CYR.search(text):
                problems["en with Cyrillic"] += 1
            n = norm(text)
            if n in seen:
                problems["duplicate text (across both halves)"] += 1
            seen.add(n)
            if n in earlier:
                problems["same text as an earlier set"] += 1
            if n in entry_questions:
                problems["copies an entry's question"] += 1
            cover[half].update(expect)
            multi += len(expect) > 1

    total = sum(sum(k.values()) for k in kinds.values())
    print(f"questions: {total} (minimum {MIN_TOTAL}); "
          + ", ".join(f"{h} {sum(kinds[h].values())}" for h in HALVES))
    if total < MIN_TOTAL:
        problems["too few questions"] += 1
    for kind in sorted(KINDS):
        t, h = kinds["v5_tune"][kind], kinds["v5_heldout"][kind]
        by_lang = ", ".join(f"{lg} {n}" for (k, lg), n in sorted(langs.items()) if k == kind)
        print(f"  {kind}: {t + h} = tune {t} + held-out {h} (minimum {MINIMUM[kind]}; {by_lang})")
        if t + h < MINIMUM[kind]:
            problems[f"too few {kind}"] += 1
        if abs(t - h) > 1:
            problems[f"{kind} split unevenly"] += 1
    unknown_kinds = set(kinds["v5_tune"]) | set(kinds["v5_heldout"])
    problems["questions of an unknown kind"] += sum(
        kinds[h][k] for h in HALVES for k in unknown_kinds - KINDS)
    per_entry = {s: cover["v5_tune"][s] + cover["v5_heldout"][s] for s in slugs}
    in_tune = min(cover["v5_tune"][s] for s in slugs)
    in_held = min(cover["v5_heldout"][s] for s in slugs)
    print(f"entries expected: {sum(1 for c in per_entry.values() if c)} of {len(slugs)}; "
          f"per entry min {min(per_entry.values())}, max {max(per_entry.values())}; "
          f"per entry and half min: tune {in_tune}, held-out {in_held}")
    problems[f"entry expected fewer than {MIN_PER_ENTRY} times"] += sum(
        1 for c in per_entry.values() if c < MIN_PER_ENTRY)
    problems["entry missing from a half"] += sum(
        1 for s in slugs for h in HALVES if cover[h][s] == 0)
    print(f"questions with two or more right entries: {multi}")
    print(f"earlier-set texts compared: {len(earlier)} (from {earlier_files} of {len(EARLIER)} files); "
          f"entry questions compared: {len(entry_questions)}")
    for name in sorted(problems):
        print(f"{name}: {problems[name]}")
    bad = sum(problems.values())
    print("OK" if bad == 0 else f"FAILED: {bad} problem(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
