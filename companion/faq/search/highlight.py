"""Which words of a shown text matched the query, for <mark> in the results."""

from __future__ import annotations

import re
from collections.abc import Iterable

from markupsafe import Markup, escape

from companion.faq.search.text import fold

_WORD = re.compile(r"[^\W_]+")
STEM = 4  # two words match when their folded forms agree this far, or all but the shorter one's ending


def _alike(a: str, b: str) -> bool:
    """Forms of one word («дама», «дамой», «семёрку», «семёрка»), folded."""
    need = max(3, min(STEM, len(a) - 1, len(b) - 1))
    return a[:need] == b[:need]


def matched_spans(text: str, tokens: Iterable[str]) -> list[tuple[int, int]]:
    """Spans of the words of `text` (three letters or more) that the query's folded words match."""
    wanted = [t for t in tokens if len(t) > 2]
    return [(m.start(), m.end()) for m in _WORD.finditer(text)
            if len(m.group(0)) > 2 and any(_alike(fold(m.group(0).lower()), t) for t in wanted)]


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
