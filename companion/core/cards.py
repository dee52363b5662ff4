"""Cards, suits, ranks, the notations players type (RULES.md §1) and the card vocabulary.

The card vocabulary (rank and suit words in Russian and English with all their forms,
the compact notation, `find_cards` for free text) is defined here once; the FAQ search
and the round-from-text parser read it from here. See the section "the card vocabulary".
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from functools import cache, lru_cache
from types import MappingProxyType

from companion.core.errors import N_, CardError
from companion.core.languages import EN as EN  # the vocabulary is keyed by language
from companion.core.languages import RU as RU


class Suit(Enum):
    """Suits in the order used to draw the dealer: ♦ < ♥ < ♣ < ♠ (seed 003)."""

    DIAMONDS = "♦"
    HEARTS = "♥"
    CLUBS = "♣"
    SPADES = "♠"

    @property
    def order(self) -> int:
        return list(Suit).index(self)

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    @property
    def letter(self) -> str:
        return {"♦": "D", "♥": "H", "♣": "C", "♠": "S"}[self.value]


class Rank(Enum):
    """Ranks from low to high; the value is the canonical symbol."""

    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "10"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    ACE = "A"

    @property
    def order(self) -> int:
        return list(Rank).index(self)

    @property
    def face_value(self) -> int:
        """Number on the card; court cards and the ace have none (0)."""
        return int(self.value) if self.value.isdigit() else 0

    @property
    def ru(self) -> str:
        """The rank as Russian players write it: В Д К Т for J Q K A."""
        return {"J": "В", "Q": "Д", "K": "К", "A": "Т"}.get(self.value, self.value)


@dataclass(frozen=True, order=False)
class Card:
    rank: Rank
    suit: Suit

    def __post_init__(self) -> None:
        object.__setattr__(self, "_text", f"{self.rank.value}{self.suit.value}")
        object.__setattr__(self, "_hash", hash(self._text))  # type: ignore[attr-defined]

    def __str__(self) -> str:
        return self._text  # type: ignore[attr-defined, no-any-return]

    def __hash__(self) -> int:  # precomputed: cards are hashed a lot in replays, Enum hashing is slow
        return self._hash  # type: ignore[attr-defined, no-any-return]

    @property
    def code(self) -> str:
        """ASCII form, safe in URLs and HTML ids: ``10C``, ``QH``."""
        return f"{self.rank.value}{self.suit.letter}"

    @property
    def sort_key(self) -> tuple[int, int]:
        return (self.suit.order, self.rank.order)

    def __lt__(self, other: Card) -> bool:
        return self.sort_key < other.sort_key


RANKS_36 = tuple(r for r in Rank if r.order >= Rank.SIX.order)
RANKS_52 = tuple(Rank)
DECK_SIZES = (36, 52)


@cache
def deck(size: int = 36) -> tuple[Card, ...]:
    """All cards of a 36- or 52-card deck, suit by suit, low rank first."""
    if size not in DECK_SIZES:
        raise CardError(N_("A deck has 36 or 52 cards, not %(size)s."), size=size)
    ranks = RANKS_36 if size == 36 else RANKS_52
    return tuple(Card(rank, suit) for suit in Suit for rank in ranks)


# -- the card vocabulary: how players name ranks and suits in words ----------------
#
# THE one definition of card words in Russian and English, with their forms, for
# everything that reads free text (the FAQ search, the round-from-text parser).
# Every word is folded (`fold`: lower case, ё → е, NFC) before it is looked up.
#
#   RANK_LETTERS / SUIT_LETTERS  the compact notation: ranks 2–10 J Q K A / В Д К Т,
#                                suits ♠♥♦♣ (and their outline forms), S H D C, П Ч Б Т/К
#   RANK_NAMES / SUIT_NAMES      per rank / suit and language: the dictionary words
#                                (lemmas), first the usual one, then diminutives and slang
#   word_forms()                 every form of every card word → `CardWord`
#   rank_of_word, suit_of_word   one word (any case, number or declension) → Rank / Suit
#   read_notation                one compact token ("Дч", "qh", "10♣", "К♠") → Card
#   find_cards                   card mentions in a sentence, with their spans
#
# Russian forms are generated from the lemma by its declension (nouns in -а/-я,
# masculine nouns, suit adjectives, numerals); irregular forms are listed.

# Rank letters in the compact notation, by script: a token written in Latin letters uses
# Latin suits, one in Cyrillic uses Cyrillic suits (digits mix with either).
RANK_LETTERS: Mapping[str, Mapping[str, Rank]] = MappingProxyType({
    EN: MappingProxyType({"j": Rank.JACK, "q": Rank.QUEEN, "k": Rank.KING, "a": Rank.ACE}),
    RU: MappingProxyType({"в": Rank.JACK, "д": Rank.QUEEN, "к": Rank.KING, "т": Rank.ACE}),
})
SUIT_LETTERS: Mapping[str, Mapping[str, Suit]] = MappingProxyType({
    EN: MappingProxyType({"s": Suit.SPADES, "h": Suit.HEARTS, "d": Suit.DIAMONDS, "c": Suit.CLUBS}),
    RU: MappingProxyType({"п": Suit.SPADES, "ч": Suit.HEARTS, "б": Suit.DIAMONDS, "т": Suit.CLUBS, "к": Suit.CLUBS}),
})
# Suit symbols as typed: filled, outline, and followed by an emoji variation selector.
SUIT_SYMBOLS: Mapping[str, Suit] = MappingProxyType(
    {s.value: s for s in Suit} | {"♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS}
)
def _one_of(chars: Iterable[str]) -> str:
    return "[" + "".join(sorted(set(chars))) + "]"


# THE card notation grammar: every scanner of compact cards ("10♣", "Дч", "qs", "K ♠") is built
# from these pieces, derived from the tables above, so a letter added there is read everywhere.
# (lower case: scanners fold their text or compile with re.IGNORECASE)
RANK_PATTERN = "10|[2-9]|" + _one_of(letter for letters in RANK_LETTERS.values() for letter in letters)
SUIT_SYMBOL_PATTERN = _one_of(SUIT_SYMBOLS)
SUIT_LETTER_PATTERN = "|".join(_one_of(letters) for letters in SUIT_LETTERS.values())
CARD_PATTERN = rf"(?:{RANK_PATTERN})\s?(?:{SUIT_SYMBOL_PATTERN}|{SUIT_LETTER_PATTERN})"
SYMBOL_CARD_PATTERN = rf"(?<!\w)(?:{RANK_PATTERN})\s?{SUIT_SYMBOL_PATTERN}"

# Input tables of `parse_card`, lower case. Cyrillic «т» is the ace as a rank and трефы
# as a suit; Cyrillic «к» is the king as a rank and крести as a suit: the rank comes first.
_RANK_WORDS: dict[str, Rank] = {
    **{r.value: r for r in Rank if r.face_value}, **RANK_LETTERS["en"], **RANK_LETTERS["ru"],
}
_SUIT_WORDS: dict[str, Suit] = {**SUIT_SYMBOLS, **SUIT_LETTERS["en"], **SUIT_LETTERS["ru"]}
_SPACES = re.compile(r"[\s\ufe0f\ufe0e]+")  # blanks and emoji variation selectors
_HOW = N_(
    "Write the rank then the suit, e.g. 10♣, QH, Дч or КП "
    "(ranks 6–10, J Q K A or В Д К Т; suits ♠ ♥ ♦ ♣, S H D C or П Ч Б Т/К)."
)


def parse_card(text: str, deck_size: int | None = None) -> Card:
    """Read one card in any accepted notation; refuse with a message that says how.

    >>> str(parse_card("qs")), str(parse_card("10c")), str(parse_card("КП"))
    ('Q♠', '10♣', 'K♠')
    """
    if not isinstance(text, str):
        raise CardError(N_("A card must be written as text, such as \"10♣\"."))
    return _parse_text(text, deck_size)


@lru_cache(maxsize=4096)  # replaying a series reads the same few spellings again and again
def _parse_text(text: str, deck_size: int | None) -> Card:
    raw = _SPACES.sub("", text)
    if not raw:
        raise CardError(N_("A card is empty. %(how)s"), how=_HOW)
    low = raw.lower()
    if low in _RANK_WORDS:
        raise CardError(N_("“%(card)s” has no suit. Add one: ♠ ♥ ♦ ♣ (or S H D C, П Ч Б Т)."), card=raw)
    rank_text, suit_text = low[:-1], low[-1]
    if rank_text == "t" or low[0] == "t":
        raise CardError(
            N_("“%(card)s”: a Latin T means ten in poker notation and is not accepted; "
               "write ten as 10, and the ace as A or Cyrillic Т."),
            card=raw,
        )
    suit = _SUIT_WORDS.get(suit_text)
    if suit is None:
        raise CardError(N_("“%(card)s”: “%(suit)s” is not a suit. %(how)s"), card=raw, suit=raw[-1], how=_HOW)
    rank = _RANK_WORDS.get(rank_text)
    if rank is None:
        if not rank_text:
            raise CardError(N_("“%(card)s” has no rank. %(how)s"), card=raw, how=_HOW)
        raise CardError(N_("“%(card)s”: “%(rank)s” is not a rank. %(how)s"), card=raw, rank=raw[:-1], how=_HOW)
    card = Card(rank, suit)
    if deck_size is not None and card not in _deck_set(deck_size):
        raise CardError(
            N_("%(card)s is not in a %(size)s-card deck (its ranks are %(low)s to A)."),
            card=str(card), size=deck_size, low="6" if deck_size == 36 else "2",
        )
    return card


@cache
def _deck_set(size: int) -> frozenset[Card]:
    return frozenset(deck(size))


def parse_cards(texts: Iterable[str], deck_size: int | None = None) -> tuple[Card, ...]:
    return tuple(parse_card(t, deck_size) for t in texts)


_SYMBOL_FOLD = {"♤": "♠", "♡": "♥", "♢": "♦", "♧": "♣", "\ufe0f": "", "\ufe0e": ""}
NUMBER_RANKS = tuple(r for r in Rank if r.face_value)


def fold(text: str) -> str:
    """The form words are compared in: NFC, lower case, ё → е, one form of each suit symbol."""
    text = unicodedata.normalize("NFC", text).lower().replace("ё", "е")
    for old, new in _SYMBOL_FOLD.items():
        text = text.replace(old, new)
    return text


# Dictionary words, folded. Russian: (lemma, declension); declensions are below.
# "fem" nouns in -а/-я (дама, семерка), "masc" (туз, король), "adj" suit adjectives,
# "plural" suit names used in the plural (пики, черви), "num" numerals, "fixed" no forms.
_RU_RANKS: dict[Rank, tuple[tuple[str, str], ...]] = {
    Rank.TWO: (("два", "num"), ("двойка", "fem"), ("двоечка", "fem")),
    Rank.THREE: (("три", "num"), ("тройка", "fem"), ("трешка", "fem"), ("троечка", "fem")),
    Rank.FOUR: (("четыре", "num"), ("четверка", "fem"), ("четверочка", "fem")),
    Rank.FIVE: (("пять", "num"), ("пятерка", "fem"), ("пятерочка", "fem"), ("пятак", "masc")),
    Rank.SIX: (("шесть", "num"), ("шестерка", "fem"), ("шестерочка", "fem"), ("шестак", "masc"), ("шоха", "fem")),
    Rank.SEVEN: (("семь", "num"), ("семерка", "fem"), ("семерочка", "fem"), ("семера", "fem"), ("семак", "masc")),
    Rank.EIGHT: (("восемь", "num"), ("восьмерка", "fem"), ("восьмерочка", "fem"), ("восьмера", "fem")),
    Rank.NINE: (("девять", "num"), ("девятка", "fem"), ("девяточка", "fem")),
    Rank.TEN: (("десять", "num"), ("десятка", "fem"), ("десяточка", "fem"), ("десятос", "masc")),
    Rank.JACK: (("валет", "masc"), ("вальт", "masc"), ("валетик", "masc")),
    Rank.QUEEN: (("дама", "fem"), ("дамочка", "fem"), ("дамка", "fem"), ("королева", "fem"), ("баба", "fem")),
    Rank.KING: (("король", "masc"), ("королек", "masc")),
    Rank.ACE: (("туз", "masc"), ("тузик", "masc"), ("тузяра", "fem"), ("тузяк", "masc")),
}
_RU_SUITS: dict[Suit, tuple[tuple[str, str], ...]] = {
    Suit.SPADES: (
        ("пики", "plural"),
        ("пика", "fem"),
        ("пиковый", "adj"),
        ("вини", "plural"),
        ("винь", "fixed"),
        ("виновый", "adj"),
        ("винновый", "adj"),
        ("винный", "adj"),
    ),
    Suit.HEARTS: (
        ("черви", "plural"),
        ("червы", "plural"),
        ("черва", "fem"),
        ("червовый", "adj"),
        ("червонный", "adj"),
    ),
    Suit.DIAMONDS: (("бубны", "plural"), ("буби", "plural"), ("бубна", "fem"), ("бубновый", "adj"), ("бубен", "fixed")),
    Suit.CLUBS: (
        ("трефы", "plural"),
        ("трефа", "fem"),
        ("трефовый", "adj"),
        ("крести", "plural"),
        ("кресты", "plural"),
        ("крестовый", "adj"),
    ),
}
# English: the lemma first; forms are the lemma and its plural.
_EN_RANKS: dict[Rank, tuple[str, ...]] = {
    Rank.TWO: ("two", "deuce"),
    Rank.THREE: ("three", "trey"),
    Rank.FOUR: ("four",),
    Rank.FIVE: ("five",),
    Rank.SIX: ("six",),
    Rank.SEVEN: ("seven",),
    Rank.EIGHT: ("eight",),
    Rank.NINE: ("nine",),
    Rank.TEN: ("ten",),
    Rank.JACK: ("jack", "knave"),
    Rank.QUEEN: ("queen",),
    Rank.KING: ("king", "cowboy"),
    Rank.ACE: ("ace",),
}
_EN_SUITS: dict[Suit, tuple[str, ...]] = {
    Suit.SPADES: ("spade",),
    Suit.HEARTS: ("heart",),
    Suit.DIAMONDS: ("diamond",),
    Suit.CLUBS: ("club",),
}

# Forms that the declension rules below do not give (genitive plurals with a fleeting
# vowel, oblique forms of the numerals, the two stems of «валет»).
_RU_IRREGULAR: dict[str, tuple[str, ...]] = {
    "два": ("две", "двух", "двум", "двумя"),
    "три": ("трех", "трем", "тремя"),
    "четыре": ("четырех", "четырем", "четырьмя"),
    "восемь": ("восьми", "восемью", "восьмью"),
    "дама": ("дам",),
    "королева": ("королев",),
    "шоха": ("шох",),
    "пика": ("пик",),
    "черва": ("черв",),
    "трефа": ("треф",),
    "бубна": ("бубен",),
    "черви": ("червей", "червям", "червями", "червях"),
    "червы": ("черв",),
    "буби": ("бубей", "бубям", "бубями", "бубях"),
    "бубны": ("бубен", "бубнам", "бубнами", "бубнах"),
    "крести": ("крестей", "крестям", "крестями", "крестях"),
    "кресты": ("крестов",),
    "вини": ("виней", "винями"),
}
_HUSHING = "гкхжшщч"


def _ru_forms(lemma: str, declension: str) -> tuple[str, ...]:
    """The forms of a Russian card word (folded), lemma first."""
    forms = [lemma]
    if declension == "fem":  # дама, семерка: -а -ы/-и -е -у -ой -ою -ам -ами -ах (+ the genitive plural)
        stem = lemma[:-1]
        y = "и" if stem[-1] in _HUSHING else "ы"
        forms += [stem + e for e in (y, "е", "у", "ой", "ою", "ам", "ами", "ах")]
        if stem.endswith("йк"):  # двойк-а → двоек
            forms.append(stem[:-2] + "ек")
        elif stem.endswith("к") and stem[-2] not in "аеиоуыэюя":  # семерк-а → семерок, дамочк-а → дамочек
            forms.append(stem[:-1] + ("е" if stem[-2] in "чшжщ" else "о") + "к")
    elif declension == "masc":  # туз, король, валет, пятак
        soft = lemma.endswith("ь")
        stem = lemma[:-1] if soft else lemma
        if soft:
            endings = ("я", "ю", "ем", "е", "и", "ей", "ям", "ями", "ях")
        else:
            y = "и" if stem[-1] in _HUSHING else "ы"
            endings = ("а", "у", "ом", "е", y, "ов", "ам", "ами", "ах")
        if stem.endswith("ек"):  # королек → королька
            stem = stem[:-2] + "ьк"
        forms += [stem + e for e in endings]
    elif declension == "adj":  # пиковый: every gender, case and number
        stem = lemma[:-2]
        forms += [stem + e for e in ("ая", "ое", "ые", "ого", "ому", "ой", "ую", "ым", "ом", "ых", "ыми", "ою")]
    elif declension == "plural":  # пики, трефы: the plural noun (the singular is its own lemma)
        stem = lemma[:-1]
        forms += [stem + e for e in ("ам", "ами", "ах")]
    elif declension == "num" and lemma.endswith("ь"):  # шесть, семь, десять: -и -ью
        forms += [lemma[:-1] + "и", lemma[:-1] + "ью"]
    forms += _RU_IRREGULAR.get(lemma, ())
    return tuple(dict.fromkeys(forms))


def _en_forms(lemma: str) -> tuple[str, ...]:
    return (lemma, lemma + ("es" if lemma.endswith(("s", "x")) else "s"))


@dataclass(frozen=True)
class CardWord:
    """What one word form says about a card: a rank or a suit, in which language, how."""

    form: str  # the folded word as typed: "семерку", "queens", "пиковой"
    lemma: str  # its dictionary word: "семерка", "queen", "пиковый"
    lang: str  # "ru" or "en"
    rank: Rank | None = None
    suit: Suit | None = None
    numeral: bool = False  # a number word ("две", "seven"): may count cards or things
    adjective: bool = False  # a suit adjective ("пиковая"): stands before its rank
    plural: bool = False  # the form is plural ("семерки", "queens", "пики") where known


RANK_NAMES: Mapping[Rank, Mapping[str, tuple[str, ...]]] = MappingProxyType(
    {r: MappingProxyType({RU: tuple(w for w, _ in _RU_RANKS[r]), EN: _EN_RANKS[r]}) for r in Rank}
)
SUIT_NAMES: Mapping[Suit, Mapping[str, tuple[str, ...]]] = MappingProxyType(
    {s: MappingProxyType({RU: tuple(w for w, _ in _RU_SUITS[s]), EN: _EN_SUITS[s]}) for s in Suit}
)

_RU_PLURAL_ENDINGS = ("ы", "и", "ок", "ек", "ов", "ей", "ам", "ями", "ами", "ах", "ях", "ым", "ых", "ыми", "ые")


@lru_cache(maxsize=1)
def word_forms() -> Mapping[str, CardWord]:
    """Every form of every card word → what it names. A form two words share keeps the first."""
    table: dict[str, CardWord] = {}

    def add(word: CardWord) -> None:
        table.setdefault(word.form, word)

    def plural(form: str, lemma: str, declension: str) -> bool:
        if declension in ("num", "adj", "fixed"):
            return declension == "adj" and form.endswith(("ые", "ых", "ыми"))
        if declension == "plural":
            return True
        return form != lemma and (form.endswith(_RU_PLURAL_ENDINGS) or form in _RU_IRREGULAR.get(lemma, ()))

    for rank in Rank:
        for lemma, declension in _RU_RANKS[rank]:
            for form in _ru_forms(lemma, declension):
                add(
                    CardWord(
                        form, lemma, RU, rank=rank, numeral=declension == "num", plural=plural(form, lemma, declension)
                    )
                )
        for lemma in _EN_RANKS[rank]:
            for form in _en_forms(lemma):
                add(
                    CardWord(
                        form,
                        lemma,
                        EN,
                        rank=rank,
                        numeral=bool(rank.face_value) and form == lemma,
                        plural=form != lemma,
                    )
                )
    for suit in Suit:
        for lemma, declension in _RU_SUITS[suit]:
            for form in _ru_forms(lemma, declension):
                add(
                    CardWord(
                        form,
                        lemma,
                        RU,
                        suit=suit,
                        adjective=declension == "adj",
                        plural=plural(form, lemma, declension),
                    )
                )
        for lemma in _EN_SUITS[suit]:
            for form in _en_forms(lemma):
                add(CardWord(form, lemma, EN, suit=suit, plural=form != lemma))
    return MappingProxyType(table)


def card_word(word: str) -> CardWord | None:
    """What `word` (any case, any form in the vocabulary) names, or None."""
    return word_forms().get(fold(word))


def rank_of_word(word: str) -> Rank | None:
    """The rank a word names: «семёрку», «Queens», «десяти», «тузик» → Rank; else None."""
    w = card_word(word)
    return w.rank if w else None


def suit_of_word(word: str) -> Suit | None:
    """The suit a word names: «пиковой», «черви», «Clubs», «♣» → Suit; else None."""
    symbol = SUIT_SYMBOLS.get(fold(word).strip())
    if symbol:
        return symbol
    w = card_word(word)
    return w.suit if w else None


_NOTATION = re.compile(rf"({RANK_PATTERN})\s?({SUIT_SYMBOL_PATTERN}|{SUIT_LETTER_PATTERN})")


def read_notation(token: str) -> Card | None:
    """One card in the compact notation, or None (never raises; `parse_card` explains).

    The rank and suit letters are of one script ("qh", "дч"; "qч" is nothing); digits go
    with either; a Latin "t" is never read (it is ten in poker notation).

    >>> str(read_notation("Дч")), str(read_notation("10C")), str(read_notation("K ♠")), read_notation("qч")
    ('Q♥', '10♣', 'K♠', None)
    """
    m = _NOTATION.fullmatch(fold(token).strip())
    if not m:
        return None
    rank_text, suit_text = m.groups()
    if suit_text in SUIT_SYMBOLS:
        suit = SUIT_SYMBOLS[suit_text]
    else:
        script = EN if suit_text in SUIT_LETTERS[EN] else RU
        if not rank_text.isdigit() and rank_text not in RANK_LETTERS[script]:
            return None
        suit = SUIT_LETTERS[script][suit_text]
    rank = _RANK_WORDS[rank_text]
    return Card(rank, suit)


@dataclass(frozen=True)
class CardMention:
    """A card, a rank or a suit named in a text, and where (`text[start:end]`)."""

    start: int
    end: int
    text: str  # the mention as written
    rank: Rank | None
    suit: Suit | None
    words: tuple[CardWord, ...] = ()  # the words it was read from (none for notation)

    @property
    def card(self) -> Card | None:
        return Card(self.rank, self.suit) if self.rank and self.suit else None

    @property
    def numeral(self) -> bool:
        """A lone number word ("две", "three"): a count as likely as a rank."""
        return len(self.words) == 1 and self.words[0].numeral


_TOKEN = re.compile(rf"{SYMBOL_CARD_PATTERN}|{SUIT_SYMBOL_PATTERN}|\w+", re.IGNORECASE)
_JOINERS = frozenset({"of"})


def find_cards(text: str) -> list[CardMention]:
    """Card mentions in `text`, in order, joining a rank with its suit.

    Joins "дама червей", "даму пик", "пиковый король", "queen of hearts", "hearts queen",
    "7 ♥", and reads compact notation ("Дч", "QH", "10♣"). Digits alone are ranks
    (numbers are the caller's to judge). Compact forms that are more often words in
    English ("as", "ad") are not cards unless written in capitals ("AS", "AD").

    >>> found = find_cards("Дама червей на 10c, потом пики")
    >>> [(m.text, m.rank and m.rank.value, m.suit and m.suit.value) for m in found]
    [('Дама червей', 'Q', '♥'), ('10c', '10', '♣'), ('пики', None, '♠')]
    """
    atoms: list[CardMention] = []
    for m in _TOKEN.finditer(text):
        raw = m.group(0)
        low = fold(raw)
        card = read_notation(raw)
        if card and low[:-1].isdigit() and low[-1] == "s":  # "7s", "10s": sevens, tens
            atoms.append(CardMention(m.start(), m.end(), raw, card.rank, None))
            continue
        if card and not (low in ("as", "ad") and raw != raw.upper()):
            atoms.append(CardMention(m.start(), m.end(), raw, card.rank, card.suit))
            continue
        if low.isdigit():
            if low in _RANK_WORDS:
                atoms.append(CardMention(m.start(), m.end(), raw, Rank(low), None))
            continue
        if low in SUIT_SYMBOLS:
            atoms.append(CardMention(m.start(), m.end(), raw, None, SUIT_SYMBOLS[low]))
            continue
        if low in _JOINERS:
            atoms.append(CardMention(m.start(), m.end(), raw, None, None))
            continue
        word = word_forms().get(low)
        if word:
            atoms.append(CardMention(m.start(), m.end(), raw, word.rank, word.suit, (word,)))
        elif atoms and atoms[-1].rank is None and atoms[-1].suit is None:
            atoms.pop()  # a joiner not between card words
    out: list[CardMention] = []
    i = 0
    while i < len(atoms):
        a = atoms[i]
        j = i + 1
        if a.rank and not a.suit and j < len(atoms) and atoms[j].rank is None and atoms[j].suit is None:
            j += 1  # "queen of hearts"
        b = atoms[j] if j < len(atoms) else None
        if b and not _gap(text, a, b, allow_words=j > i + 1):
            if a.rank and not a.suit and b.suit and not b.rank:
                out.append(CardMention(a.start, b.end, text[a.start : b.end], a.rank, b.suit, a.words + b.words))
                i = j + 1
                continue
            if a.suit and not a.rank and b.rank and not b.suit and j == i + 1:
                out.append(CardMention(a.start, b.end, text[a.start : b.end], b.rank, a.suit, a.words + b.words))
                i = j + 1
                continue
        if a.rank or a.suit:
            out.append(a)
        i += 1
    return out


def _gap(text: str, a: CardMention, b: CardMention, allow_words: bool) -> bool:
    """Anything but blanks (or the joiner, when allowed) between two mentions keeps them apart."""
    between = text[a.end : b.start]
    if allow_words:
        between = re.sub(r"(?i)\bof\b", " ", between)
    return bool(between.strip())
