"""Russian word forms for the round-from-text parser (pymorphy3 with its Russian dictionary).

The parser itself is pure (companion/core/round_text.py); this layer only gives it
the normal forms of a word: «семёрку» → «семёрка», «Бориса» → «борис», «тузов» → «туз».
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from companion.core.round_text import ParsedRound, parse_round_text
from companion.core.rules import Options


@lru_cache(maxsize=1)
def _analyzer() -> Any:
    import pymorphy3

    return pymorphy3.MorphAnalyzer(lang="ru")


@lru_cache(maxsize=8192)
def lemmas(word: str) -> tuple[str, ...]:
    """Every normal form pymorphy3 knows for a Cyrillic word (none for other words)."""
    if not any("а" <= ch <= "я" or ch == "ё" for ch in word.lower()):
        return ()
    forms: list[str] = []
    for parse in _analyzer().parse(word):
        if parse.normal_form not in forms:
            forms.append(parse.normal_form)
    return tuple(forms)


def parse(text: str, players: Sequence[str], options: Options | None = None) -> ParsedRound:
    return parse_round_text(text, players, options, lemmas=lemmas)
