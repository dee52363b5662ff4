"""Russian typed in Latin letters ("mozhno li damoj pobit' semerku") read as Russian.

People write Russian in Latin letters in many ways: «х» as `kh`, `h` or `x`,
«ж» as `zh` or `j`, «й» as `j`, `y` or `i`, «ы» as `y` or `i`, «я» as `ya`, `ja`
or `ia`, «щ» as `shch`, `sch` or `sh`, «ч» as `ch` or `4`, «ш» as `sh` or (inside a word) `6`,
«ц» as `ts` or `c`, «у» as `oo` and «и» as `ee` the English way, «ш» as `sz`, «ч» as `cz`,
«щ» as `szcz`, «х» as `ch` and «е» as `ie` the Polish way, the soft sign as `'` or nothing.
Instead of guessing the scheme, both sides are reduced to one *skeleton* that forgets
exactly those differences: «й», «ы» and «и» are all `i`, the soft and hard signs vanish,
«ё» is `e`, and so on. A Latin word is then looked up by its skeleton among the Russian
words we know (the FAQ's words, their dictionary forms, the card vocabulary); a near miss
(one edit, for longer words two) still counts, as a typo in Latin letters.

`TranslitIndex.lookup("semerkoj")` → «семеркой»; `render` writes any Latin word in
Cyrillic by the most usual scheme (for showing what was searched for).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from companion.faq_search.distance import edit_distance, trigrams

# Cyrillic → skeleton.
_CYR = {
    "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ё": "e", "ж": "zh", "з": "z", "и": "i",
    "й": "i", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o", "п": "p", "р": "r", "с": "s", "т": "t",
    "у": "u", "ф": "f", "х": "h", "ц": "ts", "ч": "ch", "ш": "sh", "щ": "sch", "ъ": "", "ы": "i", "ь": "",
    "э": "e", "ю": "iu", "я": "ia",
}
# Latin → skeleton, longest first. `j` is «й» (→ i) or «ж» (→ zh): both are tried.
_LATIN = [
    ("oo", "oo"), ("ee", "ee"),  # doubled: «оо», «ее», or read the English way (second readings)
    ("shch", "sch"), ("szcz", "sch"), ("sch", "sch"), ("yo", "e"), ("jo", "e"), ("kh", "h"), ("zh", "zh"),
    ("ch", "ch"), ("sh", "sh"), ("sz", "sh"), ("cz", "ch"), ("ts", "ts"), ("tz", "ts"), ("ph", "f"), ("ye", "ie"),
    ("ie", "ie"), ("io", "io"),
    ("a", "a"), ("b", "b"), ("c", "ts"), ("d", "d"), ("e", "e"), ("f", "f"), ("g", "g"), ("h", "h"),
    ("i", "i"), ("j", "i"), ("k", "k"), ("l", "l"), ("m", "m"), ("n", "n"), ("o", "o"), ("p", "p"),
    ("q", "k"), ("r", "r"), ("s", "s"), ("t", "t"), ("u", "u"), ("v", "v"), ("w", "v"), ("x", "ks"),
    ("y", "i"), ("z", "z"), ("4", "ch"), ("6", "sh"), ("'", ""), ("`", ""), ("’", ""),
]
_LATIN_WORD = re.compile(r"[a-z'`’46]+")
# Latin → Cyrillic for `render`: the most usual reading of each spelling.
_RENDER = [
    ("shch", "щ"), ("szcz", "щ"), ("sch", "щ"), ("sz", "ш"), ("cz", "ч"), ("yo", "ё"), ("jo", "ё"), ("yu", "ю"),
    ("ju", "ю"), ("ya", "я"), ("ja", "я"),
    ("kh", "х"), ("zh", "ж"), ("ch", "ч"), ("sh", "ш"), ("ts", "ц"),
    ("a", "а"), ("b", "б"), ("c", "ц"), ("d", "д"), ("e", "е"), ("f", "ф"), ("g", "г"), ("h", "х"),
    ("i", "и"), ("j", "й"), ("k", "к"), ("l", "л"), ("m", "м"), ("n", "н"), ("o", "о"), ("p", "п"),
    ("q", "к"), ("r", "р"), ("s", "с"), ("t", "т"), ("u", "у"), ("v", "в"), ("w", "в"), ("x", "кс"),
    ("y", "ы"), ("z", "з"), ("4", "ч"), ("6", "ш"), ("'", "ь"), ("`", "ь"), ("’", "ь"),
]


def skeleton(word: str) -> str:
    """The skeleton of a folded Cyrillic word."""
    return "".join(_CYR.get(ch, ch) for ch in word)


def _convert(word: str, table: list[tuple[str, str]], other: Mapping[str, str] | None = None) -> str:
    out = []
    i = 0
    while i < len(word):
        for latin, target in table:
            if word.startswith(latin, i):
                out.append(other[latin] if other and latin in other else target)
                i += len(latin)
                break
        else:
            out.append(word[i])
            i += 1
    return "".join(out)


# Latin letters with a second reading: `j` is «й» or «ж», `x` is «кс» or «х» ("xod" = «ход»),
# `ye` is «ые» or «е» ("novye", "yest'"), and spelt the English way `oo` is «у» and `ee` «и»
# ("rookah" = «руках», "eegraem" = «играем»); spelt the Polish way (`sz` «ш», `cz` «ч», `szcz`
# «щ» above) `ch` is «х», `ie` «е» and `io` «ё» ("siemiorka" = «семёрка», "chodit'" = «ходить»).
_SECOND_READING = {"j": "zh", "x": "h", "ye": "e", "oo": "u", "ee": "i", "ch": "h", "ie": "e", "io": "e"}
# Second readings that count for an exact match only: one edit away from the Polish reading of
# `ch` lie too many other words ("nochyu" read «нохю» is one letter from «нолю»).
_EXACT_ONLY = {"ch"}


def latin_skeletons(word: str, near: bool = False) -> tuple[str, ...]:
    """The skeletons a folded Latin word may stand for (every mix of the letters' two readings;
    `near`: the ones a near miss may be looked up by, without the `_EXACT_ONLY` readings)."""
    skeletons = [_convert(word, _LATIN)]
    letters = [ch for ch in _SECOND_READING if ch in word and not (near and ch in _EXACT_ONLY)]
    for n in range(1, len(letters) + 1):
        for chosen in itertools.combinations(letters, n):
            skeletons.append(_convert(word, _LATIN, {ch: _SECOND_READING[ch] for ch in chosen}))
    return tuple(dict.fromkeys(skeletons))


def is_latin_word(word: str) -> bool:
    return bool(_LATIN_WORD.fullmatch(word)) and any(ch.isalpha() for ch in word)


def render(word: str) -> str:
    """A Latin word written in Cyrillic by the most usual scheme (`khod` → «ход»)."""
    return _convert(word, _RENDER)


# Latin spellings with more than one Cyrillic reading, the usual one first (for `renderings`):
# "tsya" is «тся» or «ться», `ts` «ц» or «тс», `y` «ы» or «й», `i` «и», «й» or «ы», `j` «й» or «ж»,
# `c` «ц», «к» or «ч», `e` «е» or «э», `sh` «ш» or «щ», `'` «ь» or «ъ»; a word-final consonant may
# have lost its soft sign ("pobit" = «побить»).
_READINGS: list[tuple[str, tuple[str, ...]]] = [
    ("oo", ("оо", "у")), ("ee", ("ее", "и")),
    ("shch", ("щ",)), ("szcz", ("щ",)), ("sch", ("щ", "сч")), ("sz", ("ш",)), ("cz", ("ч",)),
    ("tsya", ("тся", "ться")), ("tsia", ("тся", "ться")),
    ("yo", ("ё", "йо")), ("jo", ("ё", "йо")), ("yu", ("ю",)), ("ju", ("ю",)), ("iu", ("ю", "иу")),
    ("ya", ("я", "ыя")), ("ja", ("я",)), ("ia", ("я", "ия")), ("ye", ("е", "ые", "ье", "йе")),
    ("kh", ("х",)), ("zh", ("ж",)), ("ch", ("ч",)), ("sh", ("ш", "щ")), ("ts", ("ц", "тс")),
    ("y", ("ы", "й")), ("i", ("и", "й", "ы")), ("j", ("й", "ж")), ("c", ("ц", "к", "ч")),
    ("e", ("е", "э")), ("x", ("кс", "х")), ("'", ("ь", "ъ")), ("`", ("ь",)), ("’", ("ь",)),
]
_ONE_READING = dict(_RENDER)
_MAX_RENDERINGS = 256


def renderings(word: str) -> list[str]:
    """Every Cyrillic spelling a Latin word may stand for, the most usual first (up to
    _MAX_RENDERINGS): for looking up a word the FAQ does not use in a dictionary
    ("kladetsya" → «кладется», "effekt" → «эффект»)."""
    choices: list[tuple[str, ...]] = []
    i = 0
    while i < len(word):
        for latin, cyrillic in _READINGS:
            if word.startswith(latin, i):
                choices.append(cyrillic)
                i += len(latin)
                break
        else:
            found = next((latin for latin, _ in _RENDER if word.startswith(latin, i)), None)
            if found is None:
                choices.append((word[i],))
                i += 1
            else:
                choices.append((_ONE_READING[found],))
                i += len(found)
    if choices:
        choices[-1] = (*choices[-1], *(c + "ь" for c in choices[-1] if c[-1] not in "аеёиоуыэюяйьъ"))
    out: list[str] = []
    for combo in itertools.islice(itertools.product(*choices), _MAX_RENDERINGS):
        out.append("".join(combo))
    return out


_LOOKUPS_KEPT = 50_000  # lookups remembered per index (dict assignment is atomic: thread-safe enough)


@dataclass(frozen=True)
class Match:
    word: str        # the Cyrillic word
    distance: int    # edits between the skeletons (0: exact)


class TranslitIndex:
    """Known Russian words by skeleton; `lookup` reads a Latin word as one of them."""

    def __init__(self, words: Iterable[str], frequency: Mapping[str, int] | None = None,
                 preferred: Iterable[str] = ()) -> None:
        frequency = frequency or {}
        first = set(preferred)
        self.by_skeleton: dict[str, str] = {}
        ranked = sorted(set(words) | first, key=lambda w: (w not in first, -frequency.get(w, 0), len(w), w))
        for w in ranked:  # a preferred, then the most frequent word keeps a skeleton two words share
            self.by_skeleton.setdefault(skeleton(w), w)
        self._looked_up: dict[str, Match | None] = {}
        self.by_trigram: dict[str, list[str]] = {}
        for sk in sorted(self.by_skeleton):
            if len(sk) >= 4:
                for g in trigrams(sk):
                    self.by_trigram.setdefault(g, []).append(sk)

    def exact(self, word: str) -> str | None:
        """The known word whose skeleton is the Latin word's, or None."""
        for sk in latin_skeletons(word):
            if sk in self.by_skeleton:
                return self.by_skeleton[sk]
        return None

    def lookup(self, word: str) -> Match | None:
        """The known word a Latin word stands for: exact skeleton, else the nearest (short words: exact only)."""
        if word in self._looked_up:  # a reader asks twice per word; a server meets the same words again
            return self._looked_up[word]
        if len(self._looked_up) >= _LOOKUPS_KEPT:
            self._looked_up.clear()
        found = self._lookup(word)
        self._looked_up[word] = found
        return found

    def _lookup(self, word: str) -> Match | None:
        found = self.exact(word)
        if found:
            return Match(found, 0)
        best: tuple[int, int, str] | None = None
        for sk in latin_skeletons(word, near=True):
            if len(sk) < 5:
                continue
            limit = 1 if len(sk) < 8 else 2
            grams = trigrams(sk)
            shared: dict[str, int] = {}
            for g in grams:
                for cand in self.by_trigram.get(g, ()):
                    shared[cand] = shared.get(cand, 0) + 1
            for cand, n in shared.items():
                if cand[0] != sk[0] or n < len(grams) // 3:
                    continue
                d = edit_distance(sk, cand, limit)
                if d <= limit and (best is None or (d, -n, cand) < best):
                    best = (d, -n, cand)
        return Match(self.by_skeleton[best[2]], best[0]) if best else None
