"""Phrasings of a dictated round met in issue 21's fourth round: each mechanism as a sentence → hands, ready."""

from __future__ import annotations

from companion.core.rules import get_ruleset
from companion.language.dictation import parse
from companion.language.settle import ParsedRound

IGRAFAN = get_ruleset("igrafan").defaults


def hands(r: ParsedRound) -> dict[str, list[str]]:
    """Each hand as the bench writes it: a card whose suit was assumed is its rank alone."""
    return {p: sorted(s.rank.value if s.assumed else s.text for s in slots) for p, slots in r.hands.items()}


def kinds(r: ParsedRound) -> list[str]:
    return [q.kind for q in r.questions if q.kind != "suit-assumed"]


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
