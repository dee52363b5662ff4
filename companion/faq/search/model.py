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

from collections.abc import Sequence
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
        self.vocabulary: dict[str, int] = {}  # feature → its index, in the order first met
        ids = [self._ids(features(e.text), grow=True) for e in examples]
        counted = [np.unique(row, return_counts=True) for row in ids]
        df = np.bincount(np.concatenate([found for found, _ in counted]), minlength=len(self.vocabulary))
        # Words met once are, to the model, what a new word will be: their count is a feature too,
        # so it learns how much words it has never seen speak for "no answer" ("blackjack").
        self.seen = {f[2:] for f, i in self.vocabulary.items() if df[i] > 1 and f.startswith("w:")}
        rare = [self._rare(e.text) for e in examples]
        self.vocabulary[RARE] = len(df)
        df = np.append(df, sum(n > 0 for n in rare))
        self.idf = (np.log((len(examples) + 1) / (df + 1)) + 1).astype(np.float32)
        self.classes = sorted({e.label for e in examples})
        index = {c: i for i, c in enumerate(self.classes)}
        vectors = [self._vector(found, counts, n) for (found, counts), n in zip(counted, rare, strict=True)]
        self.weights = _train(vectors, [index[e.label] for e in examples], len(df), len(self.classes))

    def _ids(self, found: list[str], grow: bool = False) -> npt.NDArray[np.intp]:
        if grow:
            return np.array([self.vocabulary.setdefault(f, len(self.vocabulary)) for f in found], dtype=np.intp)
        return np.array([self.vocabulary[f] for f in found if f in self.vocabulary], dtype=np.intp)

    def _rare(self, text: str) -> int:
        return sum(w not in self.seen for w in words(text))

    def _vector(self, found: npt.NDArray[np.intp], counts: npt.NDArray[np.intp], rare: int) -> Vector:
        """TF-IDF over the features found, with the rare words' count; unit length."""
        if rare:
            found = np.append(found, self.vocabulary[RARE])
            counts = np.append(counts, rare)
        values = (1 + np.log(counts.astype(np.float32))) * self.idf[found]
        norm = float(np.linalg.norm(values))
        return found, values / norm if norm else values

    def knows(self, text: str) -> bool:
        """Whether `text` has any feature the model has met."""
        return any(f in self.vocabulary for f in features(text))

    def knows_a_word(self, text: str) -> bool:
        """Whether `text` has a whole word the model has met."""
        return any(f"w:{w}" in self.vocabulary for w in words(text))

    def scores(self, text: str) -> dict[str, float]:
        idx, values = self._vector(*np.unique(self._ids(features(text)), return_counts=True), self._rare(text))
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
    return (weights - total / step).astype(np.float32)
