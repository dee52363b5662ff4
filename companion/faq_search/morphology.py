"""Word forms: Russian through a dictionary (pymorphy3 + OpenCorpora), English through Snowball.

`stem(word)` is the one index term of a word, the same for the index and the
query. A Russian word the dictionary knows is first reduced to its dictionary
form (lemma: «дамой» → «дама», «пересдали» → «пересдать», «вытянул» →
«вытянуть»), then Snowball-stemmed, so that a lemma and its relatives meet
(«выход», «выходить» → «выход»). A Russian word the dictionary does not know (a
typo, slang) is Snowball-stemmed as written; the spelling module corrects it
first where it can. English words are Snowball-stemmed.

`is_dictionary_word` tells a real Russian word from a typo, and
`is_english_word` a real English word (pyspellchecker's frequency list): a real
word the FAQ never uses is a sign the question is about something else, not a
misspelling to correct.
"""

from __future__ import annotations

import re
import threading
from functools import lru_cache
from typing import Any

import pymorphy3
import snowballstemmer
from spellchecker import SpellChecker

_CYRILLIC = re.compile(r"[а-яё]", re.IGNORECASE)
_STEMMERS = {"ru": snowballstemmer.stemmer("russian"), "en": snowballstemmer.stemmer("english")}
_lock = threading.Lock()


def script_of(word: str) -> str:
    """'ru' for a word with a Cyrillic letter, else 'en'."""
    return "ru" if _CYRILLIC.search(word) else "en"


@lru_cache(maxsize=1)
def analyzer() -> pymorphy3.MorphAnalyzer:
    """The dictionary, loaded once per process (about 0.2 s, 15 MB)."""
    return pymorphy3.MorphAnalyzer(lang="ru")


@lru_cache(maxsize=20_000)
def readings(word: str) -> tuple[Any, ...]:
    """pymorphy3's readings of a Russian word, likeliest first, parsed once per word for every
    question below; () for a word without a Cyrillic letter."""
    if not _CYRILLIC.search(word):
        return ()
    with _lock:
        return tuple(analyzer().parse(word))


@lru_cache(maxsize=100_000)
def is_dictionary_word(word: str) -> bool:
    """Whether `word` (folded, Cyrillic) is a form of a word in the Russian dictionary."""
    if not _CYRILLIC.search(word) or not word.isalpha():
        return False
    with _lock:
        return bool(analyzer().word_is_known(word))


@lru_cache(maxsize=20_000)
def is_instrumental(word: str) -> bool:
    """Whether the likeliest reading of a Russian word is in the instrumental case («тузом», «дамой»)."""
    parses = readings(word)
    return bool(parses) and "ablt" in parses[0].tag


@lru_cache(maxsize=20_000)
def is_name(word: str) -> bool:
    """Whether the likeliest reading of a Russian word is a first name («Костя», «Пашка»): a player."""
    if not is_dictionary_word(word):
        return False
    parses = readings(word)
    return bool(parses) and "Name" in parses[0].tag


@lru_cache(maxsize=20_000)
def is_infinitive(word: str) -> bool:
    """Whether the likeliest reading of a Russian word is an infinitive («скинуть», «ходить»)."""
    parses = readings(word)
    return bool(parses) and parses[0].tag.POS == "INFN"


@lru_cache(maxsize=20_000)
def is_third_person(word: str) -> bool:
    """Whether the likeliest reading of a Russian verb is in the third person or the past
    («говорит», «говорят», «сказал»): somebody else's words, not the asker's."""
    parses = readings(word)
    return bool(parses) and parses[0].tag.POS == "VERB" and ("3per" in parses[0].tag or "past" in parses[0].tag)


_PROPER = {"Name", "Surn", "Patr", "Geox", "Orgn", "Trad"}


@lru_cache(maxsize=100_000)
def is_common_word(word: str) -> bool:
    """A dictionary word with a reading that is not a proper name: «кароль» is only a name, so
    at a card table it is a typo of «король»; «погода» and «москве» are real words."""
    if not is_dictionary_word(word):
        return False
    parses = readings(word)
    return any(not (_PROPER & set(str(p.tag).replace(" ", ",").split(","))) for p in parses) or any(
        "Geox" in str(p.tag) for p in parses)


ENGLISH_MIN_FREQUENCY = 300  # rarer entries of the list are mostly misspellings and names ("harts")


@lru_cache(maxsize=1)
def english_words() -> SpellChecker:
    """The English word list with frequencies, loaded once per process (about 0.3 s)."""
    return SpellChecker(language="en", distance=1)


@lru_cache(maxsize=100_000)
def is_english_word(word: str) -> bool:
    """Whether `word` (folded, Latin letters) is a common English word."""
    if not word.isascii() or not word.isalpha():
        return False
    with _lock:
        return int(english_words().word_frequency[word]) >= ENGLISH_MIN_FREQUENCY


@lru_cache(maxsize=100_000)
def english_frequency(word: str) -> int:
    """How common `word` (folded, Latin letters) is in the English word list (0: not in it)."""
    if not word.isascii() or not word.isalpha():
        return 0
    with _lock:
        return int(english_words().word_frequency[word])


@lru_cache(maxsize=100_000)
def lemma(word: str) -> str:
    """The dictionary form of a known Russian word (its most probable reading), folded; else `word`."""
    if not is_dictionary_word(word):
        return word
    parses = readings(word)
    return str(parses[0].normal_form).replace("ё", "е") if parses else word


@lru_cache(maxsize=100_000)
def lemmas(word: str) -> tuple[str, ...]:
    """Every dictionary form a known Russian word may be a form of, likeliest first («крыл»: «крыло»,
    then «крыть»); `(word,)` for any other word, and for a word read first as a name («Костя» is
    no form of «кость»)."""
    if not is_dictionary_word(word):
        return (word,)
    parses = readings(word)
    if parses and "Name" in parses[0].tag:
        return (str(parses[0].normal_form).replace("ё", "е"),)
    return tuple(dict.fromkeys(str(p.normal_form).replace("ё", "е") for p in parses)) or (word,)


@lru_cache(maxsize=100_000)
def stem(word: str) -> str:
    """The index term of one folded word (see the module docstring)."""
    if word.isdigit():
        return word
    if script_of(word) == "ru":
        return str(_STEMMERS["ru"].stemWord(lemma(word)))
    return str(_STEMMERS["en"].stemWord(word))


@lru_cache(maxsize=20_000)
def forms(word: str) -> tuple[str, ...]:
    """Every form of the lemma of a known Russian word (folded), for transliteration lookups."""
    if not is_dictionary_word(word):
        return (word,)
    parses = readings(word)
    with _lock:
        lexeme = parses[0].lexeme if parses else []
        found = {str(p.word).replace("ё", "е") for p in lexeme}
    return tuple(sorted(found | {word}))


# What kind of word an unknown query word is, for the "no answer" decision (index.py): a word
# the FAQ never uses says more about what the question is about when it is a noun or adjective
# of the language ("pizza", «погода», «магазин») than when it is a verb, adverb or function word
# («сделать», «получилось», "happens", "possible") or not a word of the language at all (chat
# spelling and abbreviations: «хто», «эт», "wut", "ppl", "n"). A Russian noun of a person or an
# animal (pymorphy3's animacy) is somebody in the story («зверь», «клиент»): generic too.
CONTENT = "content"
PLACE = "place"  # a town or a country («в москве», «в россии»): the world, not the table
GENERIC = "generic"
NONWORD = "nonword"
_RU_CONTENT = {"NOUN", "ADJF", "ADJS"}
# English has no tagger here: a word this common (pyspellchecker's counts; "possible" 151,572,
# "person" 368,355, "weather" 45,956, "pizza" 25,354) is everyday language, not a subject.
ENGLISH_GENERIC_FREQUENCY = 100_000


@lru_cache(maxsize=100_000)
def word_kind(word: str) -> str:
    """CONTENT, GENERIC or NONWORD for one folded word (see above)."""
    if len(word) <= 2 or not word.isalpha():
        return NONWORD
    if script_of(word) == "ru":
        if not is_common_word(word):  # no dictionary word, or only a name («серёга», «пашка» as a player)
            return NONWORD
        parses = readings(word)
        if parses and "Geox" in parses[0].tag:
            return PLACE
        # A person or an animal («зверь», «клиент») is somebody in the story, not what it is about.
        return CONTENT if parses and parses[0].tag.POS in _RU_CONTENT and "anim" not in parses[0].tag else GENERIC
    if not is_english_word(word):
        return NONWORD
    return GENERIC if english_frequency(word) >= ENGLISH_GENERIC_FREQUENCY else CONTENT
