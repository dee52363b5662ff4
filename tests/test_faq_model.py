"""The FAQ search's learned model (companion/faq_search/learned.py): its arithmetic, its file, and
that the shipped weights were trained on what the analysis reads today."""

from __future__ import annotations

import math
import tomllib
from pathlib import Path

import pytest

from companion import faq_search
from companion.faq import entries as faq
from companion.faq_search import learned
from companion.faq_search.index import FaqSearch

EVAL = Path(__file__).resolve().parent.parent / "benchmarks" / "faq_eval"
SLUGS = ("ace", "seven")


def tiny(weights: dict[str, tuple[float, float, float]], none: float = 0.0, lexical: float = 0.0) -> learned.Model:
    """A model over two entries and "none": `none` is the weight of the bias measure for "none"."""
    measures = tuple(none if m == "bias" else 0.0 for m in learned.MEASURES)
    return learned.Model((*SLUGS, learned.NONE), weights, measures, lexical, "", ())


def test_features_are_the_tokens_their_neighbour_pairs_and_the_stems_of_the_words() -> None:
    assert learned.features(["zzr7", "zzonto", "zzrq"], "") == sorted(
        ["zzr7", "zzonto", "zzrq", "zzr7|zzonto", "zzonto|zzrq"])
    assert learned.features([], "Можно ли снова?") == sorted(
        f"w:{faq_search.stem(w)}" for w in ("можно", "ли", "снова"))
    assert learned.features([], "") == []


def test_logits_add_feature_weights_scaled_then_the_lexical_share_and_the_measures() -> None:
    model = tiny({"a": (1.0, 0.0, 0.5), "b": (3.0, 1.0, 0.5), "c": (0.0, 2.0, 0.0)}, none=0.25, lexical=2.0)
    meas = learned.measures(["a", "b"], 1.0, (3.0, 1.0), True)
    logits = model.logits(["a", "b", "unknown"], meas, {"seven": 0.5})
    # Two known features: each weighs 1/√2; "unknown" is not in the model.
    assert logits["ace"] == pytest.approx(4.0 / math.sqrt(2))
    assert logits["seven"] == pytest.approx(1.0 / math.sqrt(2) + 2.0 * 0.5)
    assert logits[learned.NONE] == pytest.approx(1.0 / math.sqrt(2) + 0.25)
    assert tiny({}).logits([], meas, {}) == {"ace": 0.0, "seven": 0.0, learned.NONE: 0.0}


def test_measures_say_what_the_index_saw() -> None:
    meas = dict(zip(learned.MEASURES, learned.measures(
        ["zzofftopic", "zzrq", "zzaside", "zzofftopic"], 0.25, None, False), strict=True))
    assert meas["bias"] == 1.0 and meas["known"] == 0.25 and meas["nothing_matched"] == 1.0
    assert meas["other_subject"] == 2.0 and meas["aside"] == 1.0 and meas["lexical_answer"] == 0.0
    assert meas["best_score"] == meas["best_coverage"] == 0.0
    found = dict(zip(learned.MEASURES, learned.measures(["zzrq"], 1.0, (math.e - 1, 0.5), True), strict=True))
    assert found["best_score"] == pytest.approx(1.0) and found["best_coverage"] == 0.5
    assert found["nothing_matched"] == 0.0 and found["lexical_answer"] == 1.0


def test_decide_lists_entries_by_logit_ties_by_slug_and_answers_when_one_beats_none() -> None:
    assert learned.decide({"seven": 1.0, "ace": 1.0, "six": 2.0, learned.NONE: 1.5}) == (["six", "ace", "seven"], True)
    assert learned.decide({"seven": 1.0, learned.NONE: 1.0}) == (["seven"], False)  # a tie is no answer
    assert learned.decide({learned.NONE: 0.0}) == ([], False)


def test_softmax_is_a_distribution_even_for_large_logits() -> None:
    chance = learned.softmax({"a": 1000.0, "b": 1000.0, "c": 0.0})
    assert chance["a"] == pytest.approx(0.5) and chance["c"] == pytest.approx(0.0)
    assert sum(chance.values()) == pytest.approx(1.0)


def test_the_file_round_trips_and_a_malformed_one_is_refused() -> None:
    model = tiny({"zzr7": (0.0, 1.5, -0.25), "семёрка": (0.0, 1.0, 0.0)}, none=0.5, lexical=2.0)
    again = learned.from_json(model.to_json())
    assert again == model
    with pytest.raises(ValueError, match="one number per class"):
        learned.from_json(model.to_json().replace("[0.0, 1.5, -0.25]", "[0.0, 1.5]"))


def entries(*slugs: str) -> list[faq.FaqEntry]:
    return [e for e in faq.all_entries() if e.slug in slugs]


BOTH = ("ace", "seven", "six", "eight", "ten")  # enough entries for bm25's rarity to tell words apart


def test_answer_follows_the_model() -> None:
    """What the model says decides: the entry it prefers comes first, whatever the index ranks first;
    the index's own ranking comes in through the lexical share."""
    q = "what does a seven do"
    engine = FaqSearch(entries(*BOTH), model=tiny({"zzr7": (5.0, 0.0, 0.0)}, lexical=1.0))
    assert engine.search(q)[0].slug == "seven"  # the index alone
    found = engine.answer(q)
    assert found.answered and [r.slug for r in found.results[:2]] == ["ace", "seven"]
    assert found.results[0].score > 0.9  # its probability
    assert found.results[1].coverage == engine.search(q)[0].coverage  # the index's, for highlighting
    assert sum(r.score for r in found.results) <= 1.0


def test_none_winning_is_no_answer_with_the_closest_entries_as_maybe() -> None:
    engine = FaqSearch(entries(*BOTH), model=tiny({"zzr7": (0.0, 1.0, 0.0)}, none=3.0, lexical=1.0))
    found = engine.answer("what does a seven do")
    assert not found.answered and len(found.maybe) == 3 and found.maybe[0].slug == "seven"
    assert engine.answer("what does a seven do", limit=0).maybe == ()


def test_an_entry_of_another_rule_set_gives_way() -> None:
    """Equal logits: the entry that applies to the requested rule set comes first."""
    pharaoh_only = next(e for e in faq.all_entries() if not e.applies_to("classic"))
    everywhere = next(e for e in faq.all_entries() if e.applies_to(None) and e.applies_to("classic")
                      and e.slug != pharaoh_only.slug)
    slugs = tuple(sorted([pharaoh_only.slug, everywhere.slug]))
    model = learned.Model((*slugs, learned.NONE), {}, tuple(-5.0 if m == "bias" else 0.0 for m in learned.MEASURES),
                          0.0, "", ())
    engine = FaqSearch([pharaoh_only, everywhere], model=model)
    assert engine.answer("как тут быть", ruleset="classic").results[0].slug == everywhere.slug


def test_our_own_texts_are_the_entries_and_the_words_of_other_subjects() -> None:
    engine = faq_search.search_engine()
    texts = learned.own_texts(engine.entries.values(), engine.vocab)
    seven = faq.get_entry("seven")
    assert seven and (seven.ru.question, "ru", ("seven",)) in texts and (seven.en.verdict, "en", ("seven",)) in texts
    assert all((k, "en", ("seven",)) in texts for k in seven.en.keywords)
    assert ("покер", "ru", ()) in texts and ("poker", "en", ()) in texts  # about none, like an off-topic question
    assert ("какой картой лучше ходить первой", "ru", ()) in texts
    assert {expect for *_, expect in texts} == {*((slug,) for slug in engine.entries), ()}


def test_questions_we_wrote_as_unanswered_mostly_get_no_answer() -> None:
    """data/faq_not_answered.toml, examples of "none" in both languages: they weigh like a player's
    question (faq_train.py, ASKED), and the model fits them as it fits the players' questions, though
    not to the last one (9 in 10)."""
    subjects = learned.not_answered()
    assert len(subjects) >= 5 and all(len(texts) >= 4 for texts in subjects.values())
    texts = [t for ts in subjects.values() for t in ts]
    assert {faq_search.detect_language(t) for ts in subjects.values() for t in ts} == {"ru", "en"}
    refused = [t for t in texts if not faq_search.answer(t).answered]
    assert len(refused) >= 0.9 * len(texts)


def test_the_shipped_model_knows_every_entry() -> None:
    model = learned.load()
    assert model.classes == (*sorted(e.slug for e in faq.all_entries()), learned.NONE)
    assert model.trained_on and all((EVAL / f"{name}.toml").exists() for name in model.trained_on)


def test_the_shipped_model_was_trained_on_what_the_search_reads_today() -> None:
    """The fingerprint of the training input, recomputed: the tuning sets it names, read by today's
    analysis and index, and our own texts (`learned.own_texts`). A change that alters what the model reads needs
    `pip install -e '.[train]' && python benchmarks/faq_train.py` (docs/benchmarks.md)."""
    model = learned.load()
    engine = faq_search.search_engine()
    examples = []
    for name in model.trained_on:
        for q in tomllib.loads((EVAL / f"{name}.toml").read_text(encoding="utf-8"))["q"]:
            seen = engine.reading(q["text"])
            examples.append((seen.features, seen.measures, tuple(q["expect"])))
    for said, lang, expect in learned.own_texts(engine.entries.values(), engine.vocab):
        seen = engine.reading(said, lang)
        examples.append((seen.features, seen.measures, expect))
    assert learned.fingerprint(examples, model.classes) == model.fingerprint, (
        "the FAQ model is stale: run `pip install -e '.[train]' && python benchmarks/faq_train.py`")
