"""Phrasings of a dictated round met in issue 21's eighth round: each mechanism as a sentence → hands, ready."""

from __future__ import annotations

from companion.core.rules import get_ruleset
from companion.language.dictation import parse
from companion.language.settle import ParsedRound

IGRAFAN = get_ruleset("igrafan").defaults
TABLE = ["Борис", "Вера", "Анна"]


def hands(r: ParsedRound) -> dict[str, list[str]]:
    """Each hand as the bench writes it: a card whose suit was assumed is its rank alone."""
    return {p: sorted(s.rank.value if s.assumed else s.text for s in slots) for p, slots in r.hands.items()}


def test_a_hand_size_said_settles_how_far_a_correction_reaches() -> None:
    r = parse("вера вышла на тузе пик у бори три карты десятка девятка вернее восьмерка и король у ани девятка",
              TABLE, IGRAFAN)
    assert hands(r) == {"Борис": ["10", "8", "K"], "Анна": ["9"]} and r.exact
    # the size fits neither reading of the correction: asked, that hand not given
    r = parse("вера вышла на тузе пик у бори четыре карты десятка девятка вернее восьмерка и король у ани девятка",
              TABLE, IGRAFAN)
    assert not r.exact
    # no size said: which cards «вернее» takes back is still asked
    r = parse("вера вышла на тузе пик у бори десятка девятка вернее восьмерка и король у ани девятка", TABLE, IGRAFAN)
    assert "Борис" not in r.hands and not r.exact


def test_chatter_about_the_hand_is_no_card() -> None:
    r = parse("ой ну это было нечто вера вышла на тузе пик а у бори полная рука король король и валет у ани шестерка",
              TABLE, IGRAFAN)
    assert r.unrecognised == [] and hands(r) == {"Борис": ["J", "K", "K"], "Анна": ["6"]} and r.exact


def test_a_name_on_a_card_said_first_is_who_went_out() -> None:
    r = parse("борис на тузе червей вера король аня девять семь", TABLE, IGRAFAN)
    assert r.winner == "Борис" and r.finishing is not None and r.finishing.text == "A♥"
    assert hands(r) == {"Вера": ["K"], "Анна": ["7", "9"]} and r.exact
    # after «у» it is a hand, never the winner
    r = parse("у бориса на тузе червей вера король", TABLE, IGRAFAN)
    assert r.winner is None and not r.exact


def test_points_said_aloud_are_no_cards() -> None:
    r = parse("вера вышла на даме червей минус сорок ей у бори девятка у ани туз", TABLE, IGRAFAN)
    assert r.finishing is not None and r.finishing.text == "Q♥" and r.unrecognised == []
    assert hands(r) == {"Борис": ["9"], "Анна": ["A"]} and r.exact


def test_cards_received_are_drawn_not_held() -> None:
    r = parse("вера вышла на короле пик аня получила три у нее туз туз и десятка у бори валет", TABLE, IGRAFAN)
    assert r.unrecognised == [] and hands(r) == {"Анна": ["10", "A", "A"], "Борис": ["J"]} and r.exact


def test_a_bare_number_after_a_name_in_the_dative_is_cards_drawn() -> None:
    r = parse("вера вышла на семерке бубей борису две у бори теперь валет и туз у ани король", TABLE, IGRAFAN)
    assert r.unrecognised == [] and hands(r) == {"Борис": ["A", "J"], "Анна": ["K"]} and r.exact
    # after «у» the number counts the hand: checked against the cards said
    r = parse("вера вышла на семерке бубей у бори две валет у ани король", TABLE, IGRAFAN)
    assert not r.exact
