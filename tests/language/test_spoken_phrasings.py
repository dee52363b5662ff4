"""Phrasings of a dictated round met in issue 21's third round: each mechanism as a sentence → hands."""

from __future__ import annotations

from companion.core.rules import get_ruleset
from companion.language.dictation import parse
from companion.language.settle import ParsedRound

IGRAFAN = get_ruleset("igrafan").defaults


def hands(r: ParsedRound) -> dict[str, list[str]]:
    """Each hand as the bench writes it: a card whose suit was assumed is its rank alone."""
    return {p: sorted(s.rank.value if s.assumed else s.text for s in slots) for p, slots in r.hands.items()}


def asked(r: ParsedRound, kind: str) -> list[str]:
    return [q.params.get("name") or q.params.get("word") or "" for q in r.questions if q.kind == kind]


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
