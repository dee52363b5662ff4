"""The search's one analyser: a question as the features the model weighs.

Players write Russian in Cyrillic, in Latin letters of every school (`shestyorka`, `szestiorka`,
`6estorka`), English, and both at once. Every word is therefore folded to one Latin spelling
(Cyrillic transliterated, the spellings of one sound made one letter, doubled letters single),
so that «шестёрка», `shesterka` and `szestiorka` share most of their pieces. The features are the
folded words, pairs of neighbouring words, and the words' character 2- to 5-grams: the grams carry
word forms («даму», «дамой») and typos without a dictionary.
"""

from __future__ import annotations

import re
from functools import lru_cache

_CYRILLIC = dict(zip("абвгдеёжзийклмнопрстуфхцчшщыэюя", (
    "a", "b", "v", "g", "d", "e", "e", "Z", "z", "i", "i", "k", "l", "m", "n", "o", "p", "r", "s", "t", "u",
    "f", "h", "c", "C", "S", "S", "y", "e", "yu", "ya"), strict=True))
_CYRILLIC["ъ"] = _CYRILLIC["ь"] = ""
# Latin spellings of one sound, one letter each (upper case: a letter of its own). Longest first.
_SOUNDS = [(re.compile(pattern), letter) for pattern, letter in (
    (r"shch|sch|szcz|sh|sz|[şšщ]", "S"),
    (r"tsch|tch|ch|cz|[çč]", "C"),
    (r"zh|[žżź]", "Z"),
    (r"kh|x", "h"),
    (r"ts", "c"),
    (r"w", "v"),
    (r"q", "k"),
    (r"j", "y"),
    (r"yo|io", "e"),
    (r"ia", "ya"),
    (r"iu", "yu"),
    (r"[iy]{2,}", "i"),
    (r"(.)\1+", r"\1"),
)]
# Card suits written as symbols read as the suit's Russian name, the way most questions name them.
_SUITS = str.maketrans({"♠": " пики ", "♥": " черви ", "♦": " бубны ", "♣": " крести "})
_WORD = re.compile(r"[^\W_]+")
GRAMS = (2, 3, 4, 5)


@lru_cache(maxsize=8192)
def fold(word: str) -> str:
    """A lower-case word in the one Latin spelling («Шестёрку» and `shestyorku` → `Sesterku`)."""
    latin = "".join(_CYRILLIC.get(c, c) for c in word)
    for pattern, letter in _SOUNDS:
        latin = pattern.sub(letter, latin)
    return latin


def words(text: str) -> list[str]:
    """The folded words of `text`, in order."""
    return [fold(w) for w in _WORD.findall(text.lower().translate(_SUITS))]


@lru_cache(maxsize=8192)
def _word_features(word: str) -> tuple[str, ...]:
    padded = f" {word} "
    grams = [padded[i : i + n] for n in GRAMS for i in range(len(padded) - n + 1)]
    return (f"w:{word}", *grams)


def forget() -> None:
    """Drop the words remembered while learning (queries remember their own)."""
    fold.cache_clear()
    _word_features.cache_clear()


def features(text: str) -> list[str]:
    """The features of `text`, each as often as it occurs: folded words (`w:`), word pairs (`p:`), grams."""
    folded = words(text)
    found = [f for word in folded for f in _word_features(word)]
    found.extend(f"p:{a}_{b}" for a, b in zip(folded, folded[1:], strict=False))
    return found
