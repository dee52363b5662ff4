"""Phrasings of a dictated round met in issue 21's thirteenth tuning round: one test per mechanism (a family of
ways people speak), each with sentences of my own → hands and readiness, and the variants that must stay asked."""

from __future__ import annotations

from companion.language.dictation import parse
from tests.language.phrasings import IGRAFAN, TABLE, hands, read


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
                 "последней у ани была дама пик, у бори последний туз, у светы девятка, у киры валет",  # two
                 "боря взял последнюю карту из колоды у ани туз у светы девятка у киры валет"):  # a draw
        r = parse(said, TABLE, IGRAFAN)
        assert not r.exact, said
    for said in ("последний кон: у ани дама пик, у бори туз, у светы девятка, у киры валет",  # of the round
                 "в последний раз у ани дама пик у бори туз у светы девятка у киры валет"):
        r = parse(said, TABLE, IGRAFAN)
        assert r.winner is None and not r.exact, said


def test_the_scribe_names_themselves_after_the_verb() -> None:
    for said in ("пишу я борис я вышел на тузе пик у ани король у светы девятка у киры валет",
                 "диктую я, Борис. Я вышел на тузе пик, у Ани король, у Светы девятка, у Киры валет.",
                 "пишу я, ну, света: аня вышла на тузе пик у бори король у меня девятка у киры валет"):
        r = parse(said, TABLE, IGRAFAN)
        assert r.exact and r.unrecognised == [], said
    for said in ("пишу я борис вышел на тузе пик у ани король у светы девятка у киры валет",
                 "пишу я, борис, вышел на тузе пик у ани король у светы девятка у киры валет"):
        r = parse(said, TABLE, IGRAFAN)
        assert r.winner == "Борис" and r.exact, said  # who dictates is not said, and not needed
    for said in ("пишу я, борис вышел на тузе пик у ани король у меня девятка у киры валет",  # «у меня»: whose?
                 "пишу я вышел на тузе пик у ани король у светы девятка у киры валет"):  # «я вышел»: who?
        r = parse(said, TABLE, IGRAFAN)
        assert not r.exact and r.winner != "Света", said


def test_thinking_aloud_before_a_card() -> None:
    for said in ("у бори ммм щас вспомню а король и дама пик", "у бори, хмм, дай подумать, король и дама пик",
                 "у бори эээм сейчас вспомню король и дама пик", "у бори мм дайте вспомнить король и дама пик",
                 "у бори, эээ, сейчас скажу, король и дама пик"):
        r = read(said)
        assert hands(r)["Борис"] == ["K", "Q♠"] and r.exact and r.unrecognised == [], said
    r = read("у бори не вспомню что, а, у светы туз")  # «не вспомню»: as «не помню», the hand not known
    assert "Борис" not in hands(r) and not r.exact


def test_a_card_not_named_leaves_the_hand_asked() -> None:
    for said in ("у бори туз и картинка какая-то", "у бори девятка и ещё мелочь какая-то", "у бори туз и фоска",
                 "у бори туз и мелкая какая-то", "у бори король и картинка"):
        r = read(said)
        assert "Борис" not in hands(r) and r.unrecognised == [] and not r.exact, said
    r = read("у бори туз и дама пик")  # named cards stay read
    assert hands(r)["Борис"] == ["A", "Q♠"] and r.exact


def test_a_hand_gone_before_anyone_saw_it() -> None:
    for said in ("а боря свои карты уже в колоду смешал никто не видел", "боря карты перемешал",
                 "у бори туз, а остальное он замешал в колоду"):
        r = read(said)
        assert "Борис" not in hands(r) and r.unrecognised == [] and not r.exact, said


def test_one_of_two_ranks_is_asked_one_of_two_suits_left_open() -> None:
    for said in ("у бори валет или король не помню точно", "у бори либо валет либо король",
                 "у бори не то валет, не то король", "у бори то ли девятка то ли десятка"):
        r = read(said)
        assert "Борис" not in hands(r) and r.unrecognised == [] and not r.exact, said
    for said in ("кира вышла на даме то ли червей то ли бубей", "кира вышла на даме червей или бубей",
                 "кира вышла на даме то ли червей, то ли, ну, бубей"):
        r = parse(said + ", у ани туз, у бори король, у светы девятка", TABLE, IGRAFAN)
        assert r.finishing is not None and r.finishing.text == "Q?" and r.unrecognised == [] and not r.exact, said
    r = read("у бори дама то ли пик то ли треф")  # a black queen: 20 either way
    assert hands(r)["Борис"] == ["Q"] and r.exact


def test_the_suit_asked_about_before_the_forgetting() -> None:
    r = parse("кира вышла на даме а какой масти я не видел у ани туз у бори король у светы девятка", TABLE, IGRAFAN)
    assert r.finishing is not None and r.finishing.text == "Q?" and r.unrecognised == [] and not r.exact  # 20 or 40
    r = read("у бори дама одна, а какая — не помню")
    assert hands(r)["Борис"] == ["Q?"] and r.unrecognised == [] and not r.exact
    for said in ("у бори десятка а какая не помню", "у бори десятка, а масть не знаю", "у бори десятка какой масти "
                 "не помню", "у бори десятка, какой масти не заметил"):
        r = read(said)
        assert hands(r)["Борис"] == ["10"] and r.exact, said  # a ten: any suit, the same points
    r = parse("кира вышла на десятке, а масть не помню, у ани туз у бори король у светы девятка", TABLE, IGRAFAN)
    assert r.finishing is not None and r.finishing.rank.value == "10" and r.exact
    r = read("у бори две десятки, а какие не помню")
    assert hands(r)["Борис"] == ["10", "10"] and r.exact
    r = read("у бори две дамы, а какие не помню")
    assert hands(r)["Борис"] == ["Q?", "Q?"] and not r.exact
    r = read("у бори, какая не помню")  # no card said: the hand is not known
    assert "Борис" not in hands(r) and not r.exact


def test_one_suit_said_first_for_the_cards_after_it() -> None:
    r = read("у бори три карты, все бубны: валет, дама и король")
    assert hands(r)["Борис"] == ["J♦", "K♦", "Q♦"] and r.exact
    r = read("у бори две карты обе трефовые туз и десятка")
    assert hands(r)["Борис"] == ["10♣", "A♣"] and r.exact
    r = read("у бори обе черви, ну, девятка и десятка")
    assert hands(r)["Борис"] == ["10♥", "9♥"] and r.exact
    r = read("у бори трефовые туз и король")  # a plural suit adjective alone, before the cards
    assert hands(r)["Борис"] == ["A♣", "K♣"] and r.exact
    for said in ("у бори все бубны валет дама пик и король",  # a suit of its own among them
                 "у бори обе черви девятка десятка и валет",  # three cards for «обе»
                 "у бори все бубны валет",  # one card for «все»
                 "у бори все черви туз, король, нет, дама"):  # and the queen?
        r = read(said)
        assert not r.exact, said


def test_two_cards_of_one_rank_said_one_by_one_then_by_colour() -> None:
    r = read("у бори туз и туз, оба красные")
    assert hands(r)["Борис"] == ["A♥", "A♦"] and r.exact
    r = read("у бори дама и дама обе чёрные")
    assert hands(r)["Борис"] == ["Q♠", "Q♣"] and r.exact
    for said in ("у бори король туз и туз оба красные",  # three cards: which two?
                 "у бори туз и король оба красные"):  # two ranks: which suit each?
        r = read(said)
        assert not r.exact, said


def test_a_card_remembered_after_oh() -> None:
    for said in ("аня вышла на тузе пик у бори десятка у светы девятка у киры валет и ой у бори ещё король был",
                 "аня вышла на тузе пик у бори десятка у светы девятка у киры валет, ой, у бори тоже король",
                 "аня вышла на тузе пик у бори десятка у светы девятка у киры валет, ой, у бори же ещё король",
                 "аня вышла на тузе пик у бори десятка у светы девятка у киры валет, ой, забыл, у бори ещё король"):
        r = parse(said, TABLE, IGRAFAN)
        assert hands(r) == {"Борис": ["10", "K"], "Света": ["9"], "Кира": ["J"]} and r.exact, said
    for said in ("аня вышла на тузе пик у бори десятка у светы девятка у киры валет, нет, у бори ещё король",
                 "аня вышла на тузе пик у бори десятка у светы девятка у киры валет, ой, у бори король"):
        r = parse(said, TABLE, IGRAFAN)  # the jack taken back, or one card more? asked
        assert not r.exact, said


def test_the_scribe_asks_the_player() -> None:
    for said in ("у бори одна бубновая какая-то щас спрошу боря что у тебя король говорит значит король бубей",
                 "у бори, ммм, спрошу у бори: король бубей",
                 "у бори какая-то бубновая, боря, что у тебя? король бубей",
                 "у бори не знаю, сейчас спрошу, боря? король бубей"):
        r = read(said)
        assert hands(r)["Борис"] == ["K♦"] and r.exact and r.unrecognised == [], said
    for said in ("у бори туз и какая-то бубновая, спрошу, боря, что у тебя? король бубей",  # the ace as well?
                 "у бори какая-то бубновая, спрошу свету, король бубей",  # another player asked
                 "у бори не помню, боря, ты где? король бубей"):  # not a question about the hand
        r = read(said)
        assert not r.exact, said


def test_hesitations_inside_older_phrasings() -> None:
    r = read("у бори туз червей нет короче туз бубей и девятка")  # a hesitation in the correction, no sum-up
    assert hands(r)["Борис"] == ["9", "A♦"] and r.exact
    r = parse("Кира на, э, короле червей. У Ани туз, у Бори дама пик, у Светы девятка.", TABLE, IGRAFAN)
    assert r.winner == "Кира" and r.finishing is not None and r.finishing.text == "K♥" and r.exact
    for said in ("у бори туз и десятка двадцать э одно", "у бори туз и десятка 21 ага очко"):
        r = read(said)
        assert hands(r)["Борис"] == ["10", "A"] and r.exact and r.unrecognised == [], said
    r = read("у бори туз и десятка двадцать э два")  # 21 points, not 22: asked
    assert not r.exact

