"""Cards, suits, ranks and the notations players type (RULES.md §1)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from enum import Enum
from typing import Iterable

from .errors import N_, CardError


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

    def __lt__(self, other: "Card") -> bool:
        return self.sort_key < other.sort_key


RANKS_36 = tuple(r for r in Rank if r.order >= Rank.SIX.order)
RANKS_52 = tuple(Rank)
DECK_SIZES = (36, 52)


@lru_cache(maxsize=None)
def deck(size: int = 36) -> tuple[Card, ...]:
    """All cards of a 36- or 52-card deck, suit by suit, low rank first."""
    if size not in DECK_SIZES:
        raise CardError(N_("A deck has 36 or 52 cards, not %(size)s."), size=size)
    ranks = RANKS_36 if size == 36 else RANKS_52
    return tuple(Card(rank, suit) for suit in Suit for rank in ranks)


# Input tables, lower case. Cyrillic «т» is the ace as a rank and трефы as a suit;
# Cyrillic «к» is the king as a rank and крести as a suit: the rank comes first.
_RANK_WORDS = {
    **{str(n): Rank(str(n)) for n in range(2, 11)},
    "j": Rank.JACK, "q": Rank.QUEEN, "k": Rank.KING, "a": Rank.ACE,
    "в": Rank.JACK, "д": Rank.QUEEN, "к": Rank.KING, "т": Rank.ACE,
}
_SUIT_WORDS = {
    "♠": Suit.SPADES, "♤": Suit.SPADES, "s": Suit.SPADES, "п": Suit.SPADES,
    "♥": Suit.HEARTS, "♡": Suit.HEARTS, "h": Suit.HEARTS, "ч": Suit.HEARTS,
    "♦": Suit.DIAMONDS, "♢": Suit.DIAMONDS, "d": Suit.DIAMONDS, "б": Suit.DIAMONDS,
    "♣": Suit.CLUBS, "♧": Suit.CLUBS, "c": Suit.CLUBS, "т": Suit.CLUBS, "к": Suit.CLUBS,
}
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


@lru_cache(maxsize=None)
def _deck_set(size: int) -> frozenset[Card]:
    return frozenset(deck(size))


def parse_cards(texts: Iterable[str], deck_size: int | None = None) -> tuple[Card, ...]:
    return tuple(parse_card(t, deck_size) for t in texts)
