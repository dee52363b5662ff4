"""The card vocabulary of the core (companion/core/cards.py): words, forms, notation, mentions."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.core import cards
from companion.core.cards import Card, Rank, Suit, deck


@pytest.mark.parametrize("word,rank", [
    ("семёрку", Rank.SEVEN), ("Семерок", Rank.SEVEN), ("семерочкой", Rank.SEVEN), ("семи", Rank.SEVEN),
    ("дамой", Rank.QUEEN), ("дам", Rank.QUEEN), ("дамочку", Rank.QUEEN), ("королеву", Rank.QUEEN),
    ("королём", Rank.KING), ("королей", Rank.KING), ("тузов", Rank.ACE), ("тузиком", Rank.ACE),
    ("вальта", Rank.JACK), ("валетом", Rank.JACK), ("шестёрок", Rank.SIX), ("шохой", Rank.SIX),
    ("десяточку", Rank.TEN), ("восьмерки", Rank.EIGHT), ("двоек", Rank.TWO), ("две", Rank.TWO),
    ("queens", Rank.QUEEN), ("Sixes", Rank.SIX), ("knave", Rank.JACK), ("deuce", Rank.TWO), ("aces", Rank.ACE),
])
def test_rank_words_in_every_form(word: str, rank: Rank) -> None:
    assert cards.rank_of_word(word) is rank
    assert cards.suit_of_word(word) is None


@pytest.mark.parametrize("word,suit", [
    ("пиковой", Suit.SPADES), ("пики", Suit.SPADES), ("пик", Suit.SPADES), ("вини", Suit.SPADES), ("♤", Suit.SPADES),
    ("червей", Suit.HEARTS), ("червовую", Suit.HEARTS), ("червонная", Suit.HEARTS), ("черву", Suit.HEARTS),
    ("бубен", Suit.DIAMONDS), ("бубей", Suit.DIAMONDS), ("бубновые", Suit.DIAMONDS), ("бубну", Suit.DIAMONDS),
    ("треф", Suit.CLUBS), ("крестей", Suit.CLUBS), ("трефовым", Suit.CLUBS), ("Clubs", Suit.CLUBS), ("♣", Suit.CLUBS),
])
def test_suit_words_in_every_form(word: str, suit: Suit) -> None:
    assert cards.suit_of_word(word) is suit
    assert cards.rank_of_word(word) is None


def test_words_that_are_not_cards() -> None:
    for word in ("стол", "play", "очки", "а", "в", "к", "т", "", "as"):
        assert cards.card_word(word) is None, word


def test_word_flags() -> None:
    assert cards.card_word("две").numeral and cards.card_word("seven").numeral  # type: ignore[union-attr]
    assert not cards.card_word("семерка").numeral  # type: ignore[union-attr]
    assert cards.card_word("пиковую").adjective  # type: ignore[union-attr]
    assert cards.card_word("семерки").plural and cards.card_word("queens").plural  # type: ignore[union-attr]
    assert not cards.card_word("queen").plural  # type: ignore[union-attr]


def test_names_list_the_dictionary_words_in_both_languages() -> None:
    for rank in Rank:
        assert cards.RANK_NAMES[rank][cards.RU] and cards.RANK_NAMES[rank][cards.EN]
        for names in cards.RANK_NAMES[rank].values():
            assert all(cards.card_word(n).rank is rank for n in names)  # type: ignore[union-attr]
    assert cards.RANK_NAMES[Rank.QUEEN][cards.RU][0] == "дама"
    assert cards.SUIT_NAMES[Suit.SPADES][cards.EN] == ("spade",)
    for suit in Suit:
        for names in cards.SUIT_NAMES[suit].values():
            assert all(cards.card_word(n).suit is suit for n in names)  # type: ignore[union-attr]


def _notations(card: Card) -> list[str]:
    """The card written in every compact notation: K♠ KS ks кп кП К ♠ ..."""
    cyr = {r: letter for letter, r in cards.RANK_LETTERS[cards.RU].items()}
    ru_rank = cyr.get(card.rank, card.rank.value)
    ru_suits = [s for s, suit in cards.SUIT_LETTERS[cards.RU].items() if suit is card.suit]
    outline = [s for s, suit in cards.SUIT_SYMBOLS.items() if suit is card.suit]
    return ([str(card), card.code, card.code.lower(), ru_rank.upper() + " " + card.suit.value]
            + [ru_rank + s for s in ru_suits] + [ru_rank.upper() + s.upper() for s in ru_suits]
            + [card.rank.value + s for s in outline])


@given(st.sampled_from(deck(52)))
def test_notation_agrees_with_parse_card(card: Card) -> None:
    for text in _notations(card):
        assert cards.read_notation(text) == card, text
        assert cards.parse_card(text) == card, text


def test_notation_refuses_mixed_scripts_and_words() -> None:
    for text in ("qч", "дh", "tc", "дама", "11c", "", "q", "♠"):
        assert cards.read_notation(text) is None, text


def test_find_cards_joins_ranks_and_suits() -> None:
    found = cards.find_cards("Вышел дамой червей, потом пиковый король и queen of hearts, 10c и Дч")
    assert [str(m.card) for m in found] == ["Q♥", "K♠", "Q♥", "10♣", "Q♥"]
    assert [m.text for m in found] == ["дамой червей", "пиковый король", "queen of hearts", "10c", "Дч"]


def test_find_cards_keeps_lone_ranks_suits_and_numbers_apart() -> None:
    found = cards.find_cards("две семёрки, потом пики; of course")
    assert [(m.text, m.rank, m.suit) for m in found] == [
        ("две", Rank.TWO, None), ("семёрки", Rank.SEVEN, None), ("пики", None, Suit.SPADES),
    ]
    assert found[0].numeral and not found[1].numeral
    # "as", "ad" are English words; "7s" is sevens, not the seven of spades
    assert [(m.text, m.rank, m.suit) for m in cards.find_cards("as soon as I had drawn, ad hoc, 7s")] == [
        ("7s", Rank.SEVEN, None),
    ]
    assert [str(m.card) for m in cards.find_cards("AS and AD")] == ["A♠", "A♦"]
    # a comma keeps a rank from a suit that follows it
    assert [m.card for m in cards.find_cards("дама, черви")] == [None, None]


@given(st.text(max_size=60))
def test_find_cards_never_fails_and_spans_point_into_the_text(text: str) -> None:
    for m in cards.find_cards(text):
        assert 0 <= m.start < m.end <= len(text)
        assert text[m.start:m.end] == m.text
        assert m.rank or m.suit
