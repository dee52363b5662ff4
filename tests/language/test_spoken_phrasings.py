"""Phrasings of a dictated round met in issue 21's tuning rounds (third to tenth): each mechanism as a
sentence → hands, and whether the round is ready."""

from __future__ import annotations

from companion.core.rules import get_ruleset
from companion.language.dictation import parse
from companion.language.settle import ParsedRound

IGRAFAN = get_ruleset("igrafan").defaults
ZAHAR = ["Захар", "Римма", "Ефим"]
TABLE = ["Борис", "Вера", "Анна"]


def hands(r: ParsedRound) -> dict[str, list[str]]:
    """Each hand as the bench writes it: a card whose suit was assumed is its rank alone."""
    return {p: sorted(s.rank.value if s.assumed else s.text for s in slots) for p, slots in r.hands.items()}


def asked(r: ParsedRound, kind: str) -> list[str]:
    return [q.params.get("name") or q.params.get("word") or "" for q in r.questions if q.kind == kind]


def kinds(r: ParsedRound) -> list[str]:
    return [q.kind for q in r.questions if q.kind != "suit-assumed"]


def test_a_pet_name_the_table_lacks_is_found_by_the_beginning_of_the_players_name() -> None:
    r = parse("гаврюша вышел на короле треф у стеши валет а у робика две семёрки", ["Гавриил", "Стефания", "Роберт"],
              IGRAFAN)
    assert r.winner == "Гавриил" and r.finishing_card == "K♣"
    assert hands(r) == {"Стефания": ["J"], "Роберт": ["7", "7"]}
    assert r.exact


def test_a_pet_name_after_the_first_letters_or_at_the_end_of_the_name() -> None:
    r = parse("аня вышла на тузе пик у доси король у ники дама пик", ["Аня", "Федосья", "Доминика"], IGRAFAN)
    assert hands(r) == {"Федосья": ["K"], "Доминика": ["Q♠"]}
    assert r.exact


def test_a_pet_name_of_another_gender_or_of_someone_else_is_nobody_here() -> None:
    r = parse("никита вышел на девятке бубей у оксаны туз у ники дама пик у санька король у валеры десятка",
              ["Оксана", "Никита", "Валерий"], IGRAFAN)
    assert hands(r) == {"Оксана": ["A"], "Валерий": ["10"]}
    assert asked(r, "unknown-player") == ["ники", "санька"]
    assert not r.exact


def test_a_pet_name_that_fits_two_players_by_its_root_is_asked() -> None:
    r = parse("марина вышла на тузе у дани король у тимы дама пик", ["Марина", "Даниил", "Тимур", "Тимофей"], IGRAFAN)
    assert hands(r) == {"Даниил": ["K"]}
    assert asked(r, "which-player") == ["тимы"] and not r.exact


def test_words_to_the_scribe_and_table_talk_carry_nothing() -> None:
    r = parse("запиши так первой опять вышла вера молодец на валете червей отметь у глеба дама пик и туз ставь ане "
              "десятку у бори накопилось две девятки всё", ["Вера", "Глеб", "Аня", "Борис"], IGRAFAN)
    assert r.winner == "Вера" and r.finishing_card == "J♥"
    assert hands(r) == {"Глеб": ["A", "Q♠"], "Аня": ["10"], "Борис": ["9", "9"]}
    assert r.unrecognised == [] and r.exact
    r = parse("лиза вышла чисто на десятке червей у неё чисто у тихона туз", ["Елизавета", "Тихон"], IGRAFAN)
    assert r.winner == "Елизавета" and hands(r) == {"Тихон": ["A"]} and r.exact


def test_one_after_a_card_says_it_is_the_only_one() -> None:
    r = parse("тимур вышел на десятке треф у зои король пик один а у ларисы семёрка одна", ["Тимур", "Зоя", "Лариса"],
              IGRAFAN)
    assert hands(r) == {"Зоя": ["K♠"], "Лариса": ["7"]} and r.exact


def test_one_more_after_two_cards_is_the_one_left_without_a_suit() -> None:
    r = parse("денис вышел на валете бубей у аллы две семёрки трефовая и ещё одна", ["Денис", "Алла"], IGRAFAN)
    assert hands(r) == {"Алла": ["7", "7♣"]} and r.exact
    r = parse("денис вышел на валете бубей у аллы дама и ещё одна", ["Денис", "Алла"], IGRAFAN)
    assert "одна" in r.unrecognised and not r.exact  # two queens, or a slip? asked


def test_a_dictionary_word_one_letter_off_a_suit_right_after_a_rank_is_that_suit() -> None:
    r = parse("оля вышла на семёрке пир у кости король треф и девятка пек", ["Ольга", "Константин"], IGRAFAN)
    assert r.finishing_card == "7♠" and hands(r) == {"Константин": ["9♠", "K♣"]} and r.exact
    r = parse("оля вышла на семёрке пик у кости пек король", ["Ольга", "Константин"], IGRAFAN)
    assert "пек" in r.unrecognised and not r.exact  # not after a rank: not read


def test_both_gives_a_suit_to_the_two_cards_said_last() -> None:
    r = parse("аня вышла на восьмёрке треф у бори десятка и девятка обе черви у веры туз и десятка обе бубны",
              ["Аня", "Борис", "Вера"], IGRAFAN)
    assert hands(r) == {"Борис": ["10♥", "9♥"], "Вера": ["10♦", "A♦"]} and r.exact
    r = parse("аня вышла на восьмёрке треф у бори десятка пик и девятка обе черви", ["Аня", "Борис"], IGRAFAN)
    assert "обе" in r.unrecognised and not r.exact  # one of the two has a suit already: asked


def test_corrections_said_as_to_est_v_smysle_stop() -> None:
    players = ["Степан", "Лилия", "Арсений"]
    r = parse("стёпа вышел на тузе треф у лили король то есть туз червей у сени десятка в смысле девятка", players,
              IGRAFAN)
    assert hands(r) == {"Лилия": ["A♥"], "Арсений": ["9"]} and r.exact
    r = parse("стёпа вышел на тузе треф у лили дама стоп перепутал валет у сени десятка", players, IGRAFAN)
    assert hands(r) == {"Лилия": ["J"], "Арсений": ["10"]} and r.exact
    r = parse("вышла лиля то есть стёпа на тузе треф у лили валет у сени десятка", players, IGRAFAN)
    assert r.winner == "Степан" and r.exact


def test_more_verbs_say_who_went_out() -> None:
    players = ["Злата", "Марк", "Вадим"]
    r = parse("злата отстрелялась на девятке червей у марка туз у вадика валет пик", players, IGRAFAN)
    assert r.winner == "Злата" and r.finishing_card == "9♥" and r.exact
    r = parse("у златы две восьмёрки у вадима король треф а марк освободился на валете бубей", players, IGRAFAN)
    assert r.winner == "Марк" and r.finishing_card == "J♦" and r.exact


def test_a_suit_adjective_after_each_card() -> None:
    r = parse("аня вышла на тузе треф у бори десятка бубновая десятка червовая", ["Аня", "Борис"], IGRAFAN)
    assert hands(r) == {"Борис": ["10♥", "10♦"]} and r.exact
    r = parse("аня вышла на тузе треф у бори десятка бубновая десятка", ["Аня", "Борис"], IGRAFAN)
    assert asked(r, "which-card") == ["бубновая"] and not r.exact  # still asked when the second has no suit


def test_parochka_counts_two() -> None:
    r = parse("тихон вышел на валете бубей у майи парочка королей", ["Тихон", "Майя"], IGRAFAN)
    assert hands(r) == {"Майя": ["K", "K"]} and r.exact


def test_a_count_after_a_plural_rank_is_its_count() -> None:
    r = parse("аня вышла на тузе пик у бори восьмёрки две и больше ничего у веры тузов два и король",
              ["Аня", "Борис", "Вера"], IGRAFAN)
    assert hands(r) == {"Борис": ["8", "8"], "Вера": ["A", "A", "K"]} and r.exact
    r = parse("аня вышла на тузе пик у бори восьмёрки у веры король", ["Аня", "Борис", "Вера"], IGRAFAN)
    assert asked(r, "how-many") == ["восьмёрки"] and not r.exact  # plural and no number: how many?


def test_a_correction_then_a_name_then_ne_moves_nothing() -> None:
    r = parse("катя вышла на даме пик у бори туз король у димы семёрка и восьмёрка ой нет у бори не король а девятка",
              ["Борис", "Екатерина", "Дмитрий"], IGRAFAN)
    assert hands(r) == {"Борис": ["9", "A"], "Дмитрий": ["7", "8"]} and r.exact


def test_lower_case_v_and_k_among_cards_are_rank_letters() -> None:
    r = parse("аня вышла на 10п у бори т к у веры 7 в", ["Аня", "Борис", "Вера"], IGRAFAN)
    assert hands(r) == {"Борис": ["A", "K"], "Вера": ["7", "J"]} and r.exact
    r = parse("аня вышла в итоге на 10п у бори туз к тому же король", ["Аня", "Борис"], IGRAFAN)
    assert all(s.word != "к" for s in r.live())  # «к тому же», «в итоге»: prepositions, no card


def test_no_only_after_several_cards_takes_the_whole_hand_back() -> None:
    players = ["Аня", "Вера", "Борис"]
    r = parse("аня вышла на тузе пик у веры валет и десятка нет только дама пик у бори король", players, IGRAFAN)
    assert hands(r) == {"Вера": ["Q♠"], "Борис": ["K"]} and r.exact
    r = parse("аня вышла на тузе пик у веры валет и десятка нет только десятка у бори король", players, IGRAFAN)
    assert hands(r) == {"Вера": ["10"], "Борис": ["K"]} and r.exact


def test_desyatka_before_net_is_no_genitive_of_the_card() -> None:
    # «десятка» is a genitive of «десяток», not of the card: «десятка, нет, …» is a correction, not «no ten»
    r = parse("аня вышла на тузе пик у веры валет и десятка нет девятка у бори король", ["Аня", "Вера", "Борис"],
              IGRAFAN)
    assert hands(r) == {"Вера": ["9", "J"], "Борис": ["K"]} and r.exact


def test_a_possessive_of_a_name_is_that_player() -> None:
    r = parse("катя вышла на даме пик борины карты туз и король димины семёрка и восьмёрка",
              ["Борис", "Екатерина", "Дмитрий"], IGRAFAN)
    assert hands(r) == {"Борис": ["A", "K"], "Дмитрий": ["7", "8"]} and r.exact
    r = parse("петя вышел на валете треф анины две девятки а глебовы король пик", ["Анна", "Пётр", "Глеб"], IGRAFAN)
    assert hands(r) == {"Анна": ["9", "9"], "Глеб": ["K♠"]} and r.exact
    r = parse("маша вышла на валете треф у глеба машина дама", ["Мария", "Глеб"], IGRAFAN)
    assert "машина" in r.unrecognised and not r.exact  # a dictionary word: not Маша's


def test_a_digit_with_a_word_ending_is_a_rank() -> None:
    r = parse("лука закрылся 9кой треф у майи две 6ки у ефима 10ка и 8-ка", ["Лука", "Майя", "Ефим"], IGRAFAN)
    assert r.finishing_card == "9♣" and hands(r) == {"Майя": ["6", "6"], "Ефим": ["10", "8"]} and r.exact
    r = parse("лука вышел на 9ке треф у майи 6ки", ["Лука", "Майя"], IGRAFAN)
    assert asked(r, "how-many") == ["6ки"] and not r.exact  # plural and no number


def test_a_plural_rank_has_as_many_cards_as_suits_listed_after_it() -> None:
    r = parse("аня вышла на десятке пик у бори короли пик и треф у веры тузы пиковый и червовый",
              ["Аня", "Борис", "Вера"], IGRAFAN)
    assert hands(r) == {"Борис": ["K♠", "K♣"], "Вера": ["A♠", "A♥"]} and r.exact
    r = parse("аня вышла на десятке пик у бори короли треф", ["Аня", "Борис"], IGRAFAN)
    assert asked(r, "how-many") == ["короли"] and not r.exact  # one suit: how many is still open


def test_collective_numerals_count() -> None:
    r = parse("прохор вышел на даме треф у раи двое королей у платона трое валетов", ["Прохор", "Раиса", "Платон"],
              IGRAFAN)
    assert hands(r) == {"Раиса": ["K", "K"], "Платон": ["J", "J", "J"]} and r.exact


def test_a_card_said_twice_with_its_suit_is_one_card() -> None:
    r = parse("катя вышла на даме пик на даме пик у бори туз у димы семёрка", ["Екатерина", "Борис", "Дмитрий"],
              IGRAFAN)
    assert r.finishing_card == "Q♠" and hands(r) == {"Борис": ["A"], "Дмитрий": ["7"]} and r.exact
    r = parse("аня вышла на тузе треф у бори король червей и ещё король червей", ["Аня", "Борис"], IGRAFAN)
    assert any(q.kind == "twice" for q in r.questions) and not r.exact  # «и ещё»: said as another card


def test_a_card_played_then_went_out_is_the_finishing_card() -> None:
    players = ["Аня", "Борис", "Вера"]
    r = parse("у ани две девятки у веры король боря положил последнюю семёрку треф и вышел", players, IGRAFAN)
    assert r.winner == "Борис" and r.finishing_card == "7♣" and hands(r) == {"Аня": ["9", "9"], "Вера": ["K"]}
    assert r.exact
    r = parse("вера вышла на тузе у ани король у бори туз пик он скинул даму", players, IGRAFAN)
    assert "скинул" in r.unrecognised and not r.exact  # played, but not the last card: asked


def test_more_ways_to_say_the_round_and_the_finishing_card() -> None:
    players = ["Аня", "Борис", "Вера"]
    r = parse("кон выиграла вера на валете бубей у ани туз у бори король", players, IGRAFAN)
    assert r.winner == "Вера" and r.finishing_card == "J♦" and r.exact
    r = parse("вера ушла с дамы пик у ани туз у бори две восьмёрки", players, IGRAFAN)
    assert r.winner == "Вера" and r.finishing_card == "Q♠" and r.exact


def test_ne_before_a_suit_takes_the_suit_back() -> None:
    r = parse("поля вышла на семёрке треф не треф а бубей у германа туз у тамары десятка",
              ["Полина", "Герман", "Тамара"], IGRAFAN)
    assert r.finishing_card == "7♦" and r.exact
    r = parse("аня вышла на тузе пик у бори дама пик нет не пик а червей", ["Аня", "Борис"], IGRAFAN)
    assert hands(r) == {"Борис": ["Q♥"]} and r.exact


def test_a_name_of_another_gender_is_no_case_form_of_a_players_pet_name() -> None:
    # «Киры» is Кира's genitive, not a form of Киря (Кирилл)
    r = parse("аня вышла на тузе пик у бори король у киры дама пик", ["Анна", "Борис", "Кирилл"], IGRAFAN)
    assert asked(r, "unknown-player") == ["киры"] and "Кирилл" not in r.hands and not r.exact


def test_the_one_who_dictates_is_asked_about() -> None:
    players = ["Аня", "Борис", "Вера"]
    r = parse("аня вышла на тузе пик у бори король у веры дама пик у меня семёрка", players, IGRAFAN)
    assert hands(r) == {"Борис": ["K"], "Вера": ["Q♠"]} and asked(r, "unknown-player") == ["меня"]
    assert not r.exact  # the seven is the speaker's: which player is that?
    r = parse("аня вышла на тузе пик у бори король у веры дама пик а я ошиблась у веры дама треф", players, IGRAFAN)
    assert hands(r) == {"Борис": ["K"], "Вера": ["Q♣"]} and r.exact


def test_po_gives_the_cards_to_each_name_said_together() -> None:
    players = ["Аня", "Борис", "Вера", "Глеб"]
    r = parse("аня вышла на тузе пик у бори и у веры по семёрке а у глеба туз", players, IGRAFAN)
    assert hands(r) == {"Борис": ["7"], "Вера": ["7"], "Глеб": ["A"]} and r.exact
    r = parse("аня вышла на тузе пик у бори веры и глеба по две девятки", players, IGRAFAN)
    assert any(q.kind == "too-many" for q in r.questions) and not r.exact  # six nines: the deck has four
    r = parse("аня вышла на тузе пик у бори и у веры туз и король у глеба дама", players, IGRAFAN)
    assert asked(r, "which-player") == ["Борис и Вера"]  # one question for the ace and the king
    assert "Борис" not in r.hands and "Вера" not in r.hands and not r.exact


def test_a_card_word_without_its_soft_sign_and_one_letter_off() -> None:
    r = parse("аня вышла на девятке пик у бори карол и тус у веры корол пик", ["Аня", "Борис", "Вера"], IGRAFAN)
    assert hands(r) == {"Борис": ["A", "K"], "Вера": ["K♠"]} and r.exact


def test_shtuki_count_cards_like_karty() -> None:
    players = ["Аня", "Борис", "Вера"]
    r = parse("аня вышла на даме пик у бори три штуки туз король и семёрка у веры король хотя нет валет", players,
              IGRAFAN)
    assert hands(r) == {"Борис": ["7", "A", "K"], "Вера": ["J"]} and r.exact
    r = parse("аня вышла на даме пик у бори две штуки туз у веры валет", players, IGRAFAN)
    assert any(q.kind == "hand-size" for q in r.questions) and not r.exact  # two said, one named
    r = parse("аня вышла на даме пик у бори семёрок три штуки у веры валет", players, IGRAFAN)
    assert hands(r) == {"Борис": ["7", "7", "7"], "Вера": ["J"]} and r.exact


def test_hesitations_do_not_split_what_belongs_together() -> None:
    players = ["Аня", "Борис", "Вера"]
    r = parse("аня вышла на тузе пик у веры валет и десятка нет короче только дама пик у бори король", players, IGRAFAN)
    assert hands(r) == {"Вера": ["Q♠"], "Борис": ["K"]} and r.exact
    r = parse("вера вышла на девятке червей у ани туз не два э туза у бори дама пик", players, IGRAFAN)
    assert hands(r) == {"Аня": ["A", "A"], "Борис": ["Q♠"]} and r.exact
    r = parse("аня вышла на даме на ну даме червей у бори туз у веры семёрка", players, IGRAFAN)
    assert r.finishing_card == "Q♥" and hands(r) == {"Борис": ["A"], "Вера": ["7"]} and r.exact


def test_a_lower_case_v_before_another_word_is_asked() -> None:
    r = parse("аня вышла на 10п у бори туз у веры 7 в это", ["Аня", "Борис", "Вера"], IGRAFAN)
    assert "в" in r.unrecognised and not r.exact  # a jack, or «в это …»? not guessed


def test_a_card_word_said_twice_in_a_row_then_a_suit_is_asked() -> None:
    r = parse("у бориса король король пик у веры туз аня вышла на семерке бубен", ["Аня", "Борис", "Вера"], IGRAFAN)
    assert any(q.kind == "unclear-correction" for q in r.questions) and not r.exact  # one king of spades, or two?


def test_only_after_a_hesitation_still_sums_the_hand_up() -> None:
    r = parse("аня вышла на шестерке пик у бори туз, король, а нет, короля нет, только значит туз у веры семерка",
              ["Аня", "Борис", "Вера"], IGRAFAN)
    assert hands(r) == {"Борис": ["A"], "Вера": ["7"]} and r.exact


def test_the_same_words_said_again_without_a_suit_are_one_card() -> None:
    r = parse("аня вышла на семёрке ну на семёрке у бори туз у веры король", ["Аня", "Борис", "Вера"], IGRAFAN)
    assert r.finishing is not None and r.finishing.rank.value == "7" and r.finishing.assumed
    assert hands(r) == {"Борис": ["A"], "Вера": ["K"]} and r.exact
    r = parse("аня вышла на тузе пик у бори семёрка семёрка у веры король", ["Аня", "Борис", "Вера"], IGRAFAN)
    assert hands(r) == {"Борис": ["7", "7"], "Вера": ["K"]} and r.exact  # a list: two sevens


def test_each_card_of_a_group_by_its_place() -> None:
    r = parse("аня вышла на тузе пик у бори две семёрки одна пиковая другая трефовая у веры две дамы первая бубновая "
              "вторая червовая", ["Аня", "Борис", "Вера"], IGRAFAN)
    assert hands(r) == {"Борис": ["7♠", "7♣"], "Вера": ["Q♥", "Q♦"]} and r.exact


# -- issue 21's fourth round ---------------------------------------------------


def test_a_card_played_as_the_last_one_is_the_finishing_card() -> None:
    for text in ("фёдор последней картой кинул туза бубей у оли король у глеба семерка",
                 "последней сбросил фёдор туза бубей у оли король у глеба семерка",
                 "фёдор выложил последнюю карту туза бубей у оли король у глеба семерка"):
        r = parse(text, ["Фёдор", "Ольга", "Глеб"], IGRAFAN)
        assert (r.winner, r.finishing_card) == ("Фёдор", "A♦"), text
        assert hands(r) == {"Ольга": ["K"], "Глеб": ["7"]} and r.exact, text


def test_a_card_played_and_not_said_to_be_last_is_still_asked() -> None:
    r = parse("у оли король, фёдор кинул туза бубей", ["Фёдор", "Ольга", "Глеб"], IGRAFAN)
    assert r.winner is None and not r.exact


def test_a_six_covered_then_went_out_lies_on_the_table() -> None:
    r = parse("глеб положил шестерку червей и покрыл королем червей вышел у оли туз у феди дама пик",
              ["Фёдор", "Ольга", "Глеб"], IGRAFAN)
    assert (r.winner, r.finishing_card) == ("Глеб", "K♥")
    assert hands(r) == {"Ольга": ["A"], "Фёдор": ["Q♠"]} and r.exact


def test_pogodi_and_podozhdi_correct_the_card_just_said() -> None:
    r = parse("оля вышла на тузе пик у глеба восьмерка подожди десятка у фёдора валет", ["Фёдор", "Ольга", "Глеб"],
              IGRAFAN)
    assert hands(r) == {"Глеб": ["10"], "Фёдор": ["J"]} and r.exact
    r = parse("оля вышла на тузе пик у глеба валет пик погоди валет червей у фёдора семерка",
              ["Фёдор", "Ольга", "Глеб"], IGRAFAN)
    assert hands(r) == {"Глеб": ["J♥"], "Фёдор": ["7"]} and r.exact


def test_a_negation_with_nothing_in_its_place_after_several_cards_leaves_the_hand_out() -> None:
    r = parse("оля вышла на тузе пик у глеба король дама и девятка нет не дама у фёдора валет",
              ["Фёдор", "Ольга", "Глеб"], IGRAFAN)
    assert hands(r) == {"Фёдор": ["J"]}
    assert "unclear-correction" in kinds(r) and not r.exact
    # after one card it is clear: the king is taken back, and the name said again gives the jack
    r = parse("оля вышла на тузе пик у глеба король нет не король у глеба валет у фёдора семерка",
              ["Фёдор", "Ольга", "Глеб"], IGRAFAN)
    assert hands(r) == {"Глеб": ["J"], "Фёдор": ["7"]} and r.exact


def test_a_correction_that_says_nothing_after_several_cards_leaves_the_hand_out() -> None:
    r = parse("оля вышла на тузе пик у глеба король и дама нет не так у фёдора валет", ["Фёдор", "Ольга", "Глеб"],
              IGRAFAN)
    assert hands(r) == {"Фёдор": ["J"]} and not r.exact


def test_cards_moved_to_a_name_then_another_name_leave_the_first_hand_out() -> None:
    r = parse("оля вышла на тузе пик у глеба король и валет нет у фёдора у ани дама",
              ["Фёдор", "Ольга", "Глеб", "Аня"], IGRAFAN)
    assert "Глеб" not in r.hands and not r.exact


def test_a_card_moved_by_a_correction_and_said_again_stays_with_the_new_name() -> None:
    r = parse("оля вышла на тузе пик у глеба король нет у ани король а у глеба девятка у фёдора валет",
              ["Фёдор", "Ольга", "Глеб", "Аня"], IGRAFAN)
    assert hands(r) == {"Аня": ["K"], "Глеб": ["9"], "Фёдор": ["J"]} and r.exact


def test_a_word_of_nobody_before_cards_takes_them_into_the_question() -> None:
    r = parse("оля вышла на тузе пик у глеба дама и девятка палычу король", ["Фёдор", "Ольга", "Глеб"], IGRAFAN)
    assert hands(r) == {"Глеб": ["9", "Q"]} or hands(r) == {"Глеб": ["9", "Q?"]}
    assert "палычу" in r.unrecognised and not r.exact
    r = parse("оля вышла на тузе пик у глеба девятка а кузьмич с тузом остался", ["Фёдор", "Ольга", "Глеб"], IGRAFAN)
    assert hands(r) == {"Глеб": ["9"]} and "кузьмич" in r.unrecognised and not r.exact


def test_a_suit_word_one_letter_off_where_a_suit_is_awaited() -> None:
    r = parse("оля вышла на даме трев у глеба туз у феди девятка бубэй", ["Фёдор", "Ольга", "Глеб"], IGRAFAN)
    assert hands(r) == {"Глеб": ["A"], "Фёдор": ["9♦"]}
    assert r.finishing_card == "Q♣" and r.exact


def test_a_count_in_a_correction_counts_every_card_of_its_rank() -> None:
    r = parse("оля вышла на тузе пик у глеба король и король ой один король и семерка у феди валет",
              ["Фёдор", "Ольга", "Глеб"], IGRAFAN)
    assert hands(r) == {"Глеб": ["7", "K"], "Фёдор": ["J"]} and r.exact


def test_a_diminutive_of_a_pet_name_two_players_share_is_asked() -> None:
    r = parse("нина вышла на тузе пик у славика король", ["Нина", "Вячеслав", "Ярослав"], IGRAFAN)
    assert r.hands == {} and "which-player" in kinds(r) and not r.exact
    r = parse("нина вышла на тузе пик у славика король у олега туз", ["Нина", "Вячеслав", "Олег"], IGRAFAN)
    assert hands(r) == {"Вячеслав": ["K"], "Олег": ["A"]} and r.exact


def test_vse_and_a_suit_give_it_to_every_card_of_the_hand() -> None:
    r = parse("оля вышла на семерке бубей у глеба валет десятка и девятка все черви у феди туз",
              ["Фёдор", "Ольга", "Глеб"], IGRAFAN)
    assert hands(r) == {"Глеб": ["10♥", "9♥", "J♥"], "Фёдор": ["A"]} and r.exact


def test_hands_mixed_up_are_asked_and_none_is_given() -> None:
    r = parse("оля вышла на семерке бубей у глеба туз у феди король ой спутал у феди туз у глеба король",
              ["Фёдор", "Ольга", "Глеб"], IGRAFAN)
    assert r.hands == {} and "unclear-correction" in kinds(r) and not r.exact


def test_a_second_winner_after_a_correction_is_asked() -> None:
    for text in ("оля вышла на семерке бубей у глеба туз у феди король ой вышел федя",
                 "оля вышла на семерке бубей у глеба туз у феди король нет не оля вышла а федя"):
        r = parse(text, ["Фёдор", "Ольга", "Глеб"], IGRAFAN)
        assert hands(r) == {"Глеб": ["A"]} and not r.exact, text


def test_a_name_said_last_after_cards_with_nothing_after_it_is_asked() -> None:
    r = parse("оля вышла на семерке бубей у глеба туз у феди король и дама пик у глеба", ["Фёдор", "Ольга", "Глеб"],
              IGRAFAN)
    assert hands(r) == {"Глеб": ["A"]} and not r.exact


def test_a_rank_said_three_times_is_three_cards() -> None:
    r = parse("оля вышла на тузе бубей у глеба семерка семерка семерка у феди валет", ["Фёдор", "Ольга", "Глеб"],
              IGRAFAN)
    assert hands(r) == {"Глеб": ["7", "7", "7"], "Фёдор": ["J"]} and r.exact


def test_v_before_a_suit_governed_is_a_preposition_not_a_jack() -> None:
    r = parse("оля вышла на тузе бубей у глеба король в пиках у феди дама в червях", ["Фёдор", "Ольга", "Глеб"],
              IGRAFAN)
    assert hands(r) == {"Глеб": ["K♠"], "Фёдор": ["Q♥"]} and r.exact


def test_one_more_card_not_named_is_asked() -> None:
    r = parse("оля вышла на тузе бубей у глеба король у феди дама пик и еще одна карта", ["Фёдор", "Ольга", "Глеб"],
              IGRAFAN)
    assert hands(r) == {"Глеб": ["K"], "Фёдор": ["Q♠"]} and not r.exact


def test_a_hand_said_again_later_without_esche_is_asked() -> None:
    r = parse("оля вышла на тузе бубей у глеба король у феди дама пик у глеба король", ["Фёдор", "Ольга", "Глеб"],
              IGRAFAN)
    assert "unclear-correction" in kinds(r) and not r.exact
    r = parse("оля вышла на тузе бубей у глеба король у феди дама пик и у глеба еще король",
              ["Фёдор", "Ольга", "Глеб"], IGRAFAN)
    assert hands(r) == {"Глеб": ["K", "K"], "Фёдор": ["Q♠"]} and r.exact


def test_the_finishing_card_said_after_the_hands() -> None:
    r = parse("оля вышла у глеба король у феди дама пик на семерке бубей", ["Фёдор", "Ольга", "Глеб"], IGRAFAN)
    assert (r.winner, r.finishing_card) == ("Ольга", "7♦")
    assert hands(r) == {"Глеб": ["K"], "Фёдор": ["Q♠"]} and r.exact


def test_a_number_before_a_rank_in_the_nominative_counts_the_hand() -> None:
    r = parse("оля вышла на тузе бубей у глеба две десятка и девятка у феди три король дама валет",
              ["Фёдор", "Ольга", "Глеб"], IGRAFAN)
    assert hands(r) == {"Глеб": ["10", "9"], "Фёдор": ["J", "K", "Q"]} and r.exact
    r = parse("оля вышла на тузе бубей у глеба две десятка у феди валет", ["Фёдор", "Ольга", "Глеб"], IGRAFAN)
    assert "hand-size" in kinds(r) and not r.exact


def test_obe_after_the_suit_gives_it_to_both_cards() -> None:
    r = parse("оля вышла на тузе бубей у глеба девятка и десятка пик обе у феди валет", ["Фёдор", "Ольга", "Глеб"],
              IGRAFAN)
    assert hands(r) == {"Глеб": ["10♠", "9♠"], "Фёдор": ["J"]} and r.exact


def test_english_last_card_played_and_no_wait() -> None:
    r = parse("Anna played her last card, the seven of spades. Boris ace king, Vera queen of clubs",
              ["Anna", "Boris", "Vera"], IGRAFAN)
    assert (r.winner, r.finishing_card) == ("Anna", "7♠")
    assert hands(r) == {"Boris": ["A", "K"], "Vera": ["Q♣"]} and r.exact
    r = parse("Anna went out on the seven of spades, Boris has an ace, no wait, a king, Vera has a ten",
              ["Anna", "Boris", "Vera"], IGRAFAN)
    assert hands(r) == {"Boris": ["K"], "Vera": ["10"]} and r.exact


# -- issue 21's fifth round ----------------------------------------------------


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


# -- issue 21's sixth round ----------------------------------------------------


def test_a_pet_name_of_a_pet_name_in_any_case_is_its_player() -> None:
    players = ["Вадим", "Ирина", "Фёдор", "Олег", "Эдуард"]
    text = ("эдичка вышел на даме бубей у вадички туз у иришки семерка у федюни король пик "
            "у олежика шестерка")
    r = parse(text, players, IGRAFAN)
    assert r.winner == "Эдуард" and r.unrecognised == []
    assert hands(r) == {"Вадим": ["A"], "Ирина": ["7"], "Фёдор": ["K♠"], "Олег": ["6"]} and r.exact


def test_savva_is_savely_and_lina_alina_when_alone_at_the_table() -> None:
    r = parse("тимур вышел на тузе пик у линочки король у саввы две девятки", ["Алина", "Тимур", "Савелий"],
              IGRAFAN)
    assert hands(r) == {"Алина": ["K"], "Савелий": ["9", "9"]} and r.exact


def test_a_pet_name_two_players_share_is_asked_never_given_to_one() -> None:
    for players, text in ((["Алина", "Денис", "Ангелина"],
                           "денис вышел на валете червей у лины король у линочки туз"),
                          (["Эльвира", "Зоя", "Элеонора"],
                           "зоя вышла на даме пик у эли король и туз у элечки девятка")):
        r = parse(text, players, IGRAFAN)
        assert r.hands == {} and r.unrecognised == [] and not r.exact, text


def test_a_card_played_then_said_last_is_the_finishing_card() -> None:
    r = parse("регина выложила короля пик последним у фимы туз у левы дама и семерка", ["Регина", "Ефим", "Лев"],
              IGRAFAN)
    assert r.winner == "Регина" and r.finishing_card == "K♠"
    assert hands(r) == {"Ефим": ["A"], "Лев": ["7", "Q"]} and r.exact


def test_a_card_played_without_last_is_not_a_win() -> None:
    r = parse("регина выложила короля пик у фимы туз у левы дама", ["Регина", "Ефим", "Лев"], IGRAFAN)
    assert r.winner is None and not r.exact


def test_chatter_words_carry_nothing() -> None:
    r = parse("прикинь женя вышла на даме треф у кости туз пик а у златки целых три валета",
              ["Евгения", "Константин", "Злата"], IGRAFAN)
    assert r.unrecognised == [] and hands(r) == {"Константин": ["A♠"], "Злата": ["J", "J", "J"]} and r.exact


def test_a_count_word_before_a_digit_counts_that_rank() -> None:
    r = parse("вадим вышел на 8 червей у арины две 9 у егора три 10 и туз", ["Вадим", "Арина", "Егор"], IGRAFAN)
    assert hands(r) == {"Арина": ["9", "9"], "Егор": ["10", "10", "10", "A"]} and r.unrecognised == []


def test_a_hand_not_remembered_with_guesses_is_asked_and_the_guesses_go_nowhere() -> None:
    players = ["Ева", "Никита", "Лариса", "Эмиль"]
    for text in ("эмиль вышел на тузе червей у евы десятка у ларисы не помню то ли две карты то ли три",
                 "эмиль вышел на тузе червей у евы десятка у ларисы не помню то ли туз то ли король у никиты валет"):
        r = parse(text, players, IGRAFAN)
        assert "Лариса" not in r.hands and r.unrecognised == [] and not r.exact, text
        assert hands(r)["Ева"] == ["10"]


# -- issue 21's seventh round --------------------------------------------------


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


# -- issue 21's eighth round ---------------------------------------------------


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


# -- issue 21's ninth round ----------------------------------------------------

LIZA = ["Лиза", "Артём", "Кирилл"]


def test_a_hand_size_said_in_any_case_of_the_card_noun_is_checked() -> None:
    r = parse("лиза вышла на десятке треф кирилл с двумя картами туз и валет у артема король пик", LIZA, IGRAFAN)
    assert r.unrecognised == [] and hands(r) == {"Кирилл": ["A", "J"], "Артём": ["K♠"]} and r.exact
    r = parse("лиза вышла на десятке треф кирилл с тремя картами туз и валет у артема король пик", LIZA, IGRAFAN)
    assert kinds(r) == ["hand-size"] and not r.exact


def test_a_number_after_vsego_is_the_hand_size_unless_a_plural_rank_follows() -> None:
    r = parse("артем вышел на девятке пик у кирилла всего шесть туз король десятка девятка восьмерка и шестерка "
              "у лизы валет", LIZA, IGRAFAN)
    assert hands(r) == {"Кирилл": ["10", "6", "8", "9", "A", "K"], "Лиза": ["J"]} and r.exact
    r = parse("артем вышел на девятке пик у кирилла всего два туза у лизы король", LIZA, IGRAFAN)
    assert hands(r) == {"Кирилл": ["A", "A"], "Лиза": ["K"]} and r.exact


def test_a_number_to_a_name_in_the_dative_is_a_penalty_draw() -> None:
    table = ["Игорь", "Светлана", "Роман"]
    r = parse("игорь вышел на семерке пик свете две пришлось тянуть у нее теперь король валет и восьмерка у ромы туз",
              table, IGRAFAN)
    assert r.unrecognised == [] and hands(r) == {"Светлана": ["8", "J", "K"], "Роман": ["A"]} and r.exact
    r = parse("светка вышла на семерке треф роме две карты у него теперь девятка девятка и дама пик у игоря туз",
              table, IGRAFAN)
    assert hands(r) == {"Роман": ["9", "9", "Q♠"], "Игорь": ["A"]} and r.exact
    # a rank after the number: the hand, not a draw
    r = parse("игорь вышел на семерке пик свете две девятки у ромы туз", table, IGRAFAN)
    assert hands(r) == {"Светлана": ["9", "9"], "Роман": ["A"]} and r.exact


def test_a_draw_and_then_the_hand_size_after_vsego() -> None:
    r = parse("игорь вышел на короле пик вите пять карт в руку у него всего шесть туз король десятка девятка восьмерка "
              "и шестерка рома с валетом", ["Игорь", "Виктор", "Роман"], IGRAFAN)
    assert r.unrecognised == [] and r.exact
    assert hands(r) == {"Виктор": ["10", "6", "8", "9", "A", "K"], "Роман": ["J"]}


def test_a_hand_holding_fewer_cards_than_it_drew_is_asked() -> None:
    r = parse("игорь вышел на семерке пик свете две у нее король у ромы туз", ["Игорь", "Светлана", "Роман"], IGRAFAN)
    assert hands(r) == {"Светлана": ["K"], "Роман": ["A"]} and kinds(r) == ["hand-size"] and not r.exact


def test_a_full_name_the_table_lacks_takes_the_pet_names_of_its_shorter_kin() -> None:
    r = parse("степан вышел на даме пик у юли туз у паши король", ["Юлиана", "Степан", "Юлия", "Павел"], IGRAFAN)
    assert hands(r) == {"Павел": ["K"]} and asked(r, "which-player") == ["юли"] and not r.exact
    r = parse("степан вышел на даме пик у юльки туз у паши король", ["Юлиана", "Степан", "Павел"], IGRAFAN)
    assert hands(r) == {"Юлиана": ["A"], "Павел": ["K"]} and r.exact


SVETA = ["Игорь", "Светлана", "Роман"]


def test_penalty_draws_said_in_more_ways_are_not_cards_held() -> None:
    for text in ("игорь вышел на семерке пик свете досталось две у нее король валет и девятка у ромы туз",
                 "игорь вышел на семерке пик света взяла из колоды две у нее король валет и девятка у ромы туз",
                 "игорь вышел на семерке пик свете штрафные две у нее король валет и девятка у ромы туз"):
        r = parse(text, SVETA, IGRAFAN)
        assert r.unrecognised == [] and hands(r) == {"Светлана": ["9", "J", "K"], "Роман": ["A"]} and r.exact, text


def test_the_card_after_za_made_them_draw_and_is_not_held() -> None:
    r = parse("игорь вышел на семерке треф света за семерку две взяла у нее туз король и валет у ромы десятка",
              SVETA, IGRAFAN)
    assert hands(r) == {"Светлана": ["A", "J", "K"], "Роман": ["10"]} and r.exact


def test_drawn_cards_left_unnamed_are_asked() -> None:
    r = parse("игорь вышел на семерке пик у светы две штрафные и король у ромы туз", SVETA, IGRAFAN)
    assert hands(r) == {"Светлана": ["K"], "Роман": ["A"]} and kinds(r) == ["hand-size"] and not r.exact


def test_a_number_of_cards_to_a_dative_name_then_its_cards_is_the_hand_size() -> None:
    r = parse("игорь вышел на семерке пик роме две карты король валет и туз у светы девятка", SVETA, IGRAFAN)
    assert hands(r) == {"Роман": ["A", "J", "K"], "Светлана": ["9"]} and kinds(r) == ["hand-size"] and not r.exact


def test_a_kin_pet_name_is_the_players_alone_and_asked_when_two_fit() -> None:
    r = parse("кирилл вышел на десятке червей у богдаши туз у олега король", ["Богдана", "Кирилл", "Олег"], IGRAFAN)
    assert hands(r) == {"Богдана": ["A"], "Олег": ["K"]} and r.exact
    r = parse("олег вышел на девятке пик у дашки туз у дарины король", ["Дарья", "Олег", "Дарина"], IGRAFAN)
    assert hands(r) == {"Дарина": ["K"]} and asked(r, "which-player") == ["дашки"] and not r.exact


def test_a_form_of_two_players_own_names_is_told_apart_by_the_genitive_after_u() -> None:
    r = parse("игорь вышел на тузе бубей у станиславы дама пик у станислава король",
              ["Станислав", "Станислава", "Игорь"], IGRAFAN)
    assert hands(r) == {"Станислава": ["Q♠"], "Станислав": ["K"]} and r.exact


def test_remarks_and_table_talk_carry_nothing() -> None:
    for text in ("вера вышла ого на даме пик у бори как обычно туз и король у ани ха валет",
                 "вера красиво вышла на даме пик у бори кошмар туз и король у ани конечно валет",
                 "так поехали вера вышла на даме пик у бори секунду туз и король у ани кстати валет"):
        r = parse(text, TABLE, IGRAFAN)
        assert r.winner == "Вера" and r.unrecognised == [] and r.exact, text
        assert hands(r) == {"Борис": ["A", "K"], "Анна": ["J"]}, text


def test_an_interjection_that_may_take_a_card_back_or_a_hedge_is_never_a_remark() -> None:
    r = parse("вера вышла на девятке пик у бори туз тьфу король у ани валет", TABLE, IGRAFAN)
    assert hands(r) == {"Борис": ["K"], "Анна": ["J"]} and r.exact
    for text in ("вера вышла на девятке пик у бори туз ах король у ани валет",
                 "вера вышла на девятке пик у бори туз у ани наверное валет"):
        assert not parse(text, TABLE, IGRAFAN).exact, text


def test_naoborot_takes_back_who_had_what() -> None:
    r = parse("вера вышла на даме пик у бори туз у ани король ой наоборот", TABLE, IGRAFAN)
    assert hands(r) == {} and not r.exact


def test_starting_over_voids_what_was_said_before() -> None:
    r = parse("вера вышла на даме пик у бори туз ой нет давай заново вера вышла на даме червей у бори король у ани "
              "валет", TABLE, IGRAFAN)
    assert r.finishing_card == "Q♥" and hands(r) == {"Борис": ["K"], "Анна": ["J"]} and r.exact
    r = parse("у бори туз у ани король стоп по новой аня вышла на девятке треф у бори туз и король у веры валет",
              TABLE, IGRAFAN)
    assert r.winner == "Анна" and hands(r) == {"Борис": ["A", "K"], "Вера": ["J"]} and r.exact


def test_the_one_card_said_with_last_before_went_out_is_the_finishing_card() -> None:
    r = parse("последней у веры была дама пик она вышла у бори туз у ани валет", TABLE, IGRAFAN)
    assert r.winner == "Вера" and r.finishing_card == "Q♠" and r.exact
    # a name after the win verb is who went out: the last card said before it is a hand's
    r = parse("у бори последний туз и вышла вера на девятке у ани валет", TABLE, IGRAFAN)
    assert r.winner == "Вера" and r.finishing is not None and r.finishing.rank.value == "9"
    assert hands(r) == {"Борис": ["A"], "Анна": ["J"]}


def test_pet_suffixes_chik_ych_yuha_ulya_on_a_players_name() -> None:
    r = parse("нинуля вышла на десятке бубей у генчика туз и король у егорыча девятка", ["Геннадий", "Егор", "Нина"],
              IGRAFAN)
    assert r.winner == "Нина" and hands(r) == {"Геннадий": ["A", "K"], "Егор": ["9"]} and r.exact
    r = parse("тимурчик вышел на валете пик у васюхи туз и восьмерка у софы король", ["Василий", "Тимур", "Софья"],
              IGRAFAN)
    assert r.winner == "Тимур" and hands(r) == {"Василий": ["8", "A"], "Софья": ["K"]} and r.exact


SONYA = ["Олег", "Соня", "Денис", "Вика"]


def test_more_draw_words_and_plus_after_a_name() -> None:
    for text in ("соня вышла на семерке червей денис плюс две у него теперь король и девятка у олега туз у вики валет",
                 "соня вышла на семерке червей денис вытащил две у него король и девятка у олега туз у вики валет",
                 "соня вышла на семерке червей денис получил штраф две карты у него король и девятка у олега туз "
                 "у вики валет"):
        r = parse(text, SONYA, IGRAFAN)
        assert r.unrecognised == [] and r.exact, text
        assert hands(r) == {"Денис": ["9", "K"], "Олег": ["A"], "Вика": ["J"]}, text
    # after cards of the hand, «плюс две карты» are cards not named: asked
    r = parse("соня вышла на семерке червей у дениса король плюс две карты у олега туз у вики валет", SONYA, IGRAFAN)
    assert not r.exact


def test_otygralas_and_doigrala_say_who_went_out() -> None:
    for text in ("соня отыгралась тузом бубей у олега король у дениса валет у вики девятка",
                 "соня доиграла на тузе бубей у олега король у дениса валет у вики девятка"):
        r = parse(text, SONYA, IGRAFAN)
        assert r.winner == "Соня" and r.finishing_card == "A♦" and r.exact, text


def test_a_hand_said_empty_is_no_correction_and_a_card_not_there_is_not_held() -> None:
    r = parse("у сони карт не осталось она вышла на тузе бубей у олега король у дениса валет у вики девятка", SONYA,
              IGRAFAN)
    assert r.winner == "Соня" and r.finishing_card == "A♦" and r.exact
    r = parse("вера вышла на девятке пик у бори туза не было только король у ани валет", TABLE, IGRAFAN)
    assert hands(r) == {"Борис": ["K"], "Анна": ["J"]} and r.exact


def test_nepravilno_corrects_the_card_before() -> None:
    r = parse("соня вышла на тузе бубей у олега туз неправильно король у дениса валет у вики девятка", SONYA, IGRAFAN)
    assert hands(r) == {"Олег": ["K"], "Денис": ["J"], "Вика": ["9"]} and r.exact


def test_a_card_not_named_or_not_sure_leaves_the_hand_asked() -> None:
    for text in ("соня вышла на тузе бубей у олега туз у дениса валет у вики король и ещё что-то",
                 "соня вышла на тузе бубей у олега туз у дениса валет у вики вроде король",
                 "соня вышла на тузе бубей у олега туз у дениса валет у вики король у сони тоже"):
        r = parse(text, SONYA, IGRAFAN)
        assert hands(r) == {"Олег": ["A"], "Денис": ["J"]} and not r.exact, text
    r = parse("соня вышла на тузе бубей у олега туз у дениса валет у вики король вроде всё", SONYA, IGRAFAN)
    assert hands(r) == {"Олег": ["A"], "Денис": ["J"], "Вика": ["K"]} and r.exact


def test_a_losers_verb_says_nothing_of_the_round() -> None:
    r = parse("вера вышла на девятке пик санек влип с тузом и королем а глеб продул с валетом",
              ["Вера", "Александр", "Глеб"], IGRAFAN)
    assert r.unrecognised == [] and hands(r) == {"Александр": ["A", "K"], "Глеб": ["J"]} and r.exact


def test_tasya_is_asked_when_two_players_fit_and_lyova_is_leonid_alone() -> None:
    r = parse("глеб вышел на тузе пик у таси король у таисии дама пик", ["Глеб", "Анастасия", "Таисия"], IGRAFAN)
    assert asked(r, "which-player") == ["таси"] and not r.exact
    r = parse("глеб вышел на тузе пик у левы король у веры дама пик", ["Глеб", "Леонид", "Вера"], IGRAFAN)
    assert hands(r) == {"Леонид": ["K"], "Вера": ["Q♠"]} and r.exact


def test_a_penalty_draw_in_digits_counts_cards_drawn() -> None:
    r = parse("соня вышла на 7 бубей денису 2 у него к и 9 у олега т у вики 10", SONYA, IGRAFAN)
    assert r.unrecognised == [] and hands(r) == {"Денис": ["9", "K"], "Олег": ["A"], "Вика": ["10"]} and r.exact


def test_the_winners_card_said_at_the_end_with_she() -> None:
    players = ["Олег", "Соня", "Денис", "Вика", "Максим", "Алина"]
    r = parse("соня вышла у олега туз у дениса король у вики дама пик у макса валет у алины десятка а закрылась она "
              "девяткой бубей", players, IGRAFAN)
    assert r.winner == "Соня" and r.finishing_card == "9♦" and r.exact
    # without «она» the one who went out may be Алина, named right before: asked
    r = parse("соня вышла у олега туз у дениса король у вики дама пик у макса валет у алины десятка вышла на девятке "
              "бубей", players, IGRAFAN)
    assert not r.exact


def test_a_hand_not_remembered_said_in_other_ways_is_asked_not_given() -> None:
    for text in ("соня вышла на тузе бубей у олега туз у дениса король не помню у вики король",
                 "соня вышла на тузе бубей у олега туз у дениса забыла что было у вики король",
                 "соня вышла на тузе бубей у олега туз у дениса король не видела у вики король"):
        r = parse(text, SONYA, IGRAFAN)
        assert r.unrecognised == [] and hands(r) == {"Олег": ["A"], "Вика": ["K"]} and not r.exact, text
    # «пик или треф, не помню» leaves only the suit open
    r = parse("соня вышла на тузе бубей у олега туз у дениса король пик или треф не помню у вики король", SONYA,
              IGRAFAN)
    assert hands(r)["Денис"] == ["K"]


def test_hesitations_inside_a_phrase_change_nothing() -> None:
    """Found by the perturbations with other seeds: each was wrongly ready."""
    r = parse("лева вышел на короле пик маринка пять взяла у нее теперь шесть короче карт шестерка семерка восьмерка "
              "девятка валет и дама у захара две десятки", ["Лев", "Марина", "Захар"], IGRAFAN)
    assert hands(r) == {"Марина": ["6", "7", "8", "9", "J", "Q"], "Захар": ["10", "10"]} and r.exact
    r = parse("последней у веры э была дама пик она вышла у пиши бори туз у ани валет", TABLE, IGRAFAN)
    assert r.winner == "Вера" and hands(r) == {"Борис": ["A"], "Анна": ["J"]} and r.exact
    r = parse("вера вышла на девятке пик у бори король то вот есть туз червей у ани валет", TABLE, IGRAFAN)
    assert hands(r) == {"Борис": ["A♥"], "Анна": ["J"]} and r.exact


def test_a_number_word_first_in_a_hand_with_as_many_cards_after_it_is_asked() -> None:
    players = ["Диана", "Фёдор", "Марина"]
    r = parse("диана вышла на короле пик федя пять взял у него шесть туз туз десятка девятка восьмерка и валет "
              "у марины король", players, IGRAFAN)
    assert kinds(r) == ["hand-size"] and not r.exact
    r = parse("диана вышла на девятке пик у феди шесть семь и туз у марины король", players, IGRAFAN)
    assert hands(r) == {"Фёдор": ["6", "7", "A"], "Марина": ["K"]} and r.exact


def test_a_remark_inside_a_repeat_changes_nothing() -> None:
    """Found by paraphrasing the dev sets with remarks put in: this one was wrongly ready."""
    r = parse("ну маша вышла на даме на конечно даме червей значит у вани туз и семёрка а у тёмы две восьмёрки",
              ["Маша", "Ваня", "Тёма"], IGRAFAN)
    assert r.finishing_card == "Q♥" and hands(r) == {"Ваня": ["7", "A"], "Тёма": ["8", "8"]} and r.exact


def test_remarks_inside_a_correction_change_nothing() -> None:
    """Found by --perturb with a remark put in (seeds 1–8): each was wrongly ready."""
    r = parse("вера вышла на тузе пик у бори было две десятки нет одна как обычно десятка у ани король", TABLE, IGRAFAN)
    assert hands(r) == {"Борис": ["10"], "Анна": ["K"]} and r.exact
    r = parse("вера вышла на девятке пик у бори король то прикинь есть туз червей у ани валет", TABLE, IGRAFAN)
    assert hands(r) == {"Борис": ["A♥"], "Анна": ["J"]} and r.exact


# -- issue 21's tenth round ----------------------------------------------------

TRIO = ["Олег", "Соня", "Денис"]


def test_points_said_with_the_cards_are_a_check_that_changes_nothing() -> None:
    r = parse("соня вышла на девятке бубей у олега туз и десятка двадцать одно очко у дениса валет два очка", TRIO,
              IGRAFAN)
    assert hands(r) == {"Олег": ["10", "A"], "Денис": ["J"]} and r.unrecognised == [] and r.exact
    r = parse("соня вышла на девятке бубей у олега король и восьмерка 12 очков у дениса валет", TRIO, IGRAFAN)
    assert hands(r) == {"Олег": ["8", "K"], "Денис": ["J"]} and r.exact


def test_points_the_cards_cannot_make_are_asked() -> None:
    r = parse("соня вышла на девятке бубей у олега туз и десятка тридцать очков у дениса валет", TRIO, IGRAFAN)
    assert r.unrecognised == ["тридцать очков"] and not r.exact


def test_points_said_with_no_cards_are_never_turned_into_cards() -> None:
    r = parse("соня вышла на девятке бубей у олега двадцать пять у дениса валет", TRIO, IGRAFAN)
    assert "Олег" not in r.hands and r.unrecognised == ["двадцать пять"] and not r.exact
    r = parse("соня вышла на девятке бубей у олега семь очков у дениса валет", TRIO, IGRAFAN)
    assert "Олег" not in r.hands and not r.exact  # «семь очков» is no seven


def test_zero_is_a_settled_hand_only_for_the_winner() -> None:
    r = parse("у сони ноль карт она вышла на девятке бубей у олега туз у дениса валет", TRIO, IGRAFAN)
    assert r.winner == "Соня" and hands(r) == {"Олег": ["A"], "Денис": ["J"]} and r.exact
    r = parse("соня вышла на девятке бубей у олега ноль у дениса валет", TRIO, IGRAFAN)
    assert r.unrecognised == ["ноль"] and not r.exact


def test_new_verbs_of_going_out() -> None:
    r = parse("соня слила девятку бубей у олега туз у дениса король и валет", TRIO, IGRAFAN)
    assert r.winner == "Соня" and r.finishing_card == "9♦" and r.exact
    r = parse("олег добил тузом треф у сони десятка у дениса восьмерка и валет", TRIO, IGRAFAN)
    assert r.winner == "Олег" and r.finishing_card == "A♣" and r.exact


def test_a_draw_said_as_a_gift_or_on_top() -> None:
    r = parse("олег вышел на семерке пик соне две в подарок у сони теперь туз король и валет у дениса десятка", TRIO,
              IGRAFAN)
    assert hands(r) == {"Соня": ["A", "J", "K"], "Денис": ["10"]} and r.exact
    r = parse("олег вышел на семерке пик соне две сверху у сони туз у дениса десятка", TRIO, IGRAFAN)
    assert not r.exact  # two drawn, one card named: asked


def test_someone_talking_over_and_the_tables_size_carry_nothing() -> None:
    r = parse("соня вышла на девятке бубей у олега дама пик она говорит не пик а треф ну дама треф у дениса валет",
              TRIO, IGRAFAN)
    assert hands(r) == {"Олег": ["Q♣"], "Денис": ["J"]} and r.exact
    r = parse("три человека пишем соня вышла на девятке бубей у олега туз у дениса валет", TRIO, IGRAFAN)
    assert r.winner == "Соня" and hands(r) == {"Олег": ["A"], "Денис": ["J"]} and r.exact


def test_the_suit_a_card_is_not_takes_nothing_back() -> None:
    r = parse("соня вышла на девятке бубей у олега семерка треф а не пик у дениса валет", TRIO, IGRAFAN)
    assert hands(r) == {"Олег": ["7♣"], "Денис": ["J"]} and r.exact
    r = parse("соня вышла на девятке бубей у олега дама пик а не пик у дениса валет", TRIO, IGRAFAN)
    assert "Олег" not in r.hands and not r.exact


def test_pet_names_new_this_round() -> None:
    r = parse("гарик вышел на тузе пик у сони валет у дениса король", ["Игорь", "Соня", "Денис"], IGRAFAN)
    assert r.winner == "Игорь" and r.exact
    r = parse("денчик закрылся тузом бубей у руслана дама пик и восьмёрка у глаши две девятки",
              ["Глафира", "Аглая", "Денис", "Руслан"], IGRAFAN)
    assert "Глафира" not in r.hands and "Аглая" not in r.hands and not r.exact  # «Глаша»: either of them


def test_the_scribes_own_memory_and_either_or_leave_that_hand_asked() -> None:
    r = parse("соня вышла на девятке бубей у олега туз а у дениса я не помню", TRIO, IGRAFAN)
    assert hands(r) == {"Олег": ["A"]} and r.unrecognised == [] and not r.exact
    r = parse("соня вышла на девятке бубей у олега туз у дениса то ли валет то ли дама", TRIO, IGRAFAN)
    assert hands(r) == {"Олег": ["A"]} and r.unrecognised == [] and not r.exact


def test_a_card_asked_back_is_the_card_that_was_wrong() -> None:
    r = parse("соня вышла на девятке бубей у олега туз пик да какой туз король пик у дениса валет", TRIO, IGRAFAN)
    assert hands(r) == {"Олег": ["K♠"], "Денис": ["J"]} and r.exact
    r = parse("соня вышла на девятке бубей у олега туз какой туз у дениса валет", TRIO, IGRAFAN)
    assert "Олег" not in r.hands and not r.exact  # asked back, nothing in its place


def test_the_drawn_cards_counted_in_with_the_hand() -> None:
    r = parse("олег вышел на семерке пик соне две у нее вместе с ними туз король и валет у дениса десятка", TRIO,
              IGRAFAN)
    assert hands(r) == {"Соня": ["A", "J", "K"], "Денис": ["10"]} and r.exact


def test_a_suit_corrected_inside_a_plural() -> None:
    r = parse("соня вышла на девятке бубей у олега две дамы трефовая и пиковая ой не пиковая а червонная у дениса "
              "валет", TRIO, IGRAFAN)
    assert hands(r) == {"Олег": ["Q♣", "Q♥"], "Денис": ["J"]} and r.exact
    r = parse("соня вышла на девятке бубей у олега две дамы трефовая и пиковая ой не червонная а бубновая у дениса "
              "валет", TRIO, IGRAFAN)
    assert "Олег" not in r.hands and not r.exact  # a suit the queens had not: asked


def test_a_suit_corrected_before_and_does_not_reach_the_next_card() -> None:
    """«дама червей нет трефовая и восьмёрка»: the queen is of clubs, the eight has no suit said; read as an eight
    of clubs with the queen gone, it was ready and wrong (the tenth blind set, scored once)."""
    r = parse("соня вышла на валете пик у олега дама червей нет трефовая и восьмерка у дениса туз", TRIO, IGRAFAN)
    assert hands(r) == {"Олег": ["8", "Q♣"], "Денис": ["A"]} and r.exact
    r = parse("соня вышла на валете пик у олега туз трефовый и восьмерка у дениса король", TRIO, IGRAFAN)
    assert hands(r) == {"Олег": ["8", "A♣"], "Денис": ["K"]} and r.exact
    r = parse("соня вышла на валете пик у олега трефовая и восьмерка у дениса король", TRIO, IGRAFAN)
    assert not r.exact  # a suit word with no card of its own: asked, never given to the eight
