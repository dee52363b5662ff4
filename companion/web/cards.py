"""Cards as the pages show them: letters in the reader's language, names for screen readers, the tap grid.

Reading a card a person typed on a page, where a wrong one is simply left out,
is `card_or_none`; the API refuses a wrong card instead (`core.cards.parse_card`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.cards import Card, Rank, Suit, deck, parse_card
from ..core.errors import N_, CardError, PlayError
from ..i18n import current_language, gettext

_RANK_NAMES = {
    Rank.TWO: ("two", "двойка"), Rank.THREE: ("three", "тройка"), Rank.FOUR: ("four", "четвёрка"),
    Rank.FIVE: ("five", "пятёрка"), Rank.SIX: ("six", "шестёрка"), Rank.SEVEN: ("seven", "семёрка"),
    Rank.EIGHT: ("eight", "восьмёрка"), Rank.NINE: ("nine", "девятка"), Rank.TEN: ("ten", "десятка"),
    Rank.JACK: ("jack", "валет"), Rank.QUEEN: ("queen", "дама"), Rank.KING: ("king", "король"),
    Rank.ACE: ("ace", "туз"),
}
_SUIT_NAMES = {
    Suit.SPADES: ("spades", "пик"), Suit.HEARTS: ("hearts", "червей"),
    Suit.DIAMONDS: ("diamonds", "бубен"), Suit.CLUBS: ("clubs", "треф"),
}
# Columns of the card grid: black and red alternate so neighbours never look alike.
GRID_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)


def card_name(card: Card) -> str:
    """What a screen reader says: «дама червей», "queen of hearts"."""
    ru = current_language() == "ru"
    rank = _RANK_NAMES[card.rank][1 if ru else 0]
    suit = _SUIT_NAMES[card.suit][1 if ru else 0]
    return f"{rank} {suit}" if ru else f"{rank} of {suit}"


def rank_letter(rank: Rank) -> str:
    return rank.ru if current_language() == "ru" else rank.value


def card_text(card: Card | None) -> str:
    if card is None:
        return ""
    return f"{rank_letter(card.rank)}{card.suit.value}"


def card_label(rank: Rank, suit: Suit | None = None) -> str:
    """A rank (and suit) as a heading: «Д», «К♠»."""
    return rank_letter(rank) + (suit.value if suit else "")


def suit_name(suit: Suit) -> str:
    return {Suit.SPADES: gettext("spades"), Suit.HEARTS: gettext("hearts"),
            Suit.CLUBS: gettext("clubs"), Suit.DIAMONDS: gettext("diamonds")}[suit]


def card_or_none(text: Any, deck_size: int | None = None) -> Card | None:
    """The card `text` names (in any accepted notation), or None for an empty or wrong one."""
    if not text:
        return None
    try:
        return parse_card(text, deck_size)
    except CardError:
        return None


def parse_suit(text: Any) -> Suit:
    """A suit in any notation a card accepts: ♦, D, Б …; refused with a message that says how."""
    raw = text.replace("\ufe0f", "").strip() if isinstance(text, str) else ""
    if len(raw) == 1:
        card = card_or_none("10" + raw)
        if card is not None:
            return card.suit
    raise PlayError(N_("“%(suit)s” is not a suit; name one of ♠ ♥ ♦ ♣ (or S H D C, П Ч Б Т)."), suit=str(text))


def suit_or_none(text: Any) -> Suit | None:
    if not text:
        return None
    try:
        return parse_suit(text)
    except PlayError:
        return None


@dataclass(frozen=True)
class CardCell:
    code: str
    text: str
    rank: str
    suit: str
    red: bool
    name: str


def card_grid(deck_size: int) -> list[list[CardCell]]:
    """Rows of the grid, one rank per row (low to high), one suit per column."""
    cards = set(deck(deck_size))
    ranks = sorted({c.rank for c in cards}, key=lambda r: r.order)
    return [
        [CardCell(c.code, card_text(c), rank_letter(c.rank), c.suit.value, c.suit.is_red, card_name(c))
         for c in (Card(rank, suit) for suit in GRID_SUITS)]
        for rank in ranks
    ]
