"""Series replay: RULES.md §4 order of operations, §5 totals, §6 refusals."""

from __future__ import annotations

from typing import Any

import pytest

from companion.core.errors import FormatError, OptionError, RoundError, SeriesFinishedError, SeriesSetupError
from companion.core.series import PlayerStatus, RoundInput, SeriesSetup, replay

PLAYERS = ["Аня", "Борис", "Вера"]


def setup(ruleset: str = "igrafan", players: list[str] | None = None, **options: Any) -> SeriesSetup:
    return SeriesSetup.create(players or PLAYERS, ruleset, options or None)


def rnd(s: SeriesSetup, winner: str, finish: str, **hands: Any) -> RoundInput:
    return RoundInput.from_json({"winner": winner, "finishing_card": finish, "hands": hands}, s)


def typed(s: SeriesSetup, winner: str, finish: str, **points: int) -> RoundInput:
    return RoundInput.from_json({"winner": winner, "finishing_card": finish, "typed_points": points}, s)


def test_a_round_adds_hand_points_and_the_winner_scores_zero() -> None:
    s = setup()
    st = replay(s, [rnd(s, "Аня", "8♥", Борис=["10♣", "J♦", "K♠", "A♥"], Вера=["9♠"])])
    assert st.totals == {"Аня": 0, "Борис": 27, "Вера": 9}
    assert st.next_starter == "Аня" and not st.finished


@pytest.mark.parametrize("before, penalty, after", [(74, 27, 0), (99, 2, 0), (94, 6, 100)])
def test_exactly_101_resets_and_100_stays(before: int, penalty: int, after: int) -> None:
    s = setup()
    st = replay(s, [typed(s, "Аня", "8♥", Борис=before, Вера=0), typed(s, "Аня", "8♥", Борис=penalty, Вера=0)])
    assert st.totals["Борис"] == after
    resets = [e for e in st.rounds[-1].events if e["type"] == "reset"]
    assert resets == ([{"type": "reset", "player": "Борис", "from": 101, "to": 0}] if after == 0 else [])


def test_over_101_loses_and_the_series_ends_for_everyone() -> None:
    s = setup()
    st = replay(s, [typed(s, "Аня", "8♥", Борис=75, Вера=94), typed(s, "Аня", "8♥", Борис=27, Вера=12)])
    assert st.totals == {"Аня": 0, "Борис": 102, "Вера": 106}
    assert st.losers == ("Борис", "Вера") and st.finished and st.winner is None
    assert st.statuses["Борис"] is PlayerStatus.LOST and st.statuses["Аня"] is PlayerStatus.PLAYING
    assert {"type": "series-end", "losers": ["Борис", "Вера"], "winner": None} in st.rounds[-1].events
    with pytest.raises(SeriesFinishedError):
        replay(s, [*(e.entry for e in st.rounds), typed(s, "Аня", "8♥", Борис=1, Вера=1)])


def test_queen_finish_takes_the_total_below_zero() -> None:
    s = setup()
    st = replay(s, [typed(s, "Аня", "8♥", Борис=15, Вера=1), typed(s, "Борис", "Q♥", Аня=3, Вера=1)])
    assert st.totals["Борис"] == -25
    assert {"type": "queen-finish", "player": "Борис", "card": "Q♥", "points": -40} in st.rounds[-1].events
    assert st.next_starter == "Борис"


def test_negative_to_zero_option() -> None:
    s = setup(negative_to_zero=True)
    st = replay(s, [typed(s, "Аня", "Q♠", Борис=1, Вера=1)])
    assert st.totals["Аня"] == 0


def test_redeal_changes_nothing_and_keeps_the_starter() -> None:
    s = setup()
    first = rnd(s, "Вера", "8♥", Аня=["6♠"], Борис=["7♠"])
    st = replay(s, [first, RoundInput(redeal=True)])
    assert st.totals == {"Аня": 6, "Борис": 7, "Вера": 0}
    assert st.next_starter == "Вера" and st.rounds[-1].events == ({"type": "redeal"},)
    assert st.rounds[-1].starter == "Вера"


def test_elvista_100_becomes_50() -> None:
    s = setup("elvista")
    st = replay(s, [typed(s, "Аня", "7♥", Борис=94, Вера=95), typed(s, "Аня", "7♥", Борис=6, Вера=6)])
    assert st.totals["Борис"] == 50 and st.totals["Вера"] == 0


def test_elimination_goes_on_until_one_is_left() -> None:
    s = setup("elimination")
    st = replay(s, [typed(s, "Аня", "8♥", Борис=94, Вера=50), typed(s, "Аня", "8♥", Борис=6, Вера=10)])
    assert st.totals["Борис"] == 0  # exactly 100 resets in elimination
    st = replay(s, [*[r.entry for r in st.rounds], typed(s, "Вера", "8♥", Борис=102, Аня=5)])
    assert st.statuses["Борис"] is PlayerStatus.ELIMINATED and not st.finished
    with pytest.raises(RoundError, match="already out"):
        replay(s, [*[r.entry for r in st.rounds], typed(s, "Аня", "8♥", Борис=3, Вера=3)])
    st = replay(s, [*[r.entry for r in st.rounds], typed(s, "Аня", "8♥", Вера=50)])
    assert st.finished and st.winner == "Аня" and st.losers == ("Борис", "Вера")
    assert st.statuses["Аня"] is PlayerStatus.WINNER


def test_pharaoh_loses_at_100() -> None:
    s = setup("pharaoh", ["Аня", "Борис"])
    st = replay(s, [typed(s, "Аня", "8♥", Борис=100)])
    assert st.losers == ("Борис",) and st.finished


@pytest.mark.parametrize(
    "body, message",
    [
        ({"winner": "Аня", "finishing_card": "8♥", "hands": {"Борис": ["6♠"], "Вера": ["6♠"]}}, "in the hands of both"),
        ({"winner": "Аня", "finishing_card": "6♠", "hands": {"Борис": ["7♠"], "Вера": ["8♠"]}}, "cannot end on 6♠"),
        (
            {"winner": "Аня", "finishing_card": "8♥", "hands": {"Борис": ["8♥"], "Вера": ["8♠"]}},
            "is the finishing card",
        ),
        (
            {"winner": "Аня", "finishing_card": "8♥", "hands": {"Борис": ["7♠", "7♠"], "Вера": ["8♠"]}},
            "twice in the hand",
        ),
        ({"winner": "Аня", "finishing_card": "8♥", "hands": {"Борис": ["7♠"]}}, "hand of Вера is missing"),
        (
            {"winner": "Аня", "finishing_card": "8♥", "hands": {"Борис": ["7♠"], "Вера": []}},
            "Only one player can go out",
        ),
        (
            {"winner": "Аня", "finishing_card": "8♥", "hands": {"Аня": ["9♠"], "Борис": ["7♠"], "Вера": ["8♠"]}},
            "no cards left",
        ),
        ({"winner": "Гоша", "finishing_card": "8♥", "hands": {}}, "no player “Гоша”"),
        ({"finishing_card": "8♥", "hands": {"Борис": ["7♠"]}}, "needs a winner"),
        ({"winner": "Аня", "hands": {"Борис": ["7♠"], "Вера": ["8♠"]}}, "which card"),
        (
            {"winner": "Аня", "finishing_card": "8♥", "hands": {"Борис": ["5♠"], "Вера": ["8♠"]}},
            "not in a 36-card deck",
        ),
        ({"winner": ["Аня", "Борис"], "finishing_card": "8♥", "hands": {}}, "one winner"),
        ({"redeal": True, "winner": "Аня"}, "A redeal has no winner"),
    ],
)
def test_refused_rounds(body: dict[str, Any], message: str) -> None:
    s = setup()
    with pytest.raises(Exception) as caught:
        replay(s, [RoundInput.from_json(body, s)])
    assert message in str(caught.value)


def test_the_whole_rest_of_the_deck_in_one_hand_is_accepted() -> None:
    s = setup("igrafan", ["Аня", "Борис"])
    from companion.core.cards import deck

    cards = [str(c) for c in deck(36) if str(c) != "8♥"]
    st = replay(s, [RoundInput.from_json({"winner": "Аня", "finishing_card": "8♥", "hands": {"Борис": cards}}, s)])
    assert st.losers == ("Борис",)


def test_finishing_rules_per_set() -> None:
    classic = setup("classic")
    with pytest.raises(RoundError, match="cannot end on 9♥"):
        replay(classic, [typed(classic, "Аня", "9♥", Борис=1, Вера=1)])
    assert replay(classic, [typed(classic, "Аня", "6♥", Борис=1, Вера=1)]).totals["Аня"] == 0


def test_elvista_may_end_on_an_eight_unless_the_option_says_not() -> None:
    """RULES.md §7 and §3 (elvista, seed 000): finishing on an eight is allowed by default;
    "may not finish on an eight" is an option of Elvista's settings."""
    elvista = setup("elvista")
    assert replay(elvista, [typed(elvista, "Аня", "8♥", Борис=1, Вера=1)]).totals["Борис"] == 1
    strict = setup("elvista", eight="must-cover")
    with pytest.raises(RoundError, match="cannot end on 8♥"):
        replay(strict, [typed(strict, "Аня", "8♥", Борис=1, Вера=1)])


def test_no_finishing_on_a_queen_is_an_option() -> None:
    """RULES.md §7 (seed 000, house option): a round may not end on a queen where the table says so."""
    s = setup(finish_on_queen=False)
    with pytest.raises(RoundError, match="cannot end on Q♥"):
        replay(s, [typed(s, "Аня", "Q♥", Борис=1, Вера=1)])
    assert replay(setup(), [typed(setup(), "Аня", "Q♥", Борис=1, Вера=1)]).totals["Аня"] == -40


def test_classic_deal_rotates_and_the_others_let_the_winner_start() -> None:
    """Seed 002 («в следующих играх игроки сдают карты по очереди»), RULES.md §3 and §7: in classic
    the next round's starter is the player after the previous starter, whoever won; a redeal keeps
    the starter. In the other sets the previous winner starts."""
    classic = SeriesSetup.create(PLAYERS, "classic", None, "Борис")
    assert classic.ruleset.play.next_starter.value == "rotate"
    rounds = [typed(classic, "Аня", "8♥", Борис=1, Вера=1)]
    st = replay(classic, rounds)
    assert [r.starter for r in st.rounds] == ["Борис"] and st.next_starter == "Вера"
    rounds.append(RoundInput(redeal=True))
    st = replay(classic, rounds)
    assert st.rounds[-1].starter == "Вера" and st.next_starter == "Вера"  # a redeal keeps the starter
    rounds.append(typed(classic, "Вера", "8♥", Аня=1, Борис=1))
    st = replay(classic, rounds)
    assert st.next_starter == "Аня"  # after Вера, round the table: not the winner Вера
    igrafan = SeriesSetup.create(PLAYERS, "igrafan", None, "Борис")
    assert igrafan.ruleset.play.next_starter.value == "winner"
    assert replay(igrafan, [typed(igrafan, "Аня", "8♥", Борис=1, Вера=1)]).next_starter == "Аня"


def test_rotation_skips_a_player_who_has_left() -> None:
    """The rotating starter skips players out of the series (the deal goes round the table still playing)."""
    from companion.core.rules import RULESETS

    s = SeriesSetup.create(["А", "Б", "В"], "classic", {"on_loss": "eliminate"}, "А")
    assert RULESETS["classic"].play.next_starter.value == "rotate"
    st = replay(s, [typed(s, "А", "8♥", Б=102, В=1)])
    assert st.next_starter == "В"


@pytest.mark.parametrize(
    "players, ruleset, options, error",
    [
        (["Аня"], "igrafan", None, SeriesSetupError),
        (["А", "Б", "В", "Г", "Д"], "igrafan", None, SeriesSetupError),
        (["Аня", " аня "], "igrafan", None, SeriesSetupError),
        (["Аня", ""], "igrafan", None, SeriesSetupError),
        (["Аня", "x" * 31], "igrafan", None, SeriesSetupError),
        (["Аня", "Борис", "Вера"], "pharaoh", None, SeriesSetupError),
        (["Аня", "Борис"], "poker", None, OptionError),
        (["Аня", "Борис"], "igrafan", {"jokers": True}, OptionError),
        (["Аня", "Борис"], "igrafan", {"deck": 40}, OptionError),
        (["Аня", "Борис"], "igrafan", {"queens_only": "yes"}, OptionError),
        ("Аня, Борис", "igrafan", None, FormatError),
    ],
)
def test_series_setup_refusals(players: Any, ruleset: str, options: Any, error: type) -> None:
    with pytest.raises(error):
        SeriesSetup.create(players, ruleset, options)


def test_a_52_card_deck_seats_six() -> None:
    assert len(SeriesSetup.create(list("ABCDEF"), "igrafan", {"deck": 52}).players) == 6


def test_names_are_trimmed() -> None:
    assert SeriesSetup.create(["  Аня  Петрова ", "Борис"]).players == ("Аня Петрова", "Борис")


def test_pharaoh_two_queens_and_exactly_101() -> None:
    """RULES.md §7 (seed 003): in pharaoh a hand of only queens scores 30 per queen, so two queens are 60;
    a total of 100 or more loses and there is no 101 reset, so exactly 101 loses too."""
    s = SeriesSetup.create(["Аня", "Борис"], "pharaoh")
    st = replay(s, [rnd(s, "Аня", "8♥", Борис=["Q♠", "Q♦"])])
    assert st.totals["Борис"] == 60
    st = replay(s, [typed(s, "Аня", "8♥", Борис=101)])
    assert st.totals["Борис"] == 101 and st.losers == ("Борис",) and st.finished
    st = replay(s, [typed(s, "Аня", "8♥", Борис=99)])
    assert not st.finished
