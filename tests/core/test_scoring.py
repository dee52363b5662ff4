"""Worked examples of RULES.md §5 and the preset cells that affect scoring."""

import pytest

from companion.core.cards import parse_card, parse_cards
from companion.core.rules import RULESETS
from companion.core.scoring import QUEENS_ONLY, queen_finish_deduction, score_hand


def points(hand: str, ruleset: str = "igrafan", **options: object) -> int:
    opts = RULESETS[ruleset].options(options or None)
    return score_hand(parse_cards(hand.split(), opts.deck), opts).points


@pytest.mark.parametrize(
    "hand, expected",
    [
        ("10♣ J♦ K♠ A♥", 27),
        ("Q♥ J♦ 9♣", 14),
        ("Q♠ Q♦ 10♣", 16),
        ("Q♠ Q♦ 9♣", 15),
        ("Q♠", 20),
        ("Q♥", 40),
        ("Q♥ Q♠", 60),
        ("K♠", 4),
        ("6♠ 7♠ 8♠ 9♠ 10♠", 40),
        ("J♣ K♥ A♦", 17),
    ],
)
def test_igrafan_examples(hand: str, expected: int) -> None:
    assert points(hand) == expected


def test_breakdown_and_rule_name() -> None:
    opts = RULESETS["igrafan"].defaults
    score = score_hand(parse_cards(["Q♥", "Q♣"]), opts)
    assert score.rule == QUEENS_ONLY
    assert [(str(c), p) for c, p in score.breakdown] == [("Q♥", 40), ("Q♣", 20)]
    plain = score_hand(parse_cards(["10♣", "J♦"]), opts)
    assert plain.rule is None and plain.to_json() == {
        "points": 12, "cards": ["10♣", "J♦"],
        "breakdown": [{"card": "10♣", "points": 10}, {"card": "J♦", "points": 2}], "rule": None,
    }


def test_empty_hand_scores_zero() -> None:
    assert points("") == 0


@pytest.mark.parametrize(
    "ruleset, hand, expected",
    [
        ("classic", "9♣ 10♣", 10),  # a nine is 0
        ("classic", "Q♠", 3),  # no queens-only rule
        ("classic", "Q♥ Q♠", 6),
        ("elimination", "9♦", 0),
        ("elimination", "Q♠", 40),  # Q♠ is the special queen
        ("elimination", "Q♥", 20),
        ("elvista", "9♦ K♠", 13),
        ("pharaoh", "Q♦", 30),  # a lone queen is 30
        ("pharaoh", "Q♥", 30),
    ],
)
def test_preset_cells(ruleset: str, hand: str, expected: int) -> None:
    assert points(hand, ruleset) == expected


def test_options_change_scoring() -> None:
    assert points("9♣", nine_points=0) == 0
    assert points("K♠ 6♦", spade_king_points=40) == 46
    assert points("Q♠", queens_only=False) == 3
    assert points("Q♠ Q♥", queens_only_points=25, queens_only_special_points=50) == 75
    assert points("2♣ 5♦ A♠", deck=52) == 18  # 52 cards: 2..5 at face value


@pytest.mark.parametrize(
    "ruleset, card, deduction",
    [
        ("igrafan", "Q♦", 20), ("igrafan", "Q♥", 40), ("igrafan", "K♥", 0),
        ("classic", "Q♠", 40), ("classic", "Q♥", 20),
        ("elimination", "Q♠", 40),
        ("pharaoh", "Q♥", 30), ("pharaoh", "Q♣", 30),
    ],
)
def test_queen_finish(ruleset: str, card: str, deduction: int) -> None:
    assert queen_finish_deduction(parse_card(card), RULESETS[ruleset].defaults) == deduction
