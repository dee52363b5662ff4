#!/usr/bin/env python3
"""Form checker for benchmarks/faq_eval/v6_heldout.toml (issue 12).

Run from the repo root:  python3 benchmarks/faq_eval/check_v6.py

Stdlib only. Prints counts only, never a question text (problems are reported
by question number). Exits non-zero if any check fails.

Checks:
  - the header comment is present;
  - every [[q]] has text/kind/lang/expect of the right types, no other keys;
  - kind and lang are allowed and consistent with each other and with the
    alphabet of the text (translit: Latin, no Cyrillic; mixed: both; ru:
    Cyrillic, no Latin; en: Latin, no Cyrillic);
  - kind == "offtopic" if and only if expect == [];
  - every expected slug is an entry in companion/data/faq/, none repeated
    within one question;
  - 2..40 words per text;
  - no duplicate texts (case/whitespace-insensitive);
  - no text equal to an entry's own ru/en question, nor to any string of an
    earlier evaluation set (loaded programmatically, never printed);
  - counts per kind (and language within kind) at least the planned numbers;
  - every entry expected at least twice.
"""
import pathlib
import re
import sys
import tomllib

ROOT = pathlib.Path.cwd()
SET = ROOT / "benchmarks/faq_eval/v6_heldout.toml"
FAQ_DIR = ROOT / "companion/data/faq"
EARLIER = ["dev", "dev2", "holdout", "v2_tune", "v2_heldout", "v3_tune",
           "v3_heldout", "v4_heldout", "v5_tune", "v5_heldout"]
HEADER = "# FAQ evaluation set v6, report only: written blind for issue 12"

KINDS = {"translit", "runon", "slang", "mixed", "plain", "offtopic"}
LANGS = {"ru", "en", "translit", "mixed"}
KIND_LANGS = {
    "translit": {"translit"},
    "mixed": {"mixed"},
    "runon": {"ru", "en"},
    "slang": {"ru", "en"},
    "plain": {"ru", "en"},
    "offtopic": LANGS,
}
MIN_KIND = {"translit": 30, "runon": 30, "slang": 25, "mixed": 10,
            "plain": 20, "offtopic": 35}
MIN_KIND_LANG = {("runon", "ru"): 18, ("runon", "en"): 8,
                 ("slang", "ru"): 15, ("slang", "en"): 6,
                 ("plain", "ru"): 10, ("plain", "en"): 10}
MIN_PER_ENTRY = 2
TOTAL = 150

CYR = re.compile(r"[\u0400-\u04FF]")
LAT = re.compile(r"[A-Za-z]")


def norm(s):
    return " ".join(s.casefold().split())


def strings_in(obj):
    """Every string value anywhere in a loaded TOML document."""
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from strings_in(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from strings_in(v)


def main():
    errors = []

    def err(msg):
        errors.append(msg)

    raw = SET.read_text(encoding="utf-8")
    if not raw.startswith(HEADER):
        err("header comment missing or not on the first line")
    data = tomllib.loads(raw)
    if set(data) != {"q"}:
        err("top level must hold only [[q]] tables")
    qs = data.get("q", [])

    slugs = {p.stem for p in FAQ_DIR.glob("*.toml")}
    entry_questions = set()
    for p in FAQ_DIR.glob("*.toml"):
        d = tomllib.loads(p.read_text(encoding="utf-8"))
        for lang in ("ru", "en"):
            q = d.get(lang, {}).get("question")
            if isinstance(q, str):
                entry_questions.add(norm(q))

    earlier = set()
    loaded = 0
    missing = 0
    for name in EARLIER:
        p = ROOT / "benchmarks/faq_eval" / f"{name}.toml"
        if not p.exists():
            missing += 1
            continue
        try:
            earlier.update(norm(s) for s in strings_in(
                tomllib.loads(p.read_text(encoding="utf-8"))))
            loaded += 1
        except (tomllib.TOMLDecodeError, UnicodeDecodeError):
            err(f"earlier set #{EARLIER.index(name) + 1} could not be parsed")

    kind_n = {k: 0 for k in sorted(KINDS)}
    kind_lang_n = {}
    lang_n = {l: 0 for l in sorted(LANGS)}
    per_entry = {s: 0 for s in sorted(slugs)}
    seen = {}
    n_entry_coll = n_earlier_coll = n_dup = 0
    multi = 0
    words_min, words_max = 10**9, 0

    for i, q in enumerate(qs, 1):
        if not isinstance(q, dict):
            err(f"q#{i}: not a table")
            continue
        extra = set(q) - {"text", "kind", "lang", "expect"}
        if extra:
            err(f"q#{i}: unexpected keys {sorted(extra)}")
        text, kind, lang, expect = (q.get("text"), q.get("kind"),
                                    q.get("lang"), q.get("expect"))
        if not isinstance(text, str) or not text.strip():
            err(f"q#{i}: text missing or empty")
            continue
        if kind not in KINDS:
            err(f"q#{i}: kind not allowed")
            continue
        if lang not in LANGS:
            err(f"q#{i}: lang not allowed")
            continue
        if not isinstance(expect, list) or not all(isinstance(s, str) for s in expect):
            err(f"q#{i}: expect must be a list of slugs")
            continue
        kind_n[kind] += 1
        lang_n[lang] += 1
        kind_lang_n[(kind, lang)] = kind_lang_n.get((kind, lang), 0) + 1

        if lang not in KIND_LANGS[kind]:
            err(f"q#{i}: kind {kind} with lang {lang}")
        cyr, lat = bool(CYR.search(text)), bool(LAT.search(text))
        if lang == "translit" and (cyr or not lat):
            err(f"q#{i}: translit text must be Latin with no Cyrillic")
        if lang == "mixed" and not (cyr and lat):
            err(f"q#{i}: mixed text must use both alphabets")
        if lang == "ru" and (not cyr or lat):
            err(f"q#{i}: ru text must be Cyrillic with no Latin")
        if lang == "en" and (cyr or not lat):
            err(f"q#{i}: en text must be Latin with no Cyrillic")

        if (kind == "offtopic") != (expect == []):
            err(f"q#{i}: offtopic must have expect == [] and only offtopic may")
        if len(set(expect)) != len(expect):
            err(f"q#{i}: a slug repeated in expect")
        if len(expect) > 1:
            multi += 1
        for s in expect:
            if s not in slugs:
                err(f"q#{i}: unknown slug {s!r}")
            else:
                per_entry[s] += 1

        nw = len(text.split())
        words_min, words_max = min(words_min, nw), max(words_max, nw)
        if not 2 <= nw <= 40:
            err(f"q#{i}: {nw} words, outside 2..40")

        key = norm(text)
        if key in seen:
            n_dup += 1
            err(f"q#{i}: duplicate of q#{seen[key]}")
        else:
            seen[key] = i
        if key in entry_questions:
            n_entry_coll += 1
            err(f"q#{i}: equals an entry's own question")
        if key in earlier:
            n_earlier_coll += 1
            err(f"q#{i}: equals a text of an earlier set")

    if len(qs) < TOTAL:
        err(f"{len(qs)} questions, fewer than {TOTAL}")
    for k, m in MIN_KIND.items():
        if kind_n[k] < m:
            err(f"kind {k}: {kind_n[k]} < {m}")
    for (k, l), m in MIN_KIND_LANG.items():
        if kind_lang_n.get((k, l), 0) < m:
            err(f"kind {k} lang {l}: {kind_lang_n.get((k, l), 0)} < {m}")
    low = [s for s, n in per_entry.items() if n < MIN_PER_ENTRY]
    for s in low:
        err(f"entry {s}: expected {per_entry[s]} time(s) < {MIN_PER_ENTRY}")

    print(f"questions: {len(qs)}")
    print("per kind: " + ", ".join(
        f"{k} {kind_n[k]}" + (" (" + ", ".join(
            f"{l} {kind_lang_n[(k, l)]}" for l in sorted(LANGS)
            if (k, l) in kind_lang_n) + ")") for k in sorted(kind_n)))
    print("per lang: " + ", ".join(f"{l} {n}" for l, n in lang_n.items()))
    print(f"words per text: min {words_min}, max {words_max}")
    print(f"questions with 2+ expected slugs: {multi}")
    counts = sorted(per_entry.values())
    print(f"entries: {len(slugs)}; expected per entry: min {counts[0] if counts else 0}, "
          f"max {counts[-1] if counts else 0}; entries below {MIN_PER_ENTRY}: {len(low)}")
    print(f"earlier sets loaded: {loaded}/{len(EARLIER)} (missing {missing}); "
          f"strings compared: {len(earlier)}")
    print(f"collisions: entry questions {n_entry_coll}, earlier sets {n_earlier_coll}, "
          f"duplicates within v6 {n_dup}")
    if errors:
        print(f"FAIL: {len(errors)} problem(s)")
        for e in errors:
            print("  " + e)
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
