"""Phrasings of a dictated round met in issue 21's fifth round: each mechanism as a sentence → hands, ready."""

from __future__ import annotations

from companion.core.rules import get_ruleset
from companion.language.dictation import parse
from companion.language.settle import ParsedRound

IGRAFAN = get_ruleset("igrafan").defaults
ZAHAR = ["Захар", "Римма", "Ефим"]


def hands(r: ParsedRound) -> dict[str, list[str]]:
    """Each hand as the bench writes it: a card whose suit was assumed is its rank alone."""
    return {p: sorted(s.rank.value if s.assumed else s.text for s in slots) for p, slots in r.hands.items()}


def test_a_count_after_cards_of_its_rank_sums_them_up() -> None:
    for text in ("захар вышел на девятке пик у риммы туз и туз ну два туза у ефима король",
                 "захар вышел на девятке пик у риммы туз, туз, короче два туза, у ефима король"):
        r = parse(text, ZAHAR, IGRAFAN)
        assert hands(r) == {"Римма": ["A", "A"], "Ефим": ["K"]} and r.exact, text


def test_a_count_that_does_not_sum_up_the_cards_is_asked() -> None:
    r = parse("захар вышел на девятке пик у риммы туз ну три туза у ефима король", ZAHAR, IGRAFAN)
    assert "Римма" not in r.hands and not r.exact


def test_a_count_after_more_adds_to_the_cards() -> None:
    r = parse("захар вышел на девятке пик у риммы туз и ещё два туза у ефима король", ZAHAR, IGRAFAN)
    assert hands(r) == {"Римма": ["A", "A", "A"], "Ефим": ["K"]}


def test_a_first_name_two_players_share_is_asked_never_unrecognised() -> None:
    for players, text in ((["Дамир С.", "Марьяна", "Дамир Х."], "марьяна закрыла на девятке треф у дамира туз"),
                          (["Зарина А.", "Тихон", "Зарина Р."], "тиша вышел на десятке бубей у заринки валет")):
        r = parse(text, players, IGRAFAN)
        assert r.hands == {} and r.unrecognised == [] and not r.exact, text


def test_a_first_name_with_an_initial_alone_at_the_table_is_that_player() -> None:
    r = parse("марьяна закрыла на девятке треф у дамира туз", ["Дамир С.", "Марьяна", "Глеб"], IGRAFAN)
    assert hands(r) == {"Дамир С.": ["A"]}


def test_case_forms_of_a_pet_name_in_a_vowel_and_ya() -> None:
    r = parse("ира закрыла на восьмерке треф у фаи валет у кузьмы семерка", ["Ирина", "Фаина", "Кузьма"], IGRAFAN)
    assert hands(r) == {"Фаина": ["J"], "Кузьма": ["7"]} and r.exact


def test_a_pet_name_of_two_players_is_asked() -> None:
    r = parse("ира вышла на тузе бубей у моти король у томы десятка", ["Матвей", "Ирина", "Матрёна", "Тамара"],
              IGRAFAN)
    assert hands(r) == {"Тамара": ["10"]} and not r.exact


def test_cards_drawn_after_a_king_of_spades_are_not_the_hand_size() -> None:
    players = ["Яков", "Фаина", "Эмма"]
    for text in ("яша вышел на короле пик фая взяла пять карт у нее теперь туз туз десятка девятка восьмерка "
                 "семерка у эммы валет",
                 "яша ушел на пиковом короле фае пять карт прилетело теперь у нее туз туз десятка девятка восьмерка "
                 "семерка у эммы валет",
                 "яша вышел на пиковом короле фае пять штрафных у нее теперь туз туз десятка девятка восьмерка "
                 "семерка у эммы валет"):
        r = parse(text, players, IGRAFAN)
        assert hands(r) == {"Фаина": ["10", "7", "8", "9", "A", "A"], "Эмма": ["J"]} and r.exact, text


def test_talk_about_the_penalty_draw_is_nothing() -> None:
    r = parse("егорка вышел на семерке пик демьяну пришлось взять две так что у него два туза бубновый и трефовый "
              "у камилы валет", ["Егор", "Демьян", "Камила"], IGRAFAN)
    assert hands(r) == {"Демьян": ["A♣", "A♦"], "Камила": ["J"]} and r.exact and r.unrecognised == []
    r = parse("ты пишешь да так ребята егор вышел на семерке пик у демьяна туз у камилы валет запиши пожалуйста",
              ["Егор", "Демьян", "Камила"], IGRAFAN)
    assert hands(r) == {"Демьян": ["A"], "Камила": ["J"]} and r.exact and r.unrecognised == []


def test_a_hand_not_remembered_is_not_given() -> None:
    players = ["Платон", "Раиса", "Кузьма"]
    for text in ("платоша вышел на валете пик у раи семерка у кузи ну там вроде туз нет погоди не помню что у него",
                 "платоша вышел на валете пик у кузи не помню что было он уже сбросил у раи семерка"):
        r = parse(text, players, IGRAFAN)
        assert hands(r) == {"Раиса": ["7"]} and not r.exact and r.unrecognised == [], text


def test_a_suit_not_remembered_leaves_the_hand_given() -> None:
    r = parse("фая вышла валетом у глеба десятка пик или треф не помню у эмиля восьмёрка", ["Фаина", "Глеб", "Эмиль"],
              IGRAFAN)
    assert hands(r) == {"Глеб": ["10"], "Эмиль": ["8"]}


def test_the_same_hand_named_again_after_a_correction() -> None:
    r = parse("леся вышла на десятке бубей у захара туз у нонны семерка не погоди у нонны восьмерка а у вени король",
              ["Олеся", "Захар", "Нонна", "Вениамин"], IGRAFAN)
    assert hands(r) == {"Захар": ["A"], "Нонна": ["8"], "Вениамин": ["K"]} and r.exact


TOMA = ["Тамара", "Эмиль", "Ирина", "Демьян", "Прохор"]


def test_a_card_right_after_the_name_played_last_is_the_finishing_card() -> None:
    r = parse("томка даму червей последней кинула и вышла эмилю дама осталась ире туз демьяну валет с десяткой "
              "прохору король", TOMA, IGRAFAN)
    assert (r.winner, r.finishing_card) == ("Тамара", "Q♥")
    assert hands(r) == {"Эмиль": ["Q"], "Ирина": ["A"], "Демьян": ["10", "J"], "Прохор": ["K"]} and r.exact


def test_a_hand_said_with_u_then_played_last_is_not_the_finishing_card() -> None:
    r = parse("у томки дама червей последней кинула и вышла ира у эмиля дама", TOMA, IGRAFAN)
    assert r.finishing_card != "Q♥" and not r.exact


def test_a_card_with_another_after_it_is_one_hand_unless_someone_stayed_with_it() -> None:
    r = parse("тома вышла на даме червей у иры туз валет с десяткой остался прохор", TOMA, IGRAFAN)
    assert hands(r)["Прохор"] == ["10"] and not r.exact


def test_a_card_closed_by_another_then_went_out_lies_on_the_table() -> None:
    r = parse("кузя положил шестерку и закрыл ее десяткой бубей вышел значит у эли дама пик и все у демьяна туз и семь",
              ["Кузьма", "Эльвира", "Демьян"], IGRAFAN)
    assert (r.winner, r.finishing_card) == ("Кузьма", "10♦")
    assert hands(r) == {"Эльвира": ["Q♠"], "Демьян": ["7", "A"]} and r.exact


def test_cards_of_a_rank_said_after_its_count_are_asked() -> None:
    for text in ("тома вышла на даме червей у иры два туза ну туз и туз у эмиля король",
                 "тома вышла на даме червей у иры два туза туз пик и туз червей у эмиля король"):
        r = parse(text, TOMA, IGRAFAN)
        assert "Ирина" not in r.hands and not r.exact, text
    r = parse("тома вышла на даме червей у иры два туза и ещё туз у эмиля король", TOMA, IGRAFAN)
    assert hands(r)["Ирина"] == ["A", "A", "A"]


def test_a_card_played_and_then_went_out_is_the_finishing_card() -> None:
    for text in ("томка даму червей кинула и вышла эмилю дама осталась ире туз",
                 "томка даму червей скинула вышла эмилю дама осталась ире туз"):
        r = parse(text, TOMA, IGRAFAN)
        assert (r.winner, r.finishing_card) == ("Тамара", "Q♥"), text
        assert hands(r) == {"Эмиль": ["Q"], "Ирина": ["A"]}, text


def test_the_same_hand_named_again_after_several_cards_is_asked() -> None:
    r = parse("леся вышла на десятке бубей у нонны семерка и дама нет у нонны восьмерка у захара туз",
              ["Олеся", "Захар", "Нонна"], IGRAFAN)
    assert "Нонна" not in r.hands and not r.exact
