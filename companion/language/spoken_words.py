"""The words of a round as said: each word of the text as one token the reader understands.

Rank and suit words come from THE card vocabulary (core/cards.py: card_word,
read_notation, the letter tables); player names from `player_names`. Here: what
only speech needs — counts («две», "a pair"), saying who went out («вышла»),
corrections («нет», «не», «вернее»), fillers, and card words misspelt by one
letter («кароль», «валед»: rapidfuzz's edit distance against the vocabulary).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Protocol

from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from companion.core.cards import (
    EN,
    RANK_LETTERS,
    RU,
    SUIT_LETTERS,
    CardWord,
    Rank,
    Suit,
    card_word,
    fold,
    read_notation,
    word_forms,
)
from companion.language.morphology import Morphology


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Number words that count cards but name no rank («один», "a pair"); «две», "three" and
# the like are numerals of the vocabulary and count when a rank follows («две десятки»).
COUNTS: dict[str, int] = {
    "один": 1, "одна": 1, "одну": 1, "одного": 1, "одной": 1, "пара": 2, "пару": 2, "парочка": 2, "парочку": 2,
    "двое": 2, "трое": 3, "четверо": 4,
    "one": 1, "pair": 2,
}
COUNTING_RANKS = {Rank.TWO: 2, Rank.THREE: 3, Rank.FOUR: 4}
# Saying who went out: «вышла», «закрылся», «выиграл», "went out", "won".
_WIN_LEMMAS = _words(
    "выйти выходить выход закрыться закрывать закрыть закончить кончить выиграть победить отстреляться освободиться "
    "избавиться отыграться доиграть слить добить выскочить выскакивать соскочить "
    "уйти уходить "
    "out won win wins finished finishes closed"
)
# Drawing from the stock («взял две», «набрала три»): the number after it counts drawn cards, not cards held.
_DRAW_LEMMAS = _words(
    "взять набрать добрать вытянуть тянуть брать прилететь штрафной получить вытащить тащить штраф собирать собрать "
    "прийти приходить"  # «Эрике две пришло»: came to her from the stock
)
# Playing a card («скинула даму пик и вышла»): the card played is the finishing card if «вышла» follows, else asked.
_PLAY_LEMMAS = _words(
    "скинуть скидывать выкинуть выкидывать выбросить выбрасывать сбросить сбрасывать положить класть кинуть выложить "
    "выкладывать сходить походить накрыть накрывать "
    "покрыть покрывать крыть побить сыграть отыграть разыграть play played plays laid dropped"
)
# Nouns that say a number counts cards («три карты»): the hand's size, checked against the cards then said.
CARD_NOUNS = frozenset({"карты", "карт", "карта", "карту", "картой", "картою", "карте", "картам", "картами", "картах",
                        "штуки", "штук", "штука", "штуку", "штукой", "штуками", "штуках", "cards", "card"})
_WIN_STEMS = ("вышл", "вышел", "вышед", "закрыл", "законч", "кончил", "выигр", "побед", "слил", "добил")
# Taking back what was just said: «нет», «вернее», «ой»; «не» before a card says which one is wrong.
_CORRECTIONS = _words(
    "нет нету наоборот вернее точнее ой погоди подожди ошибся ошиблась ошибка поправка стоп отмена перепутал "
    "перепутала спутал спутала путаю пардон извини извините сорри сорян упс тьфу поправочка точней верней отставить "
    "вру соврал соврала наврал наврала брешу сбрехал "  # «ой нет вру»: «I lied», said as «ошиблась»
    "неправильно неверно no sorry oops actually wait"
)
CORRECTION_PHRASES = frozenset({("то", "есть"), ("в", "смысле"), ("i", "mean")})  # «король, то есть туз»
ABSENT = frozenset({"нет", "нету"})  # «короля нет», «нет тузов»: the card is not there
# Verbs of holding: «у Сони карт не осталось», «туза не было», «ничего не осталось» (the «не» is about holding)
HOLDING = frozenset({"осталось", "остались", "остался", "осталась", "оставалось", "было", "был", "была", "были",
                     "имеет", "держит", "лежит"})
_NEGATIONS = frozenset({"не", "not"})
# «не помню», «не знаю», «никто не помнит»: what follows is not known (corrections.Corrections.forgotten)
FORGETTING = frozenset({"помню", "помнит", "помним", "помнят", "помнишь", "знаю", "знает", "знаем", "знают",
                        "уверен", "уверена", "запомнил", "запомнила", "видел", "видела", "разглядел", "разглядела",
                        "понял", "поняла", "слышал", "слышала", "расслышал", "расслышала", "вспомню", "вспомнил",
                        "вспомнила", "заметил", "заметила", "разобрал", "разобрала", "разобрали", "рассмотрел",
                        "рассмотрела", "уловил", "уловила", "успел", "успела", "успели", "sure"})
FORGOT = frozenset({"забыл", "забыла", "забыли", "запамятовал", "запамятовала"})  # «забыла, что у Дениса»
# The one who dictates is a player too, but which? «у меня семёрка», «я вышла»: asked, never the player named before.
SPEAKER = frozenset({"я", "меня", "мне", "мной", "мною", "мой", "моя", "мое", "мои", "моих", "моим", "i", "me", "my"})
OR = frozenset({"или", "либо", "or"})  # «пик или треф»: the suit is not known
# Words that carry nothing for the round: prepositions, «у», «есть», «осталось», pronouns, hesitations.
FILLERS = _words(
    """у и а но ещё еще есть осталось остались остался осталась оставалось на с со в во из от до по к ко
    руке руках рука рук карты карта карт карту картой карте картах картами последней последняя последнюю
    последний последним последнее его её ее неё нее него них ним ней ей ему им она он они оно тоже также
    потом дальше ну так вот это то эта этот была был были было будет имеет держит держал держала ничего
    ничем пусто пустой пустая ни одной короче типа значит там тут вроде э ээ эээ эм ага да лишь только
    ход игрок игрока игроку масти масть ходом нечего пустые говорю сказал сказала самое как досталось
    досталась достался достались кроме теперь итоге всего помню знаю уверен уверена
    писать записать записывать отметить отмечать ставить поставить слушать смотреть итак далее общий ладно
    хорошо блин сидеть следующий набраться накопиться скопиться собраться остаться оставаться иметься лежать
    первый опять снова наконец все итого оба обе both мы больше
    кон конец раунд партия игра круг чисто хотя штука другой второй третий прийтись пришлось что ты кто
    уже вообще бы целый целых свой точно наверняка диктовать продиктовать говорит говорят говорить где чистый же
    никто помнить нечто полный полная очко очки очков колода прикуп стать плюс подарок сверху
    давать дать понять слышать видеть считать посчитать подсчитать вспомнить вспоминать подумать
    забыть запамятовать запомнить разглядеть расслышать заметить сказать разобрать рассмотреть уловить
    успеть посмотреть глянуть взглянуть увидеть подсмотреть
    застрять попасть попасться зависнуть влипнуть влететь погореть пролететь залететь проиграть продуть подвиснуть
    has have had holds hold held with and the a an of on in left hand hands cards card then also too
    last was is are plus her his their its went goes go gone um uh er erm hmm so okay ok like just only
    player"""
)
# Remarks and table talk («кошмар», «бедняга», «поехали», «секунду», «мужики»): not read at all (in_context.tokens
# leaves them out), so that nothing around them changes («на даме, на, кошмар, даме червей» is a repeat still).
_REMARK_LEMMAS = _words(
    """кошмар ужас жесть капец прикол класс бедняга бедолага везунчик красота обидно жаль поехать внимание готовый
    секунда секундочка минутка момент получаться результат счет друг девочка мальчик мужик господин коллега норм ок
    окей добро офигеть обалдеть жуть беда несчастный счастливчик бедный кстати молодец умница красава повезти ура
    пожалуйста ребята народ пацаны прикинуть прикинь представляешь пропускать пропустить неважно"""
)
_AND = frozenset({"и", "and", "а", "плюс", "plus"})
# Words said while thinking («ну», «э», «короче»): nothing between two words that belong together.
HESITATIONS = _words(
    "ну э ээ эээ эм вот это короче значит так типа пиши ага там тут вроде слушай смотри блин ладно um uh er"
)

# What a word says by itself, the first set that holds it: the words as written …
_WORD_KINDS: tuple[tuple[frozenset[str], str], ...] = (
    (SPEAKER, "speaker"), (_CORRECTIONS, "correct"), (_NEGATIONS, "not"), (OR, "or"), (_AND & FILLERS, "and"),
    (FILLERS, "filler"),
)
# … and the dictionary forms of a word (after the counts and card words).
_LEMMA_KINDS: tuple[tuple[frozenset[str], str], ...] = (
    (_WIN_LEMMAS, "win"), (_DRAW_LEMMAS, "draw"), (_PLAY_LEMMAS, "play"), (FILLERS, "filler"),
    (_REMARK_LEMMAS, "remark"),
)

RANK_LETTERS_ALL = {**RANK_LETTERS[EN], **RANK_LETTERS[RU]}
_SUIT_LETTERS = {**SUIT_LETTERS[EN], **SUIT_LETTERS[RU]}
# Single letters that are also everyday words count as a rank only when written in capitals.
_LETTERS_ONLY_CAPITAL = frozenset({"в", "к", "a"})

TOKENS = re.compile(
    r"(?P<numrank>(?:10|[2-9])-?(?:ками|кам|ках|кой|ка|ке|ки|ку|ок)(?![^\W\d_]))"  # «10ке», «7-ка», «6ки»
    r"|(?P<numcard>(?:10|[2-9])[пчбтк](?![^\W\d_]))|(?P<num>\d+)|(?P<suit>[♠♤♥♡♦♢♣♧])|(?P<q>\?)"
    r"|(?P<word>[^\W\d_]+(?:['’][^\W\d_]+)*)|(?P<end>[.;!\n])|(?P<pause>[,:—–]|\s-\s)",
    re.IGNORECASE,
)
TYPO_MIN_LENGTH = 3  # «тус»; below 5 letters the first letter must be right too


@dataclass(frozen=True)
class Tok:
    # "player" | "ambiguous" | "stranger" | "rank" | "card" | "suit-after" | "suit-before" | "suit-letter"
    # | "count" | "number" | "win" | "correct" | "not" | "unknown-suit" | "end" | "pause" | "and" | "filler"
    # | "draw" | "play" | "or" | "speaker" | "hedge" | "remark" (left out by in_context.tokens) | "unknown"
    kind: str
    text: str
    player: str | None = None
    players: tuple[str, ...] = ()  # the players an ambiguous name could be
    rank: Rank | None = None
    suit: Suit | None = None
    count: int = 0
    genitive: bool = False  # a rank word that can be a genitive («короля», «тузов»)
    plural: bool = False  # a plural suit adjective («червовые»): the suit of every card just said; a plural rank
    played: bool = False  # a play verb said with «последней»: «Тома даму червей последней кинула» (a win)
    guessed: bool = False  # a name read one letter off («Бариса»: asked); a card typo that is also a name («Пети»)
    suits: tuple[Suit, ...] = ()  # "unknown-suit" said by a colour («дама красная»): the suits the card may have


class Names(Protocol):
    def match(self, word: str) -> tuple[str, ...]: ...

    def match_typo(self, word: str) -> tuple[str, ...]: ...

    def is_pet_name(self, word: str) -> bool: ...

    def by_root(self, word: str) -> tuple[str, ...]: ...

    def multi_word(self, words: Sequence[str]) -> tuple[str, int] | None: ...

    def genders(self, player: str) -> tuple[str | None, ...]: ...


def player_token(word: str, players: tuple[str, ...], guessed: bool = False) -> Tok:
    if len(players) == 1:
        return Tok("player", word, player=players[0], guessed=guessed)
    return Tok("ambiguous", word, players=players)


def _letter_token(word: str, low: str) -> Tok | None:
    """One-letter ranks: В Д К Т, J Q K A (lower-case в, к and a are everyday words); suit letters."""
    if low in RANK_LETTERS_ALL and (low not in _LETTERS_ONLY_CAPITAL or word.isupper()):
        return Tok("rank", word, rank=RANK_LETTERS_ALL[low])
    if low in _SUIT_LETTERS:
        return Tok("suit-letter", word, suit=_SUIT_LETTERS[low])
    return None


def card_word_token(word: str, known: CardWord) -> Tok:
    if known.rank is not None:
        if known.numeral and known.rank in COUNTING_RANKS:
            return Tok("count", word, rank=known.rank, count=COUNTING_RANKS[known.rank])
        return Tok("rank", word, rank=known.rank, plural=known.plural)
    return Tok("suit-before" if known.adjective else "suit-after", word, suit=known.suit,
               plural=known.adjective and known.plural)


def _kind_of(low: str, table: tuple[tuple[frozenset[str], str], ...]) -> str | None:
    """The kind of the first word set of `table` that holds `low`."""
    return next((kind for words, kind in table if low in words), None)


def _form_token(word: str, form: str) -> Tok | None:
    """What one form of a word (as written, or a dictionary form of it) says, if anything."""
    if form in COUNTS:
        return Tok("count", word, count=COUNTS[form])
    known = card_word(form)
    if known is not None:
        return card_word_token(word, known)
    kind = _kind_of(form, _LEMMA_KINDS)
    return Tok(kind, word) if kind is not None else None


def _small_word(word: str, low: str) -> Tok | None:
    kind = _kind_of(low, _WORD_KINDS)
    if kind is not None:
        return Tok(kind, word)
    if len(low) <= 3 and not (low in ("as", "ad") and not word.isupper()):
        card = read_notation(word)
        if card is not None:  # written cards: Дч, Кп, QH, Тб
            return Tok("card", word, rank=card.rank, suit=card.suit)
    return None


def classify(word: str, names: Names, morphology: Morphology) -> Tok:
    """One word of the text as a token: a player, a card word, a count, a filler … or unknown."""
    players = names.match(word)
    if players:
        return player_token(word, players)
    low = fold(word)
    found = _letter_token(word, low) if len(low) == 1 else None
    found = found or _small_word(word, low)
    if found is not None:
        return found
    for form in [low, *(fold(lemma) for lemma in morphology.lemmas(low))]:
        found = _form_token(word, form)
        if found is not None:
            if found.kind == "rank" and _card_genitive(form, low, morphology):
                return replace(found, genitive=True)
            return found
    if any(low.startswith(stem) for stem in _WIN_STEMS):
        return Tok("win", word)
    return _guess(word, low, names, morphology)


def _card_genitive(form: str, low: str, morphology: Morphology) -> bool:
    """«короля», «тузов», «десятки»: a genitive of the card word itself (after or before «нет»: not there)."""
    known = card_word(form)
    return known is not None and fold(known.lemma) in {fold(lemma) for lemma in morphology.genitive_lemmas(low)}


# Sounds made while thinking, drawn out as people type or a phone hears them: «ммм», «хмм», «эмм», «эээм», «ааа»
_SOUND = re.compile(r"[эаых]*м+|э+|а{3,}")


def _guess(word: str, low: str, names: Names, morphology: Morphology) -> Tok:
    """A word read by nothing above: a card word or a player's name one letter off, or a name of nobody here."""
    if len(low) >= 2 and _SOUND.fullmatch(low):
        return Tok("filler", word)
    a_name = names.is_pet_name(word) or (morphology.known(low) and morphology.person_name(word))
    if not a_name and _clipped_hesitation(low, morphology):
        return Tok("filler", word)
    if not a_name and _remark(low, morphology):
        return Tok("remark", word)
    typo = None if morphology.common_word(low) else card_word_typo(low)
    if typo is not None:  # «кароль»; but «Пети» is also a name: after «у» it is read as one
        return replace(card_word_token(word, typo), guessed=a_name)
    players = names.by_root(word) if a_name and not morphology.common_word(low) else ()
    if players:  # «Сёме», «Ростика»: a pet name the table lacks, by its root
        return player_token(word, players)
    unknown_word = not morphology.known(low) and not names.is_pet_name(word)  # «Маша» is never a typo of «Миша»
    players = names.match_typo(word) if unknown_word else ()
    if players:
        return player_token(word, players, guessed=True)
    if a_name:
        return Tok("stranger", word)
    return Tok("unknown", word)


# Adverbs that say something of the round, never remarks: who had what the other way round, taken back, again,
# how many («дважды»), together; interjections that may take back what was just said.
_NOT_REMARKS = _words(
    "наоборот назад обратно заново сначала иначе правильно верно дважды трижды четырежды "
    "вдвоем втроем вчетвером поровну пополам вместе отдельно сверху снизу раньше вначале изначально прежде сперва "
    "ах ох эх ух ай фу опа оп опс черт елки "  # interjections that may take back the card just said
    "наверное кажется видимо вероятно похоже возможно небось авось поди"  # hedges: the card is not sure, asked
)


def _remark(low: str, morphology: Morphology) -> bool:
    """«ого», «ха», «как обычно», «красиво»: an interjection, a particle or an adverb said in passing (the adverbs
    that say something of the round aside) carries nothing."""
    return low not in _NOT_REMARKS and morphology.remark(low)


def _clipped_hesitation(low: str, morphology: Morphology) -> bool:
    """«короч», «знач»: a word of no dictionary that is a hesitation with its last letter or two swallowed, as people
    say them; read before the card words one letter off («короч» is also one letter off «король»)."""
    return len(low) >= 4 and not morphology.known(low) and any(
        h.startswith(low) and 0 < len(h) - len(low) <= 2 for h in HESITATIONS)


def _hard(word: str) -> str:
    return word.replace("ь", "").replace("ъ", "")


@lru_cache(maxsize=1)
def _vocabulary() -> dict[str, tuple[str, ...]]:
    """The Russian card words under their spelling without «ь» (people and phones drop it: «карол», «вальт»)."""
    spellings: dict[str, list[str]] = {}
    for form in word_forms():
        if len(form) >= TYPO_MIN_LENGTH and not form.isascii():
            spellings.setdefault(_hard(form), []).append(form)
    return {hard: tuple(forms) for hard, forms in spellings.items()}


@lru_cache(maxsize=4096)
def card_word_typo(low: str) -> CardWord | None:
    """The card word one letter away from `low` («кароль» → «король»), a soft sign aside («карол»), if exactly one
    meaning is."""
    if len(low) < TYPO_MIN_LENGTH or low.isascii():
        return None
    near = process.extract(_hard(low), list(_vocabulary()), scorer=Levenshtein.distance, score_cutoff=1, limit=8)
    if len(low) < 5:
        near = [n for n in near if n[0][0] == low[0]]
    nearest = min((distance for _, distance, _ in near), default=0)  # «десятька»: десятка, not девятка
    forms = [word_forms()[form] for hard, distance, _ in near if distance == nearest for form in _vocabulary()[hard]]
    if not forms or len({(w.rank, w.suit) for w in forms}) != 1:
        return None
    return min(forms, key=lambda w: not w.adjective)  # «пиквой»: пиковой


@lru_cache(maxsize=1024)
def suit_word_typo(low: str) -> CardWord | None:
    """The suit word one letter away from `low` where a suit is awaited («трев»: треф, though «трех» is as near),
    if exactly one suit is."""
    if len(low) < TYPO_MIN_LENGTH or low.isascii():
        return None
    near = process.extract(_hard(low), list(_vocabulary()), scorer=Levenshtein.distance, score_cutoff=1, limit=12)
    forms = [word_forms()[form] for hard, _, _ in near for form in _vocabulary()[hard] if hard[0] == low[0]]
    suits = [w for w in forms if w.suit is not None and w.rank is None and not w.adjective]
    if len({w.suit for w in suits}) != 1:
        return None
    return suits[0]


def past_hesitations(toks: Sequence[Tok], k: int, step: int = 1) -> int:
    """The index of the first word from `k` on (back, with step -1) that is no comma and no hesitation («ну», «э»);
    len(toks) or -1 if there is none."""
    while 0 <= k < len(toks) and (toks[k].kind == "pause" or fold(toks[k].text) in HESITATIONS):
        k += step
    return k


def word_past_hesitations(toks: Sequence[Tok], k: int, step: int = 1) -> Tok | None:
    """The word `past_hesitations` finds from `k`, or None at either end."""
    at = past_hesitations(toks, k, step)
    return toks[at] if 0 <= at < len(toks) else None


def numeral(tok: Tok) -> int | None:
    """How many a number word or digits say («три», "3", «пять»), if the token is one."""
    if tok.kind in ("count", "number"):
        return tok.count or None
    if tok.kind == "rank" and tok.text.isdigit():  # «Денису 2»: digits read as a rank
        return int(tok.text)
    known = card_word(fold(tok.text)) if tok.kind == "rank" else None
    if known is not None and known.numeral and tok.rank is not None and tok.rank.value.isdigit():
        return int(tok.rank.value)
    return None


def number_as(tok: Tok, nxt: Tok | None) -> Tok:
    """A digit is a count before a rank word («2 туза»), else a rank («10 10 В»)."""
    n = tok.count
    if nxt is not None and fold(nxt.text) in CARD_NOUNS:
        return Tok("count", tok.text, count=n)
    if nxt is not None and nxt.kind == "rank" and not nxt.text[:1].isdigit() and len(nxt.text) > 1 and 1 <= n <= 4:
        return Tok("count", tok.text, count=n)
    if 2 <= n <= 10:
        return Tok("rank", tok.text, rank=Rank(str(n)))
    return Tok("unknown", tok.text)
