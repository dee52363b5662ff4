"""Issue 12: the referee reads every way a player asks, says "no answer", and cites the rule.

Transliteration and spelling (companion/faq_search/translit.py, spelling.py), the "no answer"
decision (index.py), highlighting, the API's `maybe` / `searched_for`, the search page, and
the entry page's rule set, citation and sources.
"""

from __future__ import annotations

import html
import re
import tomllib

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import faq_search
from companion.core.rules import RULESETS
from companion.faq import entries as faq
from companion.faq_search import translit
from companion.faq_search.index import MAYBE

HX = {"HX-Request": "true"}


# -- transliteration ----------------------------------------------------------------


@pytest.mark.parametrize("latin, russian", [
    ("mozhno", "можно"), ("mojno", "можно"), ("skol'ko", "сколько"), ("skolko", "сколько"),
    ("damoj", "дамой"), ("damoi", "дамой"), ("khod", "ход"), ("hod", "ход"), ("chervej", "червей"),
    ("sleduyushchij", "следующий"), ("sledujuschij", "следующий"), ("ja", "я"), ("ya", "я"),
    ("semyorka", "семерка"), ("4to", "что"), ("pikovyj", "пиковый"), ("pikovyi", "пиковый"),
    ("ofitsialnye", "официальные"), ("oficial'nye", "официальные"), ("xod", "ход"), ("xoroshij", "хороший"),
    ("zhdat", "ждать"), ("jdat", "ждать"), ("zaxodit", "заходит"), ("yest", "есть"), ("novye", "новые"),
    ("yesli", "если"), ("rookah", "руках"), ("eegraem", "играем"), ("koordinaty", "координаты"), ("nee", "нее"),
    ("szestiorka", "шестерка"), ("siemiorku", "семерку"), ("czto", "что"), ("sledujuszczij", "следующий"),
    ("chodit", "ходить"), ("wzial", "взял"), ("dwie", "две"),  # the Polish way
])
def test_transliteration_schemes_meet_in_one_skeleton(latin: str, russian: str) -> None:
    assert translit.skeleton(russian) in translit.latin_skeletons(latin)


def test_transliterated_questions_are_read_as_russian() -> None:
    engine = faq_search.search_engine()
    read, tokens = engine.read("mozhno li damoi pobit semerku")
    assert read.transliterated and read.changed
    assert read.shown.startswith("можно ли дамой")
    assert tokens == engine.read("можно ли дамой побить семёрку")[1]
    assert engine.read("skolko ochkov za damu")[1] == engine.read("сколько очков за даму")[1]


def test_scholarly_primes_are_soft_and_hard_signs() -> None:
    engine = faq_search.search_engine()
    assert engine.read("skolʹko ochkov")[0].text == "сколько очков"
    assert engine.read("obʺyavit kartu")[0].text == "объявить карту"


def test_russian_spelt_the_polish_way() -> None:
    """`sz` «ш», `cz` «ч», `szcz` «щ», `w` «в», `ch` «х», `ie` «е»: a Pole's Russian in Latin letters;
    the Polish `ch` only for an exact word, so "nochyu" stays «ночью» and is not one letter from «нолю»."""
    engine = faq_search.search_engine()
    assert engine.read("Lera dala mnie siemiorku, ja wzial dwie")[0].shown == "лера дала мне семерку, я взял две"
    assert engine.read("w klassikie szestiorka")[0].shown == "в классике шестерка"
    assert "zzzero" not in faq_search.analyse(engine.read("taksi nochyu")[0].text)
    assert faq_search.answer("w klassikie szestiorka - slieduszczij bierjot odnu?").results[0].slug == "six"


def test_a_russian_word_in_latin_letters_inside_an_english_query() -> None:
    engine = faq_search.search_engine()
    read, tokens = engine.read("max igrokov")
    assert read.text == "max игроков"
    assert tokens == engine.read("max игроков")[1]


def test_english_stays_english() -> None:
    engine = faq_search.search_engine()
    for q in ("can a queen go on any card", "best pizza near me", "what does an ace do"):
        read, _ = engine.read(q)
        assert not read.transliterated, q
        assert read.shown == q, q  # real English words are not "corrected"


def test_a_name_inside_an_english_sentence_is_not_corrected() -> None:
    """"Tom" is not "too", "Megan" not "mean": a capital inside a sentence marks a name; the first
    word of a sentence is still corrected."""
    engine = faq_search.search_engine()
    assert engine.read("Nika opened with an ace. Does Tom lose his turn?")[0].shown == (
        "Nika opened with an ace. Does Tom lose his turn?")
    assert engine.read("okay Megan put a queen")[0].shown == "okay Megan put a queen"
    assert engine.read("Waht does an ace do")[0].shown == "what does an ace do"
    assert engine.read("my buddy Timur says a ten flips the direction")[0].shown.startswith("my buddy Timur")


def test_mixed_russian_and_english() -> None:
    slugs = [r.slug for r in faq_search.answer("можно ли play a queen на любую карту").results[:3]]
    assert "queen-wild" in slugs


def test_typos_near_a_real_word_are_corrected_real_words_are_not() -> None:
    engine = faq_search.search_engine()
    read, _ = engine.read("сколько очьков за кароля")
    assert read.shown == "сколько очков за короля" and read.changed
    read, _ = engine.read("погода в москве")
    assert not read.changed  # real Russian words, not typos


def test_english_typos_real_words_included_are_read_as_meant() -> None:
    engine = faq_search.search_engine()
    # not words at all, even three letters long, and two letters swapped
    assert engine.read("teh seven")[0].text == "the seven"
    assert engine.read("hwo mnay cards")[0].text == "how many cards"
    # a real word one edit from a far more common one the index knows
    assert engine.read("dose a ten reverse")[0].text == "does a ten reverse"
    # ...but a real word with no such neighbour stays
    assert not engine.read("best pizza near me")[0].changed


def test_dictation_filler_carries_no_meaning() -> None:
    analyse = faq_search.analyse
    assert analyse("слушай короче а вот если положить семёрку") == analyse("положить семёрку")
    assert analyse("короче говоря в общем семёрка") == analyse("семёрка")  # «говоря» is not "announce" here
    assert analyse("so like you know i mean the seven") == analyse("the seven")
    # every form of a stop word is one: «всем», «могут»
    assert analyse("всем можно") == analyse("могут ли") == []


def test_what_a_card_does_opens_the_entry_about_that_card() -> None:
    for q, slug in [("что делает шестёрка", "six"), ("what does a seven do", "seven"), ("что даёт туз", "ace"),
                    ("what does a queen do", "queen-wild"), ("что делает десятка", "ten")]:
        assert faq_search.answer(q).results[0].slug == slug, q


def test_every_form_of_a_listed_word_maps_through_its_dictionary_form() -> None:
    analyse = faq_search.analyse
    assert analyse("отобьюсь") == analyse("отбиться") != analyse("отбой")  # «отб»: one stem, two groups
    assert analyse("перетасуем") == analyse("тасовать")


def test_slang_card_words_come_from_the_core() -> None:
    from companion.core import cards
    assert cards.rank_of_word("дамкой") is cards.Rank.QUEEN
    assert cards.rank_of_word("тузяру") is cards.Rank.ACE
    assert cards.rank_of_word("десятосом") is cards.Rank.TEN
    assert faq_search.analyse("дамку на дамку") == faq_search.analyse("даму на даму")


def test_more_slang_card_words_and_where_the_story_happened() -> None:
    """«семак» is a seven, «баба» a queen, "cowboy" a king (the core's card words); «во дворе»,
    "as a kid" tell where the story happened, which no entry is about and no question is off for."""
    from companion.core import cards
    assert cards.rank_of_word("семака") == cards.Rank.SEVEN and cards.rank_of_word("бабу") == cards.Rank.QUEEN
    assert cards.rank_of_word("cowboys") == cards.Rank.KING
    assert faq_search.analyse("у нас во дворе") == [faq_search.index.NARRATOR]
    assert faq_search.answer("семак на семак нельзя перевести у нас во дворе всегда переводили").answered


def test_a_vowel_for_a_vowel_at_the_start_of_a_typo() -> None:
    engine = faq_search.search_engine()
    assert engine.read("атбиться дамой")[0].text == "отбиться дамой"
    assert engine.read("enything")[0].text == "anything"
    assert engine.read("ксть правила")[0].text == "есть правила"  # к is next to е on the keyboard


def test_a_word_that_is_only_a_name_is_a_typo_at_the_table() -> None:
    engine = faq_search.search_engine()
    assert engine.read("пиковый кароль")[0].text == "пиковый король"  # «Кароль» is a name
    assert not engine.read("погода в питере")[0].changed  # a city, and real words


def test_a_real_word_where_a_rank_belongs_and_three_letter_card_typos() -> None:
    engine = faq_search.search_engine()
    assert engine.read("пиковый кроль")[0].text == "пиковый король"  # «кроль» is a word, but not next to «пиковый»
    assert not engine.read("плавать кролем")[0].changed
    assert engine.read("тус пропускает")[0].text == "туз пропускает"


def test_swapped_letters_before_an_apostrophe() -> None:
    engine = faq_search.search_engine()
    assert engine.read("waht's a seven")[1] == engine.read("what's a seven")[1] == engine.read("waht'd a seven")[1]


def test_latin_letters_with_another_reading_find_the_real_word() -> None:
    """A word the FAQ does not use is still read as the Russian word it spells when its letters
    have another usual reading ("tsya" for «тся», `e` for «э», `sch` for «сч»)."""
    engine = faq_search.search_engine()
    assert "кладется" in engine.read("kuda kladetsya karta")[0].text.split()
    assert "эффект" in engine.read("u tuza kakoi effekt")[0].text.split()
    assert translit.renderings("pobit")[:2] == ["побит", "побить"]
    assert "считается" in translit.renderings("schitaetsya")


def test_a_typo_reaches_a_word_of_another_subject_only_at_one_edit() -> None:
    engine = faq_search.search_engine()
    assert "канаста" not in engine.read("шестёрка канает")[0].text  # slang, two edits from «канаста»
    assert engine.read("правила канасты")[0].text == "правила канасты"


def test_names_of_players_stay_names() -> None:
    """A word that is only a name is a player at the table («серёга», «вася»), not a typo, unless
    it is one edit from a card word («кароль»)."""
    engine = faq_search.search_engine()
    assert not engine.read("серёга пишет пять очков")[0].changed
    assert not engine.read("вася сказал")[0].changed
    assert engine.read("кароль пик")[0].text == "король пик"
    assert faq_search.morphology.word_kind("пашка") == "nonword"


def test_an_english_word_with_its_s_is_not_a_typo() -> None:
    engine = faq_search.search_engine()
    assert not engine.read("there's six of us")[0].changed
    assert engine.read("waht's a seven")[1] == engine.read("what's a seven")[1]


def test_wanting_asking_step_by_step_and_a_bit_of_playing() -> None:
    """«хотим», «по шагам», "step by step" carry no meaning; «поиграть» is «играть»."""
    an = faq_search.analyse
    assert an("мы хотим по шагам") == [] and an("step by step please") == []
    assert an("поиграть на вылет") == an("играть на вылет")
    assert faq_search.answer("мы хотим поиграть на вылет это как объясни по шагам").answered


def test_reported_speech_is_no_announcement() -> None:
    """Someone's words told in a dispute («пашка говорит, что…») announce nothing; saying it
    oneself, or saying a suit, still does."""
    announce = faq_search.analysis.ANNOUNCE
    assert announce not in faq_search.analyse("пашка говорит что он должен брать")
    assert announce not in faq_search.analyse("everyone's saying I have to play again")
    assert announce in faq_search.analyse("надо ли говорить что осталась одна карта")
    assert announce in faq_search.analyse("do I have to say that I have one card left")
    assert faq_search.analysis.CALL_SUIT in faq_search.analyse("он сказал черви")


def test_a_saying_left_out_or_going_on_around_me() -> None:
    """«он не сказал, что последняя»: the announcement a player left out is what the dispute is
    about; "everyone is shouting at me", "people keep yelling": what the others do, no announcement."""
    announce = faq_search.analysis.ANNOUNCE
    assert announce in faq_search.analyse("он не сказал что последняя")
    assert announce in faq_search.analyse("she never said that she had one card")
    assert announce not in faq_search.analyse("everyone is shouting at me to play")
    assert announce not in faq_search.analyse("people keep yelling seven at me")
    assert announce in faq_search.analyse("do I have to shout last card")


def test_chat_spellings_of_what_does_and_keep_going() -> None:
    effect = faq_search.index.EFFECT
    assert effect in faq_search.analyse("wat does a 7 do") and effect in faq_search.analyse("wut does the queen do")
    assert faq_search.analyse("keep going") == faq_search.analyse("go again")
    assert faq_search.analyse("what does a seven do again") == faq_search.analyse("what does a seven do")


def test_held_letters_and_glued_words_are_read_as_meant() -> None:
    """A letter held three times or more is one («нууу», «чтооо»); a short function or question
    word glued to the next word is two words («можнобить», «ктосдает» with a held «ттт»)."""
    read = faq_search.search_engine().read
    assert read("нууу а дама чтооо делает")[0].text == "ну а дама что делает"
    assert read("можнобить даму")[0].text == "можно бить даму"
    assert read("ктосдаеттто")[0].text == "кто сдает"
    assert read("отбицца нечем")[0].text.startswith("отбиться")  # spoken spelling first, no split
    assert read("пересдача")[0].text == "пересдача"  # a word the index knows stays whole


def test_a_question_typed_without_spaces_is_split_into_words() -> None:
    """The fewest words each known as written, then the longest, then the most the index knows."""
    read = faq_search.search_engine().read
    assert read("сколькоочковзадевятку")[0].text == "сколько очков за девятку"  # not «очко вза»
    assert read("скокастоитпиковыйкорольнаруках")[0].text == "скока стоит пиковый король на руках"
    assert read("чтоделатьесликолодакончилась")[0].text == "что делать если колода кончилась"
    assert read("перевернутую")[0].text == "перевернутую"  # a real word stays whole
    assert faq_search.answer("сколькоочковзадевятку").results[0].slug == "nine-points"


def test_a_student_or_a_guest_is_a_person_in_the_story() -> None:
    narrator = faq_search.index.NARRATOR
    for text in ("exchange student", "студент", "guest", "гости"):
        assert faq_search.analyse(text) == [narrator], text


def test_no_card_that_fits_but_a_queen_is_the_queen_on_any_card() -> None:
    """«нет ни бубен, ни туза, зато есть дама», «треф у меня нету, есть дама»: the queen played
    instead, onto a card of another rank; a hand that lacks the queen too still has no card."""
    an = faq_search.analyse
    onto_queen = faq_search.analysis.onto_token("q")
    for text in ("у меня нет ни бубен ни туза зато есть дама треф", "треф у меня нету зато есть дама бубей"):
        assert onto_queen in an(text) and faq_search.analysis.NO_CARD not in an(text), text
    for text in ("мне нечем ходить ни масти ни дамы", "i got nothing that matches and no queen either"):
        assert onto_queen not in an(text) and faq_search.analysis.NO_CARD in an(text), text
    assert faq_search.analysis.NO_CARD in an("червей у меня нету")
    found = faq_search.answer("на столе туз бубен у меня нет ни бубен ни туза зато есть дама треф можно её положить")
    assert found.results[0].slug == "queen-wild"


def test_a_number_of_us_is_a_number_of_players() -> None:
    tokens = faq_search.analyse("there's six of us can we all play")
    assert faq_search.number_token("6") in tokens and faq_search.analysis.PLAYER in tokens
    assert "zzr6" not in tokens


def test_numbers_said_in_several_words_are_numbers() -> None:
    analyse = faq_search.analyse
    assert analyse("набрал сто пять очков") == analyse("набрал 105 очков")
    assert faq_search.analysis.OVER in analyse("one hundred and twenty points")
    assert analyse("get to a hundred and one") == analyse("get to 101")
    assert faq_search.analysis.numbers_in_words("девяносто девять плюс два") == "99 плюс два"
    assert analyse("две семёрки") == analyse("2 семёрки")  # one number word stays a count of cards


def test_starting_with_a_card_is_the_first_card() -> None:
    first = faq_search.analysis.FIRST_CARD
    assert first in faq_search.analyse("раунд начался с пикового короля")
    assert first in faq_search.analyse("he started the round with an ace")
    assert first not in faq_search.analyse("кто начинает с двумя игроками")
    assert first not in faq_search.analyse("who starts with 2 players")


def test_a_verb_between_a_card_and_on_keeps_the_relation() -> None:
    same = faq_search.ONTO_SAME
    assert same in faq_search.analyse("can a queen go on a queen")
    assert same in faq_search.analyse("даму можно положить на даму")
    assert same not in faq_search.analyse("дама на руках")


def test_a_card_number_with_the_ending_of_its_name_is_the_card() -> None:
    analyse = faq_search.analyse
    assert analyse("мне 7ку кинули") == analyse("мне семёрку кинули")
    assert analyse("10ка меняет") == analyse("десятка меняет")
    assert "zzr9" in analyse("skoka ochkov za 9ku")
    assert faq_search.analysis.SAME_RANK in analyse("две 7ки")


def test_a_short_typo_is_found_by_its_one_edit_neighbours() -> None:
    engine = faq_search.search_engine()
    assert engine.read("can u go oit on a 6")[0].text == "can u go out on a 6"


def test_unknown_words_weigh_by_what_kind_of_word_they_are() -> None:
    """A noun the FAQ never uses says the question is about something else; a verb or chat
    spelling it does not know says much less (morphology.word_kind)."""
    kind = faq_search.morphology.word_kind
    assert [kind(w) for w in ("погода", "магазине", "pizza", "weather")] == ["content"] * 4
    assert [kind(w) for w in ("получилось", "сделать", "possible", "happens")] == ["generic"] * 4
    assert [kind(w) for w in ("хто", "эт", "wut", "ppl", "n")] == ["nonword"] * 5
    engine = faq_search.search_engine()
    base = "сколько очков за даму"
    assert engine.answer(base + " получилось").known > engine.answer(base + " погода").known
    assert engine.answer(base + " чонибуть").known > engine.answer(base + " погода").known


@pytest.mark.parametrize("q", ["in poker does a flush beat a straight", "можно ли играть на деньги",
                               "как скачать приложение", "сколько длится партия"])
def test_words_of_other_subjects_mean_no_answer(q: str) -> None:
    assert not faq_search.answer(q).answered


def test_a_word_that_only_comes_with_other_subjects_does_not_block_a_rule_question() -> None:
    """«дети», "kids", «игральные» come with questions the FAQ does not answer, and with rule
    questions too: they weigh less than a word of another subject."""
    assert faq_search.index.ASIDE in faq_search.analyse("дети")
    found = faq_search.answer("дети играют вдвоём можно ли")
    assert found.answered and "two-players" in [r.slug for r in found.results[:3]]
    # The index alone answers it (the learned model does not: test_what_the_learned_model_still_gets_wrong).
    assert faq_search.search_engine().reading("сколько игральных карт в колоде для сто одно").lexical_answer
    assert not faq_search.answer("как распечатать лист со счётом").answered


def test_a_word_of_another_subject_is_only_its_own_forms() -> None:
    """A word listed for another subject catches its forms («покера», «деньгами»), not a word that
    only shares its stem («купе» with «купить», «катать» with «катан», «продолжают» with «продолжается»);
    a phrase listed with "=" only as written («в очко», the game, not «в очки», into the points)."""
    off = faq_search.index.OFF_TOPIC
    assert off in faq_search.analyse("правила покера") and off in faq_search.analyse("играть на деньгах")
    assert off in faq_search.analyse("играли в очко")
    for text in ("в купе", "катать", "остальные продолжают", "они идут в очки"):
        assert off not in faq_search.analyse(text), text
    assert faq_search.answer("нас шестеро в купе можно всем в одну игру").answered
    assert faq_search.answer("вышел пиковым королем, сосед берет 5 карт и они ему в очки идут?").answered


@pytest.mark.parametrize("q", ["какой шанс что следующей придет дама", "what are the chances of drawing a queen",
                               "какую карту лучше держать до конца", "should i dump my seven or save it for later",
                               "откуда взялось название и кто эту игру придумал", "who invented this game",
                               "in uno can you stack two draw cards", "is it bad manners to look at the discards",
                               "which suit is smartest to call", "a good card game for a party",
                               "what are the odds of being dealt three queens", "каким тузом выгоднее ходить первым"])
def test_the_odds_and_holding_a_card_back_are_no_rule_question(q: str) -> None:
    """The odds of a card, what to hold back, the smartest call are choices no rule settles; who made
    the game up, another game's rules asked as such, manners, no rule of ours says either."""
    assert not faq_search.answer(q).answered


def test_comparing_with_another_game_is_still_our_question() -> None:
    """«это как в уно?», "like reverse in uno": our game compared with another, not the other's rules."""
    assert faq_search.index.OFF_TOPIC not in faq_search.analyse("это как в уно")
    assert faq_search.answer("does a ten change direction like reverse in uno").answered


def test_no_entry_asks_about_another_subject() -> None:
    """The off-topic words never occur in a question or keyword (they would make it unreachable)."""
    for entry in faq.all_entries():
        for lang in faq.LANGS:
            t = entry.text(lang)
            tokens = faq_search.analyse("\n".join([t.question, *t.keywords]))
            assert faq_search.index.OFF_TOPIC not in tokens, entry.slug
            assert faq_search.index.ASIDE not in tokens, entry.slug


def test_covering_a_card_with_another_is_one_concept() -> None:
    """The card covered with: in the instrumental in Russian, after "with" in English."""
    analyse = faq_search.analyse
    cover_with = faq_search.analysis.COVER_WITH
    for q in ("накрыл шестёрку тузом", "покрыть девятку дамой", "covered my six with an ace",
              "cover it with the queen"):
        assert cover_with in analyse(q), q
    for q in ("покрыть нечем", "cover it myself", "тузом пропускают ход"):
        assert cover_with not in analyse(q), q


def test_spoken_spellings_and_misspelt_counts() -> None:
    engine = faq_search.search_engine()
    assert engine.read("отбицца дамой")[0].text == "отбиться дамой"
    assert engine.read("колода кончица")[0].text == "колода кончится"
    assert engine.read("can i pas it on")[0].text == "can i pass it on"  # 40× as common, one edit away
    # a misspelt number still counts cards of one rank
    assert faq_search.analyse("четыри туза") == faq_search.analyse("четыре туза")


def test_a_total_over_every_loss_line_means_over() -> None:
    analyse = faq_search.analyse
    assert analyse("у меня 115") == analyse("у меня перебор")
    assert analyse("scored 130") == analyse("scored over 101")
    assert analyse("100") != analyse("перебор") and analyse("101") != analyse("перебор")


def test_on_top_of_is_onto() -> None:
    analyse = faq_search.analyse
    assert faq_search.ONTO_SAME in analyse("my queen on top of his queen")
    assert faq_search.ONTO_SAME in analyse("дама поверх дамы")


def test_who_asks_about_a_person_in_both_languages() -> None:
    assert faq_search.analyse("кто сдаёт") == faq_search.analyse("who deals")


def test_limits_each_and_any_suit_in_both_languages() -> None:
    analyse = faq_search.analyse
    assert analyse("максимальное число игроков") == analyse("max number of players")
    assert analyse("по сколько карт каждому") == analyse("how many cards each")
    assert analyse("на любую масть") == analyse("on any suit")


def test_a_suit_named_after_a_word_of_saying_is_called() -> None:
    call = faq_search.analysis.CALL_SUIT
    assert call in faq_search.analyse("кладу даму и говорю черви")
    assert call in faq_search.analyse("I play a queen and say spades")
    assert call not in faq_search.analyse("say last card")


def test_how_many_is_one_concept_in_both_languages() -> None:
    analyse = faq_search.analyse
    assert analyse("сколько карт") == analyse("how many cards") == analyse("скока карт")
    assert analyse("сколько") == analyse("how much")


def test_numbers_in_words_and_a_number_of_players() -> None:
    analyse = faq_search.analyse
    assert analyse("сорок") == analyse("40") and analyse("twenty") == analyse("20")
    assert analyse("сто один") == analyse("101") == analyse("hundred and one")
    # a number before a player word counts players; it is no card
    assert analyse("6 people") == analyse("шесть человек") == analyse("six players")
    assert not set(analyse("шесть человек")) & set(faq_search.RANK_TOKENS)
    assert analyse("шестеро") == analyse("шесть игроков")


def test_an_entry_about_another_number_of_players_gives_way() -> None:
    slugs = [r.slug for r in faq_search.answer("семь человек могут играть").results]
    assert slugs[0] == "number-of-players"


def test_an_entry_about_two_players_gives_way_when_the_query_names_no_number() -> None:
    """"Two of us went over 101" is about two; "someone goes over 101" names no number (101 is the
    game's line, no count), so the entry about two gives way. «у двоих» is two players."""
    ix = faq_search.index
    assert ix.is_number("zzn2") and ix.is_number("zzn101")
    assert not ix.is_number("zznext") and not ix.is_number("zznocard")
    engine = faq_search.search_engine()
    assert engine.player_counts["several-over-101"] == {"zzn2"}
    slugs = [r.slug for r in faq_search.answer("when someone goes over 101 is the whole game over").results]
    assert slugs[0] == "series-end"
    assert faq_search.answer("two of us went over 101 in one round who lost").results[0].slug == "several-over-101"
    assert "zzn2" in faq_search.analyse("у двоих перебор")


def test_the_entry_about_suits_by_colour_gives_way_to_a_card_of_some_rank() -> None:
    """«бубну на черву» (a suit on a suit, by colour) is not what «крестовую даму на бубновую» asks:
    a queen played, no word of colour."""
    engine = faq_search.search_engine()
    assert engine.suit_on_suit == {"same-colour"}
    assert faq_search.answer("крестовую даму на бубновую можно?").results[0].slug == "queen-on-queen"
    assert faq_search.answer("можно бубну на черву, они же обе красные").results[0].slug == "same-colour"


# -- answers, "no answer" and maybe ---------------------------------------------------


@pytest.mark.parametrize("q, slug", [
    ("mozhno li damoi pobit semerku", "queen-cancels-penalty"),
    ("skolko ochkov za damu", "queens-among-cards"),
    ("что делает семёрка", "seven"),
    ("king of spades what happens", "spade-king"),
])
def test_questions_in_every_script_are_answered(q: str, slug: str) -> None:
    found = faq_search.answer(q)
    assert found.answered
    assert slug in [r.slug for r in found.results[:3]]
    assert not found.maybe


@pytest.mark.parametrize("q", ["погода в москве", "weather in london tomorrow", "pogoda v pitere",
                               "сколько стоит билет в кино"])
def test_off_topic_questions_get_no_answer(q: str) -> None:
    found = faq_search.answer(q)
    assert not found.answered and found.results == ()
    assert len(found.maybe) <= MAYBE


def test_no_answer_offers_the_closest_entries_as_maybe() -> None:
    found = faq_search.answer("сколько стоит билет в кино")
    assert not found.answered and 0 < len(found.maybe) <= MAYBE
    assert [r.score for r in found.maybe] == sorted((r.score for r in found.maybe), reverse=True)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=80))
def test_answer_never_fails(q: str) -> None:
    found = faq_search.answer(q)
    assert bool(found.results) == found.answered
    assert not (found.results and found.maybe)
    assert len(found.maybe) <= MAYBE
    assert 0.0 <= found.known <= 1.0 + 1e-9


# Every set tuned on up to the third round (benchmarks/faq_eval/README.md). The held-out sets (v7) are read only
# by benchmarks/faq_search_bench.py --report, never by the tests.
TUNING_MATERIAL = ("dev", "dev2", "holdout", "v2_tune", "v2_heldout", "v3_tune")


def test_tuning_material_quality_gate() -> None:
    eval_dir = faq_search.analysis.DATA.parent.parent / "benchmarks" / "faq_eval"
    questions = [q for name in TUNING_MATERIAL
                 for q in tomllib.loads((eval_dir / f"{name}.toml").read_text(encoding="utf-8"))["q"]]
    on = [q for q in questions if q["expect"]]
    off = [q for q in questions if not q["expect"]]
    answers = {q["text"]: [r.slug for r in faq_search.answer(q["text"]).results] for q in questions}
    top1 = sum(bool(answers[q["text"]]) and answers[q["text"]][0] in q["expect"] for q in on)
    top3 = sum(any(s in q["expect"] for s in answers[q["text"]][:3]) for q in on)
    refused = sum(not answers[q["text"]] for q in on)
    off_none = sum(not answers[q["text"]] for q in off)
    assert len(on) > 500 and len(off) > 60
    assert top1 / len(on) >= 0.95
    assert top3 / len(on) >= 0.99
    assert refused / len(on) <= 0.01
    assert off_none / len(off) >= 0.9


# -- highlighting -------------------------------------------------------------------------


def test_highlight_marks_matched_words_and_escapes_the_rest() -> None:
    tokens = faq_search.search_engine().read("семёрка дамой")[1]
    marked = str(faq_search.highlight("Дама <b> отбивает семёрку?", tokens))
    assert marked == "<mark>Дама</mark> &lt;b&gt; отбивает <mark>семёрку</mark>?"
    card = faq_search.search_engine().read("K♠")[1]
    assert str(faq_search.highlight("пиковый король", card)) == "<mark>пиковый</mark> <mark>король</mark>"


# -- API ----------------------------------------------------------------------------------


def test_api_no_answer_shape(client: FlaskClient) -> None:
    body = client.get("/api/v1/faq", query_string={"q": "сколько стоит билет в кино"}).get_json()
    assert body["results"] == []
    assert 0 < len(body["maybe"]) <= 3
    assert all(set(m) == {"slug", "question", "answer", "url", "score"} for m in body["maybe"])
    assert "searched_for" not in body


def test_api_searched_for_when_transliterated(client: FlaskClient) -> None:
    body = client.get("/api/v1/faq", query_string={"q": "mozhno li damoi pobit semerku", "lang": "ru"}).get_json()
    assert body["results"][0]["slug"] == "queen-cancels-penalty"
    assert body["searched_for"].startswith("можно ли дамой")
    assert body["maybe"] == []
    plain = client.get("/api/v1/faq", query_string={"q": "что делает семёрка"}).get_json()
    assert plain["results"] and "searched_for" not in plain


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=60))
def test_api_never_answers_500(client: FlaskClient, q: str) -> None:
    response = client.get("/api/v1/faq", query_string={"q": q})
    assert response.status_code == 200
    assert set(response.get_json()) <= {"results", "maybe", "searched_for"}


# -- pages --------------------------------------------------------------------------------


def test_page_says_what_it_searched_for_and_highlights(client: FlaskClient) -> None:
    page = client.get("/faq", query_string={"q": "mozhno li damoi pobit semerku", "lang": "ru"}, headers=HX)
    text = page.get_data(as_text=True)
    assert "Показаны ответы для: можно ли дамой" in text
    assert "<mark>" in text
    plain = client.get("/faq", query_string={"q": "что делает семёрка", "lang": "ru"}, headers=HX)
    assert "Показаны ответы" not in plain.get_data(as_text=True)


def test_page_no_answer_with_maybe(client: FlaskClient) -> None:
    text = client.get("/faq", query_string={"q": "сколько стоит билет в кино", "lang": "ru"}).get_data(as_text=True)
    assert "В FAQ нет ответа" in text and "Может быть, вы об этом?" in text
    assert 0 < len(re.findall(r'class="faq-item"', text)) <= 3


def test_entry_says_its_rule_set_and_cites_the_rule_card_row(client: FlaskClient) -> None:
    text = html.unescape(client.get("/faq/seven?lang=ru").get_data(as_text=True))
    assert "Ответ для правил «ИграФан (по умолчанию)»" in text
    assert 'href="/rules/igrafan#rule-seven"' in text
    text = html.unescape(client.get("/faq/seven?lang=en&ruleset=elimination").get_data(as_text=True))
    assert "The answer for the rule set “Elimination”" in text
    assert 'href="/rules/elimination#rule-seven"' in text
    assert "seed 0" not in text and "документ" not in text


@pytest.mark.parametrize("entry", faq.all_entries(), ids=lambda e: e.slug)
def test_every_citation_points_at_a_row_the_rule_card_has(client: FlaskClient, entry: faq.FaqEntry) -> None:
    for rs in RULESETS.values():
        if not entry.applies_to(rs.id):
            continue
        page = client.get(f"/faq/{entry.slug}?ruleset={rs.id}&lang=en").get_data(as_text=True)
        link = re.search(r'class="cite"><a href="(/rules/[a-z]+)(?:#([a-z0-9-]+))?"', page)
        assert link, (entry.slug, rs.id)
        assert link.group(1) == f"/rules/{rs.id}"
        if link.group(2):
            card = client.get(link.group(1)).get_data(as_text=True)
            assert f'id="{link.group(2)}"' in card, (entry.slug, rs.id, link.group(2))


def test_citation_file_names_only_entries_and_known_rows() -> None:
    slugs = {e.slug for e in faq.all_entries()}
    cited = faq.citations()
    assert set(cited) <= slugs
    assert len(cited) >= 30


# The entries whose verdict no row of the rule card states (data/faq_citations.toml says why):
# they cite the rule card as a whole. Any other entry must cite a row.
WHOLE_CARD = {"deadlock", "last-card-call", "official-rules", "other-rule-sets", "pharaoh", "same-colour",
              "uno-and-mau-mau", "who-deals"}


def test_every_entry_cites_a_row_unless_no_row_states_its_verdict() -> None:
    uncited = {e.slug for e in faq.all_entries() if not e.cites}
    assert uncited == WHOLE_CARD


@pytest.mark.parametrize(("slug", "row"), [
    ("draw-pile-empty", "draw-pile-empty"), ("first-card-special", "first-card"), ("redeal", "who-starts"),
    ("several-cards-at-once", "several-cards-at-once"), ("who-starts", "who-starts"),
])
def test_rules_of_the_table_cite_their_row(client: FlaskClient, slug: str, row: str) -> None:
    page = client.get(f"/faq/{slug}?lang=en&ruleset=classic").get_data(as_text=True)
    assert f'href="/rules/classic#rule-{row}"' in page


# -- fifth round (v5_heldout's misses, classified by cause) --------------------------------


def test_a_card_named_with_its_suit_keeps_the_word_it_was_read_from() -> None:
    """«королём пик» is one card, and still in the instrumental: the card covered with."""
    assert faq_search.analysis.COVER_WITH in faq_search.analyse("накрыл семёрку королём пик")
    assert faq_search.analysis.COVER_WITH in faq_search.analyse("покрыла девятку дамой червей")


def test_a_word_maps_to_a_listed_word_by_any_of_its_readings() -> None:
    """«крыл» is likeliest a form of «крыло» (a wing), «берет» of «берет» (a beret): at a card table they
    are «крыть» and «брать»."""
    analyse = faq_search.analyse
    assert analyse("я крыл") == analyse("я крою")
    assert "zzdraw" in analyse("он берет одну")
    assert faq_search.morphology.lemmas("крыл")[:2] == ("крыло", "крыть")


def test_someone_claiming_what_a_card_does_announces_nothing() -> None:
    announce = faq_search.analysis.ANNOUNCE
    assert announce not in faq_search.analyse("my brother says a queen cancels everything")
    assert announce not in faq_search.analyse("сестра говорит дама кроет всё")
    assert announce in faq_search.analyse("do i have to say last card")
    assert faq_search.analysis.CALL_SUIT in faq_search.analyse("он сказал черви")  # a suit said is called


def test_a_card_played_on_it_is_played_on_the_card_named_before() -> None:
    same = faq_search.ONTO_SAME
    assert same in faq_search.analyse("he played a queen and I put my queen on it")
    assert same in faq_search.analyse("он положил даму, а я свою даму на неё")
    assert faq_search.onto_token("q") in faq_search.analyse("there was a ten and I put a queen on it")


def test_a_card_that_makes_someone_do_something_asks_what_it_does() -> None:
    assert faq_search.analysis.EFFECT in faq_search.analyse("does a seven make you draw two")
    assert faq_search.analysis.EFFECT in faq_search.analyse("туз заставляет пропустить ход")
    assert faq_search.analysis.EFFECT not in faq_search.analyse("make a seven")


def test_asking_who_is_right_is_filler() -> None:
    analyse = faq_search.analyse
    assert analyse("an ace skips the next player, is he right?") == analyse("an ace skips the next player")
    assert analyse("туз пропускает ход, он прав?") == analyse("туз пропускает ход")
    assert analyse("что за прикол с шестёркой") == analyse("шестёрка")
    assert "zzwho" in analyse("who is right by the rules")  # whose rules are right is a question of its own


def test_doing_it_yourself_is_a_word_of_its_own() -> None:
    """"cover it myself", «кроет сам»: the player who played the card covers it (the six)."""
    analyse = faq_search.analyse
    assert analyse("cover it myself") == analyse("cover it yourself")
    assert "zzself" in analyse("кроешь сам")
    assert faq_search.answer("do i cover my own six by myself").results[0].slug == "six"


def test_everyone_passing_in_turn_is_a_deadlock() -> None:
    assert "zzstuck" in faq_search.analyse("все пропустили")
    assert "zzstuck" in faq_search.analyse("everyone skipped")


def test_playing_the_first_card_of_a_round_is_starting_it() -> None:
    analyse = faq_search.analyse
    assert faq_search.analysis.START in analyse("who plays the first card in round two")
    assert faq_search.analysis.START in analyse("кто кладёт первую карту")
    assert faq_search.analysis.FIRST_CARD in analyse("the first card was a seven")


@pytest.mark.parametrize("q", ["the rules of cribbage for three players",
                               "how many dice in yahtzee", "лучше сразу сбросить даму или придержать её",
                               "is it better to hold on to a queen or play it straight away"])
def test_other_games_and_choices_the_rules_leave_to_the_player_get_no_answer(q: str) -> None:
    assert not faq_search.answer(q).answered


def test_better_with_or_is_a_choice_and_better_alone_is_not() -> None:
    assert faq_search.index.ASIDE in faq_search.analyse("is it better to lead the ace or keep it")
    assert faq_search.index.ASIDE not in faq_search.analyse("fewer points is better")
    assert faq_search.answer("is a low score better").answered
    assert faq_search.answer("меньше очков лучше?").answered


def test_six_typed_for_sh_inside_a_latin_word() -> None:
    engine = faq_search.search_engine()
    assert engine.read("ja vy6el damoj")[0].text == "я вышел дамой"
    assert "zzr6" in engine.analyse_query("skoka za 6ku")  # a 6 before the ending is still the card


def test_a_tag_question_asks_for_agreement_not_a_direction() -> None:
    analyse = faq_search.analyse
    assert analyse("a queen goes on anything, right?") == analyse("a queen goes on anything")
    assert analyse("and then it's his go right") == analyse("and then it's his go")
    assert analyse("туз пропускает, правильно?") == analyse("туз пропускает")
    assert "zzdirection" in analyse("does play pass to the right?")


def test_better_before_or_after_or_is_a_choice() -> None:
    assert faq_search.index.ASIDE in faq_search.analyse("keep the king or is it better to dump it")
    assert faq_search.index.ASIDE in faq_search.analyse("держать туза до конца или лучше сразу скинуть")


def test_people_in_the_story_are_neither_known_nor_unknown() -> None:
    """«бабушка», "my uncle": somebody in the story; an animate noun the FAQ never uses is no subject."""
    kind = faq_search.morphology.word_kind
    assert kind("зверь") == kind("клиент") == "generic"
    assert kind("погода") == "content"
    analyse = faq_search.analyse
    assert faq_search.index.NARRATOR in analyse("бабушка говорит")
    assert analyse("my uncle went out with a queen") == analyse("my aunt went out with a queen")
    engine = faq_search.search_engine()
    assert engine.answer("у тёти было 99, а теперь ровно 100 — это ноль?").answered
    assert engine.read("reset the wifi")[0].text == "reset the wifi"  # no typo of "wife"


def test_slang_and_chat_words_of_the_table() -> None:
    analyse = faq_search.analyse
    assert analyse("we redealt") == analyse("we redeal")
    assert "zzdraw" in analyse("gotta grab 5")
    assert "zzplay" in analyse("he smacked a seven down")
    assert analyse("who goes 1st") == analyse("who goes first")
    assert analyse("srsly ngl a queen") == analyse("a queen")
    assert faq_search.card_concepts("тузяк") == ["zzra"]
    assert analyse("he doesn't have it") == analyse("he has it")


def test_a_number_of_points_is_no_card() -> None:
    analyse = faq_search.analyse
    assert "zzr2" not in analyse("I'm on 99 and scored 2 more")
    assert "zzr7" not in analyse("она набрала ещё 7")
    assert "zzr8" not in analyse("it costs 8 points")
    assert "zzr7" in analyse("сколько очков за 7")


def test_one_person_is_one_player() -> None:
    assert faq_search.number_token("1") in faq_search.analyse("as soon as 1 person goes over")
    assert faq_search.number_token("1") in faq_search.analyse("один игрок перебрал")


def test_a_card_put_on_top_is_played_on_the_card_before() -> None:
    analyse = faq_search.analyse
    assert faq_search.onto_token("q") in analyse("мне кинули семёрку, а я сверху даму")
    assert faq_search.ONTO_SAME in analyse("он положил туза, а я сверху своего туза")


def test_a_card_played_as_the_first_move_is_the_first_card() -> None:
    assert faq_search.analysis.FIRST_CARD in faq_search.analyse("первым ходом положил пикового короля")
    assert faq_search.analysis.FIRST_CARD in faq_search.analyse("as the first move I played a seven")
    assert faq_search.analysis.FIRST_CARD not in faq_search.analyse("кто первым ходит")


@pytest.mark.parametrize("q", ["карты слиплись от сока, как их разлепить", "с какого возраста дети понимают эту игру",
                               "can we play in teams of two and add up the points",
                               "никто не заметил что я положил не ту карту, это считается",
                               "is he a cheater if he calls a suit he doesn't have",
                               "keep track of the cards played so far, any trick?"])
def test_subjects_around_the_table_that_no_rule_settles_get_no_answer(q: str) -> None:
    assert not faq_search.answer(q).answered


def test_a_number_of_cards_of_the_deck_is_no_card() -> None:
    analyse = faq_search.analyse
    assert "zzr7" not in analyse("у меня на руке семь карт")
    assert faq_search.number_token("8") in analyse("I still hold eight cards")
    assert "zzr5" in analyse("взять 5 карт")  # no five in the 36-card deck: left as the entries have it


def test_two_cards_of_a_rank_in_a_row_are_one_on_the_other() -> None:
    assert faq_search.ONTO_SAME in faq_search.analyse("two queens in a row")
    assert faq_search.ONTO_SAME in faq_search.analyse("две дамы подряд")
    assert faq_search.PAIR in faq_search.analyse("обе сразу положить")


def test_more_words_of_the_table() -> None:
    analyse = faq_search.analyse
    assert "zzredeal" in analyse("do we shuffle again")
    assert "zzplayer" in analyse("can my friend join in")


@pytest.mark.parametrize("q", ["is swearing ok at the table", "он долго думает над каждым ходом, можно его торопить",
                               "откуда название у этой игры",
                               "как ускорить игру, мы не успеваем", "какую карту лучше всего приберечь"])
def test_manners_names_and_pace_of_the_game_get_no_answer(q: str) -> None:
    assert not faq_search.answer(q).answered


def test_a_phrase_never_spans_two_keywords() -> None:
    engine = faq_search.search_engine()
    entry = engine.entries["card-points"]
    (column,) = engine.db.execute("SELECT kw_en FROM head WHERE slug = ?", (entry.slug,)).fetchone()
    parts = [*entry.en.keywords, entry.slug.replace("-", " ")]
    assert column.split() == [t for k in parts for t in faq_search.analyse(k)]


def test_a_card_named_to_compare_with_is_not_the_subject() -> None:
    assert faq_search.analyse("туз как семёрка") == faq_search.analyse("туз")
    assert "zzr7" not in faq_search.analyse("does an ace work like a seven")
    assert "zzr7" in faq_search.analyse("как семёрка действует")  # no card before: the seven is asked about


def test_the_card_played_onto_may_come_first() -> None:
    analyse = faq_search.analyse
    assert faq_search.ONTO_SAME in analyse("на семёрку положил семёрку")
    assert faq_search.onto_token("k") in analyse("на даму я положил короля")
    assert faq_search.onto_token("q") in analyse("on his ten I played a queen")


def test_having_no_card_of_a_suit_or_rank_is_having_nothing_to_play() -> None:
    nocard = faq_search.analysis.NO_CARD
    assert nocard in faq_search.analyse("у меня нет ни червей ни дам")
    assert nocard in faq_search.analyse("no hearts and no queen")
    assert nocard not in faq_search.analyse("у меня дама червей")


def test_the_neighbour_is_the_next_player() -> None:
    assert faq_search.analyse("does my neighbour draw") == faq_search.analyse("does the next player draw")


@pytest.mark.parametrize("q", ["can I go for a smoke in the middle of the game",
                               "во что ещё можно сыграть этой колодой", "в каком году появилась эта игра",
                               "i keep losing, any advice",
                               "какой рекорд по числу раундов", "what size should the table be for four"])
def test_breaks_records_and_other_games_of_the_deck_get_no_answer(q: str) -> None:
    assert not faq_search.answer(q).answered


def test_asking_for_the_rules_is_answered() -> None:
    found = faq_search.answer("объясните правила игры на вылет")
    assert found.answered and found.results[0].slug == "elimination-play"


def test_a_card_on_anything_is_played_onto_another_rank() -> None:
    assert faq_search.onto_token("q") in faq_search.analyse("можно ли кидать даму на любую карту")
    assert faq_search.onto_token("q") in faq_search.analyse("a queen on anything")


def test_the_card_just_drawn_and_nothing_that_fits() -> None:
    analyse = faq_search.analyse
    assert "zzdrawn" in analyse("can I play what I drew")
    assert "zzdrawn" in analyse("можно сразу положить взятую карту")
    assert faq_search.analysis.NO_CARD in analyse("у меня ничего не подходит")
    assert faq_search.analysis.NO_CARD in analyse("I had nothing")
    assert analyse("can a score be less than 0") == analyse("can a score be less than zero")


@pytest.mark.parametrize("q", ["which famous people liked playing cards", "my dog chewed the queen of spades",
                               "101 это игра на удачу или на мастерство? skill?",
                               "где купить новую колоду, старую покупали давно",
                               "сколько человек в мире играет"])  # a near tie with number-of-players
def test_the_world_pets_skill_and_buying_get_no_answer(q: str) -> None:
    assert not faq_search.answer(q).answered


def test_a_special_power_is_what_a_card_does() -> None:
    found = faq_search.answer("does 8♠ have any special power")
    assert found.answered and found.results[0].slug == "eight"


def test_cards_of_several_ranks_named_as_a_list_are_a_mixed_hand() -> None:
    others = faq_search.analysis.OTHERS
    analyse = faq_search.analyse
    for q in ("дама и две десятки", "a queen, a nine and an eight", "3 queens + a 10", "дама с другими картами"):
        assert others in analyse(q), q
    for q in ("две семёрки", "дама на десятку", "three queens", "a seven or an ace"):
        assert others not in analyse(q), q
    found = faq_search.answer("на руке дама, валет и девятка — сколько за даму?")
    assert found.results[0].slug in ("queens-among-cards", "card-points")


def test_a_second_card_of_a_rank_played_is_one_on_the_other() -> None:
    analyse = faq_search.analyse
    assert faq_search.ONTO_SAME in analyse("the second queen lands on the first one")
    assert faq_search.ONTO_SAME in analyse("he played another seven")
    assert faq_search.ONTO_SAME not in analyse("у меня второй туз на руке")  # no card played


def test_deciding_the_suit_the_same_card_and_an_empty_deck() -> None:
    analyse = faq_search.analyse
    assert faq_search.analysis.CALL_SUIT in analyse("who decides the suit")
    assert "zzdrawn" in analyse("can that same card be played")
    assert "zzempty" in analyse("в колоде не осталось карт")


@pytest.mark.parametrize("q", ["какая самая лучшая карта в этой игре", "how to guess what cards the others have",
                               "можно ли есть за столом, а то карты пачкаются", "who pays for the beer tonight"])
def test_the_best_card_reading_hands_food_and_paying_get_no_answer(q: str) -> None:
    assert not faq_search.answer(q).answered


def test_a_first_name_is_a_player_not_a_word_of_the_same_stem() -> None:
    analyse = faq_search.analyse
    assert faq_search.index.OFF_TOPIC not in analyse("а Костя говорит нельзя")  # «кости» are dice
    assert faq_search.index.OFF_TOPIC in analyse("кости бросить")
    assert faq_search.index.OFF_TOPIC in analyse("в буре как считать")  # a surname reading does not hide «бура»
    assert analyse("чё") == []  # a stop word first


def test_so_many_each_and_better_with_something_to_do() -> None:
    analyse = faq_search.analyse
    assert faq_search.analysis.EACH in analyse("раздаём по пять")
    assert faq_search.index.ASIDE in analyse("какие карты лучше скинуть первыми")
    assert faq_search.index.ASIDE in analyse("is it better to lead the ace")
    assert faq_search.index.ASIDE not in analyse("меньше очков лучше")


def test_a_place_weighs_more_than_a_word_of_the_table() -> None:
    kind = faq_search.morphology.word_kind
    assert kind("россии") == kind("берлине") == faq_search.morphology.PLACE


@pytest.mark.parametrize("q", ["а вы на что играете по пятницам", "можно играть с закрытыми глазами",
                               "сколько партий успеваем за вечер", "can we play on the floor"])
def test_stakes_blindfolds_evenings_and_floors_get_no_answer(q: str) -> None:
    assert not faq_search.answer(q).answered


@pytest.mark.parametrize("q", ["как перестать злиться на проигрыш",
                               "who wrote down the rules first", "how should I hold my cards",
                               "which card to keep for the end, any tips from pros"])
def test_odds_feelings_authors_and_holding_the_cards_get_no_answer(q: str) -> None:
    assert not faq_search.answer(q).answered


KNOWN_MISSES = "known misses of the learned model (docs/benchmarks.md, issue 12, rounds 7 to 16)"


@pytest.mark.xfail(strict=True, reason=KNOWN_MISSES)
@pytest.mark.parametrize("q, slug", [
    ("сколько игральных карт в колоде для сто одно", "deck-52"),  # answered «нет ответа»
    ("как играть в пьяницу вдвоём", None),  # answered: two-players (a near tie; it came and went)
    ("правила покера", None),  # answered: official-rules (a near tie; it came and went)
])
def test_what_the_learned_model_still_gets_wrong(q: str, slug: str | None) -> None:
    """Questions the index alone got right that the learned model gets wrong (its quirks on questions
    unlike any it was trained on); strict: a model that gets one right fails this, and it moves back."""
    found = faq_search.answer(q)
    if slug is None:
        assert not found.answered
    else:
        assert found.answered and slug in [r.slug for r in found.results[:3]]


@pytest.mark.parametrize("q", ["the highest score of all time in this game", "как лучше разложить карты в руке",
                               "можно ли играть пьяным", "can I deal with my left hand"])
def test_records_sorting_a_hand_drinking_and_the_dealing_hand_get_no_answer(q: str) -> None:
    assert not faq_search.answer(q).answered
