"""FAQ search quality and speed: our search against a plain FTS5 baseline.

    python benchmarks/faq_search_bench.py            # dev, dev2 and holdout
    python benchmarks/faq_search_bench.py --dev-only  # while tuning (dev + dev2): never look at holdout

Eval sets: benchmarks/faq_eval/{dev,dev2,holdout}.toml (dev and dev2 are for
tuning; holdout only for the summary, never per question), `[[q]]` tables with `text`,
`lang` and `expect` (the slugs that count as a right answer). A question is a
top-k hit when one of the first k results is in `expect`.

Baseline: the same entries in one FTS5 table (unicode61 tokenizer, no
stemming, no synonyms), columns question and answer (both languages each),
the query's words joined with OR, ranked by bm25().
"""

from __future__ import annotations

import argparse
import re
import sqlite3
import statistics
import sys
import time
import tomllib
from pathlib import Path
from typing import Callable, Sequence

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion import faq, faq_search  # noqa: E402

EVAL = ROOT / "benchmarks" / "faq_eval"


class PlainFts:
    """The baseline: what FTS5 gives with no analysis of our own."""

    def __init__(self, entries: Sequence[faq.FaqEntry]) -> None:
        self.db = sqlite3.connect(":memory:")
        self.db.execute("CREATE VIRTUAL TABLE faq USING fts5(slug UNINDEXED, question, answer, tokenize = 'unicode61')")
        for e in entries:
            self.db.execute(
                "INSERT INTO faq VALUES (?, ?, ?)",
                (e.slug, f"{e.ru.question}\n{e.en.question}",
                 f"{e.ru.verdict}\n{e.ru.answer}\n{e.en.verdict}\n{e.en.answer}"),
            )

    def search(self, q: str, limit: int = 10) -> list[str]:
        words = re.findall(r"\w+", q.lower())
        if not words:
            return []
        match = " OR ".join('"' + w.replace('"', '""') + '"' for w in words)
        rows = self.db.execute("SELECT slug FROM faq WHERE faq MATCH ? ORDER BY bm25(faq) LIMIT ?", (match, limit))
        return [slug for (slug,) in rows]


def load_questions(name: str) -> list[dict[str, object]]:
    with (EVAL / f"{name}.toml").open("rb") as f:
        return list(tomllib.load(f)["q"])


def evaluate(search: Callable[[str], list[str]], questions: list[dict[str, object]]) -> tuple[float, float, list[float]]:
    top1 = top3 = 0
    times = []
    for q in questions:
        start = time.perf_counter()
        slugs = search(str(q["text"]))
        times.append((time.perf_counter() - start) * 1000)
        expect = set(q["expect"])  # type: ignore[call-overload]
        top1 += bool(slugs[:1]) and slugs[0] in expect
        top3 += any(s in expect for s in slugs[:3])
    return top1 / len(questions), top3 / len(questions), times


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dev-only", action="store_true", help="measure the tuning sets only (dev, dev2)")
    args = parser.parse_args(argv)

    start = time.perf_counter()
    entries = faq.all_entries()
    ours = faq_search.search_engine()
    build_ms = (time.perf_counter() - start) * 1000
    baseline = PlainFts(entries)
    engines: dict[str, Callable[[str], list[str]]] = {
        "ours": lambda q: [r.slug for r in ours.search(q, limit=10)],
        "baseline": lambda q: baseline.search(q, limit=10),
    }
    sets = ["dev", "dev2"] if args.dev_only else ["dev", "dev2", "holdout"]
    print(f"entries: {len(entries)}; index built in {build_ms:.0f} ms (load + analyse + FTS5)")
    print(f"{'engine':<10}{'set':<9}{'n':>4}{'top-1':>8}{'top-3':>8}")
    latency: dict[str, list[float]] = {name: [] for name in engines}
    for name, search in engines.items():
        for set_name in sets:
            questions = load_questions(set_name)
            top1, top3, times = evaluate(search, questions)
            latency[name].extend(times)
            print(f"{name:<10}{set_name:<9}{len(questions):>4}{top1:>8.0%}{top3:>8.0%}")
    print("latency per search over all queries above (ms):")
    for name, times in latency.items():
        p95 = statistics.quantiles(times, n=20)[-1]
        print(f"  {name:<10} median {statistics.median(times):.2f}  p95 {p95:.2f}  max {max(times):.2f}")


if __name__ == "__main__":
    main()
