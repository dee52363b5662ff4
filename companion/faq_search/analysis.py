"""Text analysis for the FAQ search: the same tokens for the index and for the query.

- case folding, ё → е (the core's `cards.fold`); a dictionary form then a stem per
  word (`morphology.stem`: pymorphy3 for Russian, Snowball for English); stop
  words dropped;
- card phrases in every notation (``Д♥``, ``Дч``, ``дама червей``,
  ``червовая дама``, ``queen of hearts``, ``QH``, ``Q♥``) become shared concept
  tokens: one for the rank, one for the suit, one for the card. The card words
  and notations are the core's one vocabulary (`companion.core.cards`);
- relations between card phrases become concept tokens too: a number before
  a rank counts cards of one rank (``две семёрки``), a number elsewhere is a
  number (``взять две``), and a card ``на``/``on`` another card names the rank
  played (``дама на десятку`` → a queen played on another rank);
- synonyms from `data/search_synonyms.toml` fold onto one token per group,
  across both languages, so a mixed query still meets both columns (a stem two
  groups share decides nothing: only the listed words map).

Spelling correction and transliteration happen before this (`spelling`), on the
query only.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from companion.core import cards
from companion.core.rules import RULESETS
from companion.faq.entries import DATA, LANGS
from companion.faq_search.morphology import (
    is_dictionary_word,
    is_infinitive,
    is_instrumental,
    is_name,
    is_third_person,
    lemma,
    lemmas,
    stem,
)

SYNONYMS_FILE = DATA / "search_synonyms.toml"
_lemmas_of = lemmas  # (`Vocabulary.from_toml` has a mapping of its own named `lemmas`)

_CYRILLIC = re.compile(r"[а-яё]", re.IGNORECASE)
_LATIN = re.compile(r"[a-z]", re.IGNORECASE)


def rank_id(rank: cards.Rank) -> str:
    """The id of a rank in concept tokens: "7", "10", "q"."""
    return rank.value.lower()


def suit_id(suit: cards.Suit) -> str:
    """The id of a suit in concept tokens: "s", "h", "d", "c"."""
    return suit.letter.lower()


# The card notation, from the core's one definition (companion/core/cards.py).
_SUIT_IDS = {symbol: suit_id(suit) for symbol, suit in cards.SUIT_SYMBOLS.items()}
_RANK_IDS = {
    **{r.value: rank_id(r) for r in cards.NUMBER_RANKS},
    **{letter: rank_id(r) for script in cards.RANK_LETTERS.values() for letter, r in script.items()},
}
_CYR_SUITS = {letter: suit_id(s) for letter, s in cards.SUIT_LETTERS[cards.RU].items()}
# One pass over the text: a rank with a suit symbol (K♠, Д ♥, 10♣), a lone suit
# symbol, or a word (which may still be a compact card: qh, дч, 10c).
_SCAN = re.compile(r"(?P<card>(?<!\w)(?:10|[2-9]|[jqkaвдкт])\s?[♠♥♦♣])|(?P<suit>[♠♥♦♣])|(?P<word>\w+)")
_LAT_CARD = re.compile(r"(10|[2-9]|[jqka])([shdc])")
_CYR_CARD = re.compile(r"(10|[6-9]|[вдкт])([пчбтк])")
_WORD = re.compile(r"[\w-]+")
# A number of a card written with the ending of its name, as people type fast: «7ку», «10ка»,
# «6ки», «9кой», "7ku", "10ka"; at least two letters: «10к» is the ten of clubs.
_DIGIT_CARD = re.compile(r"(10|[2-9])-?(ка|ки|ку|ке|кой|кою|ок|ками|ках|ka|ki|ku|ke|koj|koi|koy|ok)")
# Compact forms that are more often English words or plurals ("as", "ad", "7s").
_LAT_CARD_WORDS = {"as", "ad"}
_CAPS_CARDS = re.compile(r"(?<!\w)(A)([SD])(?!\w)")  # ...unless written in capitals: AS, AD
_SUIT_LETTERS = {"S": "♠", "D": "♦"}


def _is_suit_adjective(word: str) -> bool:
    """A Russian suit adjective with no noun after it stands for the card just named:
    "крестовую даму на бубновую" is a queen on a queen."""
    found = cards.card_word(word)
    return bool(found and found.adjective)


fold = cards.fold  # case folding, ё → е, NFC, and one form of each suit symbol


def detect_language(text: str) -> str:
    """'ru' when the text has more Cyrillic than Latin letters, else 'en'."""
    return "ru" if len(_CYRILLIC.findall(text)) >= max(1, len(_LATIN.findall(text))) else "en"


def rank_token(rank: str) -> str:
    return f"zzr{rank}"


def suit_token(suit: str) -> str:
    return f"zzs{suit}"


def card_token(rank: str, suit: str) -> str:
    return f"zzc{rank}{suit}"


RANK_TOKENS = {rank_token(r): r for r in set(_RANK_IDS.values())}
SUIT_TOKENS = {suit_token(s): s for s in _SUIT_IDS.values()}
CARD_TOKENS = frozenset(card_token(r, s) for r in set(_RANK_IDS.values()) for s in _SUIT_IDS.values())


@dataclass
class _Atom:
    """One unit of text: a plain word, or a rank, suit or card concept."""

    word: str = ""  # the folded surface form (plain words only)
    rank: str = ""
    suit: str = ""
    is_card: bool = False
    source: str = ""  # the word a rank or suit was read from ("две", "семерки")
    concept: str = ""  # a relation between card phrases (see `_relations`)

    def tokens(self) -> list[str]:
        if self.concept:
            return [self.concept]
        if self.rank and self.suit:
            # No suit token: "Q♦" is about the queen, hardly about diamonds in general.
            return [rank_token(self.rank), card_token(self.rank, self.suit)]
        if self.rank:
            return [rank_token(self.rank)]
        if self.suit:
            return [suit_token(self.suit)]
        return []


@dataclass(frozen=True)
class Vocabulary:
    """Synonyms, card words and stop words (data/search_synonyms.toml), ready for lookup."""

    stopwords: frozenset[str]       # single words (a phrase of the list is in `phrases`, mapping to nothing)
    ranks: Mapping[str, str]        # stem or surface → rank id
    suits: Mapping[str, str]        # stem or surface → suit id
    joiners: frozenset[str]         # words allowed between a rank and its suit ("of")
    surface: Mapping[str, tuple[str, ...]]        # folded word → tokens (checked before stemming)
    phrases: Mapping[tuple[str, ...], tuple[str, ...]]  # stem sequence → tokens
    max_phrase: int
    words: frozenset[str]           # every folded word named in the file (for typo correction)
    expand: Mapping[str, str]       # folded word → the folded phrase it stands for
    onto: frozenset[str] = frozenset()    # "на", "on": a card played onto another card
    counts: frozenset[str] = frozenset()  # "две", "three": a number of cards of the rank that follows
    stop_lemmas: frozenset[str] = frozenset()  # dictionary forms of the Russian stop words: every form is one
    lemmas: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # dictionary form of a listed word → tokens
    # Phrases matched only as written (listed with a leading "="): «в очко» (a game) is no «в очки» (points).
    exact: Mapping[tuple[str, ...], tuple[str, ...]] = field(default_factory=dict)
    # Every dictionary reading of the Russian words listed for other subjects: a word whose stem is such
    # a word's but which is none of its forms («купе» and «купить», «катать» and «катан») is no such word.
    other_lemmas: frozenset[str] = frozenset()

    def group_of(self, word: str) -> str | None:
        """The synonym group a single word belongs to ("people" → "zzplayer"), if any."""
        found = self.surface.get(word) or self.phrases.get((stem(word),)) if word else None
        return found[0] if found else None

    def is_stopword(self, word: str) -> bool:
        """A word that carries no meaning for the search, in any of its forms («всем», «могут»)."""
        return word in self.stopwords or bool(self.stop_lemmas) and lemma(word) in self.stop_lemmas

    @classmethod
    def from_toml(cls, data: Mapping[str, Any]) -> Vocabulary:
        listed = {fold(w) for lang in LANGS for w in data.get("stopwords", {}).get(lang, [])}
        stop = {w for w in listed if " " not in w}
        ranks: dict[str, str] = {}
        suits: dict[str, str] = {}
        words: set[str] = set(stop)
        # Card words come from the core's vocabulary: every form as written, and the stems of
        # the dictionary words (for forms the vocabulary does not list).
        for form, word in cards.word_forms().items():
            target, concept = (ranks, rank_id(word.rank)) if word.rank else (suits, suit_id(word.suit))  # type: ignore[arg-type]
            words.add(form)
            target[form] = concept
            target.setdefault("~" + stem(word.lemma), concept)
        for letter, rank in cards.RANK_LETTERS[cards.EN].items():
            if letter != "a":  # a lone "q", "k", "j" is a rank; a lone "a" is the article
                ranks[letter] = rank_id(rank)
        surface: dict[str, tuple[str, ...]] = {}
        phrases: dict[tuple[str, ...], tuple[str, ...]] = {}
        ambiguous: set[tuple[str, ...]] = set()
        exact: dict[tuple[str, ...], tuple[str, ...]] = {}
        other_lemmas: set[str] = set()
        for group in data.get("group", []):
            token = "zz" + re.sub(r"[^a-z0-9]", "", group["id"])
            for name in group["words"]:
                parts = list(re.findall(r"\w+", fold(name)))
                words.update(parts)
                if name.startswith("="):
                    exact[tuple(parts)] = (token,)
                    continue
                if (token,) in OTHER_SUBJECTS and len(parts) == 1 and _CYRILLIC.search(parts[0]):
                    other_lemmas.update(_lemmas_of(parts[0]))
                if len(parts) == 1:
                    surface[parts[0]] = (token,)
                key = tuple(stem(w) for w in parts)
                if phrases.get(key, (token,)) != (token,):
                    ambiguous.add(key)
                phrases[key] = (token,)
        # A stem two groups share ("закончил" / "закончилась") decides nothing: only the
        # words as written in the file map to their group.
        for key in ambiguous:
            del phrases[key]
        # Every form of a listed Russian word maps through its dictionary form («отобьюсь» →
        # «отбиться»). When two groups list forms of one word («сдавать», «сдающий»), the group
        # that lists the dictionary form itself has it; if neither or both do, nobody has.
        lemmas: dict[str, tuple[str, ...]] = {}
        shared: set[str] = set()
        for written, found in surface.items():
            if _CYRILLIC.search(written) and is_dictionary_word(written):
                base = lemma(written)
                if lemmas.get(base, found) != found:
                    shared.add(base)
                lemmas[base] = found
        for base in shared:
            owner = surface.get(base)
            if owner:
                lemmas[base] = owner
            else:
                del lemmas[base]
        # Filler phrases of dictation («короче говоря», "to be honest") stand for nothing.
        for name in sorted(listed - stop):
            parts = list(re.findall(r"\w+", name))
            phrases.setdefault(tuple(stem(w) for w in parts), ())
        expand = {fold(k): fold(v) for k, v in data.get("expand", {}).items()}
        words.update(expand)
        return cls(
            stopwords=frozenset(stop), ranks=MappingProxyType(ranks), suits=MappingProxyType(suits),
            joiners=frozenset(fold(w) for w in data.get("joiners", [])),
            surface=MappingProxyType(surface), phrases=MappingProxyType(phrases), lemmas=MappingProxyType(lemmas),
            max_phrase=max((len(k) for k in [*phrases, *exact]), default=1), words=frozenset(words),
            expand=MappingProxyType(expand),
            onto=frozenset(fold(w) for w in data.get("relations", {}).get("onto", [])),
            counts=frozenset(_count_words()),
            stop_lemmas=frozenset(lemma(w) for w in stop if _CYRILLIC.search(w) and is_dictionary_word(w)),
            exact=MappingProxyType(exact), other_lemmas=frozenset(other_lemmas),
        )

    def rank_of(self, word: str) -> str | None:
        return self.ranks.get(word) or self.ranks.get("~" + stem(word))

    def suit_of(self, word: str) -> str | None:
        return self.suits.get(word) or self.suits.get("~" + stem(word))


def _count_stem(word: str) -> str:
    return stem(word) if word.isalpha() else word


def _count_words() -> set[str]:
    """Numbers that can count cards of one rank (there are four of each): 2, 3, 4 in words and digits."""
    counts = {w.form for w in cards.word_forms().values() if w.numeral and w.rank and 2 <= w.rank.face_value <= 4}
    return counts | {"2", "3", "4"}


# ...and their stems, for a misspelt count («четыри туза»).
_COUNT_STEMS = frozenset(_count_stem(w) for w in _count_words() if w.isalpha())


@lru_cache(maxsize=1)
def vocabulary() -> Vocabulary:
    return Vocabulary.from_toml(tomllib.loads(SYNONYMS_FILE.read_text(encoding="utf-8")))


def _atoms(text: str, vocab: Vocabulary) -> Iterator[_Atom]:
    """Scan folded text into atoms; compact card notations are recognised here."""
    for m in _SCAN.finditer(text):
        if m.group("card"):
            raw = m.group("card").replace(" ", "")
            yield _Atom(rank=_RANK_IDS[raw[:-1]], suit=_SUIT_IDS[raw[-1]], is_card=True)
        elif m.group("suit"):
            yield _Atom(suit=_SUIT_IDS[m.group("suit")])
        else:
            word = m.group("word")
            lat = _LAT_CARD.fullmatch(word)
            if lat and word not in _LAT_CARD_WORDS:
                rank, suit = lat.groups()
                if suit == "s" and rank.isdigit():  # "7s", "10s": sevens, tens
                    yield _Atom(rank=rank)
                else:
                    yield _Atom(rank=rank, suit=suit, is_card=True)
                continue
            digit_card = _DIGIT_CARD.fullmatch(word)
            if digit_card:  # «7ку», «10ка», "7ku": a card's number with the ending of its name
                yield _Atom(rank=digit_card.group(1), source=word)
                continue
            cyr = _CYR_CARD.fullmatch(word)
            if cyr:
                rank, suit = cyr.groups()
                yield _Atom(rank=_RANK_IDS[rank], suit=_CYR_SUITS[suit], is_card=True)
                continue
            if word.isdigit():
                if word in _RANK_IDS:
                    yield _Atom(rank=word, source=word)
                elif word.isascii() and LOSS_LINE < int(word) < 1000:
                    yield _Atom(concept=OVER)  # "у меня 105", "scored 120": a total over the line
                else:
                    yield _Atom(word=word)
                continue
            rank_id = vocab.rank_of(word)
            suit_id = None if rank_id else vocab.suit_of(word)
            if rank_id:
                yield _Atom(rank=rank_id, source=word)
            elif suit_id:
                yield _Atom(suit=suit_id, source=word)
            else:
                yield _Atom(word=word)


def _join_cards(atoms: list[_Atom], vocab: Vocabulary) -> list[_Atom]:
    """A rank next to a suit (“дама червей”, “пиковый король”, “queen of hearts”) is one card."""
    out: list[_Atom] = []
    i = 0
    while i < len(atoms):
        a = atoms[i]
        if a.rank and not a.suit or a.suit and not a.rank:
            j = i + 1
            if j < len(atoms) and atoms[j].word in vocab.joiners and a.rank:
                j += 1
            if j < len(atoms):
                b = atoms[j]
                if a.rank and b.suit and not b.rank:
                    out.append(_Atom(rank=a.rank, suit=b.suit, is_card=True, source=a.source))
                    i = j + 1
                    continue
                if a.suit and b.rank and not b.suit and j == i + 1:
                    out.append(_Atom(rank=b.rank, suit=a.suit, is_card=True, source=b.source))
                    i = j + 1
                    continue
        out.append(a)
        i += 1
    return out


# Concept tokens for relations between card phrases.
OVER = "zzover"      # the group of "перебор", "over 101": a number above LOSS_LINE says it too
# A total above every preset's loss line loses whatever the rule set (the core's rule-set data).
LOSS_LINE = max(rs.defaults.loss_above for rs in RULESETS.values())
ANNOUNCE = "zzannounce"  # the group of "сказать", "say"
CALL_SUIT = "zzcallsuit"  # the group of "заказать", "call": a suit named after a word of saying is called
COVER = "zzcover"    # the group of "покрыть", "cover"
COVER_WITH = "zzcoverwith"  # a card covered with another card («накрыл шестёрку тузом», "cover it with a seven")
PLAYER = "zzplayer"  # the group of "игрок", "people": a number before it counts players, not cards
PAIR = "zzpair"  # the group of "пара", "together", "at once": several cards played together
SAME_RANK = "zzsame"      # the group of "одинаковые", "of a kind": several cards of one rank
ONTO_SAME = "zzontosame"  # a card played onto one of its own rank ("дама на даму", "7 on a 7")
ONTO_SUIT = "zzontosuit"  # a suit played onto a suit ("бубну на черву", "spades on clubs")


_ONTO_TOP = {"top", "верх"}  # "on top of": still onto
POINTS = "zzpoints"  # the group of "очки", "points"
_MORE_BEFORE = frozenset({"еще", "ещё", "another", "scored", "набрал", "набрала", "набрали", "плюс", "plus"})
_MORE_AFTER = frozenset({"more", "больше"})
_ONE = frozenset({"1", "один", "одна", "one"})
CARD = "zzcard"  # the group of "карта", "card"
WILD = "zzwild"  # the group of "любую", "anything"
# Numbers that are also cards of the 36-card deck: "seven cards" is easily read as the seven. (A
# five, «взять 5», is left as it was: the 36-card deck has no five, and the entries' "5 cards" match.)
_DECK_NUMBERS = frozenset({"6", "7", "8", "9", "10"})
DRAW = "zzdraw"  # the group of "брать", "draw"
_IN_A_ROW = frozenset({"подряд", "row"})
EACH = "zzeach"  # the group of "каждому", "each"
_SECOND_ONTO = frozenset({"second", "another", "вторая", "вторую", "второй"})
EFFECT = "zzeffect"  # the group of "делает", "what does"
_MAKES = {"makes", "make", "made", "forces", "lets"}  # after a card: what it does to the players
# a card played on it: on the one named before
_IT = {"it", "that", "this", "him", "her", "нее", "него", "ту", "этот", "эту"}
_PEOPLE = {"us", "them", "you"}
_GO = {"go", "goes", "going", "went", "идет", "пойдет", "ходить", "ходит"}  # "a queen goes on…"
PLAY = "zzplay"  # the group of "положить", "play"  # "six of us": a number of players


def _calls_a_suit(atoms: list[_Atom], vocab: Vocabulary) -> bool:
    """A word of saying right before a suit («говорю черви», "call spades") calls that suit."""
    for i, a in enumerate(atoms):
        if a.word and vocab.group_of(a.word) in (ANNOUNCE, CALL_SUIT):
            j = i + 1
            while j < len(atoms) and atoms[j].word and vocab.is_stopword(atoms[j].word):
                j += 1
            if j < len(atoms) and atoms[j].suit and not atoms[j].rank:
                return True
    return False


def _covers_with(atoms: list[_Atom], vocab: Vocabulary) -> bool:
    """A covering word and a card named as the one covered with: in the instrumental
    («накрыл шестёрку тузом») or after "with" ("covered my six with an ace")."""
    if not any(a.word and vocab.group_of(a.word) == COVER for a in atoms):
        return False
    for i, a in enumerate(atoms):
        if not a.rank:
            continue
        if a.source and is_instrumental(a.source):
            return True
        j = i - 1
        while j >= 0 and atoms[j].word and vocab.is_stopword(atoms[j].word) and atoms[j].word != "with":
            j -= 1
        if j >= 0 and atoms[j].word == "with":
            return True
    return False


# Reported speech: someone else's words told as part of the dispute («пашка говорит, что…»,
# "everyone's saying I have to…") are no announcement. A word of saying in the third person
# followed by «что» / "that" or a pronoun starting the clause reported.
_REPORTED_NEXT = frozenset({
    "что", "чо", "шо", "типа", "будто", "мол", "я", "ты", "он", "она", "мы", "вы", "они", "мне", "нам",
    "that", "i", "you", "he", "she", "we", "they", "it",
})
_THIRD_PERSON_EN = frozenset({"says", "said", "saying", "tells", "told", "telling", "claims", "claimed", "reckons"})


# ...or a card of some rank, bare or after an article: what someone claims a card does
# ("my friend says an ace makes me draw", «пашка говорит дама кроет всё»); a suit after a word of
# saying is a suit called, and "says last card" is the call itself.
_ARTICLES = frozenset({"a", "an", "the", "my", "your", "his", "her", "our", "their"})


# ...but a word of saying not said («не сказал, что последняя», "never said that") is the
# announcement a player left out: what the dispute is about.
# Others going on saying something ("everyone is shouting", "they keep yelling") announce nothing.
_GOING_ON = frozenset({"is", "are", "was", "were", "s", "re", "keep", "keeps", "kept", "started", "start", "all"})
_NOT_SAID = frozenset({"не", "забыл", "забыла", "забыли", "not", "never", "didn", "didnt", "forgot", "без"})


def _reported_speech(atoms: list[_Atom], vocab: Vocabulary) -> list[_Atom]:
    """Drop a word of saying that reports someone's words (see above); keep the rest."""
    out = []
    for i, a in enumerate(atoms):
        nxt = atoms[i + 1] if i + 1 < len(atoms) else _Atom()
        card = atoms[i + 2] if nxt.word in _ARTICLES and i + 2 < len(atoms) else nxt
        prev = atoms[i - 1].word if i else ""
        if a.word and a.word.endswith("ing") and prev in _GOING_ON and vocab.group_of(a.word) == ANNOUNCE:
            continue  # "everyone is shouting at me", "people keep yelling": what the others do
        if a.word and (nxt.word in _REPORTED_NEXT or card.rank) and prev not in _NOT_SAID \
                and (a.word in _THIRD_PERSON_EN or is_third_person(a.word)) and vocab.group_of(a.word) == ANNOUNCE:
            continue
        out.append(a)
    return out


START = "zzstart"  # the group of "начинать", "start"
FIRST_CARD = "zzfirstcard"  # the group of "первая карта", "first card"
_WITH = {"с", "со", "with"}


def _starts_with_a_card(atoms: list[_Atom], vocab: Vocabulary) -> bool:
    """A word of starting and, a few words on, "с"/"with" and a card («раунд начался с
    пикового короля», "started the round with an ace"): the card the round opens with."""
    for i, a in enumerate(atoms):
        if a.word and vocab.group_of(a.word) == START:
            for j in range(i + 1, min(i + 5, len(atoms) - 1)):
                if atoms[j].word not in _WITH:
                    continue
                k = j + 1
                while k < len(atoms) - 1 and atoms[k].word and vocab.is_stopword(atoms[k].word):
                    k += 1  # "with an ace"
                after = atoms[k + 1].word if k + 1 < len(atoms) else ""
                if atoms[k].rank and (atoms[k].source.isdigit() or not _is_number(atoms[k].source)) \
                        and vocab.group_of(after) != PLAYER:  # not "with 2 players"
                    return True
        # «первым ходом положить короля», "as the first move I played a seven": the card the round opens with
        nxt = atoms[i + 1].word if i + 1 < len(atoms) else ""
        if a.word in _FIRST and nxt in _MOVE and any(
                b.rank and not (k + 1 < len(atoms) and vocab.group_of(atoms[k + 1].word) == PLAYER)
                for k, b in enumerate(atoms[i + 2:i + 6], start=i + 2)):
            return True
    return False


_FIRST = frozenset({"первым", "первый", "первого", "first", "opening"})
_MOVE = frozenset({"ходом", "ход", "хода", "move", "turn", "go", "play"})


def _is_number(word: str) -> bool:
    """A number in digits or words ("6", "шесть", "five"), not a card's name («шестёрка»)."""
    found = cards.card_word(word) if word and not word.isdigit() else None
    return word.isdigit() or bool(found and found.numeral)


def number_token(n: str) -> str:
    """A number that is not a card ("два игрока", "draw 2"), the same in both languages."""
    return f"zzn{n}"


def onto_token(rank: str) -> str:
    """A card of `rank` played onto a card of another rank ("дама на десятку", "Q♠ on 7♥")."""
    return f"zzonto{rank}"


OFF_TOPIC = "zzofftopic"  # the group of words of other subjects (another game, the app, money)
ASIDE = "zzaside"  # the group of words that come with subjects no rule settles (advice, luck)
# what a word of one of these groups names: a subject no rule settles
OTHER_SUBJECTS = ((OFF_TOPIC,), (ASIDE,))
_BETTER = frozenset({"лучше", "better", "smarter", "wiser"})  # («выгоднее» is a word of advice itself)
_OR = frozenset({"или", "or"})


def _weighs_a_choice(atoms: list[_Atom]) -> int | None:
    """Where "better" stands with "or" a few words before or after it («лучше сразу сбросить даму или
    придержать», "keep the ace or is it better to lead it"): a choice the rules leave to the player, advice
    rather than a rule; the word "better" then stands for that (ASIDE), not for itself."""
    return next((i for i, a in enumerate(atoms)
                 if a.word in _BETTER and (any(b.word in _OR for b in atoms[max(0, i - 6):i + 7])
                                           or i + 1 < len(atoms) and _is_a_course_of_action(atoms[i + 1].word))), None)


def _is_a_course_of_action(word: str) -> bool:
    """The word after "better" names something to do («лучше скинуть», "better to lead"): advice."""
    return word in ("to", "play", "lead", "keep", "hold", "dump") or is_infinitive(word)


_ON_TOP = frozenset({"сверху", "наверх"})


def _after_draw(atoms: list[_Atom], i: int, vocab: Vocabulary) -> bool:
    """Whether atom `i` comes right after a word or phrase of drawing ("draw 5", "pick up 5", «брать 5»)."""
    j = i - 1
    while j >= 0 and atoms[j].word in _MORE_BEFORE:
        j -= 1  # «взять ещё 2»
    if j < 0 or not atoms[j].word:
        return False
    if vocab.group_of(atoms[j].word) == DRAW:
        return True
    return j >= 1 and bool(atoms[j - 1].word) and vocab.phrases.get(
        (stem(atoms[j - 1].word), stem(atoms[j].word))) == (DRAW,)


def _on_top_of(atoms: list[_Atom], i: int) -> _Atom | None:
    """The card that card `i` was put on top of, when «сверху» stands just before or right after it
    («мне кинули семёрку, а я сверху даму»): the card named before it."""
    near = {atoms[j].word for j in (i - 2, i - 1, i + 1) if 0 <= j < len(atoms)}  # «сверху свою даму»
    if not near & _ON_TOP:
        return None
    return next((c for c in reversed(atoms[:i]) if c.rank), None)


OTHERS = "zzothers"  # the group of "другие карты", "other cards": a card among cards of other ranks
_LIST = frozenset({"и", "and", "plus", "плюс", "with", "с", "a", "an", "the", "ещё", "еще"})


def _mixed_hand(atoms: list[_Atom]) -> bool:
    """Cards of different ranks named as a list («дама и две десятки», "a queen, a nine and an
    eight", "3 queens + a 10"): a hand of several ranks, like "a queen with other cards"."""
    def counts(k: int) -> bool:  # «две» in «две десятки», "3" in "3 queens"
        return _is_number(atoms[k].source) and k + 1 < len(atoms) and bool(atoms[k + 1].rank)

    names = [k for k, a in enumerate(atoms) if a.rank and not counts(k)]
    for k, m in zip(names, names[1:], strict=False):
        between = atoms[k + 1:m]
        if atoms[k].rank != atoms[m].rank and len(between) <= 3 and between and all(
                b.word in _LIST or b.rank and counts(k + 1 + n) for n, b in enumerate(between)):
            return True
    return False


_LIKE = frozenset({"как", "like"})


def _without_comparisons(atoms: list[_Atom]) -> list[_Atom]:
    """A card named only to compare with («туз как семёрка», "does an ace work like a seven") is
    not what the question is about: it is dropped."""
    out: list[_Atom] = []
    for i, a in enumerate(atoms):
        j = i - 1
        while j > 0 and atoms[j].word in _ARTICLES:
            j -= 1  # "like a seven"
        prev = atoms[j].word if j >= 0 else ""
        if a.rank and not a.suit and prev in _LIKE and any(b.rank and b.rank != a.rank for b in atoms[max(0, i - 4):i]):
            continue
        out.append(a)
    return out


def _played_onto_first(atoms: list[_Atom], vocab: Vocabulary) -> list[_Atom]:
    """«на семёрку положил семёрку», "on his queen I put my queen": the target named first. Rewritten
    in the usual order (the card played, «на», the target) for `_relations`."""
    for i, a in enumerate(atoms[:-2]):
        if a.word not in vocab.onto or i > 0 and (atoms[i - 1].rank or atoms[i - 1].suit):
            continue
        t = i + 1
        while t < len(atoms) - 1 and atoms[t].word in _ARTICLES:
            t += 1  # "on his ten"
        if not (atoms[t].rank or atoms[t].suit):
            continue
        j = t + 1
        while j < min(t + 5, len(atoms)) and atoms[j].word and (
                vocab.group_of(atoms[j].word) == PLAY or vocab.is_stopword(atoms[j].word)):
            j += 1
        if j < len(atoms) and j > t + 1 and atoms[j].rank:
            return [*atoms[:i], atoms[j], a, atoms[t], *atoms[t + 1:j], *atoms[j + 1:]]
    return atoms


_LACK = frozenset({"нет", "нету", "ни", "no", "none"})
_LACK_AFTER = frozenset({"нет", "нету"})  # «треф у меня нету»: the suit or rank first
NO_CARD = "zznocard"  # the group of "нечем ходить", "nothing to play"
_QUEEN = rank_id(cards.Rank.QUEEN)


def _lack_at(atoms: list[_Atom], vocab: Vocabulary) -> int | None:
    """Where the hand is said to have no card that fits: «нет ни червей ни дам», "no hearts and
    no queen", «треф у меня нету»."""
    for i, a in enumerate(atoms):
        if a.word in _LACK and i + 1 < len(atoms) and (atoms[i + 1].suit or atoms[i + 1].rank) \
                and not atoms[i + 1].is_card:
            return i
        if a.word in _LACK_AFTER:
            j = i - 1
            while j >= 0 and j >= i - 3 and atoms[j].word and vocab.is_stopword(atoms[j].word):
                j -= 1  # «у меня»
            if j >= 0 and j < i - 1 and (atoms[j].suit or atoms[j].rank) and not atoms[j].is_card:
                return i
    return None


def _queen_instead(atoms: list[_Atom], at: int) -> bool:
    """«нет ни бубен, ни туза, зато есть дама»: with no card that fits (said at `at`), a queen is
    played instead, onto a card of another rank (what the entry about a queen on any card answers)."""
    if any(a.rank == _QUEEN for a in atoms[:at]):
        return False
    # ...a queen the hand has, not one it lacks too («ни масти, ни дамы», "and no queen either")
    return any(a.rank == _QUEEN and not any(b.word in _LACK for b in atoms[max(0, k - 2):k])
               for k, a in enumerate(atoms) if k > at)


def _relations(atoms: list[_Atom], vocab: Vocabulary) -> list[_Atom]:
    """Add relation concepts: a count before a rank, and one card phrase played onto another."""
    out: list[_Atom] = []
    choice = _weighs_a_choice(atoms)
    if choice is not None:
        atoms = [*atoms[:choice], _Atom(concept=ASIDE), *atoms[choice + 1:]]
    atoms = _without_comparisons(atoms)
    atoms = _played_onto_first(atoms, vocab)
    if _mixed_hand(atoms):
        out.append(_Atom(concept=OTHERS))
    lack = _lack_at(atoms, vocab)
    if lack is not None and _queen_instead(atoms, lack):
        out.extend((_Atom(concept=onto_token(_QUEEN)), _Atom(concept=WILD)))  # a card that fits after all
    elif lack is not None:
        out.append(_Atom(concept=NO_CARD))
    if _covers_with(atoms, vocab):
        out.append(_Atom(concept=COVER_WITH))
    if _calls_a_suit(atoms, vocab):
        out.append(_Atom(concept=CALL_SUIT))
    if _starts_with_a_card(atoms, vocab):
        out.append(_Atom(concept=FIRST_CARD))
    for i, a in enumerate(atoms):
        nxt = atoms[i + 1] if i + 1 < len(atoms) else None
        if a.rank and nxt and nxt.word in _MAKES:
            out.append(_Atom(concept=EFFECT))  # "an ace makes me draw": what the card does
        before = atoms[i - 1].word if i > 0 else ""
        if a.rank and not a.suit and a.source.isdigit() and (
                before in _MORE_BEFORE or nxt and (nxt.word in _MORE_AFTER or vocab.group_of(nxt.word) == POINTS)):
            out.append(_Atom(concept=number_token(a.rank)))  # "scored 2 more", «набрала ещё 7»: points, not a card
            continue
        if a.rank in _DECK_NUMBERS and not a.suit and _is_number(a.source) and (
                nxt and vocab.group_of(nxt.word) == CARD or _after_draw(atoms, i, vocab)):
            out.append(_Atom(concept=number_token(a.rank)))  # «семь карт», "draw 7": a number of cards
            continue
        if a.rank and not a.suit and (a.source in vocab.counts or _count_stem(a.source) in _COUNT_STEMS) \
                and nxt and nxt.rank and any(w.word in _IN_A_ROW for w in atoms[i + 2:i + 5]):
            out.append(_Atom(concept=ONTO_SAME))  # «две дамы подряд», "two queens in a row": one on the other
            continue
        if nxt and nxt.rank and not nxt.suit and a.word in _SECOND_ONTO and any(
                vocab.group_of(b.word) == PLAY for b in atoms):
            out.append(_Atom(concept=ONTO_SAME))  # "the second queen lands…", "another seven on it": one on the other
        if a.rank and not a.suit and _is_number(a.source) and before == "по":
            out.append(_Atom(concept=EACH))  # «по пять», «по четыре карты»: so many each
        if a.word in _ONE and nxt and vocab.group_of(nxt.word) == PLAYER:
            out.append(_Atom(concept=number_token("1")))  # "1 person", «один игрок»: one player
            continue
        if a.rank and not a.suit and _is_number(a.source) and nxt and vocab.group_of(nxt.word) == PLAYER:
            out.append(_Atom(concept=number_token(a.rank)))  # "6 people", "пять игроков": a number of players
            continue
        after = atoms[i + 2].word if i + 2 < len(atoms) else ""
        if a.rank and not a.suit and _is_number(a.source) and nxt and nxt.word == "of" and after in _PEOPLE:
            out.extend((_Atom(concept=number_token(a.rank)), _Atom(concept=PLAYER)))  # "six of us"
            continue
        if a.rank and not a.suit and (a.source in vocab.counts or _count_stem(a.source) in _COUNT_STEMS):
            if nxt and nxt.rank and nxt.rank != a.rank and nxt.source not in vocab.counts:
                out.append(_Atom(concept=SAME_RANK))  # "две семёрки": two sevens, not a two and a seven
            else:
                out.append(_Atom(concept=number_token(a.rank)))  # "two players", "draw 2": a number, not a card
            continue
        out.append(a)
        top = _on_top_of(atoms, i) if a.rank else None
        if top is not None:
            out.append(_Atom(concept=ONTO_SAME if top.rank == a.rank else onto_token(a.rank)))
            continue
        if not (a.rank or a.suit) or not nxt:
            continue
        on = i + 1  # "on" right after the card, or after a verb of playing ("a queen goes on a queen")
        while on < min(i + 3, len(atoms) - 1) and atoms[on].word and (
                atoms[on].word in _GO or vocab.group_of(atoms[on].word) == PLAY or vocab.is_stopword(atoms[on].word)) \
                and atoms[on].word not in vocab.onto:
            on += 1
        if atoms[on].word not in vocab.onto:
            continue
        j = on + 1
        if j < len(atoms) and atoms[j].word in _IT:  # "my own seven on it": the card named before
            b = next((c for c in reversed(atoms[:i]) if c.rank or c.suit), None)
        else:
            while j < len(atoms) and (vocab.is_stopword(atoms[j].word) or atoms[j].word in _ONTO_TOP) \
                    and vocab.group_of(atoms[j].word) != WILD:
                j += 1  # "on a ten", "on the queen", "on top of his queen" (not "on anything")
            b = atoms[j] if j < len(atoms) else None
        if b is not None and a.rank and vocab.group_of(b.word) == WILD:
            out.append(_Atom(concept=onto_token(a.rank)))  # «дама на любую», "a queen on anything"
            continue
        if b is None or not (b.rank or b.suit):
            continue
        if a.rank and not b.rank and _is_suit_adjective(b.source):
            out.append(_Atom(concept=ONTO_SAME))
        elif a.rank and b.rank:
            out.append(_Atom(concept=ONTO_SAME if a.rank == b.rank else onto_token(a.rank)))
        elif a.rank:
            out.append(_Atom(concept=onto_token(a.rank)))
        elif b.suit and not b.rank:
            out.append(_Atom(concept=ONTO_SUIT))
    return out


# Numbers said in words, several words long («сто пять», «девяносто девять», "a hundred and
# one"), are read as the number, so that a total said aloud means what its digits mean (over the
# line, exactly 101). One number word alone stays a word (a count of cards: «две семёрки»).
_UNITS = {
    **dict.fromkeys(("один", "одна", "одно", "одного", "одной", "one"), 1),
    **dict.fromkeys(("два", "две", "двух", "two"), 2), **dict.fromkeys(("три", "трех", "three"), 3),
    **dict.fromkeys(("четыре", "четырех", "four"), 4), **dict.fromkeys(("пять", "пяти", "five"), 5),
    **dict.fromkeys(("шесть", "шести", "six"), 6), **dict.fromkeys(("семь", "семи", "seven"), 7),
    **dict.fromkeys(("восемь", "восьми", "eight"), 8), **dict.fromkeys(("девять", "девяти", "nine"), 9),
}
_TEENS = {
    **dict.fromkeys(("десять", "ten"), 10), **dict.fromkeys(("одиннадцать", "eleven"), 11),
    **dict.fromkeys(("двенадцать", "twelve"), 12), **dict.fromkeys(("тринадцать", "thirteen"), 13),
    **dict.fromkeys(("четырнадцать", "fourteen"), 14), **dict.fromkeys(("пятнадцать", "fifteen"), 15),
    **dict.fromkeys(("шестнадцать", "sixteen"), 16), **dict.fromkeys(("семнадцать", "seventeen"), 17),
    **dict.fromkeys(("восемнадцать", "eighteen"), 18), **dict.fromkeys(("девятнадцать", "nineteen"), 19),
}
_TENS = {
    **dict.fromkeys(("двадцать", "twenty"), 20), **dict.fromkeys(("тридцать", "thirty"), 30),
    **dict.fromkeys(("сорок", "forty"), 40), **dict.fromkeys(("пятьдесят", "fifty"), 50),
    **dict.fromkeys(("шестьдесят", "sixty"), 60), **dict.fromkeys(("семьдесят", "seventy"), 70),
    **dict.fromkeys(("восемьдесят", "eighty"), 80), **dict.fromkeys(("девяносто", "девяноста", "ninety"), 90),
}
_HUNDREDS = {"сто": 100, "ста": 100, "hundred": 100, "двести": 200, "триста": 300}


def _number_value(words: list[str]) -> tuple[int, int] | None:
    """The value of the longest number said in words at the start of `words`, and how many words it took."""
    value, used, place = 0, 0, 4  # place: 3 hundreds, 2 tens, 1 units or teens
    i = 0
    if len(words) > 1 and words[0] in ("a", "one") and words[1] == "hundred":
        i = 1
    while i < len(words):
        w = words[i]
        if w == "and" and value >= 100 and place == 3:
            i += 1
            continue
        if w in _HUNDREDS and place > 3:
            value, place = value + _HUNDREDS[w], 3
        elif w in _TENS and place > 2:
            value, place = value + _TENS[w], 2
        elif w in _TEENS and place > 2:
            value, place = value + _TEENS[w], 1
        elif w in _UNITS and place > 1:
            value, place = value + _UNITS[w], 1
        else:
            break
        i += 1
        used = i
    return (value, used) if used >= 2 and place < 4 else None


def numbers_in_words(text: str) -> str:
    """`text` with every number said in two or more words written in digits (folded text)."""
    words = text.split(" ")
    out: list[str] = []
    i = 0
    while i < len(words):
        found = _number_value(words[i:i + 6]) if words[i] in _HUNDREDS or words[i] in _TENS or words[i] in (
            "a", "one") else None
        if found and found[1] >= 2 and found[0] >= 20:
            out.append(str(found[0]))
            i += found[1]
        else:
            out.append(words[i])
            i += 1
    return " ".join(out)


# A tag question asks for agreement, not about a direction or the official rules: "…and then it's
# his go, right?", «…так можно, правильно?», "thats like 70 right??" ("to the right?" stays).
_TAG_QUESTION = re.compile(
    r"(?<![\w'])(?<!the )(?<!to )(?:right|correct|правильно|верно)(?=\s*(?:\?|!|,|\.|$|thats?\b|that's))",
    re.IGNORECASE)


def analyse(text: str, vocab: Vocabulary | None = None, *, keep_stopwords: bool = False) -> list[str]:
    """Index tokens of `text`: concept tokens for cards, stems for words, synonyms folded."""
    vocab = vocab or vocabulary()
    text = _TAG_QUESTION.sub(" ", text)
    text = text.replace("+", " plus ")  # "3 queens + a 10"
    text = fold(_CAPS_CARDS.sub(lambda m: m.group(1) + _SUIT_LETTERS[m.group(2)], text))
    text = numbers_in_words(text)
    if vocab.expand:
        text = _WORD.sub(lambda m: vocab.expand.get(m.group(0), m.group(0)), text)
    atoms = _relations(_reported_speech(_join_cards(list(_atoms(text, vocab)), vocab), vocab), vocab)
    tokens: list[str] = []
    words: list[str] = []  # a run of plain words, matched against phrases

    def flush() -> None:
        stems = [stem(w) for w in words]
        i = 0
        while i < len(words):
            for size in range(min(vocab.max_phrase, len(words) - i), 0, -1):
                found = vocab.exact.get(tuple(words[i:i + size])) if vocab.exact else None
                if found is None and size > 1:
                    found = vocab.phrases.get(tuple(stems[i:i + size]))
                if found is not None:
                    tokens.extend(found)
                    i += size
                    break
            else:
                w = words[i]
                if w in vocab.surface:
                    tokens.extend(vocab.surface[w])
                elif keep_stopwords or not vocab.is_stopword(w):
                    if _CYRILLIC.search(w) and is_name(w):
                        tokens.append(stems[i])  # «Костя» is a player, not «кости» (dice) by a shared stem
                    else:
                        found = _listed_lemma(w, vocab) if vocab.lemmas and _CYRILLIC.search(w) else None
                        found = found or vocab.phrases.get((stems[i],), (stems[i],))
                        if found in OTHER_SUBJECTS and _CYRILLIC.search(w) and is_dictionary_word(w) \
                                and vocab.other_lemmas and vocab.other_lemmas.isdisjoint(lemmas(w)):
                            found = (stems[i],)  # a stem shared by chance («купе», «купить»)
                        tokens.extend(found)
                i += 1
        words.clear()

    for atom in atoms:
        if atom.word:
            words.append(atom.word)
        else:
            flush()
            tokens.extend(atom.tokens())
    flush()
    return tokens


def _listed_lemma(word: str, vocab: Vocabulary) -> tuple[str, ...] | None:
    """The group of a listed word `word` is a form of: by its likeliest reading, else by any reading
    of it («крыл» is likeliest «крыло», a wing, but at a card table it is «крыть», to cover)."""
    found = vocab.lemmas.get(lemma(word))
    if found is None:  # ...but a rarer reading never makes a word one of another subject
        found = next((vocab.lemmas[base] for base in lemmas(word)
                      if base in vocab.lemmas and vocab.lemmas[base] not in OTHER_SUBJECTS), None)
    return found


def card_concepts(text: str) -> list[str]:
    """The concept tokens of the card phrases in `text` (rank, suit and card tokens)."""
    return [t for t in analyse(text) if t in RANK_TOKENS or t in SUIT_TOKENS or t in CARD_TOKENS]

