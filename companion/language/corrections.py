"""Corrections as people say them, for the dictation reader (issue 21): only the version said last counts.

«семёрка, нет, восьмёрка» and «не семёрка, а восьмёрка» replace a card; «туз, не, два
туза» and «две десятки, нет, одна» its count; «на даме пик, нет, треф» its suit; «короля
нет» takes it back; «у Бори, ой, у Димы» and «вышла Вера, ой, нет, Глеб» replace a name.
A correction whose reach is not clear («у Бори король, нет, у Димы туз») is asked, never
guessed. A card said again is one card: «на даме, на даме червей», «на даме пик, на даме
пик», «…, только туз». `Corrections` is the part of the reader (dictation._Reader) that does this.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.core.cards import Rank, Suit, fold
from companion.language.settle import ParsedRound
from companion.language.spoken_words import (
    ABSENT,
    FORGETTING,
    FORGOT,
    HESITATIONS,
    HOLDING,
    Tok,
    past_hesitations,
    word_past_hesitations,
)

CARDS = ("rank", "card")
CARD_SAID = ("rank", "card", "suit-after", "suit-letter")  # a card said, its suit after it or not
SKIPPED = ("filler", "and")
EVERY_HAND = "*"  # in `unclear`: hands mixed up, none is given
ONLY = frozenset({"только", "лишь", "only"})
_MORE = frozenset({"и", "ещё", "еще", "тоже", "также", "плюс", "and", "also", "plus"})  # a card said again is another
_SWAPPED = frozenset({"наоборот"})  # «у Бори туз, у Ани король, ой, наоборот»: hands swapped, which? asked
_MIXED_UP = frozenset({"перепутал", "перепутала", "спутал", "спутала", "путаю", "перепутали", "mixed"})
_WHICH = frozenset({"какая", "какой", "какую", "какие", "каких", "масти", "масть"})  # «не помню какая»: the suit
_ABOUT_SUIT = frozenset({"suit-after", "suit-before", "suit-letter", "count", "pause", "and"})
_OTHER_ONE = frozenset({"вторая", "второй", "вторую", "другая", "другой", "другую", "я"})  # «а (это) вторая»
_WHAT = frozenset({"что", "какие", "какая", "какой", "сколько", "what", "how"})  # «не помню, что у него»
_ABOUT_IT = frozenset({"filler", "pause", "play", "unknown", "draw", "speaker", "hedge"})  # «что было, он уже сбросил»
# «не помню, то ли две карты, то ли три»: guesses about the hand not remembered, cards and counts too
_GUESSED = _ABOUT_IT | {"count", "number", "rank", "card", "suit-after", "suit-before", "suit-letter", "or", "and"}


@dataclass
class Group:
    """Cards said together: a rank, a suit per card (None while not said), whose."""

    rank: Rank
    suits: list[Suit | None]
    words: list[str]
    owner: str | None = None  # a player; None while nobody is named (or a stranger is)
    stranger: int | None = None  # index of the unknown or ambiguous name it went to
    finishing: bool = False
    dropped: bool = False
    said_at: int = -1  # index of the token that said it
    open_count: bool = False  # «короли»: a plural rank said without a number; suits listed after it count
    counted: bool = False  # said with its number («одна дама», «две десятки»)
    within: tuple[Suit, ...] = ()  # said by its colour («дама красная»): the suits its card may have

    def fill(self, suit: Suit, word: str) -> bool:
        """Give the suit to the first card of the group that has none."""
        for i, s in enumerate(self.suits):
            if s is None:
                self.suits[i] = suit
                self.words.append(word)
                return True
        return False


class Corrections:
    """The reader's state that corrections read and change (the fields live in dictation._Reader)."""

    toks: list[Tok]
    result: ParsedRound
    groups: list[Group]
    orphans: list[Group]
    current: str | None
    stranger: int | None
    in_sentence: str | None
    want_finish: bool
    listed: bool
    last: Group | None
    replace: Group | None
    negating: bool
    retract: bool
    named_winner: str | None
    consumed: set[int]
    correction: str
    moved: Group | None
    moved_from: tuple[str | None, int | None]
    doubts: list[str]
    unclear: list[str | None]
    clause: int
    paused: bool

    def next(self, k: int, skip: tuple[str, ...] = ()) -> Tok | None:
        for tok in self.toks[k + 1 :]:
            if tok.kind not in skip:
                return tok
        return None

    def after(self, k: int) -> Tok | None:
        """The token said after `k`, hesitations («ну», «э») aside."""
        return next((t for t in self.toks[k + 1 :] if fold(t.text) not in HESITATIONS), None)

    def before(self, k: int) -> Tok | None:
        """The token said before `k`, commas and hesitations («ну», «короче») aside."""
        return next((t for t in reversed(self.toks[:k]) if t.kind != "pause" and fold(t.text) not in HESITATIONS),
                    None)

    def take_place_of_last_name(self, player: str) -> None:
        """A name right after a correction: «вышла Вера, ой, Глеб» makes Глеб the winner; «у Бори туз, нет, у
        Димы» gives the ace to Дима (and a card said now still replaces it); «у Нонны семёрка, нет, у Нонны
        восьмёрка» names the same hand again: nothing moves."""
        if self.retract and self.named_winner is not None and self.result.winner == self.named_winner:
            self.result.winner = self.named_winner = player
            self.want_finish = self.result.finishing is None
        else:
            self.named_winner = None
        if self.replace is not None and (self.replace.owner, self.replace.stranger) == (player, None):
            self.moved_from = (player, None)  # the same hand named again: nothing moves
            if len([g for g in self.groups if g.owner == player and not g.dropped and not g.finishing]) > 1:
                self.doubts.append(self.correction or player)  # «семёрка и дама, нет, у Нонны восьмёрка»: which?
                self.unclear.append(player)
        elif self.replace is not None:
            if self.moved is not self.replace:  # «у Лизы валет, нет, у Арины, у Марка»: still Лиза's that moved
                self.moved_from = (self.replace.owner, self.replace.stranger)
            self.replace.owner, self.replace.stranger = player, None
            self.moved = self.replace
        self.retract, self.negating = False, False
        self.current, self.stranger, self.in_sentence, self.listed = player, None, player, self.replace is not None

    def absent(self, tok: Tok, k: int) -> bool:
        """«короля нет», «нет тузов»: the card is not there; the one said before is taken back."""
        before = next((t for t in reversed(self.toks[:k]) if t.kind not in SKIPPED or fold(t.text) in ONLY), None)
        after = self.next(k, SKIPPED)  # «нет, только десятка»: «только» says what is there
        said_before = before is not None and before.kind == "correct" and fold(before.text) in ABSENT
        said_after = after is not None and after.kind == "correct" and fold(after.text) in ABSENT
        not_held = after is not None and after.kind == "not" and self.not_held_after(self.toks.index(after, k + 1))
        if not tok.genitive or not (said_before or said_after or not_held):
            return False
        if (said_after or not_held) and after is not None:
            self.consumed.add(self.toks.index(after, k + 1))
        assert tok.rank is not None
        self.negating = False
        self.negate(tok.rank, tok.suit)
        if self.replace is not None:
            self.replace.dropped = True
        self.replace = None
        return True

    def not_held_after(self, k: int) -> bool:
        """«не было», «не осталось» after the «не» at `k` («туза не было»: the ace is not there); both are read."""
        nxt = self.after(k)
        if nxt is None or fold(nxt.text) not in HOLDING:
            return False
        self.consumed.add(self.toks.index(nxt, k + 1))
        return True

    def negate(self, rank: Rank, suit: Suit | None) -> None:
        """«не семёрка»: the latest group of that rank is dropped; what is said next takes its place."""
        self.negating = False
        candidates = [self.replace] if self.replace is not None else []
        candidates += [g for g in reversed(self.groups) if g.owner == self.current and g.stranger == self.stranger]
        for group in candidates:
            if group.rank is rank and not group.dropped and (suit is None or suit in group.suits):
                group.dropped, self.replace = True, group  # gone, even if nothing is said in its place
                return
        # said not to be there before it was said: what follows takes its place all the same («не три туза, а два»)
        self.replace = Group(rank, [suit], [], self.current, self.stranger, finishing=self.want_finish, dropped=True)

    def recount(self, rank: Rank, how_many: int) -> bool:
        """«три туза, не два туза»: the cards just said, said again with another count after «не», are corrected
        (it is the count that was wrong); what follows adds to the hand."""
        last = self.last
        if last is None or last.dropped or last.rank is not rank or len(last.suits) == how_many:
            return False
        self.negating, self.replace = False, last
        return True

    def correct_suit(self, tok: Tok, nxt: Tok | None) -> bool:
        """«на даме пик, нет, треф»: only the suit is taken back."""
        group = self.replace
        if group is None or (nxt is not None and nxt.kind in CARDS) or len(group.suits) != 1:
            return False
        assert tok.suit is not None
        group.suits, self.replace, self.last = [tok.suit], None, group
        group.words.append(tok.text)
        return True

    def on_correct(self, tok: Tok, k: int) -> None:
        """«нет», «вернее», «ой»: what is said next replaces the cards just said, or the name just said. «перепутал»
        and then a name: hands mixed up, which of them? asked."""
        self.correction = tok.text
        nxt = self.next(k, SKIPPED)
        if fold(tok.text) in _SWAPPED or (
                fold(tok.text) in _MIXED_UP and nxt is not None and nxt.kind in ("player", "ambiguous", "stranger")):
            self.doubts.append(tok.text)
            self.unclear.append(EVERY_HAND)
        if self.last is not None and not self.last.dropped:
            self.replace = self.last
        elif self.replace is None:
            self.retract = True

    def forgotten(self, j: int) -> None:
        """«у Кузи туз, нет, погоди, не помню, что у него»: the hand is not remembered, so not given (asked); the
        words about it up to the next name go with it («что было, он уже сбросил»). «пик или треф, не помню» is only
        about the suit (left open); said after a card with nothing about it («у Дениса король, не помню, у Вики …»),
        that hand is not sure either."""
        said = [fold(t.text) for t in self.toks[j + 1 :] if t.kind != "pause" and fold(t.text) not in HESITATIONS][:2]
        guessing = said == ["то", "ли"]
        if any(t.kind == "or" for t in self.toks[max(0, j - 5) : j]) or self.suit_forgotten(j, said):
            return  # «пик или треф, не помню»: only the suit
        if self.current is None:
            return  # nobody's hand yet
        self.doubts.append(f"{self.toks[j - 1].text} {self.toks[j].text}")
        self.unclear.append(self.current)  # «у Дениса король, не помню, у Вики …»: and the rest of his hand?
        if not said or (said[0] not in _WHAT and not guessing):
            return
        about = _GUESSED if guessing else _ABOUT_IT
        for i in range(j + 1, len(self.toks)):
            if self.toks[i].kind not in about and not (guessing and fold(self.toks[i].text) == "ли"):
                break
            self.consumed.add(i)

    def suit_forgotten(self, j: int, said: list[str]) -> bool:
        """«две дамы, одна пиковая, а вторая не помню какая», «король, не помню какой масти»: right after cards of
        this hand with a suit not said, «не помню» + «какая», «какой масти» is about that suit only: it stays open
        (asked where it changes the points), the hand is given."""
        last = self.last
        if not said or said[0] not in _WHICH or last is None or last.dropped or None not in last.suits:
            return False
        if (last.owner, last.stranger) != (self.current, self.stranger) and not last.finishing or last.said_at < 0:
            return False  # «на даме, не помню какой»: the finishing card's suit as well
        neg = past_hesitations(self.toks, j - 1, -1)  # «не, ну, помню»
        between = self.toks[last.said_at + 1 : neg]  # «одна пиковая, а вторая»; not «и ещё карта»: another card
        if any(t.kind not in _ABOUT_SUIT and fold(t.text) not in _OTHER_ONE | HESITATIONS for t in between):
            return False
        for i in range(j + 1, min(j + 4, len(self.toks))):
            if fold(self.toks[i].text) in _WHICH or self.toks[i].kind == "pause":
                self.consumed.add(i)
        return True

    def on_not(self, tok: Tok, k: int) -> None:
        """«не семёрка, а восьмёрка» names the wrong card; «туз, не, два туза» is a correction."""
        after = self.after(k)  # «не, ну, помню»
        if after is not None and after.kind == "filler" and fold(after.text) in FORGETTING:
            self.forgotten(self.toks.index(after, k + 1))
            return  # «не помню», «не знаю»: no correction
        before = self.before(k)
        if after is not None and fold(after.text) in HOLDING and (before is None or before.kind not in CARD_SAID):
            return  # «у Сони карт не осталось»: a hand said empty, nothing taken back («туза не было»: as before)
        nxt = self.next(k, SKIPPED)
        if after is not None and self.winner_named_wrong(k, after):
            return
        if after is not None and after.kind in ("player", "ambiguous"):  # «нет, не Аня вышла, а Вера»: asked
            self.doubts.append(f"{tok.text} {after.text}")
            self.unclear.append(self.last.owner if self.last is not None else None)
        if nxt is not None and nxt.kind in ("suit-after", "suit-before", "suit-letter") and self.last is not None:
            self.consumed.add(self.toks.index(nxt, k + 1))  # «дама пик, не пик, а червей»: the suit said next
            if not self.not_this_suit(k, nxt) and not self.swap_suit(k, nxt):
                self.on_correct(tok, k)
        elif nxt is not None and nxt.kind in ("rank", "card", "count", "number"):
            self.negating = True
            if self.moved is not None and self.replace is self.moved:  # «нет, у Бори не король, а девятка»
                self.moved.owner, self.moved.stranger = self.moved_from  # nothing moves: Боря's king is wrong
                self.replace = self.moved = None
        else:
            self.on_correct(tok, k)

    def winner_named_wrong(self, k: int, after: Tok) -> bool:
        """«вышла Таира, ой, не Таира, Сабрина вышла» («…, а Сабрина», «…, вышла Сабрина»): after a correction
        word, «не» and the winner just named, then another player's name: that name takes the winner's place, as
        «ой, нет, Сабрина» does. Not after cards said since («…, у Бори туз, нет, не Аня вышла, а Вера»: asked)."""
        at = self.toks.index(after, k + 1)
        then = word_past_hesitations(self.toks, at + 1)
        for _ in range(2):  # «не Таира, а Сабрина», «не Таира, вышла Сабрина»
            if then is not None and (fold(then.text) == "а" or then.kind == "win"):
                then = self.after(self.toks.index(then, at + 1))
        if (not self.retract or self.named_winner is None or after.player != self.named_winner
                or self.result.winner != self.named_winner or then is None or then.kind != "player"
                or then.player == after.player):
            return False
        self.consumed.add(at)
        return True

    def not_this_suit(self, k: int, nxt: Tok) -> bool:
        """«семёрка треф, а не пик»: after a card said with another suit, «а не» names the suit it is not."""
        said = self.last.suits[-1] if self.last is not None and self.last.suits else None
        return k > 0 and fold(self.toks[k - 1].text) == "а" and said is not None and nxt.suit not in (None, said)

    def swap_suit(self, k: int, nxt: Tok) -> bool:
        """«две дамы трефовая и пиковая, ой, не пиковая, а червонная»: in a group of several cards, the suit named
        wrong is replaced by the suit said next (a suit the group has not: as before, asked)."""
        group, at = self.last, self.toks.index(nxt, k + 1)
        then = self.next(at, SKIPPED)
        if (group is None or len(group.suits) < 2 or nxt.suit not in group.suits or then is None
                or then.kind not in ("suit-after", "suit-before", "suit-letter") or then.suit is None
                or then.suit in group.suits):
            return False
        group.suits[group.suits.index(nxt.suit)] = then.suit
        self.consumed.add(self.toks.index(then, at + 1))
        if self.replace is group:
            self.replace = None
        return True

    def on_skipped(self, tok: Tok, k: int) -> None:
        """«ой, и ещё туз»: «и» right after a correction word adds, so nothing is taken back. «валет и десятка,
        нет, только дама»: «только» after a correction takes back every card of that hand said since the name."""
        if fold(tok.text) in FORGOT:  # «у Дениса забыла что»: as «не помню что»
            self.forgotten(k)
            return
        before = self.before(k)
        if before is None or before.kind != "correct":
            return
        if fold(tok.text) in ("и", "and", "плюс", "plus"):
            self.replace, self.retract = None, False
        elif fold(tok.text) in ONLY and self.replace is not None and not self.replace.finishing:
            hand = (self.replace.owner, self.replace.stranger)
            for group in self.groups[self.clause :]:
                if (group.owner, group.stranger) == hand and not group.finishing:
                    group.dropped = True
            self.replace = self.last = None

    def said_again(self, tok: Tok, suit: Suit | None, how_many: int, k: int) -> bool:
        """A card said again: with its suit now, with the same suit, or summing the hand up after «только»."""
        if self.repeats(tok, suit, how_many, k) or self.said_twice(tok, suit, how_many, k):
            if self.replace is not None and self.replace is self.last:  # «дама пик, нет, у Кати дама пик»: Катя's
                self.replace = None
            return True
        if self.only(tok, suit, how_many, k):
            return True
        self.maybe_said_again(tok, suit, k)
        return False

    def maybe_said_again(self, tok: Tok, suit: Suit | None, k: int) -> None:
        """«король король пик»: the card word said twice in a row, the second time with a suit, is one king of
        spades said again or a king and the king of spades: asked."""
        last, nxt = self.last, self.next(k, ("filler",))
        brings_suit = suit is not None or (nxt is not None and nxt.kind in ("suit-after", "suit-letter"))
        if last is None or last.suits != [None] or not brings_suit or last.said_at < 0:
            return
        if self.before(k) is self.toks[last.said_at] and fold(self.toks[last.said_at].text) == fold(tok.text):
            self.doubts.append(tok.text)

    def repeats(self, tok: Tok, suit: Suit | None, how_many: int, k: int) -> bool:
        """«на даме, на даме червей»: the same card said again, now with its suit (or, in the same words, still
        without one: «на даме, на даме»), is one card."""
        last = self.last
        nxt = self.next(k, ("filler",))
        brings_suit = suit is not None or (nxt is not None and nxt.kind in ("suit-after", "suit-letter"))
        said_before, first_before = self.before(k), self.before(last.said_at) if last is not None else None
        said_alike = (  # «на даме на даме червей», «на даме, ну, на даме червей»: the same words again
            said_before is not None and first_before is not None and fold(said_before.text) == fold(first_before.text)
            and said_before.kind not in CARDS  # «туз туз туз»: three aces, not one said again
        )
        if last is None or last.dropped or not (self.paused or said_alike) or how_many != 1:
            return False
        if not (brings_suit or said_alike):  # «на даме, ну, на даме»: said again, still without a suit
            return False
        if last.suits != [None] or last.rank is not tok.rank or fold(last.words[-1]) != fold(tok.text):
            return False
        if any(fold(t.text) in _MORE for t in self.toks[last.said_at + 1 : k]):  # «дама, и ещё дама червей»: two
            return False
        if suit is not None:
            last.fill(suit, tok.text)
        self.paused = False
        return True

    def said_twice(self, tok: Tok, suit: Suit | None, how_many: int, k: int) -> bool:
        """«на даме пик, на даме пик», «король червей король червей»: the card just said, said again with the same
        suit, is that card (a deck has one of each)."""
        last, nxt = self.last, self.next(k, ("filler",))
        if last is None or last.dropped or how_many != 1 or last.suits in ([None], []) or len(last.suits) != 1:
            return False
        after = nxt.suit if suit is None and nxt is not None and nxt.kind in ("suit-after", "suit-letter") else None
        if last.rank is not tok.rank or (suit or after) != last.suits[0]:
            return False
        if any(fold(t.text) in _MORE for t in self.toks[last.said_at + 1 : k]):
            return False
        if suit is None and nxt is not None:
            self.consumed.add(self.toks.index(nxt, k + 1))  # its suit word, said again too
        self.paused = False
        return True

    def only(self, tok: Tok, suit: Suit | None, how_many: int, k: int) -> bool:
        """«…, а нет, короля нет, только туз»: «только» with a card already said sums the hand up, adds nothing."""
        before = next((t for t in reversed(self.toks[:k]) if t.kind not in ("pause", "and")
                       and fold(t.text) not in HESITATIONS), None)
        if before is None or fold(before.text) not in ONLY or how_many != 1:
            return False
        same = [g for g in self.groups if g.owner == self.current and g.stranger == self.stranger
                and not g.dropped and g.rank is tok.rank and (suit is None or suit in g.suits or None in g.suits)]
        if len(same) != 1:
            return False
        if suit is not None and suit not in same[0].suits:
            same[0].fill(suit, tok.text)
        self.last, self.paused = same[0], False
        return True
