"""Cards as the pages show them: letters in the reader's language, names for screen readers, the tap grid.

Reading a card a person typed on a page, where a wrong one is simply left out,
is `card_or_none`; the API refuses a wrong card instead (`core.cards.parse_card`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.core.cards import EN, RU, SUIT_LETTERS, Card, Rank, Suit, deck, fold, parse_card, suit_of_word
from companion.core.errors import N_, CardError, PlayError
from companion.i18n import card_text, gettext, rank_letter

# What a screen reader says for a card: message ids, the Russian in cards.po («дама червей»).
_RANK_NAMES: Mapping[Rank, str] = {
    Rank.TWO: N_("two"), Rank.THREE: N_("three"), Rank.FOUR: N_("four"), Rank.FIVE: N_("five"),
    Rank.SIX: N_("six"), Rank.SEVEN: N_("seven"), Rank.EIGHT: N_("eight"), Rank.NINE: N_("nine"),
    Rank.TEN: N_("ten"), Rank.JACK: N_("jack"), Rank.QUEEN: N_("queen"), Rank.KING: N_("king"), Rank.ACE: N_("ace"),
}
_CARD_NAMES: Mapping[Suit, str] = {
    Suit.SPADES: N_("%(rank)s of spades"), Suit.HEARTS: N_("%(rank)s of hearts"),
    Suit.DIAMONDS: N_("%(rank)s of diamonds"), Suit.CLUBS: N_("%(rank)s of clubs"),
}
# Columns of the card grid: black and red alternate so neighbours never look alike.
GRID_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)


def card_name(card: Card) -> str:
    """What a screen reader says: «дама червей», "queen of hearts"."""
    return gettext(_CARD_NAMES[card.suit], rank=gettext(_RANK_NAMES[card.rank]))


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
    """A suit as the card vocabulary knows it: ♦, D, Б, «бубны», "diamonds" …; refused with a message that says how."""
    raw = fold(text).strip() if isinstance(text, str) else ""
    suit = SUIT_LETTERS[EN].get(raw) or SUIT_LETTERS[RU].get(raw) or (suit_of_word(raw) if raw else None)
    if suit is not None:
        return suit
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
