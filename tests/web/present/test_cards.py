"""Cards as the pages show and read them (companion/web/cards.py), from the core's one card vocabulary."""

from __future__ import annotations

import pytest
from flask import Flask

from companion.core.cards import Card, Rank, Suit
from companion.core.errors import PlayError
from companion.i18n import card_text
from companion.web.present.cards import card_name, card_or_none, parse_suit, suit_or_none


@pytest.mark.parametrize(("lang", "expected"), [("ru", "дама червей"), ("en", "queen of hearts")])
def test_a_screen_reader_names_the_card_in_the_reader_language(app: Flask, lang: str, expected: str) -> None:
    with app.test_request_context(f"/?lang={lang}"):
        assert card_name(Card(Rank.QUEEN, Suit.HEARTS)) == expected


def test_card_letters_follow_the_reader_language(app: Flask) -> None:
    with app.test_request_context("/?lang=ru"):
        assert card_text(Card(Rank.ACE, Suit.SPADES)) == "Т♠"
    with app.test_request_context("/?lang=en"):
        assert card_text(Card(Rank.ACE, Suit.SPADES)) == "A♠"


@pytest.mark.parametrize("text", ["♦", "♢", "♦\ufe0f", "D", "d", "Б", "б", "бубны", "бубновый", "Diamonds", " ♦ "])
def test_a_suit_is_read_in_every_notation_the_vocabulary_knows(text: str) -> None:
    assert parse_suit(text) is Suit.DIAMONDS


@pytest.mark.parametrize("text", ["", "X", "10", "QH", None, 3])
def test_anything_else_is_not_a_suit(text: object) -> None:
    with pytest.raises(PlayError, match="is not a suit"):
        parse_suit(text)
    assert suit_or_none(text) is None


def test_the_one_lenient_card_reader() -> None:
    assert card_or_none("Дч") == Card(Rank.QUEEN, Suit.HEARTS)
    assert card_or_none("5♠", 36) is None and card_or_none("5♠", 52) == Card(Rank.FIVE, Suit.SPADES)
    assert card_or_none("") is None and card_or_none("T♠") is None and card_or_none(None) is None
