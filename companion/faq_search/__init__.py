"""Search over the FAQ entries (`companion.faq`): the referee that answers a question in words.

The package, by idea:

- `analysis`: text → search tokens, the same for the index and the query (card
  phrases as concepts, synonyms, stop words; card words from the core's vocabulary);
- `morphology`: word forms (pymorphy3 dictionary for Russian, Snowball for English);
- `translit` and `spelling`: reading the query as the player meant it (Russian typed
  in Latin letters, typos near a known word);
- `index`: the FTS5 index, ranking, and the "no answer" decision with "maybe" entries;
- `highlight`: which words of a shown text matched the query.

`search(q)` ranks entries; `answer(q)` also decides whether there is an answer at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from companion.faq.entries import all_entries
from companion.faq_search.analysis import (
    CARD_TOKENS,
    ONTO_SAME,
    ONTO_SUIT,
    PAIR,
    RANK_TOKENS,
    SAME_RANK,
    SUIT_TOKENS,
    Vocabulary,
    analyse,
    card_concepts,
    detect_language,
    fold,
    number_token,
    onto_token,
    vocabulary,
)
from companion.faq_search.distance import edit_distance
from companion.faq_search.highlight import highlight
from companion.faq_search.index import Answer, FaqSearch, Result, subject_rank
from companion.faq_search.morphology import stem


@lru_cache(maxsize=1)
def search_engine() -> FaqSearch:
    """The process-wide engine over every FAQ entry (built on first use)."""
    return FaqSearch(all_entries())


def search(q: str, lang: str | None = None, ruleset: str | None = None, limit: int = 10) -> list[Result]:
    """The entries that share words with `q`, best first (the process-wide engine)."""
    return search_engine().search(q, lang=lang, ruleset=ruleset, limit=limit)


def answer(q: str, lang: str | None = None, ruleset: str | None = None, limit: int = 10) -> Answer:
    """The answers to `q`, or "no answer" with up to three "maybe" entries."""
    return search_engine().answer(q, lang=lang, ruleset=ruleset, limit=limit)


__all__: Sequence[str] = (
    "Answer", "CARD_TOKENS", "FaqSearch", "ONTO_SAME", "ONTO_SUIT", "PAIR", "RANK_TOKENS", "Result", "SAME_RANK",
    "SUIT_TOKENS", "Vocabulary", "analyse", "answer", "card_concepts", "detect_language", "edit_distance", "fold",
    "highlight", "number_token", "onto_token", "search", "search_engine", "stem", "subject_rank", "vocabulary",
)
