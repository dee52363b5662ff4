"""Phrasings of a dictated round met in issue 21's thirteenth tuning round: one test per mechanism (a family of
ways people speak), each with sentences of my own → hands and readiness, and the variants that must stay asked."""

from __future__ import annotations

from companion.core.rules import get_ruleset
from companion.language.dictation import parse
from companion.language.settle import ParsedRound

IGRAFAN = get_ruleset("igrafan").defaults
TABLE = ["Аня", "Борис", "Света", "Кира"]
START = "аня вышла на тузе пик "
REST = " у светы девятка у киры валет"


def hands(r: ParsedRound) -> dict[str, list[str]]:
    """Each hand as the bench writes it: a card whose suit was assumed is its rank alone."""
    return {p: sorted(s.rank.value if s.assumed else s.text for s in slots) for p, slots in r.hands.items() if slots}


def read(boris: str) -> ParsedRound:
    """Борис's hand said between a fixed start and rest of the round."""
    return parse(START + boris + REST, TABLE, IGRAFAN)


def test_the_last_card_said_with_no_word_of_going_out() -> None:
    for said in ("последней у ани была дама пик, у бори туз, у светы девятка, у киры валет",
                 "у ани последней была дама пик. у бори туз. у светы девятка. у киры валет",
                 "аня пустая последним у неё была дама пик у бори туз у светы девятка у киры валет",
                 "у ани дама пик последняя, у бори туз, у светы девятка, у киры валет",
                 "аня выкинула последней даму пик у бори туз у светы девятка у киры валет",
                 "у ани последняя карта дама пик, у бори туз, с девяткой осталась света, у киры валет"):
        r = parse(said, TABLE, IGRAFAN)
        assert r.winner == "Аня" and r.finishing is not None and r.finishing.text == "Q♠", said
        assert hands(r) == {"Борис": ["A"], "Света": ["9"], "Кира": ["J"]} and r.exact, said
    for said in ("последней у ани была дама пик и туз, у бори туз, у светы девятка, у киры валет",  # which one?
                 "последними у ани были две дамы, у бори туз, у светы девятка, у киры валет",
                 "последней была дама пик у ани, у бори туз, у светы девятка, у киры валет",  # the name after
                 "последней у ани была дама пик, у бори последний туз, у светы девятка, у киры валет"):  # two
        r = parse(said, TABLE, IGRAFAN)
        assert not r.exact, said


def test_the_scribe_names_themselves_after_the_verb() -> None:
    for said in ("пишу я борис я вышел на тузе пик у ани король у светы девятка у киры валет",
                 "диктую я, Борис. Я вышел на тузе пик, у Ани король, у Светы девятка, у Киры валет.",
                 "пишу я, ну, света: аня вышла на тузе пик у бори король у меня девятка у киры валет"):
        r = parse(said, TABLE, IGRAFAN)
        assert r.exact and r.unrecognised == [], said
    r = parse("пишу я борис вышел на тузе пик у ани король у светы девятка у киры валет", TABLE, IGRAFAN)
    assert r.winner == "Борис" and r.exact  # who dictates is not said, and not needed
    r = parse("пишу я, борис вышел на тузе пик у ани король у меня девятка у киры валет", TABLE, IGRAFAN)
    assert not r.exact  # «у меня»: whose? asked


def test_thinking_aloud_before_a_card() -> None:
    for said in ("у бори ммм щас вспомню а король и дама пик", "у бори, хмм, дай подумать, король и дама пик",
                 "у бори эээм сейчас вспомню король и дама пик", "у бори мм дайте вспомнить король и дама пик"):
        r = read(said)
        assert hands(r)["Борис"] == ["K", "Q♠"] and r.exact and r.unrecognised == [], said
    r = read("у бори не вспомню что, а, у светы туз")  # «не вспомню»: as «не помню», the hand not known
    assert "Борис" not in hands(r) and not r.exact
