"""Reading a query as the player meant it: typos corrected, Russian in Latin letters made Russian.

`QueryReader.read(q)` goes word by word:

- a Cyrillic word the index knows stays; a real Russian word the index does not
  know («погода») stays too: it is not a typo, and the search should see that the
  question is about something else; any other word («кароля», «пабить») is
  corrected to the closest word the index knows (`SpellIndex`);
- a Latin word is English or transliterated Russian. The query decides as a
  whole: when more of its Latin words read as Russian words we know
  (`TranslitIndex`) than as English words we know, the ambiguous ones («na»,
  «i», «to») are Russian too. A transliterated word becomes the Russian word it
  matches, or, when it matches none, the real Russian word it spells («pogoda» →
  «погода»); an English word the index does not know is corrected like a
  Cyrillic one ("sevn" → "seven");
- card notation (``qh``, ``10c``, ``Дч``), digits and short words stay.

The result says what was searched for, so the page can show it («Показаны ответы
для: …») when a word was changed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from companion.core import cards
from companion.faq_search.distance import edit_distance, trigrams
from companion.faq_search.morphology import (
    english_frequency,
    is_common_word,
    is_dictionary_word,
    is_english_word,
    script_of,
)
from companion.faq_search.translit import TranslitIndex, is_latin_word, render, renderings

_VOWELS = frozenset("аеиоуыэюяaeiou")
_HELD = re.compile(r"(\w)\1{2,}")  # a letter typed three times or more
# Keys next to each other on the Russian (ЙЦУКЕН) and English (QWERTY) keyboards, by row:
# a first letter hit on a neighbour key («ксть» for «есть») is a typo too.
_ROWS = ("йцукенгшщзхъ", "фывапролджэ", "ячсмитьбю", "qwertyuiop", "asdfghjkl", "zxcvbnm")
_NEIGHBOURS = {row[i]: row[max(0, i - 1):i] + row[i + 1:i + 2] for row in _ROWS for i in range(len(row))}


class SpellIndex:
    """Known words by trigram; `correct` finds the closest one to an unknown word."""

    def __init__(self, words: Iterable[str], frequency: Mapping[str, int] | None = None,
                 near_only: Iterable[str] = ()) -> None:
        self.words = frozenset(w for w in words if len(w) >= 3 and not w.isdigit())
        self.frequency = frequency or {}
        # Words a typo reaches at one edit only: the words of other subjects (another game, the
        # app), so that slang the index does not know («канает») is not read as «канаста».
        self.near_only = frozenset(near_only)
        self.by_trigram: dict[str, list[str]] = {}
        for w in sorted(self.words):
            for g in trigrams(w):
                self.by_trigram.setdefault(g, []).append(w)

    def correct(self, word: str, min_length: int = 4, limit: int | None = None) -> str | None:
        """The closest known word (same first letter and script), or None; words shorter than
        `min_length` are left alone. Up to one edit, two for words over five letters."""
        if len(word) < min_length or word.isdigit():
            return None
        if limit is None:
            limit = 1 if len(word) <= 5 else 2
        grams = trigrams(word)
        shared: dict[str, int] = {}
        for g in grams:
            for w in self.by_trigram.get(g, ()):
                shared[w] = shared.get(w, 0) + 1
        # Two letters swapped share few trigrams with the word meant ("teh" and "the" none): try the swaps.
        swaps = set()
        for i in range(len(word) - 1):
            swapped = word[:i] + word[i + 1] + word[i] + word[i + 2:]
            if swapped in self.words and swapped != word:
                swaps.add(swapped)
                shared[swapped] = max(shared.get(swapped, 0), len(grams))
        if len(word) <= 4:
            # A short word shares few trigrams with the word meant ("oit" and "out" none): its
            # one-edit neighbours are few enough to try directly.
            for near in _one_edit(word):
                if near in self.words:
                    shared[near] = max(shared.get(near, 0), len(grams))
        script = script_of(word)
        best: tuple[int, bool, int, str] | None = None
        for w, n in shared.items():
            # Typos rarely hit the first letter; demanding it keeps real words from being "corrected".
            # A vowel for a vowel is the exception: unstressed «а»/«о» («атбиться»), "enything".
            first_ok = w[0] == word[0] or w[0] in _VOWELS and word[0] in _VOWELS or w[0] in _NEIGHBOURS.get(word[0], "")
            if not first_ok or n < max(1, len(grams) // 4) or script_of(w) != script:
                continue
            d = edit_distance(word, w, limit)
            if d > limit or d > 1 and w in self.near_only:
                continue
            key = (d, w not in swaps, -self.frequency.get(w, 0), w)  # two letters swapped: the likeliest slip
            if best is None or key < best:
                best = key
        return best[3] if best else None


_ALPHABETS = {"ru": "абвгдежзийклмнопрстуфхцчшщъыьэюя", "en": "abcdefghijklmnopqrstuvwxyz"}


def _one_edit(word: str) -> set[str]:
    """Every word one deletion, substitution or insertion away (in the word's own alphabet)."""
    letters = _ALPHABETS[script_of(word)]
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    out = {a + b[1:] for a, b in splits if b}
    out |= {a + c + b[1:] for a, b in splits if b for c in letters}
    out |= {a + c + b for a, b in splits for c in letters}
    out.discard(word)
    return out


# A word: Latin letters with apostrophes inside («skol'ko», "don't") and «ч», «ш» as digits ("4to",
# "vy6el"; a 6 only between letters: "6ku" is a six), or any other run of
# word characters; a card with a suit symbol stays one piece (K♠, Д ♥, 10♣).
_PIECE = re.compile(
    r"(?P<card>(?<!\w)(?:10|[2-9]|[jqkaвдкт])\s?[♠♥♦♣♤♡♢♧])"
    r"|(?P<latin>[a-z4]*[a-z](?:[a-z4]|6(?=[a-z]))*(?:['’`][a-z]+)*)(?!\w)"
    r"|(?P<word>\w+)",
    re.IGNORECASE,
)
_LAT_CARD = re.compile(r"(10|[2-9]|[jqka])([shdc])")
_SENTENCE_END = re.compile(r"(?:^|[.!?:;]\s*|\n\s*)$")


def _a_name(q: str, m: re.Match[str]) -> bool:
    """A word with a capital first letter inside a sentence of an English query is a name, not a
    typo ("Timur put a queen on it", "Hoa is at 106"): it is not corrected."""
    raw = m.group(0)
    return (len(raw) > 1 and raw[0].isupper() and raw[1:].islower()
            and not _SENTENCE_END.search(q[:m.start()]))


# The soft and hard signs of scholarly transliteration (ʹ ʺ) and other primes: an apostrophe.
_PRIMES = str.maketrans({"ʹ": "'", "ʺ": "'", "ʼ": "'", "′": "'", "″": "'"})
# A real English word the index does not know is read as a typo of a known word one edit
# away when that word is this many times as common in English ("dose" → "does", "pas" →
# "pass", "wat" → "what"; "car" stays "car"): the noisy-channel rule, with the word list's
# frequencies.
TYPO_RATIO = 40
# Russian spelt as spoken: «-цца», «-ца» for «-ться», «-тся».
_SPOKEN = ((re.compile(r"цц[ао]$"), "ться"), (re.compile(r"цц[ао]$"), "тся"), (re.compile(r"ца$"), "тся"),
           (re.compile(r"ца$"), "ться"))


@dataclass(frozen=True)
class ReadQuery:
    """A query as read: `text` goes to the analyser, `shown` is what the page shows."""

    text: str                  # folded, with corrected and transliterated words
    shown: str                 # the query as typed, with the changed words replaced
    changes: tuple[tuple[str, str], ...] = ()  # (as typed, as read) for every changed word
    transliterated: bool = False

    @property
    def changed(self) -> bool:
        return bool(self.changes)


class QueryReader:
    def __init__(self, spell: SpellIndex, translit: TranslitIndex, english: frozenset[str],
                 known: Callable[[str], bool], glue: frozenset[str] = frozenset()) -> None:
        self.glue = glue          # short Russian function words a chat writer glues to the next («ктосдает»)
        self.spell = spell
        self.translit = translit
        self.english = english    # every Latin word the index or vocabulary knows
        self.known = known        # does the index know this (folded) word

    def _russian(self, word: str) -> str | None:
        """The Russian word a Latin word spells, if any (see the module docstring)."""
        found = self.translit.exact(word)
        if found:
            return found
        if len(word) < 3:
            return None
        rendered = render(word)
        if is_dictionary_word(rendered):
            return rendered
        near = self.translit.lookup(word)
        if near:
            return near.word
        # A real word by another reading of its letters ("kladetsya" → «кладется»).
        return next((w for w in renderings(word) if is_dictionary_word(w)), None)

    @staticmethod
    def _next_to_a_suit(pieces: list[re.Match[str]], i: int) -> bool:
        """Whether the word before or after piece `i` names a suit («пиковый», «пик»)."""
        return any(0 <= j < len(pieces) and cards.suit_of_word(pieces[j].group(0)) is not None for j in (i - 1, i + 1))

    def _russian_typo(self, word: str) -> str | None:
        """A Cyrillic word that is neither known nor real, as meant: spoken spellings first
        («отбицца» → «отбиться», «кончица» → «кончится»), then the closest known word.
        A letter held three times or more («сдаеттт», «нууу») is one; a function word glued to
        the next word («ктосдает») is two words, and so is a run of words typed without spaces."""
        collapsed = _HELD.sub(r"\1", word)
        if collapsed != word:
            if self.known(collapsed) or is_common_word(collapsed):
                return collapsed
            word = collapsed
        for pattern, spoken in _SPOKEN:
            written = pattern.sub(spoken, word)
            if written != word and (self.known(written) or is_common_word(written)):
                return written
        if len(word) == 3:  # three letters: only a card word one edit away («тус» → «туз»)
            near = self.spell.correct(word, min_length=3, limit=1)
            return near if near and cards.card_word(near) else None
        if is_dictionary_word(word):
            # Only a name («кароль», «серёга», «вася»): a player at the table, unless it is one
            # edit from a card word, which a name there hardly is.
            near = self.spell.correct(word, limit=1)
            return near if near and cards.card_word(near) else None
        return (self._unglued(word, exact=True) or self.spell.correct(word) or self._segmented(word)
                or self._unglued(word, exact=False))

    def _segmented(self, word: str) -> str | None:
        """«сколькоочковзадевятку» → «сколько очков за девятку»: a long run of words typed without
        spaces, split into the fewest words each known as written (two letters: a function word),
        of those splits the one of the longest words («очков за», not «очко вза»), then of the most
        words the index knows («король на», not «ко рольна»)."""
        if len(word) < 8:
            return None

        def whole(piece: str) -> bool:  # (`known` takes any word under four letters)
            if len(piece) <= 3:
                return piece in self.glue or (len(piece) == 3 and is_common_word(piece))
            return self.known(piece) or is_common_word(piece)

        def rank(words: list[str]) -> tuple[int, int, int]:  # the fewest words, the longest, the most known
            return len(words), -sum(len(w) ** 2 for w in words), -sum(self.known(w) for w in words)

        best: list[list[str] | None] = [[]] + [None] * len(word)  # best[i]: the best split of word[:i]
        for end in range(2, len(word) + 1):
            for start in range(max(0, end - 20), end - 1):
                before = best[start]
                if before is None or not whole(word[start:end]):
                    continue
                split = [*before, word[start:end]]
                current = best[end]
                if current is None or rank(split) < rank(current):
                    best[end] = split
        found = best[-1]
        return " ".join(found) if found and len(found) > 1 else None

    def _unglued(self, word: str, exact: bool) -> str | None:
        """«ктосдает» → «кто сдает»: a glued function word first, then a word known as written
        (`exact`) or, from five letters, one the index corrects to."""
        if len(word) < 6 or not self.glue:
            return None
        for i in range(2, min(6, len(word) - 3)):
            head, tail = word[:i], word[i:]
            if head not in self.glue:
                continue
            if exact and ((len(tail) >= 4 and self.known(tail)) or is_common_word(tail)):
                return f"{head} {tail}"
            near = self.spell.correct(tail) if not exact and len(tail) >= 5 else None
            if near:
                return f"{head} {near}"
        return None

    def _english(self, word: str, real: bool) -> str | None:
        """A Latin word of an English query as meant: a non-word corrected to the closest known
        word (three letters are enough: "teh", "hwo"); a real word the index does not know only
        when a known word one edit away is far more common (`TYPO_RATIO`)."""
        if not real:
            return self.spell.correct(word, min_length=3, limit=1 if len(word) <= 5 else 2)
        if word in self.english:
            return None
        found = self.spell.correct(word, min_length=3, limit=1)
        if found and found != word and english_frequency(found) >= TYPO_RATIO * max(1, english_frequency(word)):
            return found
        return None

    def read(self, q: str) -> ReadQuery:
        q = q.translate(_PRIMES)
        pieces = list(_PIECE.finditer(q))
        latin: dict[int, tuple[str, bool, str | None]] = {}  # piece index → (word, is English, Russian)
        ru_votes = en_votes = 0
        for i, m in enumerate(pieces):
            if not m.group("latin"):
                continue
            word = cards.fold(m.group(0))
            bare = re.sub(r"['’`]", "", word)
            if _LAT_CARD.fullmatch(bare) or len(bare) == 1 and bare in "jqk":
                continue
            english = bare in self.english or all(
                part in self.english or is_english_word(part) for part in re.split(r"['’`]", word) if part)
            russian = self._russian(word)
            latin[i] = (word, english, russian)
            # Only a word we know in Russian votes for Russian; one we know in English, for English.
            ours = self.translit.exact(word) or (len(word) >= 5 and self.translit.lookup(word))
            if ours and not english:
                ru_votes += 1
            elif english and not ours:
                en_votes += 1
        russian_mode = ru_votes > en_votes
        out: list[str] = []
        shown: list[str] = []
        changes: list[tuple[str, str]] = []
        last = 0
        for i, m in enumerate(pieces):
            raw = m.group(0)
            shown.append(q[last:m.start()])
            out.append(" ")
            last = m.end()
            read = cards.fold(raw)
            if i in latin:
                word, english, russian = latin[i]
                if russian and russian_mode:
                    read = russian
                elif russian_mode and not english:
                    read = render(word)
                else:
                    bare = re.sub(r"['’`]", "", word)
                    corrected = None if _a_name(q, m) else self._english(bare, english)
                    head, _, tail = re.sub(r"['’`]", "'", word).partition("'")
                    if tail and english and is_english_word(head):
                        corrected = None  # "there's", "everyone's": a real word with its 's
                    elif tail and corrected is None and len(head) >= 3:  # "waht's": the word before the apostrophe
                        fixed = self._english(head, is_english_word(head))
                        corrected = f"{fixed}'{tail}" if fixed else None
                    if corrected is None and not english and len(bare) >= 4 and self.translit.exact(word):
                        read = self.translit.exact(word) or read  # a Russian word in an English query ("max igrokov")
                    else:
                        read = corrected or read
            elif (m.group("word") and script_of(read) == "ru" and not read.isdigit()
                  and not self.known(read) and not is_common_word(read)):
                read = self._russian_typo(read) or read
            elif (m.group("word") and len(read) == 3 and script_of(read) == "ru" and read.isalpha()
                  and not is_common_word(read) and not cards.card_word(read)):
                read = self._russian_typo(read) or read  # «тус»: three letters, no word, near a card word
            elif (m.group("word") and script_of(read) == "ru" and not self.known(read)
                  and self._next_to_a_suit(pieces, i)):
                # a real word where a rank belongs: «пиковый кроль» is the king of spades
                near = self.spell.correct(read, limit=1)
                read = near if near and cards.rank_of_word(near) else read
            if read != cards.fold(raw) and read != re.sub(r"['’`]", "", cards.fold(raw)):
                changes.append((raw, read))
                shown.append(read)
            else:
                shown.append(raw)
            out.append(read)
        shown.append(q[last:])
        return ReadQuery(
            text=" ".join("".join(out).split()), shown=" ".join("".join(shown).split()),
            changes=tuple(changes), transliterated=russian_mode or any(
                is_latin_word(a) and script_of(b) == "ru" for a, b in changes),
        )
