"""Train the FAQ search's learned model (companion/faq_search/learned.py) and print how well it does
on writers it was not trained on.

    pip install -e '.[train]'
    python benchmarks/faq_train.py            # train on the tuning material, write companion/data/faq_model.json
    python benchmarks/faq_train.py --check    # instead, each writer's set left out in turn: the figures
    python benchmarks/faq_train.py --check --misses  # ... and each left-out set's misses

Input: every question of the tuning material (faq_search_bench.TUNING), read by the lexical index
(`FaqSearch.reading`): its features and measures, labelled with the entries whose verdict settles
it, or none; and our own texts (`learned.own_texts`): each entry's question, verdict and keywords
in both languages, labelled with the entry, and each word the vocabulary lists as another subject,
labelled none, each weighing `OWN`; each question of companion/data/faq_not_answered.toml,
labelled none, weighing `ASKED`, like a player's question (chosen in the twelfth round, with each
writer left out: docs/benchmarks.md).

The model: a softmax over the entries and "none", fitted by full-batch Adam with a small L2
penalty from zero weights (so the same input gives the same weights). The lexical score share
is added at a fixed weight (`LEXICAL`), not fitted: the lexical index was tuned on this very
material, so on it lexical scores look better than they are on new writers. `LEXICAL` was
chosen on v8, the one set the lexical index had not been tuned on then, with a model trained on
v1-v7, and checked on v8 and v9 together in the eighth round (docs/benchmarks.md).

--check leaves out each of the ten latest writers' sets in turn (`WRITERS`, each written blind by
one writer), trains on the rest and prints the figures on the set left out, then pooled.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Sequence
from dataclasses import fields
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import faq_search_bench as bench  # noqa: E402

from companion import faq_search  # noqa: E402
from companion.faq_search import learned  # noqa: E402

SETTINGS: dict[str, object] = {"l2": 1e-5, "steps": 400, "rate": 0.05, "min_count": 2}
OWN = 0.3  # weight of one of our own texts (`learned.own_texts`) against a player's question
ASKED = 1.0  # ... of one of the questions of faq_not_answered.toml: a player might ask it (docstring)
LEXICAL = 2.0  # weight of an entry's lexical score share in its logit (chosen on v8, see the docstring)
# The ten latest blind halves of the tuning material (one writer each), so that moving a set into
# faq_search_bench.TUNING is the one edit a round needs.
WRITERS = tuple(name for name in bench.TUNING if re.fullmatch(r"v\d+[ab]_heldout", name))[-10:]

Example = tuple[tuple[str, ...], tuple[float, ...], dict[str, float], tuple[str, ...]]


def examples(names: Sequence[str]) -> dict[str, list[Example]]:
    """Each set's questions as the model reads them: features, measures, lexical shares, labels."""
    engine = faq_search.search_engine()
    out: dict[str, list[Example]] = {}
    for name in names:
        rows = []
        for q in bench.load_questions(name):
            seen = engine.reading(str(q["text"]))
            rows.append((seen.features, seen.measures, seen.lexical_share, tuple(q["expect"])))  # type: ignore[arg-type]
        out[name] = rows
    return out


def own_examples() -> list[tuple[Example, float]]:
    """Our own texts (`learned.own_texts`: the entries' questions, verdicts and keywords; the words
    of other subjects and the questions of faq_not_answered.toml, about none), as questions, each
    with its weight: `ASKED` for a question of faq_not_answered.toml, `OWN` for the others."""
    engine = faq_search.search_engine()
    asked = {q for questions in learned.not_answered().values() for q in questions}
    rows = []
    for said, lang, expect in learned.own_texts(engine.entries.values(), engine.vocab):
        seen = engine.reading(said, lang)
        rows.append(((seen.features, seen.measures, seen.lexical_share, expect), ASKED if said in asked else OWN))
    return rows


def fit(rows: Sequence[Example], classes: Sequence[str],
        own: Sequence[tuple[Example, float]] = ()) -> learned.Model:
    """The model fitted to `rows` (players' questions, weighing 1 each) and `own` (our own texts, each
    with its weight)."""
    weight = np.array([1.0] * len(rows) + [w for _, w in own])
    rows = [*rows, *(r for r, _ in own)]
    counts: dict[str, int] = {}
    for feats, *_ in rows:
        for f in feats:
            counts[f] = counts.get(f, 0) + 1
    vocab = sorted(f for f, n in counts.items() if n >= int(SETTINGS["min_count"]))  # type: ignore[call-overload]
    column = {f: i for i, f in enumerate(vocab)}
    index = {c: i for i, c in enumerate(classes)}
    x = np.zeros((len(rows), len(vocab)))
    g = np.array([meas for _, meas, _, _ in rows])
    y = np.zeros((len(rows), len(classes)))
    for n, (feats, _, _, expect) in enumerate(rows):
        cols = [column[f] for f in feats if f in column]
        x[n, cols] = 1.0 / max(1.0, np.sqrt(len(cols)))
        for slug in expect or (learned.NONE,):
            y[n, index[slug]] = 1.0
    w = np.zeros((len(vocab), len(classes)))
    u = np.zeros(g.shape[1])
    moments = [[np.zeros_like(w), np.zeros_like(w)], [np.zeros_like(u), np.zeros_like(u)]]
    l2, rate = float(SETTINGS["l2"]), float(SETTINGS["rate"])  # type: ignore[arg-type]
    for step in range(1, int(SETTINGS["steps"]) + 1):  # type: ignore[call-overload]
        z = x @ w
        z[:, -1] += g @ u
        p = np.exp(z - z.max(1, keepdims=True))
        p /= p.sum(1, keepdims=True)
        right = p * y  # the loss: -log of the probability of any right class
        dz = (p - right / right.sum(1, keepdims=True)) * (weight / weight.sum())[:, None]
        for param, grad, (m, v) in ((w, x.T @ dz + l2 * w, moments[0]), (u, g.T @ dz[:, -1], moments[1])):
            m *= 0.9
            m += 0.1 * grad
            v *= 0.999
            v += 0.001 * grad * grad
            param -= rate * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
    weights = {f: tuple(round(float(v), 4) for v in w[i]) for f, i in column.items()}
    return learned.Model(tuple(classes), weights, tuple(round(float(v), 4) for v in u), LEXICAL, "", ())


def figures(model: learned.Model, rows: Sequence[Example]) -> bench.Figures:
    fig = bench.Figures()
    for feats, meas, share, expect in rows:
        order, answered = learned.decide(model.logits(feats, meas, share))
        if not expect:
            fig.off_topic += 1
            fig.off_none += not answered
            continue
        fig.on_topic += 1
        fig.wrongly_none += not answered
        fig.top1 += answered and order[0] in expect
        fig.top3 += answered and any(c in expect for c in order[:3])
    return fig


def print_misses(model: learned.Model, name: str, rows: Sequence[Example]) -> None:
    """The questions of `name` the model gets wrong: what it answered (first three, or none)."""
    for q, (feats, meas, share, expect) in zip(bench.load_questions(name), rows, strict=True):
        order, answered = learned.decide(model.logits(feats, meas, share))
        if (answered and order[0] in expect) or (not answered and not expect):
            continue
        print(f"    {'off-topic' if not expect else ','.join(expect)}: {q['text']!r} -> "
              f"{list(order[:3]) if answered else 'none'}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="leave each writer out in turn and print the figures (writes no model)")
    parser.add_argument("--misses", action="store_true", help="with --check: also list each left-out set's misses")
    args = parser.parse_args(argv)
    names = bench.available(bench.TUNING)
    start = time.perf_counter()
    data = examples(names)
    own = own_examples()
    classes = (*sorted(faq_search.search_engine().entries), learned.NONE)
    print(f"{sum(map(len, data.values()))} questions of {len(names)} sets read in {time.perf_counter() - start:.1f} s")
    if args.check:
        print("each writer's set left out in turn (trained on all the others):")
        print(f"{'':<16}{'on':>4}{'top-1':>10}{'top-3':>10}{'no-ans!':>10}{'off':>5}{'no-ans':>10}")
        pooled = bench.Figures()
        for name in WRITERS:
            model = fit([r for other, rows in data.items() if other != name for r in rows], classes, own)
            fig = figures(model, data[name])
            print(f"{name:<16}{fig.row()}")
            if args.misses:
                print_misses(model, name, data[name])
            for f in fields(bench.Figures):
                setattr(pooled, f.name, getattr(pooled, f.name) + getattr(fig, f.name))
        print(f"{'pooled':<16}{pooled.row()}")
        return
    start = time.perf_counter()
    rows = [r for rs in data.values() for r in rs]
    model = fit(rows, classes, own)
    digest = learned.fingerprint(((f, m, e) for f, m, _, e in (*rows, *(r for r, _ in own))), classes)
    model = learned.Model(model.classes, model.weights, model.none_measures, LEXICAL, digest, tuple(names))
    learned.MODEL_FILE.write_text(model.to_json(), encoding="utf-8")
    print(f"trained on {len(rows)} questions in {time.perf_counter() - start:.1f} s: {len(model.weights)} features, "
          f"written to {learned.MODEL_FILE.relative_to(bench.ROOT)}")
    print(f"on its own training material: {figures(model, rows).row()}")


if __name__ == "__main__":
    main()
