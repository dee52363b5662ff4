"""Core errors say which input they concern (`field`); forms place a message by that alone."""

from __future__ import annotations

import pytest

from companion.core.errors import OptionError, RuleError, field_player
from companion.core.rules import RULESETS
from companion.core.series import RoundInput, SeriesSetup, replay, round_problems

SETUP = SeriesSetup.create(["Аня", "Борис", "Вера"], "igrafan", None, "Аня")


def refusal(data: dict[str, object]) -> RuleError:
    try:
        entry = RoundInput.from_json(data, SETUP)
    except RuleError as error:
        return error
    problems = list(round_problems(replay(SETUP, []), entry))
    assert problems, data
    return problems[0]


@pytest.mark.parametrize(("data", "field"), [
    ({"finishing_card": "8♥", "hands": {}}, "winner"),
    ({"winner": "Аня", "finishing_card": "8x", "hands": {}}, "finishing_card"),
    ({"winner": "Аня", "finishing_card": "8♥", "hands": {"Борис": ["7♠"]}}, "player:Вера"),
    ({"winner": "Аня", "finishing_card": "8♥", "hands": {"Борис": ["7x"], "Вера": ["6♠"]}}, "player:Борис"),
    ({"winner": "Аня", "finishing_card": "8♥", "hands": {"Борис": ["7♠"], "Вера": ["7♠"]}}, "player:Вера"),
    ({"winner": "Аня", "finishing_card": "8♥", "hands": {"Борис": ["8♥"], "Вера": ["6♠"]}}, "finishing_card"),
])
def test_round_errors_name_their_input(data: dict[str, object], field: str) -> None:
    assert refusal(data).field == field


def test_option_errors_name_the_option() -> None:
    with pytest.raises(OptionError) as refused:
        RULESETS["igrafan"].options({"deck": 40})
    assert refused.value.field == "option:deck"


def test_field_player() -> None:
    assert field_player("player:Аня") == "Аня"
    assert field_player("winner") is None and field_player(None) is None
