"""FAQ search quality and speed: our search against a plain FTS5 baseline.

    python benchmarks/faq_search_bench.py            # held-out sets v16-v18 (and v19 once it exists), latency
    python benchmarks/faq_search_bench.py --rolling  # ... each held-out pair learned with every earlier one too
    python benchmarks/faq_search_bench.py --cross    # tuning: learn without v13-v15, measure on them, list misses

The search learns from the entries, `companion/data/faq_questions/` (the labelled questions of
v1 to v15, and a few added with issue 23) and `faq_not_answered.toml`. The held-out sets are the
later blind sets in `benchmarks/faq_eval/` (README.md there): it never learns from them, and they
are printed as summary lines only, never question by question. `--rolling` measures each held-out
pair as the earlier model rounds did (docs/benchmarks.md): learned with every earlier set, the
earlier held-out pairs included. `--cross` is the tuning view: the
search learns from everything except v13-v15 and is measured on those, misses listed. A learner is
chosen with `faq_cv.py` (cross-validation over three groups inside v1-v15), never on the held-out sets.

Figures per set, for on-topic questions (non-empty `expect`): top-1 / top-3, a right entry first /
among the first three answers (a "no answer" is a miss); wrongly "no answer", the share that got
none; for off-topic questions (empty `expect`): the share that got "no answer".

Baseline "plain FTS5": the same entries in one FTS5 table (unicode61, no stemming), question and
answer columns in both languages, the query's words joined with OR, ranked by bm25(); it says "no
answer" only when no word matches at all.
"""

from __future__ import annotations

import argparse
import re
import sqlite3
import statistics
import sys
import time
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.faq import entries as faq  # noqa: E402
from companion.faq import search  # noqa: E402

EVAL = ROOT / "benchmarks" / "faq_eval"
HELD_OUT = tuple(f"v{n}{half}_heldout" for n in (16, 17, 18, 19) for half in "ab")
CROSS = tuple(f"v{n}{half}_heldout" for n in (13, 14, 15) for half in "ab")

Question = dict[str, object]
Engine = Callable[[str], list[str]]  # question → the slugs answered, best first (empty: "no answer")


def load_questions(name: str) -> list[Question]:
    """A set by name: its file in faq_eval/, or its questions in the labelled questions' file."""
    path = EVAL / f"{name}.toml"
    if path.exists():
        with path.open("rb") as f:
            return list(tomllib.load(f)["q"])
    return [q for q in search.labelled_questions() if q["set"] == name]


class PlainFts:
    """The baseline: what FTS5 gives with no analysis of our own."""

    def __init__(self, entries: Sequence[faq.FaqEntry]) -> None:
        self.db = sqlite3.connect(":memory:")
        self.db.execute("CREATE VIRTUAL TABLE faq USING fts5(slug UNINDEXED, question, answer, tokenize = 'unicode61')")
        for e in entries:
            answer = f"{e.ru.verdict}\n{e.ru.answer}\n{e.en.verdict}\n{e.en.answer}"
            self.db.execute("INSERT INTO faq VALUES (?, ?, ?)", (e.slug, f"{e.ru.question}\n{e.en.question}", answer))

    def search(self, q: str) -> list[str]:
        words = re.findall(r"\w+", q.lower())
        if not words:
            return []
        match = " OR ".join('"' + w.replace('"', '""') + '"' for w in words)
        rows = self.db.execute("SELECT slug FROM faq WHERE faq MATCH ? ORDER BY bm25(faq) LIMIT 10", (match,))
        return [slug for (slug,) in rows]


@dataclass
class Figures:
    on_topic: int = 0
    off_topic: int = 0
    top1: int = 0
    top3: int = 0
    wrongly_none: int = 0
    off_none: int = 0

    def add(self, other: Figures) -> None:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    def row(self) -> str:
        def pct(n: int, d: int) -> str:  # the share and the count it is of ("97.9% 563")
            return f"{n / d:.1%} {n:>3}" if d else "–"
        on, off = self.on_topic, self.off_topic
        return (f"{on:>4}{pct(self.top1, on):>12}{pct(self.top3, on):>12}{pct(self.wrongly_none, on):>12}"
                f"{off:>5}{pct(self.off_none, off):>12}")


def evaluate(engine: Engine, questions: Sequence[Question], misses: list[str] | None = None) -> Figures:
    fig = Figures()
    for q in questions:
        slugs = engine(str(q["text"]))
        expect = {str(s) for s in q["expect"]}  # type: ignore[attr-defined]
        if not expect:
            fig.off_topic += 1
            fig.off_none += not slugs
        else:
            fig.on_topic += 1
            fig.top1 += bool(slugs) and slugs[0] in expect
            fig.top3 += any(s in expect for s in slugs[:3])
            fig.wrongly_none += not slugs
        if misses is not None and (slugs[:1] != [] if not expect else not (slugs and slugs[0] in expect)):
            misses.append(f"  [{q.get('kind', '')}] {q['text']!r}: want {sorted(expect)}, got {slugs[:3]}")
    return fig


def answers(engine: search.FaqSearch) -> Engine:
    return lambda q: [r.slug for r in engine.answer(q).results]


def rolling(entries: Sequence[faq.FaqEntry]) -> Engine:
    """Each held-out pair answered by a search that learned every earlier pair too."""
    engines = {}
    for i, name in enumerate(HELD_OUT[::2]):
        earlier = [q for s in HELD_OUT[: 2 * i] for q in load_questions(s)]
        engines[name[:3]] = search.FaqSearch(entries, [*search.labelled_questions(), *earlier])
    by_text = {str(q["text"]): n[:3] for n in HELD_OUT if (EVAL / f"{n}.toml").exists() for q in load_questions(n)}
    return lambda q: [r.slug for r in engines[by_text[q]].answer(q).results]


HEADER = f"{'engine':<12}{'set':<16}{'on':>4}{'top-1':>12}{'top-3':>12}{'no-ans!':>12}{'off':>5}{'no-ans':>12}"
LEGEND = "  on: on-topic; no-ans!: on-topic wrongly 'no answer'; off: off-topic; no-ans: off-topic 'no answer'"


def table(engines: dict[str, Engine], sets: Sequence[str], misses: list[str] | None = None) -> None:
    print(HEADER)
    for name, engine in engines.items():
        pooled = Figures()
        for set_name in sets:
            fig = evaluate(engine, load_questions(set_name), misses if name == "ours" else None)
            pooled.add(fig)
            print(f"{name:<12}{set_name.removesuffix('_heldout'):<16}{fig.row()}")
        for label, group in (("v16-v18", [s for s in sets if s[:3] in ("v16", "v17", "v18")]), ("all", sets)):
            if len(group) > 1 and (label == "all" or len(group) < len(sets)):
                total = Figures()
                for set_name in group:
                    total.add(evaluate(engine, load_questions(set_name)))
                print(f"{name:<12}{label + ', pooled':<16}{total.row()}")
    print(LEGEND)


def latency(engine: search.FaqSearch, texts: Sequence[str]) -> None:
    for label, suffix in (("first sight", ""), ("again", ""), ("with an unseen word", " xq")):
        times = []
        for text in texts:
            t0 = time.perf_counter()
            engine.answer(text + suffix)
            times.append((time.perf_counter() - t0) * 1000)
        p95 = statistics.quantiles(times, n=20)[-1]
        print(f"answer() {label:<20} n={len(times)} median {statistics.median(times):.2f} ms"
              f"  p95 {p95:.2f}  max {max(times):.2f}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rolling", action="store_true", help="each held-out pair learned with the earlier ones")
    parser.add_argument("--cross", action="store_true", help="learn without v13-v15, measure on them, list misses")
    args = parser.parse_args(argv)
    entries = faq.all_entries()
    t0, c0 = time.perf_counter(), time.process_time()
    if args.cross:
        asked = [q for q in search.labelled_questions() if q["set"] not in CROSS]
        ours, sets = search.FaqSearch(entries, asked), list(CROSS)
    else:
        ours, sets = search.FaqSearch(entries), [s for s in HELD_OUT if (EVAL / f"{s}.toml").exists()]
    print(f"entries: {len(entries)}; learned in {(time.perf_counter() - t0) * 1000:.0f} ms "
          f"({(time.process_time() - c0) * 1000:.0f} ms CPU) from {len(ours.model.classes)} classes, "
          f"{len(ours.model.idf)} features")
    baseline = PlainFts(entries)
    misses: list[str] = []
    engines = {"ours": answers(ours), "plain FTS5": baseline.search}
    if args.rolling:
        engines = {"rolling": rolling(entries)}
    table(engines, sets, misses if args.cross else None)
    if args.cross:
        print("misses (ours):\n" + ("\n".join(misses) or "  none"))
    latency(ours, [str(q["text"]) for s in sets for q in load_questions(s)])


if __name__ == "__main__":
    main()
