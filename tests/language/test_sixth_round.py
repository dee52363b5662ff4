"""Phrasings of a dictated round met in issue 21's sixth round: each mechanism as a sentence → hands, ready."""

from __future__ import annotations

from companion.core.rules import get_ruleset
from companion.language.dictation import parse
from companion.language.settle import ParsedRound

IGRAFAN = get_ruleset("igrafan").defaults


def hands(r: ParsedRound) -> dict[str, list[str]]:
    """Each hand as the bench writes it: a card whose suit was assumed is its rank alone."""
    return {p: sorted(s.rank.value if s.assumed else s.text for s in slots) for p, slots in r.hands.items()}


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
