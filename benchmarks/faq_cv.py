"""FAQ search: cross-validation inside the labelled questions (v1-v15), the protocol for choosing a learner.

    python benchmarks/faq_cv.py                  # the search as it ships: each group, then pooled
    python benchmarks/faq_cv.py --variants       # ... and every learner tried against it (docs/benchmarks.md)

Then the time `answer()` takes, on the v13-v15 questions, learned from everything (as served).

Three groups of the earlier blind sets (v7-v9, v10-v12, v13-v15, a and b halves). For each, the
search learns from everything else it learns from (the entries, every other labelled question in
`companion/data/faq_questions/`, `faq_not_answered.toml`) and is measured on the group; the three
are pooled (1,780 on-topic questions, 514 off-topic). The held-out sets v16 on
(`benchmarks/faq_eval/`) are never read here: a learner is chosen on these figures alone, then
measured once on the held-out sets with `faq_search_bench.py`. Figures as in `faq_search_bench.py`.

The variants are learners tried on the shipped analyser and TF-IDF vectors, built here and not in
the package: the linear model alone (the search before the nearest question was added), the
nearest training questions (k-NN, cosine) blended with it, softmax regression and one-vs-rest
passive-aggressive models by averaged SGD, "none" stepping more or less, other feature counts.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import numpy as np  # noqa: E402
import numpy.typing as npt  # noqa: E402
from faq_search_bench import LEGEND, Engine, Figures, Question, answers, evaluate, latency  # noqa: E402

from companion.faq import entries as faq  # noqa: E402
from companion.faq import search  # noqa: E402
from companion.faq.search import model as linear  # noqa: E402
from companion.faq.search.text import features  # noqa: E402

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
    kind = getattr(learner, "counting", None)
    with counting(kind) if kind else contextlib.nullcontext():
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


# ---- the learners tried: each scores a question's TF-IDF vector (the shipped analyser and vectors)
Floats = npt.NDArray[np.float32]
Scorer = Callable[[linear.Vector], Floats]  # a question's vector → one score per class (model.classes order)


def vector(model: linear.Model, text: str) -> linear.Vector:
    """`text` as the model sees it (the very vector `Model.scores` weighs)."""
    return model._vector(*np.unique(model._ids(features(text)), return_counts=True), model._rare(text))


class Rescored:
    """The shipped model with other scores: what `FaqSearch` asks of a model."""

    def __init__(self, model: linear.Model, scorer: Scorer) -> None:
        self.model, self.scorer, self.classes = model, scorer, model.classes

    def knows(self, text: str) -> bool:
        return self.model.knows(text)

    def knows_a_word(self, text: str) -> bool:
        return self.model.knows_a_word(text)

    def scores(self, text: str) -> dict[str, float]:
        return {c: float(s) for c, s in zip(self.classes, self.scorer(vector(self.model, text)), strict=True)}


Make = Callable[[linear.Model, list[linear.Vector], npt.NDArray[np.intp]], Scorer]


def variant(make: Make) -> Learner:
    """A learner: the shipped model learned, then `make` builds the scores from its training vectors."""
    def learner(entries: Sequence[faq.FaqEntry], asked: list[Question]) -> Engine:
        engine = search.FaqSearch(entries, asked)
        model = engine.model
        examples = search.examples(engine.entries.values(), asked)
        index = {c: i for i, c in enumerate(model.classes)}
        keywords = {t for e in engine.entries.values() for lang in faq.LANGS for t in e.text(lang).keywords}
        questions = {e.text(lang).question for e in engine.entries.values() for lang in faq.LANGS}
        global KEYWORD  # noqa: PLW0603  (which examples are an entry's keyword, for `nearest`)
        KEYWORD = np.array([e.text in keywords and e.text not in questions for e in examples])
        vectors = [vector(model, e.text) for e in examples]
        labels = np.array([index[e.label] for e in examples], dtype=np.intp)
        engine.model = Rescored(model, make(model, vectors, labels))  # type: ignore[assignment]
        return answers(engine)
    return learner


def linear_scores(weights: Floats) -> Scorer:
    def score(v: linear.Vector) -> Floats:
        idx, values = v
        return values @ weights[idx] if len(idx) else np.zeros(weights.shape[1], dtype=np.float32)
    return score


def shipped_scores(model: linear.Model, vectors: list[linear.Vector], labels: npt.NDArray[np.intp]) -> Scorer:
    return linear_scores(np.asarray(model.weights))


class Neighbours:
    """Cosine similarity of a question to every training question (an inverted index over features)."""

    def __init__(self, vectors: list[linear.Vector], n_features: int) -> None:
        rows = np.concatenate([np.full(len(i), r, dtype=np.intp) for r, (i, _) in enumerate(vectors)])
        cols = np.concatenate([i for i, _ in vectors])
        vals = np.concatenate([v for _, v in vectors]).astype(np.float32)
        order = np.argsort(cols, kind="stable")
        self.rows, self.vals = rows[order], vals[order]
        self.start = np.searchsorted(cols[order], np.arange(n_features + 1))
        self.n = len(vectors)

    def similarity(self, v: linear.Vector) -> Floats:
        idx, values = v
        spans = [(self.start[f], self.start[f + 1]) for f in idx]
        rows = np.concatenate([self.rows[a:b] for a, b in spans] or [np.zeros(0, dtype=np.intp)])
        weights = np.concatenate([self.vals[a:b] * q for (a, b), q in zip(spans, values, strict=True)]
                                 or [np.zeros(0, dtype=np.float32)])
        return np.bincount(rows, weights=weights, minlength=self.n).astype(np.float32)


KEYWORD = np.zeros(0, dtype=bool)


def nearest(beta: float, k: int = 1, alone: bool = False, keywords: bool = True) -> Make:
    """The linear scores plus `beta` times each class's mean similarity over its `k` nearest training
    questions (without `keywords`: only whole questions, not the entries' keywords, are neighbours)."""
    def make(model: linear.Model, vectors: list[linear.Vector], labels: npt.NDArray[np.intp]) -> Scorer:
        near = Neighbours(vectors, len(model.idf))
        base = shipped_scores(model, vectors, labels)
        n_classes = len(model.classes)
        members = [np.flatnonzero((labels == c) & (keywords | ~KEYWORD)) for c in range(n_classes)]

        def score(v: linear.Vector) -> Floats:
            sim = near.similarity(v)
            per_class = np.array([np.sort(sim[m])[-k:].mean() for m in members], dtype=np.float32)
            return beta * per_class if alone else base(v) + beta * per_class
        return score
    return make


def sgd(step: Callable[[Floats, int, int], Floats], model: linear.Model, vectors: list[linear.Vector],
        labels: npt.NDArray[np.intp], epochs: int = linear.EPOCHS) -> Floats:
    """Averaged online learning in the shipped order: `step(scores, label, t)` gives each class's
    change along the question's vector."""
    weights = np.zeros((len(model.idf), len(model.classes)), dtype=np.float32)
    total = np.zeros_like(weights)
    order = np.random.default_rng(linear.SEED)
    t = 1
    for _ in range(epochs):
        for i in order.permutation(len(vectors)):
            idx, values = vectors[i]
            change = step(values @ weights[idx], int(labels[i]), t)
            if len(idx) and change.any():
                delta = np.outer(values, change).astype(np.float32)
                weights[idx] += delta
                total[idx] += t * delta
            t += 1
    return (weights - total / t).astype(np.float32)


def softmax(rate: float, epochs: int = linear.EPOCHS) -> Make:
    """Multinomial logistic regression by averaged SGD (a constant rate), scores the log-odds."""
    def step(row: Floats, label: int, t: int) -> Floats:
        p = np.exp(row - row.max())
        p /= p.sum()
        p[label] -= 1
        return -rate * p

    def make(model: linear.Model, vectors: list[linear.Vector], labels: npt.NDArray[np.intp]) -> Scorer:
        return linear_scores(sgd(step, model, vectors, labels, epochs))
    return make


def one_vs_rest(c: float = linear.C) -> Make:
    """One passive-aggressive (PA-I) binary model per class, each its margin ±1."""
    def step(row: Floats, label: int, t: int) -> Floats:
        sign = -np.ones_like(row)
        sign[label] = 1
        return np.minimum(c, np.maximum(0, 1 - sign * row)) * sign

    def make(model: linear.Model, vectors: list[linear.Vector], labels: npt.NDArray[np.intp]) -> Scorer:
        return linear_scores(sgd(step, model, vectors, labels))
    return make


def balanced_none(weight: float) -> Make:
    """The shipped PA-I, a question of "none" stepping at most `weight` × C."""
    def make(model: linear.Model, vectors: list[linear.Vector], labels: npt.NDArray[np.intp]) -> Scorer:
        none = model.classes.index(linear.NONE)

        def step(row: Floats, label: int, t: int) -> Floats:
            margin = row[label]
            row = row.copy()
            row[label] = -np.inf
            wrong = int(np.argmax(row))
            loss = 1.0 - (margin - row[wrong])
            change = np.zeros_like(row)
            if loss > 0:
                tau = min(linear.C * (weight if label == none else 1.0), loss / 2)
                change[label], change[wrong] = tau, -tau
            return change
        return linear_scores(sgd(step, model, vectors, labels))
    return make


@contextlib.contextmanager
def counting(kind: str) -> Iterator[None]:
    """Meanwhile every model weighs a feature's count otherwise, learning and asked: "binary" (1
    each) or "raw" (the count), instead of the shipped 1 + log(count)."""
    shipped_vector = linear.Model._vector

    def _vector(self: linear.Model, found: npt.NDArray[np.intp], counts: npt.NDArray[np.intp], rare: int
                ) -> linear.Vector:
        idx, values = shipped_vector(self, found, counts, rare)
        tf = np.append(counts, rare)[: len(idx)].astype(np.float32)
        raw = (np.ones_like(tf) if kind == "binary" else tf) * self.idf[idx]
        return idx, (raw / np.linalg.norm(raw)).astype(np.float32) if len(idx) else values
    linear.Model._vector = _vector  # type: ignore[method-assign]
    try:
        yield
    finally:
        linear.Model._vector = shipped_vector  # type: ignore[method-assign]


def counted(kind: str, learner: Learner) -> Learner:
    """`learner` with the features' counts weighed as `counting(kind)`: a marker `cross_validate` reads."""
    def learn(entries: Sequence[faq.FaqEntry], asked: list[Question]) -> Engine:
        return learner(entries, asked)
    learn.counting = kind  # type: ignore[attr-defined]
    return learn


def blend(*parts: tuple[float, Make]) -> Make:
    """A weighted sum of several learners' scores."""
    def make(model: linear.Model, vectors: list[linear.Vector], labels: npt.NDArray[np.intp]) -> Scorer:
        scorers = [(w, m(model, vectors, labels)) for w, m in parts]
        return lambda v: sum((w * f(v) for w, f in scorers), np.zeros(len(model.classes), dtype=np.float32))
    return make


HEADER = f"{'learner':<28}{'group':<16}{'on':>5}{'top-1':>13}{'top-3':>13}{'no-ans!':>13}{'off':>5}{'no-ans':>13}"


LINEAR = variant(shipped_scores)  # the weights alone: issue 20's search before the nearest question
VARIANTS: dict[str, Learner] = {  # in the order tried; the shipped one is "+ 1.0 × 1-NN, whole questions"
    "PA alone (before)": LINEAR,
    "PA alone, by sgd()": variant(balanced_none(1.0)),
    "1-NN alone": variant(nearest(1.0, 1, alone=True)),
    "+ 0.5 × 1-NN": variant(nearest(0.5)),
    "+ 1.0 × 1-NN": variant(nearest(1.0)),
    "+ 1.0 × 3-NN": variant(nearest(1.0, 3)),
    "+ 1.5 × 1-NN": variant(nearest(1.5)),
    "+ 2.0 × 1-NN": variant(nearest(2.0)),
    "PA, none C × 0.5": variant(balanced_none(0.5)),
    "PA, none C × 2": variant(balanced_none(2.0)),
    "one-vs-rest PA": variant(one_vs_rest()),
    "softmax, rate 1": variant(softmax(1.0)),
    "softmax, rate 3": variant(softmax(3.0)),
    "+ 0.5 × 1-NN, whole q.": variant(nearest(0.5, keywords=False)),
    "+ 1.0 × 1-NN, whole q.": variant(nearest(1.0, keywords=False)),
    "+ 1.0 × 3-NN, whole q.": variant(nearest(1.0, 3, keywords=False)),
    "+ 0.75 × 1-NN, whole q.": variant(nearest(0.75, keywords=False)),
    "+ 1.5 × 1-NN, whole q.": variant(nearest(1.5, keywords=False)),
    "+ 1.0 × 2-NN, whole q.": variant(nearest(1.0, 2, keywords=False)),
    "PA, binary counts": counted("binary", LINEAR),
    "PA, raw counts": counted("raw", LINEAR),
    "softmax, rate 10": variant(softmax(10.0)),
    "binary + 1-NN, whole q.": counted("binary", variant(nearest(1.0, keywords=False))),
    "PA + 0.5 × softmax(3)": variant(blend((1.0, shipped_scores), (0.5, softmax(3.0)))),
}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variants", action="store_true", help="also every learner tried against the shipped one")
    args = parser.parse_args(argv)
    print(HEADER)
    cross_validate(shipped, "shipped")
    if args.variants:
        for name, learner in VARIANTS.items():
            cross_validate(learner, name, verbose=False)
    print(LEGEND)
    engine = search.FaqSearch(faq.all_entries())  # learned from everything: the search as served
    latency(engine, [str(q["text"]) for q in search.labelled_questions() if q["set"] in GROUPS["v13-v15"]])


if __name__ == "__main__":
    main()
