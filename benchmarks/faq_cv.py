"""FAQ search: cross-validation inside the labelled questions (v1-v15), the protocol for choosing a learner.

    python benchmarks/faq_cv.py                  # the search as it ships: each group, then pooled
    python benchmarks/faq_cv.py --variants       # ... and every learner tried against it (docs/benchmarks.md)

Three groups of the earlier blind sets (v7-v9, v10-v12, v13-v15, a and b halves). For each, the
search learns from everything else it learns from (the entries, every other labelled question in
`companion/data/faq_questions/`, `faq_not_answered.toml`) and is measured on the group; the three
are pooled (1,780 on-topic questions, 514 off-topic). The held-out sets v16 on
(`benchmarks/faq_eval/`) are never read here: a learner is chosen on these figures alone, then
measured once on the held-out sets with `faq_search_bench.py`. Figures as in `faq_search_bench.py`.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from faq_search_bench import LEGEND, Engine, Figures, Question, answers, evaluate  # noqa: E402

from companion.faq import entries as faq  # noqa: E402
from companion.faq import search  # noqa: E402

GROUPS = {f"v{a}-v{a + 2}": tuple(f"v{n}{half}_heldout" for n in range(a, a + 3) for half in "ab") for a in (7, 10, 13)}

Learner = Callable[[Sequence[faq.FaqEntry], list[Question]], Engine]  # learns from entries and questions


def shipped(entries: Sequence[faq.FaqEntry], asked: list[Question]) -> Engine:
    return answers(search.FaqSearch(entries, asked))


def cross_validate(learner: Learner, name: str, verbose: bool = True) -> Figures:
    """Each group measured on a search learned without it; the pooled figures."""
    entries = faq.all_entries()
    questions = search.labelled_questions()
    pooled = Figures()
    c0 = time.process_time()
    for group, sets in GROUPS.items():
        engine = learner(entries, [q for q in questions if q["set"] not in sets])
        fig = evaluate(engine, [q for q in questions if q["set"] in sets])
        pooled.add(fig)
        if verbose:
            print(f"{name:<28}{group:<16}{row(fig)}")
    print(f"{name:<28}{'pooled':<16}{row(pooled)}   ({time.process_time() - c0:.1f} s CPU)")
    return pooled


def row(fig: Figures) -> str:
    """The figures to two decimals (0.1 point is about 2 of the 1,780 on-topic questions pooled)."""
    def pct(n: int, d: int) -> str:
        return f"{n / d:.2%} {n:>4}" if d else "–"
    on, off = fig.on_topic, fig.off_topic
    return (f"{on:>5}{pct(fig.top1, on):>13}{pct(fig.top3, on):>13}{pct(fig.wrongly_none, on):>13}"
            f"{off:>5}{pct(fig.off_none, off):>13}")


HEADER = f"{'learner':<28}{'group':<16}{'on':>5}{'top-1':>13}{'top-3':>13}{'no-ans!':>13}{'off':>5}{'no-ans':>13}"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variants", action="store_true", help="also every learner tried against the shipped one")
    args = parser.parse_args(argv)
    print(HEADER)
    cross_validate(shipped, "shipped")
    print(LEGEND)


if __name__ == "__main__":
    main()
