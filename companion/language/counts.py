"""Numbers said about cards (issue 21): how many a hand holds, and how many were drawn from the stock.

A number is checked rather than trusted. «у Сони три карты», «Кирилл с двумя картами», «у неё всего шесть:
туз, король…» say the size of a hand: the cards then named must match it, or the table is asked. «взяла
пять карт», «пять штрафных», «Свете две пришлось тянуть», «Роме две карты», «Вите пять карт в руку» say
cards drawn from the stock after a finishing seven or king of spades: they are not cards of their own
(a number of the hand's rank), and the hand they went into must hold at least that many, or it is asked.
`Counts` is that part of the reader (dictation._Reader).
"""

from __future__ import annotations

from companion.core.cards import Rank, fold
from companion.language.corrections import Corrections
from companion.language.settle import size_question
from companion.language.spoken_words import CARD_NOUNS, HESITATIONS, Tok, numeral

_ANOTHER = frozenset({"ещё", "еще"})  # «и ещё одна»
# A name in the dative («Тихону», «Юлию», «Свете», «Феде») before a number is who got the cards drawn; after a
# preposition («у Феди», «о Свете», «на Вове») it is not a dative.
_DATIVE = ("у", "ю", "е")
_GOVERNING = frozenset({"у", "о", "об", "на", "при", "в", "во", "с", "со", "по", "к", "ко", "от", "до", "из", "без"})
# Words between the name and the number of a draw: «Феде, значит, две», «Свете пришлось две», «Роме ещё пять».
_DRAW_BETWEEN = frozenset({"filler", "draw", "pause"})
# «у неё всего шесть: туз, король …», «а стало семь»: the size of the hand
_AFTER_DRAW = frozenset({"стало", "стала", "стали"})
_TOTAL = frozenset({"всего", "итого"}) | _AFTER_DRAW
_WAS = frozenset({"было", "была", "был", "были"})  # «было две карты, а стало семь»: the size before the draw
_CARD_WORDS = ("rank", "card", "suit-before")
_NUMBER_WORDS = frozenset({"пять", "шесть", "семь", "восемь", "девять", "десять"})  # not «шестёрка»: a card for sure
_NO_CARD = frozenset({Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE})  # no card of the 36-card deck: «Денису 2», «пять»


class Counts(Corrections):
    """The reader's state these checks read (the fields live in dictation._Reader)."""

    sizes: list[tuple[str, int]]
    plurals: list[str]
    draws: list[tuple[str, int]]
    numbers: list[tuple[str, int]]

    def counts_cards(self, tok: Tok, k: int) -> bool:
        """«три карты»: the size of the hand being said, checked once it is read; «взял две», «Свете две»: cards
        drawn from the stock, nothing held."""
        n = numeral(tok)
        if n is None:
            return False
        if self.penalty_to(k, n) or self.plus_drawn(k, n) or self.size_before_draw(k):
            return True
        nxt, noun = self.next(k), self.after(k)  # «семь, это, карт»: the card noun past a hesitation
        if nxt is None or noun is None:
            return False
        if self.drawn(k, nxt) or self.drawn(k, noun):  # «взяла пять карт», «пять карт прилетело», «пять штрафных»
            self.note_draw(n)
            return True
        if fold(noun.text) in CARD_NOUNS:
            nxt = noun
            if tok.kind == "count" and self.count_after(tok, k):  # «семёрок три штуки»: the count of the sevens
                return True
            said_before = self.before(k)
            if said_before is not None and fold(said_before.text) in _ANOTHER | {"плюс"}:  # «и ещё одна карта»
                self.result.unrecognised.append(f"{said_before.text} {tok.text} {nxt.text}")  # which? asked
                return True
            if self.current is not None:
                self.sizes.append((self.current, n))
            return True
        if self.total_said(k, n):
            return True
        if self.draw_before(k) and nxt.kind not in _CARD_WORDS:  # «взял две», «взял из колоды пять»
            self.note_draw(n)
            return True
        return False

    def size_before_draw(self, k: int) -> bool:
        """«было две карты, а стало семь», «была одна, стало шесть»: the hand's size before the draw, said with the
        size after it, is no card and no size of the hand now (the number after «стало» is, see `total_said`)."""
        before = self.before(k)
        if before is None or fold(before.text) not in _WAS or self.current is None:
            return False
        ahead = [fold(t.text) for t in self.toks[k + 1 : k + 5]]
        if not any(w in _AFTER_DRAW for w in ahead):
            return False
        if ahead and ahead[0] in CARD_NOUNS:
            self.consumed.add(k + 1)
        return True

    def draw_before(self, k: int) -> bool:
        """A draw word said before the number at `k`, the words between being fillers («взял из колоды пять»)."""
        at = k - 1
        while at >= 0 and k - at <= 3 and self.toks[at].kind == "filler" and fold(self.toks[at].text) != "у":
            at -= 1
        return at >= 0 and self.toks[at].kind == "draw"

    def note_draw(self, n: int) -> None:
        """Cards drawn by the player being said: their hand must hold at least that many («у Светы две штрафные и
        король»: the two drawn are not named, so the hand is asked)."""
        if self.current is not None:
            self.draws.append((self.current, n))

    def penalty_to(self, k: int, n: int) -> bool:
        """«Свете две пришлось тянуть», «Роме две карты», «Тихону две, у Тиши …», «Вите пять карт в руку»: a name in
        the dative, then a number with no card word after it, says cards drawn, given to that player («Прохору два
        валета» is Прохор's hand; «Гене две карты: король и валет» its size). The hand must then hold at least that
        many (checked in `ask_draws`)."""
        if not self.drawn_after(k):
            return False
        at = k - 1
        while at >= 0 and k - at <= 3 and self.toks[at].kind in _DRAW_BETWEEN and fold(self.toks[at].text) != "у":
            at -= 1
        if at < 0 or not self.dative(at):
            return False
        player = self.toks[at].player
        assert player is not None
        self.draws.append((player, n))
        return True

    def plus_drawn(self, k: int, n: int) -> bool:
        """«Денис плюс две, у него теперь …»: «плюс» and a number right after a name, before any card of the hand,
        says cards drawn (after cards, «туз плюс две карты» are cards not named: asked)."""
        before = self.before(k)
        if before is None or fold(before.text) != "плюс" or self.current is None or self.listed:
            return False
        if not self.drawn_after(k):
            return False
        self.note_draw(n)
        return True

    def drawn_after(self, k: int) -> bool:
        """What follows the number at `k` lets it be cards drawn: not a card («Прохору два валета»), not a hand's cards
        after a card noun («Гене две карты: король и валет»); a number that is also a card («семь») only before a
        card noun or a draw word."""
        if self.cards_follow(k):
            return False
        nxt = next((t for t in self.toks[k + 1 :] if t.kind != "pause" and fold(t.text) not in HESITATIONS), None)
        noun = nxt is not None and fold(nxt.text) in CARD_NOUNS
        card = self.toks[k].kind == "rank" and self.toks[k].rank not in _NO_CARD  # «семь», «7»: a card of the deck
        if card and not noun and (nxt is None or nxt.kind != "draw"):
            return False  # «Вите семь»: the card seven, or seven drawn? only «семь карт», «семь взял» say drawn
        return not (noun and nxt is not None and self.cards_follow(self.toks.index(nxt, k + 1)))

    def cards_follow(self, k: int) -> bool:
        """The cards of a hand come right after `k` (a card noun), not a new hand («…, у него теперь …») or a draw."""
        nxt = next((t for t in self.toks[k + 1 :] if t.kind != "pause" and fold(t.text) not in HESITATIONS), None)
        return nxt is not None and (nxt.kind in _CARD_WORDS or nxt.kind == "count")

    def dative(self, k: int) -> bool:
        """The player's name at `k` said in the dative: not after a preposition, in a dative ending."""
        tok = self.toks[k]
        governed = k > 0 and fold(self.toks[k - 1].text) in _GOVERNING
        return tok.kind == "player" and fold(tok.text).endswith(_DATIVE) and not governed and tok.player is not None

    def total_said(self, k: int, n: int) -> bool:
        """«у неё всего шесть: туз, король …», «итого три»: a number after «всего», «итого» is the hand's size, unless a
        rank in the genitive or plural follows («всего два туза»: two aces)."""
        before = self.before(k)
        if before is None or fold(before.text) not in _TOTAL or self.current is None:
            return False
        nxt = self.after(k)
        if nxt is not None and nxt.kind in _CARD_WORDS and (nxt.genitive or nxt.plural):
            return False
        self.sizes.append((self.current, n))
        return True

    def drawn(self, k: int, nxt: Tok) -> bool:
        """A number of cards drawn from the stock: a draw word before it, or right after it or its card noun (past
        hesitations: «тянула, это, две карты», «взял пять, короче, карт»)."""
        before = self.before(k)
        if nxt.kind == "draw":
            return True
        if fold(nxt.text) not in CARD_NOUNS:
            return False
        after = self.after(self.toks.index(nxt, k + 1))
        return (before is not None and before.kind == "draw") or (after is not None and after.kind == "draw")

    def hand_size_said(self, tok: Tok, nxt: Tok | None) -> bool:
        """«у Веры две десятка девятка», «три король дама валет»: a number before a rank in the nominative (two
        tens are «две десятки») counts the cards of the hand, not that rank: checked like «три карты»."""
        if nxt is None or nxt.kind != "rank" or nxt.genitive or nxt.plural or not nxt.text.isalpha():
            return False
        if not 2 <= tok.count <= 4 or tok.rank is not None and not tok.text.isalpha():
            return False
        if self.current is not None:
            self.sizes.append((self.current, tok.count))
        else:
            self.result.unrecognised.append(tok.text)
        return True

    def count_after(self, tok: Tok, k: int) -> bool:
        """A count said right after its cards: «дама пик одна» (the only one), «восьмёрки две», «тузов два» (a
        plural rank said without a number); «две дамы, червовая и ещё одна» (the card of the two left without a
        suit). Anything else («дама и ещё одна») is not read."""
        last, before = self.last, self.before(k)
        if last is None or last.dropped or last.finishing or before is None or last.said_at < 0:
            return False
        said = self.toks[last.said_at]
        if fold(before.text) in _ANOTHER:
            return tok.count == 1 and len(last.suits) >= 2 and last.suits.count(None) == 1
        if before is said and said.plural and len(last.suits) == 1 and tok.count >= 2:
            last.suits += [None] * (tok.count - 1)
            last.words.append(tok.text)
            self.plurals = [w for w in self.plurals if w != said.text]
            return True
        suit_said = before.kind in ("suit-after", "suit-before", "suit-letter")
        return tok.count == 1 and len(last.suits) == 1 and (before is said or suit_said)

    def numeral_first(self, tok: Tok, k: int) -> None:
        """«у него шесть: туз, туз, десятка …»: a number word said first in a hand, before other cards, may be the
        card six or the hand's size; checked in `ask_draws` (asked when the cards after it are as many)."""
        n = numeral(tok)
        nxt = next((t for t in self.toks[k + 1 :] if t.kind != "pause" and fold(t.text) not in HESITATIONS), None)
        if n is None or n < 5 or self.listed or self.current is None or nxt is None or nxt.kind not in _CARD_WORDS:
            return
        if tok.text.isalpha() and fold(tok.text) in _NUMBER_WORDS:
            self.numbers.append((self.current, n))

    def ask_draws(self) -> None:
        """A hand said to have drawn cards but holding fewer than that, or a number word said first in a hand with
        as many cards after it («шесть: туз, туз, …» six cards, or a six and six more?): the table is asked."""
        for player, n in dict(self.draws).items():
            named = len(self.result.hands.get(player, []))
            if named < n:
                self.result.questions.append(size_question(player, n, named))
        for player, n in dict(self.numbers).items():
            named = len(self.result.hands.get(player, []))
            if named == n + 1:
                self.result.questions.append(size_question(player, n, named))
