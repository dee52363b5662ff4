"""The learned reader: which entry a question asks about, or none, from the words players used.

The lexical index (`index`) finds the entries that share words with a question. Which of them the
question is *about* depends on how people put things, and hand-written rules for that learnt only
the words of whoever wrote the questions they were drawn from. This model learns it from every
labelled question of the tuning material (benchmarks/faq_eval/: over 4,000 questions by some
thirty writers, each labelled with the entries whose verdict settles it, or none), and
from our own texts (`own_texts`).

It is a linear softmax over the entries and one more class, "none" (no entry answers):
- an entry's logit is the sum of the weights of the question's features (its search tokens,
  pairs of neighbouring tokens and the stems of its words, `features`), plus `lexical` × the
  entry's lexical score as a share of the best one's;
- the logit of "none" also adds its weights of the question's `measures` (how much of the
  question the index knows, how well the best entry matches, words of other subjects...).
The question is answered when an entry's logit beats "none"'s; entries are listed by logit.

The weights live in `companion/data/faq_model.json`, written by `benchmarks/faq_train.py`
(numpy, at training time only; here, reading needs the standard library). The file records a
fingerprint of what it was trained on; a test recomputes it, so a change of the analysis or the
index that changes what the model reads fails until the model is trained again.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from companion.faq.entries import LANGS, FaqEntry
from companion.faq_search import morphology
from companion.faq_search.analysis import ASIDE, OFF_TOPIC, Vocabulary

MODEL_FILE = Path(__file__).resolve().parent.parent / "data" / "faq_model.json"
NOT_ANSWERED_FILE = MODEL_FILE.with_name("faq_not_answered.toml")
NONE = ""  # the class "no entry answers"
# The measures of a question the "none" class weighs (`measures`), in this order.
MEASURES = ("bias", "known", "best_score", "best_coverage", "lexical_answer", "length", "other_subject",
            "aside", "nothing_matched")


def features(tokens: Sequence[str], text: str) -> list[str]:
    """What the model reads of a question: its search tokens, each pair of neighbours ("a|b"), and
    the stem of every word of `text`, the question as read ("w:…": the words the analysis drops as
    stop words or folds into a concept, «можно», «ли», "again", say how a question is asked)."""
    words = (f"w:{morphology.stem(w)}" for w in re.findall(r"\w+", text.casefold()))
    return sorted({*tokens, *(f"{a}|{b}" for a, b in zip(tokens, tokens[1:], strict=False)), *words})


def measures(tokens: Sequence[str], known: float, best: tuple[float, float] | None,
             lexical_answer: bool) -> tuple[float, ...]:
    """The question as a whole, as the lexical index sees it (in the order of `MEASURES`): `known`, the
    share of its weight the index knows; `best`, the best entry's (score, coverage), None when no entry
    shares a token with it; `lexical_answer`, whether the index's own thresholds would answer it."""
    score, coverage = best or (0.0, 0.0)
    return (1.0, known, math.log1p(max(score, 0.0)), coverage, float(lexical_answer), math.log1p(len(tokens)),
            float(tokens.count(OFF_TOPIC)), float(tokens.count(ASIDE)), float(best is None))


def not_answered() -> dict[str, tuple[str, ...]]:
    """Questions no verdict settles, in our own words, by subject (data/faq_not_answered.toml)."""
    with NOT_ANSWERED_FILE.open("rb") as f:
        return {s["name"]: tuple(s["texts"]) for s in tomllib.load(f)["subject"]}


def own_texts(entries: Iterable[FaqEntry], vocab: Vocabulary) -> list[tuple[str, str, tuple[str, ...]]]:
    """(text, language, expect) for the texts we wrote ourselves, training examples besides the
    players' questions, labelled like them (`expect`: the right entries, none for "none"): each
    entry's question, verdict and keywords are about that entry; each word the vocabulary lists as
    another subject (another game, the weather, money) and each question of `not_answered` is about
    none."""
    texts = [(said, lang, (e.slug,)) for e in sorted(entries, key=lambda e: e.slug) for lang in LANGS
             for said in (e.text(lang).question, e.text(lang).verdict, *e.text(lang).keywords)]
    other = sorted(w for w, found in vocab.surface.items() if found == (OFF_TOPIC,))
    asked = [q for questions in not_answered().values() for q in questions]
    return texts + [(w, morphology.script_of(w), ()) for w in (*other, *asked)]


def fingerprint(examples: Iterable[tuple[Sequence[str], Sequence[float], Sequence[str]]],
                classes: Sequence[str]) -> str:
    """A digest of the training input: the classes, and each question's features, measures and labels."""
    h = hashlib.sha256(json.dumps(list(classes), ensure_ascii=False).encode())
    for feats, meas, expect in examples:
        h.update(json.dumps([list(feats), [round(m, 4) for m in meas], sorted(expect)],
                            ensure_ascii=False).encode())
    return h.hexdigest()


@dataclass(frozen=True)
class Model:
    classes: tuple[str, ...]                      # the entries' slugs, then NONE
    weights: Mapping[str, tuple[float, ...]]      # feature → its weight for each class
    none_measures: tuple[float, ...]              # weights of `measures` for NONE
    lexical: float                                # weight of an entry's lexical score share
    fingerprint: str
    trained_on: tuple[str, ...]

    def logits(self, feats: Iterable[str], meas: Sequence[float],
               lexical_share: Mapping[str, float]) -> dict[str, float]:
        """Every class's logit for a question (`feats` from `features`, `meas` from `measures`,
        `lexical_share`: each lexically found entry's score / the best one's)."""
        known = [self.weights[f] for f in feats if f in self.weights]
        scale = 1.0 / max(1.0, math.sqrt(len(known)))
        sums = [scale * sum(col) for col in zip(*known, strict=True)] if known else [0.0] * len(self.classes)
        out = dict(zip(self.classes, sums, strict=True))
        for slug, share in lexical_share.items():
            if slug in out:
                out[slug] += self.lexical * share
        out[NONE] += sum(w * m for w, m in zip(self.none_measures, meas, strict=True))
        return out

    def to_json(self) -> str:
        """The file `load` reads: one feature per line, so that a retrained model diffs readably."""
        head = {"classes": list(self.classes), "none_measures": dict(zip(MEASURES, self.none_measures, strict=True)),
                "lexical": self.lexical, "fingerprint": self.fingerprint, "trained_on": list(self.trained_on)}
        lines = [json.dumps(head, ensure_ascii=False)[:-1] + ', "weights": {']
        rows = [f"{json.dumps(f, ensure_ascii=False)}: {json.dumps(list(w))}" for f, w in sorted(self.weights.items())]
        return "\n".join(lines + [",\n".join(rows), "}}\n"])


def from_json(text: str) -> Model:
    data = json.loads(text)
    classes = tuple(data["classes"])
    weights = {f: tuple(float(x) for x in w) for f, w in data["weights"].items()}
    if classes[-1] != NONE or any(len(w) != len(classes) for w in weights.values()):
        raise ValueError("faq_model.json: every weight row needs one number per class, the last class none")
    return Model(classes, weights, tuple(float(data["none_measures"][m]) for m in MEASURES),
                 float(data["lexical"]), str(data["fingerprint"]), tuple(data["trained_on"]))


@lru_cache(maxsize=1)
def load() -> Model:
    """The shipped model (read once per process)."""
    return from_json(MODEL_FILE.read_text(encoding="utf-8"))


def decide(logits: Mapping[str, float]) -> tuple[list[str], bool]:
    """The entries by logit, best first (ties by slug), and whether the best one beats "none"."""
    order = sorted((c for c in logits if c != NONE), key=lambda c: (-logits[c], c))
    return order, bool(order) and logits[order[0]] > logits[NONE]


def softmax(logits: Mapping[str, float]) -> dict[str, float]:
    top = max(logits.values())
    exp = {c: math.exp(z - top) for c, z in logits.items()}
    total = sum(exp.values())
    return {c: e / total for c, e in exp.items()}


__all__ = ["MEASURES", "MODEL_FILE", "NONE", "Model", "decide", "features", "fingerprint", "from_json", "load",
           "measures", "not_answered", "own_texts", "softmax"]
