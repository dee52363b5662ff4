"""Phrasings of a dictated round met in issue 21's seventh round: each mechanism as a sentence → hands, ready."""

from __future__ import annotations

from companion.core.rules import get_ruleset
from companion.language.dictation import parse
from companion.language.settle import ParsedRound

IGRAFAN = get_ruleset("igrafan").defaults
TABLE = ["Борис", "Вера", "Анна"]


def hands(r: ParsedRound) -> dict[str, list[str]]:
    """Each hand as the bench writes it: a card whose suit was assumed is its rank alone."""
    return {p: sorted(s.rank.value if s.assumed else s.text for s in slots) for p, slots in r.hands.items()}


def test_a_hesitation_with_its_end_swallowed_is_no_card() -> None:
    r = parse("знач вера вышла на тузе пик у бори кароль у анечки девятка и шесть", TABLE, IGRAFAN)
    assert r.winner == "Вера" and r.finishing is not None and r.finishing.text == "A♠"
    assert hands(r) == {"Борис": ["K"], "Анна": ["6", "9"]} and r.unrecognised == [] and r.exact


def test_words_to_the_table_before_the_round_say_nothing_of_it() -> None:
    for text in ("слушай дорогуша записывай вышел борис на тузе пик у веры король у ани девятка",
                 "так деточка пиши вышел борис на тузе пик у веры король у ани девятка",
                 "ну все народ тихо я диктую борис вышел на тузе пик у веры король у ани девятка"):
        r = parse(text, TABLE, IGRAFAN)
        assert r.winner == "Борис" and r.unrecognised == [], text
        assert hands(r) == {"Вера": ["K"], "Анна": ["9"]} and r.exact, text


def test_a_word_before_a_win_with_nobody_after_it_may_be_a_nickname_and_is_asked() -> None:
    r = parse("киса вышла на тузе пик у бори король у веры дама червей", TABLE, IGRAFAN)
    assert r.winner is None and r.unrecognised == ["киса"] and not r.exact


def test_i_who_dictate_is_no_player_but_i_who_went_out_is_asked() -> None:
    r = parse("я говорю вышла вера на тузе пик у бори король у ани девятка", TABLE, IGRAFAN)
    assert r.winner == "Вера" and r.unrecognised == [] and r.exact
    r = parse("я вышла на тузе пик у бори король у ани девятка", TABLE, IGRAFAN)
    assert r.winner is None and r.unrecognised == ["я"] and not r.exact


def test_venya_is_asked_when_veniamin_and_venedikt_are_both_at_the_table() -> None:
    r = parse("вера вышла на тузе пик у вени король у глеба девятка", ["Вениамин", "Вера", "Венедикт", "Глеб"],
              IGRAFAN)
    assert hands(r) == {"Глеб": ["9"]} and r.unrecognised == [] and not r.exact
    r = parse("вера вышла на тузе пик у венечки король у глеба девятка", ["Венедикт", "Вера", "Глеб"], IGRAFAN)
    assert hands(r) == {"Венедикт": ["K"], "Глеб": ["9"]} and r.exact
