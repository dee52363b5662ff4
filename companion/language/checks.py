"""What the dictation reader checks rather than trusts (issue 21): a round is ready only when nothing was guessed.

A hand size said («у Сони три карты») is checked against the cards named; cards drawn
from the stock («взял две») are not cards held; cards after «с» and before a name
(«а с тузом и королём остался Саша») are that name's, not the player's said before;
and every name of nobody, name of two players, name read one letter off, correction
of unclear reach and suit word two cards could take becomes a question.
`Checks` is that part of the reader (dictation._Reader).
"""

from __future__ import annotations

from companion.core.cards import Card, Rank, Suit, fold
from companion.language.corrections import SKIPPED, Group
from companion.language.counts import Counts
from companion.language.settle import (
    correction_question,
    guess_question,
    name_question,
    placement_question,
    plural_question,
    size_question,
)
from companion.language.spoken_words import HESITATIONS, Tok, past_hesitations

_GOVERN_GENITIVE = frozenset({"кроме", "без", "из", "от", "до", "у", "нет", "с", "со"})  # «кроме дамы»: one queen
_INSTRUMENTAL = ("ой", "ом", "ем", "ём", "ею", "ою")  # «семёркой», «тузом», «королём»
_JOINING = frozenset({"и", "у", "and", ","})  # «у Бори и у Веры»
_ANOTHER = frozenset({"ещё", "еще"})  # «и ещё одна»
_MORE = frozenset({"и", "ещё", "еще", "тоже", "также", "плюс", "and", "also", "plus"})  # «и у Бори ещё туз»
_WITH = frozenset({"с", "со", "with"})
_WITH_U = frozenset({"у"})  # «у Томки дама червей»: a hand, not the card played
_NAME_BEFORE = frozenset({"у"})
_HE_SHE = frozenset({"он", "она", "he", "she"})  # «закрылась она девяткой»: the winner, said again
_AROUND_CARDS = frozenset(
    {"rank", "card", "count", "number", "suit-after", "suit-before", "suit-letter", "and", "pause", "filler"}
)


_LEFT_WITH = ("оста", "сид", "застр", "завис", "торч")  # «остался», «сидит», «застряла», «завис», «торчит» с …


class Checks(Counts):
    """The reader's state these checks read (the fields live in dictation._Reader)."""

    strangers: list[Tok]
    guesses: list[tuple[str, str]]
    unplaced: list[str]
    fixed: tuple[int, str | None, int | None] | None
    named_winner: str | None
    play: Tok | None
    together: list[str]
    played: list[tuple[Tok, Group]]
    win_pending: bool

    def out_on_said(self, tok: Tok, k: int) -> None:
        """«Глеб на тузе червей, Уля король …»: a name, «на» and a card in the prepositional, said first in a text
        with no «вышел» anywhere, is «Глеб вышел на тузе червей» in a hurry (never after «у»: «у Глеба на руке»)."""
        if self.result.winner is not None or self.win_pending or self.listed or self.current is None or k < 2:
            return
        at = past_hesitations(self.toks, k - 1, -1)  # «Ксения на, так, короле червей»
        name_at = past_hesitations(self.toks, at - 1, -1)
        if name_at < 0:
            return
        na, name = self.toks[at], self.toks[name_at]
        if fold(na.text) != "на" or name.kind != "player" or name.player != self.current or self.groups:
            return
        if name_at > 0 and fold(self.toks[name_at - 1].text) == "у" or not fold(tok.text).endswith("е"):
            return
        if any(t.kind in ("win", "play", "draw") for t in self.toks):
            return
        self.result.winner = self.named_winner = self.current
        self.want_finish = True

    def reach(self, heir: Group | None, group: Group) -> None:
        """«король и туз, точнее туз и дама»: a correction after several cards of one hand may take back the
        last card or the whole list; where the two readings differ (a rank said again, more cards after it),
        the table is asked (the hand said over from its first card, «король и туз, точнее король и дама», is read
        before, `restated._said_over`). A count said in the correction counts every card of that rank in the
        hand («дама и дама, нет, одна дама»)."""
        if heir is None:
            sized = any(player == self.current for player, _ in self.sizes)  # the size said settles it: asked if not
            if not sized and self.fixed is not None and self.fixed == (self.clause, self.current, self.stranger):
                self.doubts.append(self.correction)
                self.unclear.append(self.current)
            self.fixed = None
            return
        before = {g.rank for g in self.recounted(heir, group)}
        self.fixed = (self.clause, heir.owner, heir.stranger) if before and not heir.finishing else None
        if self.fixed is not None and group.rank in before:
            self.doubts.append(self.correction)
            self.unclear.append(heir.owner)

    def summed_up(self, rank: Rank, how_many: int, k: int, counted: bool) -> list[Suit | None]:
        """«туз и туз, ну, два туза»: a count said after cards of its rank in the same hand, without «ещё», sums
        them up. The same cards when the numbers agree (they go, their suits kept for the new group); asked when
        they do not; so are cards of its rank said after it («два туза, ну, туз и туз»). The suits the group
        starts with."""
        earlier = self.same_rank_said(rank, k)
        if not counted and any(g.counted for g in earlier):
            self.doubts.append(self.toks[k].text)
            self.unclear.append(self.current)
        if not counted or how_many < 2 or self.negating or not earlier:  # «дама, нет, одна дама»: `recounted`
            return [None] * how_many
        suits = [s for g in earlier for s in g.suits]
        if len(suits) != how_many:  # «туз, ну, три туза»: one more, or three in all? asked
            self.doubts.append(self.toks[k].text)
            self.unclear.append(self.current)
            return [None] * how_many
        for g in earlier:
            g.dropped = True
        return suits

    def same_rank_said(self, rank: Rank, k: int) -> list[Group]:
        """The cards of `rank` said in the hand being said, unless «ещё» or a correction came since."""
        if self.current is None:
            return []
        earlier = [g for g in self.groups[self.clause :] if not g.dropped and not g.finishing and g.rank is rank
                   and (g.owner, g.stranger) == (self.current, self.stranger)]
        between = self.toks[earlier[-1].said_at : k] if earlier else []
        if any(fold(t.text) in _ANOTHER | {"плюс"} or t.kind in ("correct", "not") for t in between):
            return []
        return earlier

    def recounted(self, heir: Group, group: Group) -> list[Group]:
        """The other cards of the corrected hand said since its name; a count said in the correction counts every
        card of its rank («дама и дама, нет, одна дама»: how many of them there are), so those go."""
        hand = [g for g in self.groups[self.clause :] if g is not heir and not g.dropped and not g.finishing
                and (g.owner, g.stranger) == (heir.owner, heir.stranger)]
        if group.counted and heir.rank is group.rank:
            for same in [g for g in hand if g.rank is group.rank]:
                same.dropped = True
        return [g for g in hand if not g.dropped]

    def went_out_on(self, player: str, last_play: bool = False, win_at: int | None = None) -> bool:
        """«Аня семёркой треф вышла», «Аня на семёрке вышла»: the one card said between the name and «вышла», by
        the instrumental or after «на», is the finishing card; of cards played one after another («положил шестёрку
        и накрыл девяткой, вышел») the last, the others being on the table; «Тома даму червей последней кинула»:
        the one card right after the name, played last (`last_play`)."""
        said = self.covered([g for g in self.groups[self.clause :] if not g.dropped and g.owner == player])
        if len(said) != 1 or len(said[0].suits) != 1 or said[0].said_at < 1:
            return False
        word, before = fold(self.toks[said[0].said_at].text), fold(self.toks[said[0].said_at - 1].text)
        if not (word.endswith(_INSTRUMENTAL) or before == "на" or (last_play and self.right_after(said[0], player))
                or any(g is said[0] for _, g in self.played) or self.said_last(said[0], win_at)):
            return False
        said[0].finishing, self.result.winner, self.named_winner = True, player, player
        self.want_finish, self.current = False, None
        return True

    def said_last(self, group: Group, win_at: int | None) -> bool:
        """«последней у Веры была дама пик, она вышла», «у Веры дама пик последняя, вышла»: the one card of the
        player said with «последн…» in its clause, and no name after the win verb («у Бори последний туз, и вышла
        Вера» is Вера's win)."""
        if win_at is None:
            return False
        at = next((i for i in range(win_at + 1, len(self.toks)) if self.toks[i].kind not in SKIPPED), None)
        if at is not None and self.toks[at].kind in ("player", "ambiguous", "stranger") and not self.owner_said(at):
            return False
        start = group.said_at
        while start > 0 and self.toks[start - 1].kind not in ("end", "rank", "card", "win"):
            start -= 1
        near = self.toks[start:win_at]
        return any(t.kind == "filler" and fold(t.text).startswith("последн") for t in near)

    def finish_said_late(self, k: int) -> bool:
        """«Соня вышла, у Олега туз …, а закрылась она девяткой бубей»: the win said again with «он», «она», once the
        winner is known and no finishing card was said, before a card in the instrumental or after «на»: that card is
        the one the winner went out on (with no pronoun, «у Алины десятка, вышла на девятке» may be Алина: asked)."""
        if self.result.winner is None or any(g.finishing and not g.dropped for g in self.groups):
            return False
        if not {fold(t.text) for t in self.toks[max(0, k - 1) : k + 2]} & _HE_SHE:  # «у Алины десятка, вышла …»: who?
            return False
        at = next((i for i in range(k + 1, len(self.toks)) if self.toks[i].kind not in SKIPPED), None)
        if at is None or self.toks[at].kind not in ("rank", "card"):
            return False
        word, before = fold(self.toks[at].text), fold(self.toks[at - 1].text)
        if not (word.endswith(_INSTRUMENTAL) or before == "на"):
            return False
        self.want_finish, self.current, self.stranger, self.last = True, None, None, None
        return True

    def covered(self, said: list[Group]) -> list[Group]:
        """Of cards played one after another («положил шестёрку пик и накрыл девяткой пик») the last; the others
        lie on the table."""
        played = [g for _, g in self.played]
        if len(said) > 1 and all(any(g is p for p in played) and len(g.suits) == 1 for g in said):
            for covered in said[:-1]:
                covered.dropped = True
            return said[-1:]
        return said

    def right_after(self, group: Group, player: str) -> bool:
        """«Тома даму червей …»: the card said right after the name (not «у Томы дама червей», a hand)."""
        at = group.said_at - 1
        while at > 0 and (self.toks[at].kind == "pause" or fold(self.toks[at].text) in HESITATIONS):  # «Тома, ну,»
            at -= 1
        return self.toks[at].player == player and (at < 1 or fold(self.toks[at - 1].text) not in _WITH_U)

    def note_together(self, player: str, k: int) -> None:
        """«у Бори и у Веры …»: a name joined by «и» to the name before, with no card between, is said together."""
        at = k - 1
        while at >= 0 and fold(self.toks[at].text) in _JOINING | HESITATIONS:  # «у Фрола и, э, у Харитона»
            at -= 1
        links = {fold(t.text) for t in self.toks[at + 1 : k]}
        prev = self.toks[at] if at >= 0 else None
        joined = (prev is not None and prev.kind == "player" and prev.player == self.current and not self.listed
                  and prev.player != self.result.winner
                  and (not links or bool(links & {"и", "and", ","})))  # «у Нины, Оскара и Яны»
        if not joined or self.current is None:
            self.together = [player]
        elif player not in self.together:
            self.together = [*(self.together or [self.current]), player]

    def share(self, group: Group) -> None:
        """«у Бори и Веры по семёрке»: what «по» gives goes to each name said together; anything else said for them
        («у Бори и Веры туз») is whose? asked."""
        names = self.together
        if len(names) < 2 or group.owner != names[-1] or group.finishing:
            return
        at = group.said_at - 1
        while at >= 0 and (self.toks[at].kind in ("count", "number", "suit-before", "pause")
                           or fold(self.toks[at].text) in HESITATIONS):  # «по, ну, тузу»
            at -= 1
        if at >= 0 and fold(self.toks[at].text) == "по":
            for player in names[:-1]:
                copy = Group(group.rank, list(group.suits), list(group.words), player, said_at=group.said_at)
                self.groups.append(copy)
            return
        together = Tok("ambiguous", " и ".join(names), players=tuple(names))
        if together not in self.strangers:  # one question for all their cards
            self.strangers.append(together)
        group.owner, group.stranger = None, self.strangers.index(together)

    def on_play(self, tok: Tok, k: int) -> None:
        """«скинула даму пик»: the next card said was played; only «и вышла» after it makes it the finishing card."""
        self.play = tok

    def unplayed(self) -> None:
        """A card said to be played that did not finish the round («у Бори туз, он скинул даму»): asked."""
        for verb, group in self.played:
            if not group.finishing and not group.dropped:
                self.result.unrecognised.append(verb.text)

    def name_left_alone(self, k: int) -> None:
        """«…у Веры девятка и ещё король у Бори.»: a name said last, right after cards, with nothing after it: the
        cards before it are whose? asked."""
        said = [t for t in self.toks[:k] if t.kind not in SKIPPED]
        if len(said) < 2 or said[-1].kind != "player" or said[-2].kind not in ("rank", "card", "suit-after"):
            return
        at = max(i for i in range(k) if self.toks[i] is said[-1])  # «…, у Сони тоже»: the winner said after «у»
        winner_held = (said[-1].player == self.result.winner and self.owner_said(at)
                       and any(fold(t.text) in _MORE for t in self.toks[at + 1 : k]))
        if self.current == said[-1].player and not self.listed and (said[-1].player != self.result.winner
                                                                    or winner_held):
            self.doubts.append(said[-1].text)
            self.unclear += [g.owner for g in self.groups[-1:] if not g.finishing]

    def late_finish(self, group: Group) -> bool:
        """«Аня вышла, у Бори туз, у Веры король, на семёрке пик»: a card after «на» once the winner is known and
        no finishing card was said is the card they went out on (the other cards of a hand are never «на»)."""
        if self.result.winner is None or group.said_at < 1 or any(g.finishing and not g.dropped for g in self.groups):
            return False
        before = self.before(group.said_at)
        return before is not None and fold(before.text) == "на" and len(group.suits) == 1

    def hand_said_again(self, group: Group) -> None:
        """«у Бори туз, у Веры король, у Бори туз»: a card the player was given before, said again for them later
        without «ещё», «тоже», «и»: the same card again, or one more? asked."""
        if group.owner is None or group.said_at < 0:
            return
        earlier = [g for g in self.groups[: self.clause] if g.owner == group.owner and g.rank is group.rank
                   and not g.dropped and not g.finishing]
        name_at = next((i for i in range(group.said_at - 1, -1, -1) if self.toks[i].kind == "player"), None)
        if not earlier or name_at is None:
            return
        said = {fold(t.text) for t in self.toks[max(0, name_at - 2) : group.said_at]}
        if not said & _MORE:
            self.doubts.append(f"{self.toks[name_at].text} {self.toks[group.said_at].text}")

    def owner_said(self, k: int) -> bool:
        """The name at `k` follows «у»: it says whose cards come, not who went out."""
        before = self.before(k)  # «у, пиши, Бори»
        return before is not None and fold(before.text) in _NAME_BEFORE

    def how_many(self, tok: Tok, k: int, counted: bool) -> bool:
        """«у Бориса тузы»: a plural rank and no number says cards, not how many: asked (unless its suits are
        listed after it, see Suits.fill_last)."""
        before = next((t for t in reversed(self.toks[:k]) if t.kind not in ("and", "pause")
                       and fold(t.text) not in HESITATIONS), None)  # «с, ага, дамы»
        if tok.plural and not counted and (before is None or fold(before.text) not in _GOVERN_GENITIVE):
            self.plurals.append(tok.text)
            return True
        return False

    def cards_before_name(self, tok: Tok, k: int) -> None:
        """«а с тузом и королём остался Саша», «с девяткой и шестёркой сидит Рубен»: cards after «с» and then a name
        are that name's, not the player's said before (right after a hand, only with a verb of being left with them:
        «остался», «сидит», «застрял», «завис», «торчит»)."""
        if fold(tok.text) not in _WITH or (self.current is not None and not self.listed):  # «Шурик с тузом»
            return
        cards, stays = False, False
        for after in self.toks[k + 1 :]:
            if after.kind in ("player", "ambiguous", "stranger"):
                break
            if after.kind not in _AROUND_CARDS or fold(after.text) in _NAME_BEFORE:
                return
            cards = cards or after.kind in ("rank", "card")
            stays = stays or fold(after.text).startswith(_LEFT_WITH)
        else:
            return
        joined = k > 0 and self.toks[k - 1].kind in ("rank", "card", "suit-after") and self.current is not None
        if cards and (stays or not joined):  # «демьяну валет с десяткой, прохору король»: one hand
            self.current, self.stranger, self.in_sentence, self.last = None, None, None, None
            self.clause = len(self.groups)

    def ask(self) -> None:
        """Every doubt met while reading, as a question for the table."""
        result = self.result
        for index, tok in enumerate(self.strangers):
            cards = tuple(g.rank if s is None else Card(g.rank, s)
                          for g in self.groups if g.stranger == index and not g.dropped for s in g.suits)
            result.questions.append(name_question(tok.text, tok.players if tok.kind == "ambiguous" else (), cards))
        for words in dict.fromkeys(self.doubts):
            result.questions.append(correction_question(words))
        for word, player in dict.fromkeys(self.guesses):
            result.questions.append(guess_question(word, player))
        for word in dict.fromkeys(self.unplaced):
            result.questions.append(placement_question(word))
        for word in dict.fromkeys(self.plurals):
            result.questions.append(plural_question(word))
        for player, n in dict(self.sizes).items():
            named = len(result.hands.get(player, []))
            if named != n:
                result.questions.append(size_question(player, n, named))
        self.ask_draws()

