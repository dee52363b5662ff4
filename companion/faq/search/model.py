"""A linear classifier over the analyser's features, learned at start-up from labelled questions.

Each question is a TF-IDF vector (sublinear counts, unit length) over `text.features`. One weight
vector per class (every entry, and `NONE` for questions no entry answers) is learned by the
averaged passive-aggressive algorithm (Crammer et al., 2006, PA-I, multi-class): questions in a
fixed shuffled order, a few passes; whenever the right class does not beat the best wrong one by a
margin of 1, both move towards and away from the question just enough (at most `C`). The average
of the weights over all steps is kept. It is deterministic (a fixed seed) and takes about a second
for the ~4,800 questions, so it is built from the data at every start and never stored.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from itertools import chain
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from companion.faq.search.text import features, words

NONE = ""  # the class of questions no entry answers
RARE = "rare"  # the feature: how many words of a question the model met at most once (no gram has 4 letters)
EPOCHS = 5
C = 0.3  # the largest step for one question (PA-I's aggressiveness)
SEED = 101

Vector = tuple[npt.NDArray[np.intp], npt.NDArray[np.float32]]  # feature indices and their weights


@dataclass(frozen=True)
class Example:
    text: str
    label: str  # an entry's slug, or NONE


class Model:
    """Scores for every class of a question; higher is likelier."""

    def __init__(self, examples: Sequence[Example]) -> None:
        counted = [features(e.text) for e in examples]
        df = Counter(chain.from_iterable(counted))
        # Words met once are, to the model, what a new word will be: their count is a feature too,
        # so it learns how much words it has never seen speak for "no answer" ("blackjack").
        self.seen = {f[2:] for f, n in df.items() if n > 1 and f.startswith("w:")}
        for e, found in zip(examples, counted, strict=True):
            self._count_rare(e.text, found)
        df[RARE] = sum(RARE in found for found in counted)
        names = sorted(df)
        self.vocabulary = {f: i for i, f in enumerate(names)}
        n = len(counted)
        self.idf = np.log((n + 1) / (np.array([df[f] for f in names], dtype=np.float32) + 1)) + 1
        self.classes = sorted({e.label for e in examples})
        index = {c: i for i, c in enumerate(self.classes)}
        self.weights = _train(self._vectors(counted), [index[e.label] for e in examples],
                              len(names), len(self.classes))

    def _vectors(self, counted: Sequence[Counter[str]]) -> list[Vector]:
        """Every question's vector at once (one array for all, a slice each): start-up time."""
        lengths = [len(found) for found in counted]
        total = sum(lengths)
        keys = chain.from_iterable(counted)
        idx = np.fromiter(map(self.vocabulary.__getitem__, keys), dtype=np.intp, count=total)
        counts = np.fromiter(chain.from_iterable(f.values() for f in counted), dtype=np.float32, count=total)
        values = (1 + np.log(counts)) * self.idf[idx]
        bounds = np.cumsum([0, *lengths])
        norms = np.sqrt(np.add.reduceat(values * values, bounds[:-1]))
        values /= np.repeat(np.where(norms > 0, norms, 1), lengths)
        return [(idx[a:b], values[a:b]) for a, b in zip(bounds[:-1], bounds[1:], strict=True)]

    def _count_rare(self, text: str, found: Counter[str]) -> Counter[str]:
        rare = sum(w not in self.seen for w in words(text))
        if rare:
            found[RARE] = rare
        return found

    def _vector(self, found: Counter[str]) -> Vector:
        known = [(self.vocabulary[f], c) for f, c in found.items() if f in self.vocabulary]
        idx = np.array([i for i, _ in known], dtype=np.intp)
        values = np.array([1 + math.log(c) for _, c in known], dtype=np.float32) * self.idf[idx]
        norm = float(np.linalg.norm(values))
        return idx, values / norm if norm else values

    def knows(self, text: str) -> bool:
        """Whether `text` has any feature the model has met."""
        return any(f in self.vocabulary for f in features(text))

    def knows_a_word(self, text: str) -> bool:
        """Whether `text` has a whole word the model has met."""
        return any(f"w:{w}" in self.vocabulary for w in words(text))

    def scores(self, text: str) -> dict[str, float]:
        idx, values = self._vector(self._count_rare(text, features(text)))
        row = values @ self.weights[idx] if len(idx) else np.zeros(len(self.classes), dtype=np.float32)
        return {c: float(s) for c, s in zip(self.classes, row, strict=True)}


def _train(vectors: Sequence[Vector], labels: Sequence[int], n_features: int, n_classes: int
           ) -> npt.NDArray[np.float32]:
    weights = np.zeros((n_features, n_classes), dtype=np.float32)
    total = np.zeros_like(weights)  # every update times its step number: the average without summing
    order = np.random.default_rng(SEED)
    step = 1
    for _ in range(EPOCHS):
        for i in order.permutation(len(vectors)):
            idx, values = vectors[i]
            right = labels[i]
            row = values @ weights[idx]
            margin = row[right]
            row[right] = -np.inf
            wrong = int(np.argmax(row))
            loss = 1.0 - (margin - row[wrong])
            if loss > 0 and len(idx):
                change = min(C, loss / 2) * values  # |x|² = 1 for both classes' rows: 2 in all
                weights[idx, right] += change
                weights[idx, wrong] -= change
                total[idx, right] += step * change
                total[idx, wrong] -= step * change
            step += 1
    return weights - total / step
