"""The FTS5 index over the FAQ entries, ranking, and the "no answer" decision.

Every entry is one document in two in-memory SQLite FTS5 tables, so that a
term's rarity (bm25's idf) is counted among the questions for the head and among
the answers for the body: "queen" is in half of all answers but in few
questions. The scores add up per entry. Question and keywords weigh more than
the answer (bm25 column weights). An entry whose questions name a single rank is
about that rank ("Что делает семёрка?"); when the query is about that one rank
too, the entry's score is raised (SUBJECT).

Which entry a question asks about, or whether none does, is the learned model's call
(`learned`, `FaqSearch.answer`): it reads the question's tokens and how the index sees the
question as a whole, and adds each entry's lexical score as a share of the best one's.
`FaqSearch.search` is the lexical ranking alone.

The index's own measure of "no answer", one the model weighs: bm25 always finds *something*
that shares a word, so how much of the question the index understands is judged by the share of
the question's weight (its tokens weighted by rarity, idf; a token the index has never seen
weighs `UNKNOWN_WEIGHT` × the rarest idf) that the index knows, a token met only in answers
counting `BODY_ONLY`. «погода в москве» or "best pizza near me" are real words the FAQ never
uses: little is known. Below `MIN_KNOWN`, or when the best entry covers less than
`MIN_COVERAGE` of the question, the index alone would not answer (`is_answer`; thresholds
chosen on the tuning material, docs/benchmarks.md).
"""

from __future__ import annotations

import math
import re
import sqlite3
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from companion.core import cards
from companion.faq.entries import LANGS, FaqEntry
from companion.faq_search import learned, morphology
from companion.faq_search.analysis import (
    _CYR_CARD,
    _LAT_CARD,
    ASIDE,
    CARD_TOKENS,
    EFFECT,
    OFF_TOPIC,
    ONTO_SAME,
    ONTO_SUIT,
    OTHER_SUBJECTS,
    PAIR,
    PLAYER,
    RANK_TOKENS,
    SAME_RANK,
    SUIT_TOKENS,
    Vocabulary,
    analyse,
    detect_language,
    fold,
    number_token,
    vocabulary,
)
from companion.faq_search.spelling import QueryReader, ReadQuery, SpellIndex
from companion.faq_search.translit import TranslitIndex

TABLES = {
    "head": ("q_ru", "kw_ru", "q_en", "kw_en"),   # question and keywords (+ slug words)
    "body": ("a_ru", "n_ru", "a_en", "n_en"),     # verdict + answer, and the rule-set notes
}
WEIGHTS = {"q": 1.0, "kw": 0.8, "a": 1.0, "n": 0.5}   # bm25 column weights within a table
TABLE_WEIGHTS = {"head": 1.0, "body": 0.35}
OTHER_LANGUAGE = 0.8  # column weight factor for the language the query is not in
OFF_RULESET = 0.6     # score factor for entries that do not apply to the requested rule set
RULESET_LOGIT = math.log(OFF_RULESET)  # ...and the same, as the learned model's logit
SUBJECT = 1.0         # score factor for entries about the one rank the query is about (tuned: coverage does it better)
SUBJECT_EFFECT = 1.5  # ...when the query asks what a card does ("что делает шестёрка", "what does a 7 do")
OTHER_CARD = 0.7      # score factor for entries about one card of that rank the query does not name,
                      # or about another number than the query's (two players when it asks about six)
NUMBER_PREFIX = number_token("")
COLOUR = "zzcolour"   # the group of «цвет», "red", "black"
_NUMBER = re.compile(re.escape(NUMBER_PREFIX) + r"\d+")  # zzn2, zzn101 (not zznext, zznocard: words)
THE_LINE = frozenset({number_token("100"), number_token("101")})  # the game's line, no count of anything


def is_number(token: str) -> bool:
    """Whether a token is a number (zzn2), not a concept that starts alike (zznext)."""
    return bool(_NUMBER.fullmatch(token))


COVERAGE_POWER = 0.7  # score × (share of the query's known weight the entry contains) ** this
OFF_TOPIC_WEIGHT = 3.0    # each word of another subject (analysis.OFF_TOPIC) weighs this many unknown words
ASIDE_WEIGHT = 1.5        # ...a word that comes with such subjects and sometimes with a rule question (ASIDE)
NARRATOR = "zznarrator"   # people in the story of a question (no entry is about them)
MAX_QUERY_TOKENS = 40
MAYBE = 3             # entries offered as "maybe" when there is no answer, and listed at least with an answer
LISTED = 0.01         # ...and further answers, while the model gives them this probability at least
# The index's own "no answer" thresholds, chosen on all the tuning material
# (benchmarks/faq_eval/README.md; `faq_search_bench.py --sweep`, docs/benchmarks.md): the middle
# of the band of lines that meet both goals there (off-topic "no answer" ≥ 95 %, on-topic wrongly
# "no answer" ≤ 2 %) before refusals start to grow.
MIN_KNOWN = 0.57      # share of the question's weight the index knows
MIN_COVERAGE = 0.1    # share of the question's weight the best entry contains
MIN_SCORE = 0.0       # the best entry's score
UNKNOWN_WEIGHT = 0.7  # weight of a token the index has never seen, in units of the rarest token's idf
# ...times this by the kind of word it was read from (morphology.word_kind): a noun or adjective
# names a subject; a verb, adverb or function word less so; chat spelling that is no word at all,
# least (a word the index does not know and no dictionary knows is slang or a typo left over).
# A place («в россии», «в берлине») weighs like an aside: a question about the world, though a rule
# question may name where a rule is played so.
UNKNOWN_KIND = {morphology.CONTENT: 1.0, morphology.GENERIC: 0.5, morphology.NONWORD: 0.3, morphology.PLACE: 1.5}
BODY_ONLY = 0.6       # a token only answers (not questions or keywords) contain counts this much as known
_TOKENIZER = "unicode61 remove_diacritics 0"  # our analyser has lowered, stemmed and folded already
_CONCEPT = re.compile(r"zz")


@dataclass(frozen=True)
class Result:
    slug: str
    score: float
    entry: FaqEntry
    coverage: float = 0.0  # share of the query's weight this entry contains (0..1)


@dataclass(frozen=True)
class Answer:
    """What the search says about one question."""

    results: tuple[Result, ...]           # the answers, best first; empty: no answer
    maybe: tuple[Result, ...]             # with no answer: the closest entries (up to MAYBE)
    query: ReadQuery                      # the query as read (corrections, transliteration)
    tokens: tuple[str, ...] = field(default=())  # its search tokens (for highlighting)
    known: float = 0.0                    # share of the query's weight the index knows at all

    @property
    def answered(self) -> bool:
        return bool(self.results)

    @property
    def searched_for(self) -> str | None:
        """The corrected or transliterated query, when a word was changed."""
        return self.query.shown if self.query.changed else None


@dataclass(frozen=True)
class Reading:
    """A question as the lexical index sees it: what the learned model (`learned`) reads."""

    query: ReadQuery
    tokens: tuple[str, ...]
    ranked: tuple[Result, ...]            # the entries sharing a token with it, by lexical score
    known: float                          # share of its weight the index knows at all
    lexical_answer: bool                  # whether the index alone would answer it (`is_answer`)
    features: tuple[str, ...]             # `learned.features`
    measures: tuple[float, ...]           # `learned.measures`

    @property
    def lexical_share(self) -> dict[str, float]:
        """Each found entry's lexical score as a share of the best one's."""
        best = self.ranked[0].score if self.ranked else 0.0
        return {r.slug: r.score / best for r in self.ranked} if best > 0 else {}


class FaqSearch:
    """FTS5 search over FAQ entries; build once, then `search` many times (thread-safe)."""

    def __init__(self, entries: Iterable[FaqEntry], vocab: Vocabulary | None = None,
                 model: learned.Model | None = None) -> None:
        self.vocab = vocab or vocabulary()
        # Read now, not by the first question (absent only before benchmarks/faq_train.py first ran).
        self._model = model or (learned.load() if learned.MODEL_FILE.exists() else None)
        self.entries = {e.slug: e for e in entries}
        self._lock = threading.Lock()
        self.db = sqlite3.connect(":memory:", check_same_thread=False)
        for table, cols in TABLES.items():
            self.db.execute(
                f"CREATE VIRTUAL TABLE {table} USING fts5(slug UNINDEXED, {', '.join(cols)}, tokenize = '{_TOKENIZER}')"
            )
        self.tokens: set[str] = set()
        self.entry_tokens: dict[str, frozenset[str]] = {}
        self.head_tokens: set[str] = set()  # tokens of questions and keywords (what entries are about)
        surface: dict[str, int] = {}
        for entry in self.entries.values():
            columns: dict[str, str] = {}
            mine: set[str] = set()
            for lang in LANGS:
                t = entry.text(lang)
                keywords = " ; ".join(t.keywords) + (" ; " + entry.slug.replace("-", " ") if lang == "en" else "")
                fields = {
                    "q": t.question,
                    "kw": keywords,
                    "a": f"{t.verdict}\n{t.answer}",
                    "n": "\n".join(t.by_ruleset.values()),
                }
                for kind, text in fields.items():
                    # Each keyword is a text of its own: a phrase never spans two ("points per card",
                    # "count my hand" hold no "card count").
                    tokens = [tok for part in text.split(" ; ") for tok in analyse(part, self.vocab)] \
                        if kind == "kw" else analyse(text, self.vocab)
                    mine.update(tokens)
                    if kind in ("q", "kw"):
                        self.head_tokens.update(tokens)
                    columns[f"{kind}_{lang}"] = " ".join(tokens)
                    for w in re.findall(r"\w+", fold(text)):
                        surface[w] = surface.get(w, 0) + 1
            self.tokens |= mine
            self.entry_tokens[entry.slug] = frozenset(mine)
            for table, cols in TABLES.items():
                self.db.execute(
                    f"INSERT INTO {table} (slug, {', '.join(cols)}) VALUES (?{', ?' * len(cols)})",
                    [entry.slug, *(columns[c] for c in cols)],
                )
        n = max(1, len(self.entries))
        df: dict[str, int] = {}
        for entry_tokens in self.entry_tokens.values():
            for token in entry_tokens:
                df[token] = df.get(token, 0) + 1
        self.idf = {t: math.log(1 + n / d) for t, d in df.items()}
        self.unknown_idf = UNKNOWN_WEIGHT * math.log(1 + n)
        known_words = set(surface) | self.vocab.words | set(cards.word_forms())
        other_subjects = {w for w, found in self.vocab.surface.items() if found in OTHER_SUBJECTS}
        # People in the story («бабушка», "wife") are no word a typo was meant as ("wifi" is no "wife").
        people = {w for w, found in self.vocab.surface.items() if found == (NARRATOR,)}
        self.spell = SpellIndex(known_words - people, surface, near_only=other_subjects)
        russian = {w for w in known_words | self.vocab.stopwords if morphology.script_of(w) == "ru" and w.isalpha()}
        forms = set(russian)
        for w in russian:
            forms.update(morphology.forms(w))
        self.translit = TranslitIndex(forms, surface, preferred=russian)
        english = frozenset(w for w in known_words | self.vocab.stopwords if w.isascii() and w.isalpha())
        # Short Russian function words and question words («кто», «как», «можно») a chat writer glues on.
        glue = frozenset(w for w in (*self.vocab.stopwords, *self.vocab.surface)
                         if morphology.script_of(w) == "ru" and w.isalpha() and 2 <= len(w) <= 5)
        self.reader = QueryReader(self.spell, self.translit, english, self._known, glue)
        morphology.english_words()  # loaded now, not by the first English question (~0.15 s)
        # What an entry's questions name, read once per entry:
        questions = {slug: analyse(f"{e.ru.question}\n{e.en.question}", self.vocab) for slug, e in self.entries.items()}
        # the rank it is about: the only rank its questions name ("Что делает семёрка?");
        self.subjects = {slug: subject_rank(tokens) for slug, tokens in questions.items()}
        # the numbers they name ("Вдвоём играть можно?": two players);
        self.subject_numbers = {
            slug: frozenset(t for t in tokens if is_number(t)) for slug, tokens in questions.items()
        }
        # the entries about a suit played on a suit, no rank («бубну на черву», by colour);
        self.suit_on_suit = {slug for slug, tokens in questions.items()
                             if ONTO_SUIT in tokens and not any(t in RANK_TOKENS for t in tokens)}
        # ...and whether they name a number of players ("Two of us went over 101", «Вдвоём можно?»).
        self.player_counts = {
            slug: frozenset(t for t in tokens if is_number(t) and t not in THE_LINE and PLAYER in tokens)
            for slug, tokens in questions.items()
        }
        # and the suits of the cards they name (K♠: the entry is about that one king).
        self.subject_suits = {slug: {t[-1] for t in tokens if t in CARD_TOKENS} for slug, tokens in questions.items()}

    def _known(self, word: str) -> bool:
        v = self.vocab
        if word.isdigit() or len(word) < 4 or word in v.stopwords or word in v.surface or word in v.words:
            return True
        if v.rank_of(word) or v.suit_of(word) or _LAT_CARD.fullmatch(word) or _CYR_CARD.fullmatch(word):
            return True
        s = morphology.stem(word)
        return s in self.tokens or (s,) in v.phrases

    def read(self, q: str) -> tuple[ReadQuery, list[str]]:
        """The query as read, and its tokens (like the index's)."""
        read = self.reader.read(q)
        return read, analyse(read.text, self.vocab)[:MAX_QUERY_TOKENS]

    def analyse_query(self, q: str) -> list[str]:
        """Query tokens: like the index, after correcting and transliterating words."""
        return self.read(q)[1]

    def unknown_kinds(self, text: str, tokens: Sequence[str]) -> dict[str, str]:
        """The kind of word (`morphology.word_kind`) each unknown token of the query was read from."""
        unknown = {t for t in tokens if t not in self.idf and not t.startswith("zz")}
        kinds: dict[str, str] = {}
        if unknown:
            for word in re.findall(r"\w+", text):
                s = morphology.stem(word)
                if s in unknown and s not in kinds:
                    kinds[s] = morphology.word_kind(word)
        return kinds

    def weights(self, tokens: Sequence[str], kinds: dict[str, str] | None = None) -> tuple[float, float]:
        """The query's total weight and the part of it the index knows (`kinds`: of the unknown tokens)."""
        # A concept token of our own vocabulary no entry has ("6 people" → a number 6) is neither
        # known nor unknown: it says the question is about the game, not how well the FAQ knows it.
        query = {t for t in tokens if t in self.idf or not t.startswith("zz")}
        kinds = kinds or {}
        total = sum(
            self.idf[t] if t in self.idf else self.unknown_idf * UNKNOWN_KIND[kinds.get(t, morphology.CONTENT)]
            for t in query
            if t != OFF_TOPIC
        )
        known = sum(
            self.idf[t] * (1.0 if t in self.head_tokens or t.startswith("zz") else BODY_ONLY)
            for t in query
            if t in self.idf and t != OFF_TOPIC
        )
        # A word of another subject (another game, the app, money) is unknown, several times over;
        # a word that comes with such subjects but also with rule questions, less.
        total += self.unknown_idf * (OFF_TOPIC_WEIGHT * tokens.count(OFF_TOPIC) + ASIDE_WEIGHT * tokens.count(ASIDE))
        return total, known

    def rank(self, tokens: Sequence[str], lang: str, ruleset: str | None = None) -> list[Result]:
        """Every entry sharing a token with the query, best first."""
        query = [t for t in dict.fromkeys(tokens) if t != OFF_TOPIC]
        matched = [t for t in query if t in self.tokens]
        if not matched:
            return []
        match = " OR ".join(f'"{t}"' for t in matched)
        parts = []
        for table, cols in TABLES.items():
            weights = []
            for col in cols:
                kind, col_lang = col.split("_")
                weights.append(WEIGHTS[kind] * (1.0 if col_lang == lang else OTHER_LANGUAGE))
            parts.append(
                f"SELECT slug, -bm25({table}, 0, {', '.join(map(str, weights))}) * {TABLE_WEIGHTS[table]} AS s "
                f"FROM {table} WHERE {table} MATCH :match"
            )
        sql = f"SELECT slug, SUM(s) FROM ({' UNION ALL '.join(parts)}) GROUP BY slug"
        with self._lock:
            rows = self.db.execute(sql, {"match": match}).fetchall()
        subject = subject_rank(matched)
        asks_effect = EFFECT in query
        suits = {t[-1] for t in matched if t in CARD_TOKENS}
        total = sum(self.idf.get(t, self.unknown_idf) for t in query if t in self.idf or not t.startswith("zz"))
        known = sum(self.idf[t] for t in matched)
        numbers = {t for t in query if is_number(t)}
        results = []
        for slug, score in rows:
            entry = self.entries[slug]
            if not entry.applies_to(ruleset):
                score *= OFF_RULESET
            if subject and self.subjects[slug] == subject:
                if self.subject_suits[slug] <= suits:
                    score *= SUBJECT_EFFECT if asks_effect else SUBJECT  # about the query's rank
                else:
                    score *= OTHER_CARD  # about one card of it (K♠) the query does not name ("a king")
            if numbers and self.subject_numbers[slug] and not numbers & self.subject_numbers[slug]:
                score *= OTHER_CARD  # about another number ("Вдвоём играть можно?" for "can six play")
            elif self.player_counts[slug] and not numbers - THE_LINE:
                score *= OTHER_CARD  # about two players when the query names no number («кто-то перебрал»)
            if slug in self.suit_on_suit and subject and ONTO_SUIT not in query and COLOUR not in query:
                score *= OTHER_CARD  # a card of some rank played, no word of suits on suits or colour
            mine = self.entry_tokens[slug]
            covered = sum(self.idf[t] for t in matched if t in mine)
            score *= (covered / known) ** COVERAGE_POWER
            results.append(Result(slug, round(float(score), 4), entry, round(covered / total, 4) if total else 0.0))
        results.sort(key=lambda r: (-r.score, r.slug))
        return results

    @property
    def model(self) -> learned.Model:
        """The learned model `answer` decides with (the shipped one unless another was given)."""
        return self._model or learned.load()

    def search(self, q: str, lang: str | None = None, ruleset: str | None = None, limit: int = 10) -> list[Result]:
        """The entries that share words with `q`, by lexical score alone (no "no answer" decision)."""
        if limit <= 0:
            return []
        read, tokens = self.read(q)
        lang = lang if lang in LANGS else detect_language(read.text)
        return self.rank(tokens, lang, ruleset)[:limit]

    def reading(self, q: str, lang: str | None = None, ruleset: str | None = None) -> Reading:
        """`q` read, ranked lexically and measured: the learned model's input."""
        read, tokens = self.read(q)
        lang = lang if lang in LANGS else detect_language(read.text)
        ranked = self.rank(tokens, lang, ruleset)
        total, known = self.weights(tokens, self.unknown_kinds(read.text, tokens))
        share = round(known / total, 4) if total else 0.0
        best = (ranked[0].score, ranked[0].coverage) if ranked else None
        lexical_answer = bool(ranked) and is_answer(ranked[0], share)
        return Reading(read, tuple(tokens), tuple(ranked), share, lexical_answer,
                       tuple(learned.features(tokens, read.text)),
                       learned.measures(tokens, share, best, lexical_answer))

    def answer(self, q: str, lang: str | None = None, ruleset: str | None = None, limit: int = 10) -> Answer:
        """The answers to `q` by the learned model, best first; or none and up to MAYBE closest entries."""
        seen = self.reading(q, lang, ruleset)
        if limit <= 0:
            return Answer((), (), seen.query, seen.tokens, seen.known)
        found = self.model.logits(seen.features, seen.measures, seen.lexical_share)
        logits = {learned.NONE: found[learned.NONE]}
        for slug, entry in self.entries.items():
            logits[slug] = found.get(slug, 0.0) + (0.0 if entry.applies_to(ruleset) else RULESET_LOGIT)
        chance = learned.softmax(logits)
        coverage = {r.slug: r.coverage for r in seen.ranked}
        order, answered = learned.decide(logits)
        listed = [Result(slug, round(chance[slug], 4), self.entries[slug], coverage.get(slug, 0.0)) for slug in order]
        if answered:
            results = [r for i, r in enumerate(listed[:limit]) if i < MAYBE or r.score >= LISTED]
            return Answer(tuple(results), (), seen.query, seen.tokens, seen.known)
        # "Maybe" offers only entries that share a word with the question: «zzqqxx» gets none.
        maybe = [r for r in listed if r.slug in coverage][: min(MAYBE, limit)]
        return Answer((), tuple(maybe), seen.query, seen.tokens, seen.known)


def is_answer(best: Result, known: float) -> bool:
    """Whether the index alone would take the best-ranked entry for an answer (see the module docstring)."""
    return known >= MIN_KNOWN and best.coverage >= MIN_COVERAGE and best.score >= MIN_SCORE


def subject_rank(tokens: Sequence[str]) -> str | None:
    """The rank a text is about: the card played onto another, else its only rank
    (none when it counts cards of one rank: "пара восьмёрок" is about pairs)."""
    if SAME_RANK in tokens or PAIR in tokens:
        return None
    played = {t[len("zzonto") :] for t in tokens if t.startswith("zzonto") and t not in (ONTO_SAME, ONTO_SUIT)}
    ranks = played or {RANK_TOKENS[t] for t in tokens if t in RANK_TOKENS}
    return next(iter(ranks)) if len(ranks) == 1 else None


__all__ = ["Answer", "FaqSearch", "Reading", "Result", "subject_rank", "CARD_TOKENS", "SUIT_TOKENS"]
