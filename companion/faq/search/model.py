"""A linear classifier over the analyser's features and the nearest question, learned at start-up.

Each question is a TF-IDF vector (sublinear counts, unit length) over `text.features`. One weight
vector per class (every entry, and `NONE` for questions no entry answers) is learned by the
averaged passive-aggressive algorithm (Crammer et al., 2006, PA-I, multi-class): questions in a
fixed shuffled order, a few passes; whenever the right class does not beat the best wrong one by a
margin of 1, both move towards and away from the question just enough (at most `C`). The average
of the weights over all steps is kept. A class's score is its weights' score plus `NEAREST` times
the cosine similarity of the question to the class's nearest whole question learned from (an
entry's keywords are not neighbours): a question asked again nearly as written counts as its
label says (chosen by cross-validation, benchmarks/faq_cv.py). It is deterministic (a fixed
seed) and takes about a second for the ~5,800 examples. `learned` keeps what it learned in the
app's instance folder, keyed by a hash of what it learned from and of the search's code: the next
start with the same data and code reads it back (a tenth of a second; the weights and the
questions' vectors are mapped from their file, so processes share them); any other start, or a
missing or unreadable file, learns again. Files are written beside and renamed into place, never
rewritten: a running process may still map the old one. Nothing learned is committed.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import zipfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import numpy as np
import numpy.typing as npt

from companion.faq.search.text import features, words

NONE = ""  # the class of questions no entry answers
EPOCHS = 5
C = 0.3  # the largest step for one question (PA-I's aggressiveness)
NEAREST = 1.0  # the weight of a class's nearest question's similarity (0..1) beside its linear score
SEED = 101
CODE = ("text.py", "model.py")  # the search's code a learned model depends on (its cache key)

Vector = tuple[npt.NDArray[np.intp], npt.NDArray[np.float32]]  # feature indices and their weights
Floats = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Example:
    text: str
    label: str  # an entry's slug, or NONE
    whole: bool = True  # a whole question (a neighbour for the nearest question), not a keyword


class Model:
    """Scores for every class of a question; higher is likelier."""

    def __init__(self, examples: Sequence[Example]) -> None:
        vocabulary: dict[str, int] = {}  # feature → its index, in the order first met
        ids = [np.array([vocabulary.setdefault(f, len(vocabulary)) for f in features(e.text)], dtype=np.intp)
               for e in examples]
        self.keys, self.key_ids = _keyed(vocabulary)
        counted = [np.unique(row, return_counts=True) for row in ids]
        df = np.bincount(np.concatenate([found for found, _ in counted]), minlength=len(vocabulary))
        # Words met once are, to the model, what a new word will be: their count is a feature too
        # (the last), so it learns how much words it has never seen speak for "no answer" ("blackjack").
        self.seen = {f[2:] for f, i in vocabulary.items() if df[i] > 1 and f.startswith("w:")}
        rare = [self._rare(e.text) for e in examples]
        df = np.append(df, sum(n > 0 for n in rare))
        self.idf = (np.log((len(examples) + 1) / (df + 1)) + 1).astype(np.float32)
        self.classes = sorted({e.label for e in examples})
        index = {c: i for i, c in enumerate(self.classes)}
        vectors = [self._vector(found, counts, n) for (found, counts), n in zip(counted, rare, strict=True)]
        labels = [index[e.label] for e in examples]
        self.weights = _train(vectors, labels, len(df), len(self.classes)).astype(np.float16)
        self.neighbour_class, self.start, self.posted, self.values = _neighbours(vectors, labels, examples, len(df))

    def save(self, path: Path) -> None:
        """Write the model to `path` (.npz) and the arrays read in part by each question beside it
        (.npy, their bytes one after another), each atomically; the .npz last, so that a reader
        finding it finds the .npy too."""
        with _replacing(path.with_suffix(".npy")) as f:
            np.save(f, np.concatenate([getattr(self, name).ravel().view(np.uint8) for name, _ in self._mapped()]))
        with _replacing(path) as f:
            np.savez(f, keys=self.keys, key_ids=self.key_ids, seen=np.array(sorted(self.seen)), idf=self.idf,
                     classes=np.array(self.classes), start=self.start, neighbour_class=self.neighbour_class)

    @classmethod
    def load(cls, path: Path) -> Model:
        """The model `save` wrote, its weights and the questions' vectors mapped from their file
        (pages read when a question needs them, shared by every process); OSError or ValueError
        when missing or unreadable."""
        try:
            with np.load(path, allow_pickle=False) as stored:
                model = cls.__new__(cls)
                model.keys, model.key_ids = stored["keys"], stored["key_ids"]
                model.seen = {str(w) for w in stored["seen"]}
                model.idf = stored["idf"]
                model.classes = [str(c) for c in stored["classes"]]
                model.start = stored["start"]
                model.neighbour_class = stored["neighbour_class"]
            mapped = np.load(path.with_suffix(".npy"), mmap_mode="r", allow_pickle=False)
        except (KeyError, EOFError, zipfile.BadZipFile) as e:
            raise ValueError(f"not a stored model: {path}") from e
        size = len(model.idf)
        if (model.start.shape != (size + 1,) or model.keys.shape != model.key_ids.shape or mapped.dtype != np.uint8
                or model.key_ids.max(initial=0) >= size):
            raise ValueError(f"a stored model of the wrong shape: {path}")
        offset = 0
        for name, (dtype, shape) in model._mapped():
            length = int(np.prod(shape)) * np.dtype(dtype).itemsize
            setattr(model, name, mapped[offset : offset + length].view(dtype).reshape(shape))
            offset += length
        if offset != len(mapped):
            raise ValueError(f"a stored model of the wrong size: {path}")
        return model

    def _mapped(self) -> list[tuple[str, tuple[type[np.generic], tuple[int, ...]]]]:
        """The arrays kept in the .npy, in order, with their type and shape: the weights (to a
        thousandth, as learned) and, by feature, the whole questions' numbers and values."""
        postings = (int(self.start[-1]),)
        return [("posted", (_number_type(len(self.neighbour_class)), postings)),
                ("weights", (np.float16, (len(self.idf), len(self.classes)))),
                ("values", (np.float16, postings))]

    def _ids(self, found: list[str]) -> npt.NDArray[np.intp]:
        """The indices of the features of `found` that the model has met."""
        keys = np.array([_key(f) for f in found], dtype=np.uint64)
        at = np.minimum(np.searchsorted(self.keys, keys), len(self.keys) - 1)
        ids: npt.NDArray[np.intp] = self.key_ids[at[self.keys[at] == keys]].astype(np.intp)
        return ids

    def _rare(self, text: str) -> int:
        return sum(w not in self.seen for w in words(text))

    def _vector(self, found: npt.NDArray[np.intp], counts: npt.NDArray[np.intp], rare: int) -> Vector:
        """TF-IDF over the features found, with the rare words' count; unit length."""
        if rare:
            found = np.append(found, len(self.idf) - 1)
            counts = np.append(counts, rare)
        values = (1 + np.log(counts.astype(np.float32))) * self.idf[found]
        norm = float(np.linalg.norm(values))
        return found, values / norm if norm else values

    def knows(self, text: str) -> bool:
        """Whether `text` has any feature the model has met."""
        return len(self._ids(features(text))) > 0

    def knows_a_word(self, text: str) -> bool:
        """Whether `text` has a whole word the model has met."""
        return len(self._ids([f"w:{w}" for w in words(text)])) > 0

    def scores(self, text: str) -> dict[str, float]:
        idx, values = self._vector(*np.unique(self._ids(features(text)), return_counts=True), self._rare(text))
        row = values @ self.weights[idx] + NEAREST * self._nearest(idx, values)
        return {c: float(s) for c, s in zip(self.classes, row, strict=True)}

    def _nearest(self, idx: npt.NDArray[np.intp], values: Floats) -> Floats:
        """Per class, the cosine similarity of the question to its nearest whole question (0..1)."""
        first, lengths = self.start[idx], self.start[idx + 1] - self.start[idx]
        at = np.repeat(first - np.cumsum(lengths) + lengths, lengths) + np.arange(lengths.sum())
        weights = self.values[at] * np.repeat(values, lengths)
        similarity = np.bincount(self.posted[at], weights=weights, minlength=len(self.neighbour_class))
        nearest = np.zeros(len(self.classes), dtype=np.float32)
        present = np.bincount(self.neighbour_class, minlength=len(self.classes)) > 0
        if present.any():  # the questions come class by class: each class's maximum over its run
            runs = np.searchsorted(self.neighbour_class, np.flatnonzero(present))
            nearest[present] = np.maximum.reduceat(similarity, runs)
        return nearest


def _key(feature: str) -> int:
    """A feature's key: 64 bits of its hash (two of ~50,000 features share one with a chance of
    about 1 in 10¹⁰; a question's feature the model never met finds none)."""
    return int.from_bytes(hashlib.blake2b(feature.encode(), digest_size=8).digest(), "little")


def _keyed(vocabulary: dict[str, int]) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.int32]]:
    """The features' keys, sorted, and the index of the feature each names: the vocabulary in
    0.6 MB where a dict of its strings takes 6."""
    keys = np.array([_key(f) for f in vocabulary], dtype=np.uint64)
    order = np.argsort(keys, kind="stable")
    return keys[order], np.array(list(vocabulary.values()), dtype=np.int32)[order]


@contextlib.contextmanager
def _replacing(target: Path) -> Iterator[BinaryIO]:
    """A file to write that replaces `target` once written whole."""
    part = target.with_name(f"{target.name}.{os.getpid()}.part")
    with part.open("wb") as f:
        yield f
    os.replace(part, target)


def cache_key(examples: Sequence[Example]) -> str:
    """A hash of the examples (texts and labels, in order) and of the code that learns from them."""
    digest = hashlib.sha256()
    for name in CODE:
        digest.update((Path(__file__).parent / name).read_bytes())
    for e in examples:
        digest.update(f"{e.label}\t{e.text}\n".encode())
    return digest.hexdigest()[:20]


def learned(examples: Sequence[Example], folder: Path | None) -> Model:
    """The model of `examples`: read back from `folder` when learned there before, else learned
    (and kept there, replacing models of other data; a folder that cannot be written keeps none)."""
    if folder is None:
        return Model(examples)
    path = folder / f"faq-search-{cache_key(examples)}.npz"
    try:
        return Model.load(path)
    except (OSError, ValueError):
        pass  # not learned yet, or unreadable: learn again
    model = Model(examples)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        model.save(path)
        for old in folder.glob("faq-search-*"):  # other data's files, and parts a crash left
            if not old.name.startswith(f"{path.stem}."):
                old.unlink(missing_ok=True)
        return Model.load(path)  # the weights mapped from the file, as at every later start
    except (OSError, ValueError):
        return model  # a read-only instance folder: the next start learns again


def _number_type(n: int) -> type[np.uint16 | np.uint32]:
    """The smallest type that numbers `n` questions."""
    return np.uint16 if n <= 1 << 16 else np.uint32


def _neighbours(vectors: Sequence[Vector], labels: Sequence[int], examples: Sequence[Example], n_features: int
                ) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.int32], npt.NDArray[np.uint16 | np.uint32],
                           npt.NDArray[np.float16]]:
    """The whole questions' classes (in order) and their vectors by feature: the postings from
    `start[f]` to `start[f + 1]` are the questions that have feature `f` (their numbers) and its
    value in each."""
    whole = [i for i, e in enumerate(examples) if e.whole]
    whole.sort(key=labels.__getitem__)  # class by class
    classes = np.array(labels, dtype=np.intp)[whole]
    found = [vectors[i] for i in whole]
    none = np.zeros(0, dtype=np.intp)
    numbers = np.concatenate([none, *(np.full(len(idx), n, dtype=np.intp) for n, (idx, _) in enumerate(found))])
    cols = np.concatenate([none, *(idx for idx, _ in found)])
    values = np.concatenate([none.astype(np.float32), *(v for _, v in found)])
    order = np.argsort(cols, kind="stable")
    start = np.searchsorted(cols[order], np.arange(n_features + 1)).astype(np.int32)
    return (classes, start, numbers[order].astype(_number_type(len(classes))),
            values[order].astype(np.float16))


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
