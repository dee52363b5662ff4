import pytest

from companion.core.cards import Card, Rank, Suit, deck, parse_card
from companion.core.errors import CardError


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("10♣", "10♣"), ("10C", "10♣"), ("10c", "10♣"), ("jd", "J♦"), ("Д♥", "Q♥"), ("КП", "K♠"),
        ("Тч", "A♥"), ("qs", "Q♠"), ("ТТ", "A♣"), ("КК", "K♣"), ("вб", "J♦"), ("6 ♠", "6♠"),
        ("Q♥️", "Q♥"), ("a♤", "A♠"), ("9h", "9♥"), ("дТ", "Q♣"), ("10К", "10♣"),
    ],
)
def test_every_notation_reads_to_canonical(text: str, canonical: str) -> None:
    assert str(parse_card(text)) == canonical


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("T♠", "Latin T"),
        ("t♠", "Latin T"),
        ("10", "no suit"),
        ("Q", "no suit"),
        ("X♠", "not a rank"),
        ("QX", "not a suit"),
        ("", "empty"),
        ("♠", "no rank"),
        ("11♠", "not a rank"),
    ],
)
def test_unreadable_cards_are_refused_with_a_reason(text: str, fragment: str) -> None:
    with pytest.raises(CardError) as caught:
        parse_card(text)
    assert fragment in str(caught.value)


def test_latin_t_message_says_how_to_write_ten() -> None:
    with pytest.raises(CardError, match="write ten as 10"):
        parse_card("T♥")


def test_card_outside_the_deck() -> None:
    with pytest.raises(CardError, match="not in a 36-card deck"):
        parse_card("5♠", 36)
    assert str(parse_card("5♠", 52)) == "5♠"


def test_decks() -> None:
    assert len(deck(36)) == 36 and len(set(deck(36))) == 36
    assert len(deck(52)) == 52
    with pytest.raises(CardError):
        deck(40)


def test_orders_for_drawing_the_dealer() -> None:
    assert [s.value for s in sorted(Suit, key=lambda s: s.order)] == ["♦", "♥", "♣", "♠"]
    assert Rank.SIX.order < Rank.TEN.order < Rank.JACK.order < Rank.QUEEN.order < Rank.KING.order < Rank.ACE.order


def test_card_codes_and_russian_ranks() -> None:
    card = Card(Rank.QUEEN, Suit.HEARTS)
    assert card.code == "QH" and Rank.QUEEN.ru == "Д" and Rank.ACE.ru == "Т" and Rank.TEN.ru == "10"
