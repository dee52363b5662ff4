"""Russian word forms through pymorphy3 and its Russian dictionary: ONE analyser for the whole app.

«семёрку» → «семёрка», «Бориса» → «борис», «тузов» → «туз». The analyser is built
once (loading the dictionary takes a moment) and shared by every reader of words.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any, Protocol


class Morphology(Protocol):
    """What the reader asks of a language's dictionary (`Pymorphy` below gives pymorphy3's answers)."""

    def lemmas(self, word: str) -> Iterable[str]: ...

    def common_word(self, word: str) -> bool:
        """A dictionary word that is not a proper name («дома», «вера» the noun): never a typo."""
        ...

    def person_name(self, word: str) -> bool:
        """A first name in some form («Гоши», «Боря»)."""
        ...

    def known(self, word: str) -> bool:
        """In the dictionary at all («Маша» is, «Бариса» is not): only an unknown word may be a typo of a name."""
        ...

    def possessive(self, word: str) -> bool:
        """Some reading is a possessive adjective («Димины», «Катин»)."""
        ...

    def genitive_lemmas(self, word: str) -> Iterable[str]:
        """The dictionary forms of the word's genitive readings: after «у» a name is a genitive; «короля нет» says
        the king is not there, but «десятка» is no genitive of «десятка» (it is one of «десяток»)."""
        ...

    def name_readings(self, word: str) -> Iterable[tuple[str, str | None]]:
        """The dictionary forms of the word's first-name readings, each with its gender ("masc", "femn")."""
        ...

    def remark(self, word: str) -> bool:
        """Every reading an interjection, a particle or an adverb («ого», «ха», «обычно», «красиво»): a remark."""
        ...


class NoMorphology:
    """Without a dictionary: the vocabulary's own forms and the usual name endings only; no typo is guessed."""

    def lemmas(self, word: str) -> Iterable[str]:
        return ()

    def common_word(self, word: str) -> bool:
        return True

    def person_name(self, word: str) -> bool:
        return False

    def known(self, word: str) -> bool:
        return True

    def possessive(self, word: str) -> bool:
        return False

    def genitive_lemmas(self, word: str) -> Iterable[str]:
        return ()

    def name_readings(self, word: str) -> Iterable[tuple[str, str | None]]:
        return ()

    def remark(self, word: str) -> bool:
        return False


@lru_cache(maxsize=1)
def analyzer() -> Any:
    """The app's one pymorphy3 analyser for Russian."""
    import pymorphy3

    return pymorphy3.MorphAnalyzer(lang="ru")


def is_cyrillic(word: str) -> bool:
    return any("а" <= ch <= "я" or ch == "ё" for ch in word.lower())


@lru_cache(maxsize=8192)
def lemmas(word: str) -> tuple[str, ...]:
    """Every normal form pymorphy3 knows for a Cyrillic word (none for other words)."""
    if not is_cyrillic(word):
        return ()
    forms: list[str] = []
    for parse in analyzer().parse(word):
        if parse.normal_form not in forms:
            forms.append(parse.normal_form)
    return tuple(forms)


_PROPER = ("Name", "Surn", "Patr", "Geox", "Orgn", "Trad")


@lru_cache(maxsize=8192)
def common_word(word: str) -> bool:
    """A dictionary word whose likeliest reading is not a proper name («дома», «вера»); «кароль» is not one."""
    if not is_cyrillic(word):
        return True
    if not analyzer().word_is_known(word.lower()):
        return False
    top = analyzer().parse(word)[0]
    return not any(grammeme in top.tag for grammeme in _PROPER)


@lru_cache(maxsize=8192)
def person_name(word: str) -> bool:
    """Some reading of the word is a first name («Гоши», «Боря», «Веры»)."""
    return is_cyrillic(word) and any("Name" in parse.tag for parse in analyzer().parse(word))


@lru_cache(maxsize=8192)
def known(word: str) -> bool:
    """In the dictionary at all (Latin words count as known: nothing here guesses them)."""
    return not is_cyrillic(word) or bool(analyzer().word_is_known(word.lower()))


@lru_cache(maxsize=8192)
def genitive_lemmas(word: str) -> tuple[str, ...]:
    """The dictionary forms of the word's genitive readings («валентина» → «валентин»; not «валентина»)."""
    if not is_cyrillic(word):
        return ()
    return tuple(dict.fromkeys(p.normal_form for p in analyzer().parse(word) if p.tag.case == "gent"))


@lru_cache(maxsize=8192)
def name_readings(word: str) -> tuple[tuple[str, str | None], ...]:
    """The first-name readings of a word: dictionary form and gender («сёмы» → («сёма», "masc"); «ники» → «ника»
    femn and «ник» masc)."""
    if not is_cyrillic(word):
        return ()
    found = ((p.normal_form, p.tag.gender) for p in analyzer().parse(word) if "Name" in p.tag)
    return tuple(dict.fromkeys(found))


@lru_cache(maxsize=8192)
def possessive(word: str) -> bool:
    """Some reading of the word is a possessive adjective («Димины», «Катин»)."""
    return is_cyrillic(word) and any("Poss" in parse.tag for parse in analyzer().parse(word))


# «ого», «же», «обычно», «красиво», «жалко»; «конечно», «кстати» (parenthetical words)
_REMARK_POS = frozenset({"INTJ", "PRCL", "ADVB", "ADJS", "PRED", "Prnt"})


@lru_cache(maxsize=8192)
def remark(word: str) -> bool:
    """A word said as a remark: every reading an interjection, a particle, an adverb, a parenthetical word, a short
    adjective or a predicative, and one of them not an adjective («ого», «ха», «обычно», «красиво»;
    not «должна», only a short adjective)."""
    if not is_cyrillic(word) or not analyzer().word_is_known(word.lower()):
        return False
    pos = {"Prnt" if "Prnt" in parse.tag else parse.tag.POS for parse in analyzer().parse(word)}
    return pos <= _REMARK_POS and bool(pos & {"INTJ", "PRCL", "ADVB", "Prnt"})


class Pymorphy:
    """The dictation reader's view of this module (language/spoken_words.Morphology)."""

    lemmas = staticmethod(lemmas)
    common_word = staticmethod(common_word)
    person_name = staticmethod(person_name)
    known = staticmethod(known)
    genitive_lemmas = staticmethod(genitive_lemmas)
    name_readings = staticmethod(name_readings)
    possessive = staticmethod(possessive)
    remark = staticmethod(remark)
