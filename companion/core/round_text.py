"""A whole round read from what people say or dictate (issue 10).

«Аня вышла дамой червей. У Бориса туз, король пик и семёрка.», "Boris: A K♠ 7",
"Anna went out with the queen of hearts" → who went out, on which card, and the
cards left in every hand that was named.

Pure and stdlib only. Word forms are looked up through a `lemmas` function the
caller passes (the app gives pymorphy3's normal forms, see companion/round_text.py);
without one, a small table of stems and endings here still reads the usual forms.
Nothing is guessed silently: a word that is not a name, a card or a known filler
is returned in `unrecognised`; a card whose suit was not said gets a free suit
only where the suit cannot change the points, and that is reported in `assumed`;
where it can (a queen, the king of spades option) the card is returned as
rank + "?" with a question.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.core.cards import (
    EN,
    RANK_LETTERS,
    RU,
    SUIT_LETTERS,
    SUIT_SYMBOLS,
    Card,
    Rank,
    Suit,
    card_word,
    deck,
    fold,
    read_notation,
)
from companion.core.errors import N_, Msg
from companion.core.rules import Options
from companion.core.scoring import card_points, is_special_queen

Lemmas = Callable[[str], Iterable[str]]

# -- the words ---------------------------------------------------------------
# Rank and suit words come from THE card vocabulary (core/cards.py: card_word,
# read_notation, the letter tables). Here: what only a spoken round needs.

# Number words that count cards but name no rank («один», "a pair"); «две», "three" and
# the like are numerals of the vocabulary and count when a rank follows («две десятки»).
_COUNTS: dict[str, int] = {
    "один": 1,
    "одна": 1,
    "одну": 1,
    "одного": 1,
    "одной": 1,
    "пара": 2,
    "пару": 2,
    "one": 1,
    "pair": 2,
}
_COUNTING_RANKS = {Rank.TWO: 2, Rank.THREE: 3, Rank.FOUR: 4}
# Saying who went out: «вышла», «закрылся», «выиграл», "went out", "won".
_WIN_LEMMAS = frozenset(
    {
        "выйти",
        "выходить",
        "выход",
        "закрыться",
        "закрывать",
        "закрыть",
        "закончить",
        "кончить",
        "выиграть",
        "победить",
        "out",
        "won",
        "win",
        "wins",
        "finished",
        "finishes",
        "closed",
    }
)
_WIN_STEMS = ("вышл", "вышел", "вышед", "закрыл", "законч", "кончил", "выигр", "побед")
# Words that carry nothing for the round: prepositions, «у», «есть», «осталось», pronouns, hesitations.
_FILLERS = frozenset(
    [
        "у",
        "и",
        "а",
        "но",
        "ещё",
        "еще",
        "есть",
        "осталось",
        "остались",
        "остался",
        "осталась",
        "оставалось",
        "на",
        "с",
        "со",
        "в",
        "во",
        "из",
        "от",
        "до",
        "по",
        "к",
        "ко",
        "руке",
        "руках",
        "рука",
        "рук",
        "карты",
        "карта",
        "карт",
        "карту",
        "картой",
        "карте",
        "картах",
        "картами",
        "последней",
        "последняя",
        "последнюю",
        "последняя",
        "последний",
        "последним",
        "последнее",
        "его",
        "её",
        "ее",
        "неё",
        "нее",
        "него",
        "них",
        "ним",
        "ней",
        "ей",
        "ему",
        "им",
        "она",
        "он",
        "они",
        "оно",
        "тоже",
        "также",
        "потом",
        "дальше",
        "ну",
        "так",
        "вот",
        "это",
        "то",
        "эта",
        "этот",
        "была",
        "был",
        "были",
        "было",
        "будет",
        "имеет",
        "держит",
        "держал",
        "держала",
        "нет",
        "ничего",
        "ничем",
        "пусто",
        "пустой",
        "пустая",
        "ни",
        "одной",
        "одной",
        "короче",
        "типа",
        "значит",
        "там",
        "тут",
        "вроде",
        "ой",
        "э",
        "ээ",
        "эээ",
        "эм",
        "ага",
        "да",
        "лишь",
        "только",
        "ход",
        "игрок",
        "игрока",
        "игроку",
        "масти",
        "масть",
        "ходом",
        "нету",
        "нечего",
        "пустые",
        "has",
        "have",
        "had",
        "holds",
        "hold",
        "held",
        "with",
        "and",
        "the",
        "a",
        "an",
        "of",
        "on",
        "in",
        "left",
        "hand",
        "hands",
        "cards",
        "card",
        "then",
        "also",
        "too",
        "last",
        "was",
        "is",
        "are",
        "plus",
        "her",
        "his",
        "their",
        "its",
        "went",
        "goes",
        "go",
        "gone",
        "um",
        "uh",
        "er",
        "erm",
        "hmm",
        "so",
        "okay",
        "ok",
        "like",
        "just",
        "only",
        "player",
    ]
)
_SENTENCE_END = frozenset({".", ";", "!", "\n"})

_RANK_LETTERS = {**RANK_LETTERS[EN], **RANK_LETTERS[RU]}
_SUIT_LETTERS = {**SUIT_LETTERS[EN], **SUIT_LETTERS[RU]}
# Single letters that are also everyday words count as a rank only when written in capitals.
_LETTERS_ONLY_CAPITAL = frozenset({"в", "к", "a"})

_TOKENS = re.compile(
    r"(?P<numcard>(?:10|[2-9])[пчбтк](?![^\W\d_]))|(?P<num>\d+)|(?P<suit>[♠♤♥♡♦♢♣♧])|(?P<q>\?)"
    r"|(?P<word>[^\W\d_]+(?:['’][^\W\d_]+)*)|(?P<end>[.;!\n])|(?P<pause>[,:—–]|\s-\s)",
    re.IGNORECASE,
)
MAX_TEXT = 2000
# Where a suit does not change the points, the free suit taken is the first in this order.
ASSUME_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)


# -- what comes out ------------------------------------------------------------


@dataclass(frozen=True)
class Question:
    """Something the table must answer or check; `template` is a message id, `params` fill it."""

    kind: str  # "which-suit" | "suit-assumed" | "no-finishing-card" | "no-winner" | "too-many" | "twice"
    template: Msg
    params: Mapping[str, Any]


@dataclass
class Slot:
    """One card as said: its rank, its suit if said or taken, whose it is."""

    rank: Rank
    suit: Suit | None
    owner: str
    finishing: bool = False
    assumed: bool = False
    word: str = ""

    @property
    def card(self) -> Card | None:
        return Card(self.rank, self.suit) if self.suit is not None else None

    @property
    def text(self) -> str:
        """Canonical card ("Q♥"), or rank + "?" while the suit is open."""
        card = self.card
        return str(card) if card is not None else f"{self.rank.value}?"


@dataclass
class ParsedRound:
    winner: str | None = None
    finishing: Slot | None = None
    hands: dict[str, list[Slot]] = field(default_factory=dict)
    unrecognised: list[str] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)

    @property
    def finishing_card(self) -> str | None:
        return self.finishing.text if self.finishing is not None else None

    def hand_texts(self) -> dict[str, list[str]]:
        return {player: [s.text for s in slots] for player, slots in self.hands.items()}

    @property
    def assumed(self) -> list[Slot]:
        slots = ([self.finishing] if self.finishing else []) + [s for ss in self.hands.values() for s in ss]
        return [s for s in slots if s.assumed]

    @property
    def exact(self) -> bool:
        """Every card known, nothing left over, nothing to ask but suits assumed: ready to post."""
        return (
            self.winner is not None
            and self.finishing is not None
            and not self.unrecognised
            and all(q.kind == "suit-assumed" for q in self.questions)
        )

    def to_json(self) -> dict[str, Any]:
        """The round body as far as it is known (questions and words are the web layer's to word)."""
        return {
            "winner": self.winner,
            "finishing_card": self.finishing_card,
            "hands": self.hand_texts(),
        }


# -- reading -------------------------------------------------------------------


@dataclass(frozen=True)
class _Tok:
    kind: str  # "player" | "rank" | "suit-after" | "suit-before" | "suit-any" | "count" | "win" | "card"
    #           | "unknown-suit" | "end" | "pause" | "and" | "filler" | "unknown" | "number"
    text: str
    player: str | None = None
    rank: Rank | None = None
    suit: Suit | None = None
    count: int = 0


def _no_lemmas(word: str) -> Iterable[str]:
    return ()


def _name_stem(name: str) -> str:
    return name[:-1] if len(name) > 2 and name[-1] in "аяоеыийь" else name


_NAME_ENDINGS = ("", "а", "я", "у", "ю", "ы", "и", "е", "ой", "ей", "ом", "ем", "ею", "ою", "ы", "'s", "’s", "s")


class _Names:
    """Finds the players in a word: «Бориса», «Ане», «у федора», "Anna's"."""

    def __init__(self, players: Sequence[str], lemmas: Lemmas) -> None:
        self.players = list(players)
        self.folded = {fold(p): p for p in players}
        self.lemmas = lemmas
        self.multi = sorted((tuple(fold(p).split()), p) for p in players if len(p.split()) > 1)

    def find(self, word: str) -> str | None:
        low = fold(word)
        for suffix in ("'s", "’s"):
            if low.endswith(suffix):
                low = low[: -len(suffix)]
        if low in self.folded:
            return self.folded[low]
        for lemma in self.lemmas(low):
            if fold(lemma) in self.folded:
                return self.folded[fold(lemma)]
        found = []
        for key, player in self.folded.items():
            stem = _name_stem(key)
            if " " not in key and len(stem) >= 2 and low.startswith(stem) and low[len(stem) :] in _NAME_ENDINGS:
                found.append((len(stem), player))
        return max(found)[1] if found else None


def _classify(word: str, names: _Names, lemmas: Lemmas) -> _Tok:
    player = names.find(word)
    if player is not None:
        return _Tok("player", word, player=player)
    low = fold(word)
    # one-letter ranks: В Д К Т, J Q K A (lower-case в, к and a are everyday words)
    if len(low) == 1:
        if low in _RANK_LETTERS and (low not in _LETTERS_ONLY_CAPITAL or word.isupper()):
            return _Tok("rank", word, rank=_RANK_LETTERS[low])
        if low in _SUIT_LETTERS:
            return _Tok("suit-letter", word, suit=_SUIT_LETTERS[low])
    if low in _FILLERS:
        return _Tok("and" if low in ("и", "and", "а", "плюс", "plus") else "filler", word)
    card = read_notation(word) if len(low) <= 3 and not (low in ("as", "ad") and not word.isupper()) else None
    if card is not None:  # written cards: Дч, Кп, QH, Тб
        return _Tok("card", word, rank=card.rank, suit=card.suit)
    forms = [low] + [fold(lemma) for lemma in lemmas(low)]
    for form in forms:
        if form in _COUNTS:
            return _Tok("count", word, count=_COUNTS[form])
        known = card_word(form)
        if known is not None and known.rank is not None:
            if known.numeral and known.rank in _COUNTING_RANKS:
                return _Tok("count", word, rank=known.rank, count=_COUNTING_RANKS[known.rank])
            return _Tok("rank", word, rank=known.rank)
        if known is not None and known.suit is not None:
            return _Tok("suit-before" if known.adjective else "suit-after", word, suit=known.suit)
        if form in _WIN_LEMMAS:
            return _Tok("win", word)
        if form in _FILLERS:
            return _Tok("filler", word)
    if any(low.startswith(stem) for stem in _WIN_STEMS):
        return _Tok("win", word)
    return _Tok("unknown", word)


def _tokens(text: str, names: _Names, lemmas: Lemmas) -> list[_Tok]:
    out: list[_Tok] = []
    words = [(m.lastgroup, m.group()) for m in _TOKENS.finditer(text)]
    i = 0
    while i < len(words):
        kind, value = words[i]
        if kind == "word":
            # a player's name of several words: «Анна Мария»
            multi = _multi_word_name(words, i, names)
            if multi is not None:
                player, used = multi
                out.append(_Tok("player", " ".join(v for _, v in words[i : i + used]), player=player))
                i += used
                continue
            out.append(_classify(value, names, lemmas))
        elif kind == "numcard":  # «6т», «10п»: a digit and a Cyrillic suit letter, written together
            card = read_notation(value)
            assert card is not None
            out.append(_Tok("card", value, rank=card.rank, suit=card.suit))
        elif kind == "num":
            out.append(_Tok("number", value, count=int(value) if len(value) <= 3 else 0))
        elif kind == "suit":
            out.append(_Tok("suit-letter", value, suit=SUIT_SYMBOLS[value]))
        elif kind == "q":
            out.append(_Tok("unknown-suit", value))
        elif kind == "end":
            out.append(_Tok("end", value))
        else:
            out.append(_Tok("pause", value))
        i += 1
    return out


def _multi_word_name(words: list[tuple[str | None, str]], i: int, names: _Names) -> tuple[str, int] | None:
    for parts, player in names.multi:
        n = len(parts)
        chunk = words[i : i + n]
        if len(chunk) == n and all(k == "word" for k, _ in chunk) and tuple(fold(v) for _, v in chunk) == parts:
            return player, n
    return None


def _number_as_rank(tok: _Tok, nxt: _Tok | None) -> tuple[str, int | Rank | None]:
    """A digit is a count before a rank word («2 туза»), else a rank («10 10 В»)."""
    n = tok.count
    if nxt is not None and nxt.kind == "rank" and not nxt.text[:1].isdigit() and len(nxt.text) > 1 and 1 <= n <= 4:
        return "count", n
    if 2 <= n <= 10:
        return "rank", Rank(str(n))
    return "unknown", None


def parse_round_text(
    text: str, players: Sequence[str], options: Options | None = None, lemmas: Lemmas | None = None
) -> ParsedRound:
    """Read a round from free text; see the module docstring for what is and is not guessed."""
    options = options or Options()
    lemmas = lemmas or _no_lemmas
    names = _Names(players, lemmas)
    toks = _tokens(text[:MAX_TEXT], names, lemmas)
    result = ParsedRound()
    slots: list[Slot] = []
    current: str | None = None  # whose cards are being said
    in_sentence: str | None = None  # the player named in this sentence (who a «вышла» is about)
    win_pending = False  # «Вышла …» before the name
    fallback: str | None = None  # …or, if no name follows, about the one before
    want_finish = False  # the next card said is the finishing card
    last: Slot | None = None  # a card a following «пик» / "of spades" can belong to
    suit_before: tuple[Suit, str] | None = None  # «пиковый …» waiting for its rank
    count: tuple[int, str] | None = None  # «две …» waiting for its rank

    def dangling() -> None:
        nonlocal suit_before, count
        if suit_before is not None:
            result.unrecognised.append(suit_before[1])
        if count is not None:
            result.unrecognised.append(count[1])
        suit_before = count = None

    nonlocal_listed = [False]  # cards were said since the last name: a «вышла» now is about the next name

    def add_card(rank: Rank, suit: Suit | None, word: str) -> None:
        nonlocal last, want_finish, suit_before, count
        if suit is None and suit_before is not None:
            suit = suit_before[0]
        how_many = count[0] if count is not None else 1
        suit_before = count = None
        if current is None and not want_finish:
            result.unrecognised.append(word)
            last = None
            return
        for k in range(how_many):
            slot = Slot(rank, suit if how_many == 1 else None, current or "", word=word)
            if want_finish and k == 0 and how_many == 1:
                slot.finishing = True
                slot.owner = result.winner or ""
                result.finishing = slot
                want_finish = False
            else:
                result.hands.setdefault(slot.owner, []).append(slot)
                nonlocal_listed[0] = True
            slots.append(slot)
        last = slots[-1] if how_many == 1 else None

    for k, tok in enumerate(toks):
        nxt = toks[k + 1] if k + 1 < len(toks) else None
        kind = tok.kind
        if kind == "number":
            what, value = _number_as_rank(tok, nxt)
            if what == "count":
                assert isinstance(value, int)
                count = (value, tok.text)
                continue
            if what == "rank":
                assert isinstance(value, Rank)
                kind, tok = "rank", _Tok("rank", tok.text, rank=value)
            else:
                result.unrecognised.append(tok.text)
                continue
        if kind == "player":
            dangling()
            if want_finish and tok.player != result.winner:
                want_finish = False
            current = in_sentence = tok.player
            nonlocal_listed[0] = False
            last = None
            if win_pending:
                result.winner, win_pending, want_finish, fallback = tok.player, False, True, None
        elif kind == "win":
            if in_sentence is not None and not nonlocal_listed[0]:  # «Аня вышла», "Anna went out"
                result.winner, want_finish, current = in_sentence, True, in_sentence
            else:  # «Вышла Вера», «у Бориса семёрка, вышла Аня»: the name follows
                win_pending, fallback = True, in_sentence
            last = None
        elif kind in ("rank", "card"):
            assert tok.rank is not None
            add_card(tok.rank, tok.suit, tok.text)
        elif kind in ("suit-after", "suit-letter"):
            assert tok.suit is not None
            if last is not None and last.suit is None:  # «король пик», "king of spades", "К ♠"
                last.suit = tok.suit
                last = None
            elif kind == "suit-after" and nxt is not None and nxt.kind == "rank":  # «пики: туз»
                suit_before = (tok.suit, tok.text)
            elif fold(tok.text) in _FILLERS:  # «к» is also a preposition
                continue
            else:
                result.unrecognised.append(tok.text)
        elif kind == "suit-before":  # «пиковый король»; «восьмёркой бубновой» after its rank
            dangling()
            assert tok.suit is not None
            if (nxt is None or nxt.kind not in ("rank", "number")) and last is not None and last.suit is None:
                last.suit = tok.suit
                last = None
            else:
                suit_before = (tok.suit, tok.text)
        elif kind == "count":
            if nxt is not None and nxt.kind in ("rank", "card"):  # «две десятки», "two tens"
                count = (tok.count, tok.text)
            elif tok.rank is not None and tok.text.isascii():
                add_card(tok.rank, None, tok.text)  # "two" alone: the rank (a 52-card deck has it)
            else:
                result.unrecognised.append(tok.text)
        elif kind == "unknown-suit":
            last = None  # "7?": said without a suit on purpose
        elif kind == "end":
            dangling()
            in_sentence = None
            last = None
        elif kind == "pause":
            last = None
        elif kind in ("and", "filler"):
            pass
        else:
            result.unrecognised.append(tok.text)
    dangling()
    if win_pending and fallback is not None and result.winner is None:  # «…у Бориса туз и вышел»: no name came
        result.winner = fallback
    _resolve(result, slots, options)
    return result


# -- suits not said ------------------------------------------------------------------


def _suit_matters(slot: Slot, result: ParsedRound, options: Options, free: set[Card]) -> bool:
    """Would the suit of this card change the points (and is a suit that does so still free)?"""
    candidates = [Card(slot.rank, s) for s in Suit if Card(slot.rank, s) in free]
    if len(candidates) <= 1:
        return False
    if slot.rank is Rank.QUEEN:
        special = [c for c in candidates if is_special_queen(c, options)]
        if not special:
            return False
        if slot.finishing:
            return options.queen_finish_points != options.queen_finish_special_points
        hand = result.hands.get(slot.owner, [])
        all_queens = bool(hand) and all(s.rank is Rank.QUEEN for s in hand)
        return options.queens_only and all_queens and options.queens_only_points != options.queens_only_special_points
    values = {card_points(c, options) for c in candidates}
    return len(values) > 1


def _resolve(result: ParsedRound, slots: list[Slot], options: Options) -> None:
    in_deck = set(deck(options.deck))
    free = set(in_deck)
    for slot in slots:
        card = slot.card
        if card is None:
            if Card(slot.rank, Suit.SPADES) not in in_deck:
                result.unrecognised.append(slot.word)
                _drop(result, slot)
            continue
        if card not in in_deck:
            result.unrecognised.append(slot.word)
            _drop(result, slot)
        elif card not in free:
            result.questions.append(
                Question("twice", N_("%(card)s is named twice; a deck has one of each card."), {"card": card})
            )
        else:
            free.discard(card)
    for slot in slots:
        if slot.suit is not None or slot not in _live(result):
            continue
        if _suit_matters(slot, result, options, free):
            continue
        choices = [s for s in ASSUME_ORDER if Card(slot.rank, s) in free]
        if not choices:
            continue
        # prefer a suit that changes nothing: not the special queen, not the king of spades
        plain = [
            s
            for s in choices
            if not (slot.rank is Rank.QUEEN and s.value == options.special_queen)
            and not (slot.rank is Rank.KING and s is Suit.SPADES)
        ]
        slot.suit = (plain or choices)[0]
        slot.assumed = True
        free.discard(Card(slot.rank, slot.suit))
    open_ranks: dict[Rank, int] = {}
    for slot in _live(result):
        if slot.suit is None:
            open_ranks[slot.rank] = open_ranks.get(slot.rank, 0) + 1
    for rank, n in open_ranks.items():
        left = sum(1 for s in Suit if Card(rank, s) in free)
        if n > left:
            result.questions.append(
                Question(
                    "too-many",
                    N_("More cards of rank %(rank)s are named than the deck has left; check who holds which."),
                    {"rank": rank},
                )
            )
    if result.winner is None:
        result.questions.append(Question("no-winner", N_("The text does not say who went out: tap the winner."), {}))
    elif result.finishing is None:
        result.questions.append(
            Question(
                "no-finishing-card",
                N_("The last card of %(player)s is not named: tap it in the grid."),
                {"player": result.winner},
            )
        )
    assumed: dict[str, list[Card]] = {}
    for slot in _live(result):
        if slot.suit is None:
            if any(q.kind == "too-many" and q.params.get("rank") is slot.rank for q in result.questions):
                continue
            if slot.finishing:
                template = N_("The last card of %(player)s is a queen: which one? The suit changes the points.")
            elif slot.rank is Rank.QUEEN:
                template = N_("%(player)s holds a queen: which one? The suit changes the points.")
            else:
                template = N_("%(player)s holds a king: is it the king of spades? It scores differently.")
            result.questions.append(Question("which-suit", template, {"player": slot.owner, "rank": slot.rank}))
        elif slot.assumed and slot.card is not None:
            assumed.setdefault(slot.owner, []).append(slot.card)
    for player, cards in assumed.items():
        result.questions.append(
            Question(
                "suit-assumed",
                N_(
                    "Suit not said, so assumed for %(player)s: %(cards)s (it does not change the points; "
                    "fix it in the grid if it is wrong)."
                ),
                {"player": player, "cards": tuple(cards)},
            )
        )


def _live(result: ParsedRound) -> list[Slot]:
    return ([result.finishing] if result.finishing else []) + [s for ss in result.hands.values() for s in ss]


def _drop(result: ParsedRound, slot: Slot) -> None:
    if result.finishing is slot:
        result.finishing = None
    else:
        hand = result.hands.get(slot.owner, [])
        if slot in hand:
            hand.remove(slot)
