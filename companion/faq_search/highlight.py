"""Which words of a shown text matched the query, for <mark> in the results."""

from __future__ import annotations

import re
from collections.abc import Iterable

from markupsafe import Markup, escape

from companion.faq_search.analysis import CARD_TOKENS, analyse

_WORD = re.compile(r"(?<!\w)(?:10|[2-9]|[jqkaвдкт])\s?[♠♥♦♣]|\w+", re.IGNORECASE)


def _wanted(tokens: Iterable[str]) -> set[str]:
    wanted = set(tokens)
    for t in list(wanted):
        if t in CARD_TOKENS:  # "K♠" asked: "пиковый" and "король" both match
            wanted.add("zzs" + t[-1])
    return wanted


def matched_spans(text: str, tokens: Iterable[str]) -> list[tuple[int, int]]:
    """Spans of the words of `text` whose own tokens are among the query's."""
    wanted = _wanted(tokens)
    spans = []
    for m in _WORD.finditer(text):
        if wanted.intersection(analyse(m.group(0))):
            spans.append((m.start(), m.end()))
    return spans


def highlight(text: str, tokens: Iterable[str]) -> Markup:
    """`text`, HTML-escaped, with the matched words in <mark>."""
    out = []
    last = 0
    for start, end in matched_spans(text, tokens):
        out.append(escape(text[last:start]))
        out.append(Markup("<mark>%s</mark>") % text[start:end])
        last = end
    out.append(escape(text[last:]))
    return Markup("").join(out)
