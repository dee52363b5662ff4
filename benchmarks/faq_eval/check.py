"""Checks the form of the blind evaluation sets (not their answers), and prints counts only,
never a question's text (held-out halves stay unread).

    python3 benchmarks/faq_eval/check.py          # every set below
    python3 benchmarks/faq_eval/check.py v6       # one set (both its halves together)

For every set: each question has exactly text, kind, lang and expect; slugs exist, none twice
in one question; kinds and langs are allowed and fit each other (translit has no Cyrillic,
mixed has both alphabets, ru has Cyrillic, en has none); off-topic questions, and only they,
expect nothing; no duplicate text within the set, none equal (case- and whitespace-insensitive)
to a text of an earlier set or to an FAQ entry's own question; at least the set's minimum per
kind; every entry expected at least the set's minimum, and in every half of a split set. The
minimums are the ones each set was written to (its section of README.md).
Exits non-zero on any problem.
"""

from __future__ import annotations

import re
import sys
import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
EVAL = ROOT / "benchmarks" / "faq_eval"
LABELLED = ROOT / "companion" / "data" / "faq_questions"  # the sets the search learns from, a few files
FAQ = ROOT / "companion" / "data" / "faq"
KIND_LANGS = {  # the langs each kind may carry
    "translit": {"translit"},
    "mixed": {"mixed"},
    "runon": {"ru", "en"},
    "slang": {"ru", "en"},
    "plain": {"ru", "en"},
    "offtopic": {"ru", "en", "translit", "mixed"},
}
CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)
LATIN = re.compile("[a-z]", re.IGNORECASE)


@dataclass(frozen=True)
class Spec:
    halves: tuple[str, ...]  # the set's files; two are a tuning half and a held-out half
    earlier: tuple[str, ...]  # sets it must not repeat a text of
    minimum: dict[str, int]  # questions per kind, at least
    per_entry: int  # times each entry is expected, at least
    total: int = 0  # questions in all, at least
    even_split: bool = False  # each kind split between the halves within one question
    runon_unpunctuated: bool = False  # run-ons carry no punctuation at all


V1_V2 = ("dev", "dev2", "holdout", "v2_tune", "v2_heldout")
V7_EARLIER = (*V1_V2, "v3_tune", "v3_heldout", "v4_heldout", "v5_tune", "v5_heldout", "v6_heldout")
HALF_MINIMUM = {"translit": 20, "runon": 20, "slang": 15, "mixed": 6, "plain": 12, "offtopic": 25}
PAIR_MINIMUM = {"translit": 40, "runon": 40, "slang": 30, "mixed": 12, "plain": 24, "offtopic": 50}
BLIND_PAIRS = tuple(f"v{n}" for n in range(7, 20))  # v7 (issue 12's fifth round) to v19 (its seventeenth)


def blind_pairs() -> dict[str, Spec]:
    """From v7 on, each set is two halves written blind side by side by two writers, both held out:
    each half checked alone while it is written ("v7a"), then the two together ("v7"), each against
    every earlier set."""
    specs: dict[str, Spec] = {}
    earlier: tuple[str, ...] = V7_EARLIER
    for name in BLIND_PAIRS:
        halves = (f"{name}a_heldout", f"{name}b_heldout")
        for half in halves:
            specs[half.removesuffix("_heldout")] = Spec((half,), earlier, per_entry=1, total=100,
                                                        runon_unpunctuated=True, minimum=HALF_MINIMUM)
        specs[name] = Spec(halves, earlier, per_entry=2, total=200, runon_unpunctuated=True, minimum=PAIR_MINIMUM)
        earlier = (*earlier, *halves)
    return specs


SETS = {
    "v3": Spec(("v3_tune", "v3_heldout"), V1_V2, per_entry=1, runon_unpunctuated=True,
               minimum={"translit": 40, "runon": 40, "slang": 30, "mixed": 10, "plain": 40, "offtopic": 40}),
    "v4": Spec(("v4_heldout",), (*V1_V2, "v3_tune", "v3_heldout"), per_entry=2,
               minimum={"translit": 35, "runon": 35, "slang": 30, "mixed": 10, "plain": 40, "offtopic": 35}),
    "v5": Spec(("v5_tune", "v5_heldout"), (*V1_V2, "v3_tune", "v3_heldout", "v4_heldout"), per_entry=4,
               total=260, even_split=True,
               minimum={"translit": 60, "runon": 60, "slang": 45, "mixed": 20, "plain": 50, "offtopic": 50}),
    "v6": Spec(("v6_heldout",), (*V1_V2, "v3_tune", "v3_heldout", "v4_heldout", "v5_tune", "v5_heldout"),
               per_entry=2,
               minimum={"translit": 30, "runon": 30, "slang": 25, "mixed": 10, "plain": 20, "offtopic": 35}),
    **blind_pairs(),
}

def norm(text: str) -> str:
    return " ".join(text.casefold().split())


def load(name: str) -> list[dict[str, Any]]:
    """A set's questions: its own file here, or its part of the search's labelled questions (v1 to v15)."""
    path = EVAL / f"{name}.toml"
    if path.exists():
        questions: list[dict[str, Any]] = tomllib.loads(path.read_text(encoding="utf-8")).get("q", [])
        return questions
    labelled = [q for f in sorted(LABELLED.glob("*.toml")) for q in tomllib.loads(f.read_text(encoding="utf-8"))["q"]]
    return [{k: v for k, v in q.items() if k != "set"} for q in labelled if q["set"] == name]


def exists(name: str) -> bool:
    return bool(load(name))


def entries() -> tuple[set[str], set[str]]:
    """The FAQ's slugs and its entries' own questions (normalised)."""
    slugs, own = set(), set()
    for path in FAQ.glob("*.toml"):
        entry = tomllib.loads(path.read_text(encoding="utf-8"))
        slugs.add(path.stem)
        own |= {norm(entry[lang]["question"]) for lang in ("ru", "en")}
    return slugs, own


def question_problems(q: dict[str, Any], spec: Spec, slugs: set[str]) -> list[str]:
    text, kind, lang, expect = q.get("text"), q.get("kind"), q.get("lang"), q.get("expect")
    if set(q) != {"text", "kind", "lang", "expect"} or not (isinstance(text, str) and text.strip()
                                                            and isinstance(expect, list)):
        return ["needs exactly text, kind, lang and expect"]
    found = []
    if kind not in KIND_LANGS or lang not in KIND_LANGS[kind]:
        found.append("unknown kind or lang, or a lang that does not fit the kind")
    if any(e not in slugs for e in expect) or len(set(expect)) != len(expect):
        found.append("expect names a missing slug or one twice")
    if (kind == "offtopic") != (expect == []):
        found.append("off-topic questions, and only they, expect []")
    if lang == "translit" and CYRILLIC.search(text):
        found.append("translit text with Cyrillic letters")
    if lang == "mixed" and not (CYRILLIC.search(text) and LATIN.search(text)):
        found.append("mixed text without both alphabets")
    if lang == "ru" and not CYRILLIC.search(text):
        found.append("ru text without Cyrillic letters")
    if lang == "en" and CYRILLIC.search(text):
        found.append("en text with Cyrillic letters")
    if spec.runon_unpunctuated and kind == "runon" and re.search(r"[,.?!;:—]", text):
        found.append("run-on text with punctuation")
    return found


def check(name: str, spec: Spec) -> int:
    """Prints the set's counts and problems; returns how many problems it has."""
    slugs, own = entries()
    halves = {half: load(half) for half in spec.halves}
    problems: Counter[str] = Counter()
    for questions in halves.values():
        for q in questions:
            problems.update(question_problems(q, spec, slugs))
    texts = [norm(str(q.get("text", ""))) for qs in halves.values() for q in qs]
    earlier = {norm(str(q["text"])) for other in spec.earlier for q in load(other)}
    problems["duplicate text"] += sum(n - 1 for n in Counter(texts).values() if n > 1)
    problems["same text as an earlier set"] += sum(t in earlier for t in texts)
    problems["copies an entry's own question"] += sum(t in own for t in texts)

    kinds = {half: Counter(str(q.get("kind")) for q in qs) for half, qs in halves.items()}
    langs = Counter((str(q.get("kind")), str(q.get("lang"))) for qs in halves.values() for q in qs)
    print(f"{name}: {len(texts)} questions (" + ", ".join(f"{h} {len(qs)}" for h, qs in halves.items()) + ")")
    if len(texts) < spec.total:
        problems[f"fewer than {spec.total} questions"] += 1
    for kind, least in spec.minimum.items():
        per_half = [kinds[h][kind] for h in spec.halves]
        by_lang = ", ".join(f"{lang} {n}" for (k, lang), n in sorted(langs.items()) if k == kind)
        print(f"  {kind}: {sum(per_half)} = " + " + ".join(map(str, per_half)) + f" (at least {least}; {by_lang})")
        if sum(per_half) < least:
            problems[f"too few {kind}"] += 1
        if spec.even_split and max(per_half) - min(per_half) > 1:
            problems[f"{kind} split unevenly"] += 1
    cover = {half: Counter(e for q in qs for e in q.get("expect") or []) for half, qs in halves.items()}
    per_entry = {s: sum(c[s] for c in cover.values()) for s in slugs}
    print(f"  entries expected: {sum(1 for n in per_entry.values() if n)} of {len(slugs)}, "
          f"each {min(per_entry.values())} to {max(per_entry.values())} times; "
          f"two or more right entries: {sum(len(q.get('expect') or []) > 1 for qs in halves.values() for q in qs)}")
    problems[f"entry expected fewer than {spec.per_entry} times"] += sum(n < spec.per_entry for n in per_entry.values())
    if len(spec.halves) > 1:
        problems["entry missing from a half"] += sum(1 for s in slugs for c in cover.values() if not c[s])
    print(f"  compared with {len(earlier)} texts of {len(spec.earlier)} earlier sets and {len(own)} entry questions")
    for problem, n in sorted(problems.items()):
        if n:
            print(f"  problem: {problem}: {n}")
    bad = sum(problems.values())
    print("  OK" if not bad else f"  FAILED: {bad} problem(s)")
    return bad


def main(argv: list[str]) -> int:
    names = argv or [n for n, spec in SETS.items() if all(exists(h) for h in spec.halves)]
    unknown = [n for n in names if n not in SETS]
    if unknown:
        print(f"unknown set {', '.join(unknown)}; the sets: {', '.join(SETS)}")
        return 2
    return 1 if sum(check(name, SETS[name]) for name in names) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
