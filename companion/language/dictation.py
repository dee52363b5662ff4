"""A whole round read from what people say or dictate (issues 10 and 21).

«Аня вышла дамой червей. У Бори туз, король пик и семёрка. С двумя десятками
осталась Вера», "Boris: A K♠ 7" → who went out, on which card, and the cards left
in every hand that was named.

The reader goes through the tokens of `spoken_words` once. Cards said together
(«две дамы», «туз пик») are a group; a group belongs to the player named before it
(«у Бориса туз») or, when nobody was, to the name that follows it («туз и король у
Бориса», «с тузом остался Саша»). A name of nobody at the table, or one that fits
two players, takes its cards with it into a question: they never go to the player
before. Corrections keep only what was said last: «семёрка, нет, восьмёрка», «не
семёрка, а восьмёрка», «туз, не, два туза», «две десятки, нет, одна»; a suit may
follow its cards («два вальта, червовый и трефовый»), a card may be said again with
its suit («на даме, на даме червей»). Then `settle` checks the cards against the
deck and asks what is open. Nothing is guessed silently: a word that is not a name,
a card or a known filler is returned in `unrecognised`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from companion.core.cards import Suit
from companion.core.rules import Options
from companion.language import morphology
from companion.language.checks import Checks
from companion.language.corrections import EVERY_HAND, SKIPPED, Group
from companion.language.in_context import restart_at, tokens
from companion.language.morphology import Morphology, NoMorphology
from companion.language.player_names import PlayerNames
from companion.language.points import check_points
from companion.language.settle import (
    ASSUME_ORDER,
    ParsedRound,
    Question,
    Slot,
    settle,
)
from companion.language.spoken_words import Tok, number_as
from companion.language.suits import Suits

__all__ = ["ASSUME_ORDER", "MAX_TEXT", "ParsedRound", "Question", "Slot", "parse", "parse_round_text"]

MAX_TEXT = 2000


@dataclass
class _Reader(Suits, Checks):
    toks: list[Tok]
    result: ParsedRound
    groups: list[Group] = field(default_factory=list)
    orphans: list[Group] = field(default_factory=list)  # said before any name: the next name takes them
    strangers: list[Tok] = field(default_factory=list)
    current: str | None = None  # whose cards are being said
    stranger: int | None = None  # …or the unknown name whose they are
    in_sentence: str | None = None  # the player named in this sentence (who a «вышла» is about)
    win_pending: bool = False  # «Вышла …» before the name
    fallback: str | None = None  # …or, if no name follows, about the one before
    want_finish: bool = False  # the next card said is the finishing card
    listed: bool = False  # cards were said since the last name: a «вышла» now is about the next name
    last: Group | None = None  # the group a following «пик», «червовый и трефовый» can belong to
    paused: bool = False  # a comma or a colon since `last`
    clause: int = 0  # index in `groups` of the first card said since the last name or sentence end
    restated: Group | None = None  # «король, нет, король у Веры»: said again, and a name may follow to take it
    restated_was: list[Suit | None] = field(default_factory=list)  # …the suits it had before
    suit_before: tuple[Suit, str] | None = None  # «пиковый …» waiting for its rank
    count: tuple[int, str] | None = None  # «две …» waiting for its rank
    replace: Group | None = None  # «нет», «вернее»: the next card said replaces this group
    negating: bool = False  # «не …»: the next card said is the one that was wrong
    retract: bool = False  # «у Бори, ой, у Димы», «вышла Вера, ой, нет, Глеб»: the next name takes the last one's place
    named_winner: str | None = None  # the player the last «вышла» made the winner
    consumed: set[int] = field(default_factory=set)  # tokens already read with the one before («короля нет»)
    correction: str = ""  # the last correction word said («нет», «ой»)
    moved: Group | None = None  # cards a correction gave to the next name («у Бори туз, нет, у Димы»)
    moved_from: tuple[str | None, int | None] = (None, None)  # …and whose they were
    doubts: list[str] = field(default_factory=list)  # corrections whose reach is not clear: asked, never guessed
    unclear: list[str | None] = field(default_factory=list)  # …and the hands they leave unclear: not given
    unreplaced: Group | None = None  # «не девятка» and nothing said in its place yet
    guesses: list[tuple[str, str]] = field(default_factory=list)  # names read one letter off: asked
    unplaced: list[str] = field(default_factory=list)  # suit words that could be two cards' suit: asked
    fixed: tuple[int, str | None, int | None] | None = None  # where a correction followed several cards
    plurals: list[str] = field(default_factory=list)  # «тузы» and no number: how many? asked
    sizes: list[tuple[str, int]] = field(default_factory=list)  # «у Сони три карты»: checked, never trusted blindly
    draws: list[tuple[str, int]] = field(default_factory=list)  # «Свете две пришлось тянуть»: the hand holds them
    numbers: list[tuple[str, int]] = field(default_factory=list)  # «у него шесть: туз, туз …»: a six, or six cards?
    together: list[str] = field(default_factory=list)  # «у Бори и у Веры по семёрке»: the names said together
    play: Tok | None = None  # «скинула»: the next card said was played
    played: list[tuple[Tok, Group]] = field(default_factory=list)  # …and which it was
    points: list[tuple[str | None, Tok]] = field(default_factory=list)  # «двадцать три», «21 очко»: checked (points.py)

    def read(self) -> None:
        handlers: dict[str, Callable[[Tok, int], None]] = {
            "player": self.on_name, "ambiguous": self.on_stranger, "stranger": self.on_stranger,
            "win": self.on_win, "rank": self.on_card, "card": self.on_card, "suit-after": self.on_suit,
            "suit-letter": self.on_suit, "suit-before": self.on_suit_before, "count": self.on_count,
            "correct": self.on_correct, "not": self.on_not, "end": self.on_end, "pause": self.on_pause,
            "unknown-suit": self.on_unknown_suit, "draw": self.on_pause, "or": self.on_or,
            "play": self.on_play, "hedge": self.on_hedge, "points": lambda t, _: self.points.append((self.current, t)),
        }
        for k, tok in enumerate(self.toks):  # digits first, so that «две 9» sees the rank after the count
            if tok.kind == "number":
                self.toks[k] = number_as(tok, self.after(k))  # «2, ну, туза»
        for k, tok in enumerate(self.toks):
            if k in self.consumed:
                continue
            if tok.kind in SKIPPED:
                self.on_skipped(tok, k)
                self.cards_before_name(tok, k)
                continue
            if self.counts_cards(tok, k):
                continue
            handlers.get(tok.kind, self.on_unknown)(tok, k)
        self.on_end(Tok("end", ""), len(self.toks))
        if self.win_pending and self.fallback is not None and self.result.winner is None:
            self.result.winner = self.fallback  # «…у Бориса туз и вышел»: no name came
        elif self.win_pending and self.result.winner is not None:  # «…, ой, вышла Вера»: a second winner? asked
            self.doubts.append(self.correction or "вышла")
            self.unclear += [self.in_sentence, self.moved_from[0]]

    # -- names ------------------------------------------------------------------

    def on_name(self, tok: Tok, k: int) -> None:
        if tok.guessed and tok.player is not None:  # «Бариса»: read as Борис, and asked
            self.guesses.append((tok.text, tok.player))
        self.on_player(tok, k)

    def on_player(self, tok: Tok, k: int) -> None:
        assert tok.player is not None
        self.dangling()
        self.note_together(tok.player, k)
        if self.retract or (self.replace is not None and not self.replace.finishing and not self.replace.dropped):
            self.take_place_of_last_name(tok.player)
            return
        if self.want_finish and tok.player != self.result.winner:
            self.want_finish = False
        if self.takes_restated(tok.player):
            return
        again = tok.player == self.current and not self.orphans  # «у Бори дама, у Бори дама червей»
        self.replace, self.negating, self.last = None, False, None
        self.clause = len(self.groups)
        if again:
            self.last = next((g for g in reversed(self.groups) if g.owner == tok.player and not g.dropped), None)
            self.paused = True
        if self.orphans and not self.win_pending:  # «туз и король у Бориса»: the name after its cards
            for group in self.orphans:
                group.owner = tok.player
            nxt = self.next(k, (*SKIPPED, "pause"))  # «с тузом остался Фима, нет, не с тузом, с королём»: those cards
            self.last = self.orphans[-1] if nxt is not None and nxt.kind in ("correct", "not") else None
            self.orphans, self.current, self.stranger, self.named_winner = [], None, None, None
            self.in_sentence, self.listed = tok.player, True
            return
        self.current, self.stranger, self.in_sentence, self.listed = tok.player, None, tok.player, False
        self.named_winner = None
        if self.win_pending:
            self.become_winner(tok, tok.player, k)

    def takes_restated(self, player: str) -> bool:
        """«король, нет, король у Веры»: the card said again goes to the name right after it; not another suit of
        it («король пик, погоди, король треф»: the suit corrected, still that hand's)."""
        group = self.restated
        if group is None or group is not self.last or self.paused:
            return False
        if not all(a is None or b is None or a == b for a, b in zip(self.restated_was, group.suits, strict=False)):
            return False
        group.owner, self.restated = player, None
        self.current, self.stranger, self.in_sentence, self.listed, self.last = None, None, player, True, None
        return True

    def become_winner(self, tok: Tok, player: str, k: int) -> None:
        """«вышла Аня»: the name after «вышла»; a second winner, other than the first, is asked; «…вышла, у Бори
        дама»: whoever went out, not Боря (asked)."""
        if self.owner_said(k):
            self.doubts.append(tok.text)
            self.win_pending, self.fallback = False, None
            return
        if self.result.winner not in (None, player):
            self.doubts.append(tok.text)
        self.result.winner, self.win_pending, self.want_finish, self.fallback = player, False, True, None
        self.named_winner = player
        self.finish_from_orphans()

    def finish_from_orphans(self) -> None:
        """«на даме червей вышла Аня»: the one card said before the winner's name is the finishing card."""
        if len(self.orphans) == 1 and len(self.orphans[0].suits) == 1:
            group = self.orphans.pop()
            group.owner, group.finishing, self.want_finish = self.result.winner, True, False
            self.current = None
        for group in self.orphans:  # «туз и король, вышла Аня»: whose? not the next name's
            self.result.unrecognised.extend(group.words)
            group.dropped = True
        self.orphans = []

    def on_stranger(self, tok: Tok, k: int) -> None:
        """A name of nobody at the table, or of two players: its cards go with it into a question."""
        self.dangling()
        if tok.kind == "stranger":
            self.result.unrecognised.append(tok.text)
        self.strangers.append(tok)
        index = len(self.strangers) - 1
        for group in self.orphans:
            group.stranger = index
        self.orphans = []
        self.want_finish = self.win_pending = False
        self.current, self.stranger, self.in_sentence, self.listed = None, index, None, False
        self.replace, self.negating, self.last = None, False, None

    def on_win(self, tok: Tok, k: int) -> None:
        if self.stranger is not None and not self.listed:  # «Фая вышла» and no Фая here: nobody here went out
            self.want_finish = self.win_pending = False
        elif self.result.winner is not None and self.in_sentence == self.result.winner:
            pass  # «Юля вышла семёркой бубей, вышла»: said again
        elif self.finish_said_late(k):
            pass  # «Соня вышла, у Олега туз …, а закрылась она девяткой бубей»
        elif self.in_sentence is not None and self.listed and self.went_out_on(self.in_sentence, tok.played, k):
            pass  # «Аня семёркой треф вышла»
        elif self.in_sentence is not None and not self.listed:  # «Аня вышла», "Anna went out"
            self.result.winner, self.want_finish, self.current = self.in_sentence, True, self.in_sentence
            self.named_winner = self.in_sentence
        else:  # «Вышла Вера», «у Бориса семёрка, вышла Аня»: the name follows
            self.win_pending, self.fallback = True, self.in_sentence
        self.last = None

    # -- cards --------------------------------------------------------------------

    def on_card(self, tok: Tok, k: int) -> None:
        assert tok.rank is not None
        suit = tok.suit
        if suit is None and self.suit_before is not None:
            suit = self.suit_before[0]
        how_many = self.count[0] if self.count is not None else 1
        words = [w for w in (self.count and self.count[1], self.suit_before and self.suit_before[1]) if w]
        counted = self.count is not None
        self.suit_before = self.count = None
        self.out_on_said(tok, k)
        self.numeral_first(tok, k)
        if how_many == 1 and self.absent(tok, k):  # «тузов нет»: nothing to count
            return
        open_count = self.how_many(tok, k, counted)
        suits = self.summed_up(tok.rank, how_many, k, counted)
        if self.negating and not self.recount(tok.rank, how_many):
            self.negate(tok.rank, suit)
            self.unreplaced = self.replace if self.replace is not None and self.replace.words else None
        elif not self.said_again(tok, suit, how_many, k):
            self.add(Group(tok.rank, [suit or said for said in suits], [*words, tok.text], said_at=k,
                           open_count=open_count, counted=counted))

    def add(self, group: Group) -> None:
        heir, self.replace, self.unreplaced = self.replace, None, None
        if heir is not None and heir is self.moved and heir.rank is not group.rank:
            self.doubts.append(self.correction)  # «у Бори король, нет, у Димы туз»: and Боря's king?
            self.unclear.append(self.moved_from[0])
        moved, self.moved = heir is not None and heir is self.moved, None
        if self.play is not None:
            self.played.append((self.play, group))
            self.play = None
        self.reach(heir, group)
        self.note_restated(heir, group, moved)
        if heir is not None:  # a correction: the new cards take the place of the old ones
            heir.dropped = True
            group.owner, group.stranger = heir.owner, heir.stranger
            group.finishing = heir.finishing and len(group.suits) == 1
            if group.finishing:
                group.owner, self.want_finish, self.current = self.result.winner, False, None
            if heir in self.orphans:
                self.orphans[self.orphans.index(heir)] = group
        elif (self.want_finish or self.late_finish(group)) and len(group.suits) == 1:
            group.owner, group.finishing, self.want_finish = self.result.winner, True, False
            self.current = None  # the winner holds no cards: what follows is someone else's
        elif self.current is None and self.stranger is None:
            self.orphans.append(group)
        else:
            group.owner, group.stranger = self.current, self.stranger
            self.hand_said_again(group)
        self.groups.append(group)
        self.share(group)
        self.listed, self.last, self.paused = True, group, False

    def note_restated(self, heir: Group | None, group: Group, moved: bool) -> None:
        """«король, нет, король …»: the card said again after a correction; a name right after may take it (not
        when the correction moved it to a name already: «у Ули король, нет, у Инны король»)."""
        said_again = heir is not None and (heir.rank, len(heir.suits)) == (group.rank, len(group.suits))
        self.restated = group if said_again and heir is not None and not heir.finishing and not moved else None
        self.restated_was = list(heir.suits) if heir is not None else []

    # -- counts and corrections ---------------------------------------------------------

    def on_count(self, tok: Tok, k: int) -> None:
        nxt = self.after(k)  # «два, э, туза»
        if self.hand_size_said(tok, nxt):  # «у Веры две: десятка и девятка»
            return
        if self.negating and (nxt is None or nxt.kind not in ("rank", "card", "suit-before")):  # «не три, а два»
            self.negating = False
            if self.last is not None and len(self.last.suits) == tok.count:
                self.replace = self.last
            return
        if nxt is not None and nxt.kind in ("rank", "card", "suit-before"):  # «две десятки», "two tens"
            self.count = (tok.count, tok.text)
        elif self.replace is None and self.count_after(tok, k):  # «дама пик одна», «восьмёрки две»
            pass
        elif self.replace is not None:  # «две десятки, нет, одна»
            old = self.replace
            self.add(Group(old.rank, (old.suits * tok.count)[: tok.count] or [None], [*old.words, tok.text]))
        elif tok.rank is not None and tok.text.isascii():
            self.on_card(Tok("rank", tok.text, rank=tok.rank), k)  # "two" alone: the rank (a 52-card deck has it)
        else:
            self.result.unrecognised.append(tok.text)

    # -- the rest ----------------------------------------------------------------------

    def on_end(self, tok: Tok, k: int) -> None:
        self.dangling()
        self.name_left_alone(k)
        if self.negating:
            self.doubts.append(self.correction or "не")  # «не …» and nothing it could be about
        if self.replace is not None and not self.replace.dropped and self.replace is not self.moved:
            self.doubts.append(self.correction)  # «у Бори король, нет.»: no what?
            self.several_unclear(self.replace.owner)
        self.clause = len(self.groups)
        for group in self.orphans:  # cards nobody was named for, in a sentence that is over
            self.result.unrecognised.extend(group.words)
            group.dropped = True
        self.orphans = []
        self.in_sentence, self.last, self.replace, self.negating, self.retract = None, None, None, False, False

    def on_hedge(self, tok: Tok, k: int) -> None:
        """«у Вики вроде король», «и ещё что-то»: the hand being said is not sure; asked, not given."""
        self.doubts.append(tok.text)
        self.unclear.append(self.current)

    def on_pause(self, tok: Tok, k: int) -> None:
        self.paused = True

    def on_unknown(self, tok: Tok, k: int) -> None:
        """A word read as nothing: not understood. Where a name could stand, after a hand and before cards
        («туз и девятка, толику король», «а петрович с тузом остался»), it may be somebody's name: the cards after
        it go with it into the question, never to the player named before."""
        nxt = self.next(k, SKIPPED)
        if self.listed and nxt is not None and nxt.kind in ("rank", "card", "count", "suit-before"):
            self.on_stranger(Tok("stranger", tok.text), k)
            return
        self.result.unrecognised.append(tok.text)

    def dangling(self) -> None:
        """Words left waiting when a name or the end of a sentence comes: «две …», «пиковый …»; «десятка, девятка и
        восьмёрка, нет, не девятка»: the nine dropped, or another card meant? asked, and that hand not given."""
        gone, self.unreplaced = self.unreplaced, None
        if gone is not None and self.replace is gone and self.several_unclear(gone.owner):
            self.doubts.append(self.correction or "не")

    def several_unclear(self, owner: str | None) -> bool:
        """A correction of unclear reach after several cards of a hand said since its name: which of them does it
        take back? That hand is not given (asked); after one card («у Бори король, нет, не король») it is clear."""
        said = [g for g in self.groups[self.clause :] if g.owner == owner and not g.finishing and g.said_at >= 0]
        if owner is None or len(said) < 2:
            return False
        self.unclear.append(owner)
        return True

    # -- what was read ---------------------------------------------------------------------

    def assemble(self) -> None:
        result = self.result
        self.unplayed()
        for group in self.groups:
            if group.dropped or group.stranger is not None or (group.owner is None and not group.finishing):
                continue
            if (group.owner in self.unclear or EVERY_HAND in self.unclear) and not group.finishing:
                continue
            for suit in group.suits:
                slot = Slot(group.rank, suit, group.owner or "", group.finishing, word=" ".join(group.words),
                            within=group.within)
                if group.finishing:
                    result.finishing = slot
                else:
                    result.hands.setdefault(slot.owner, []).append(slot)
        self.ask()

def parse_round_text(
    text: str, players: Sequence[str], options: Options | None = None, morphology: Morphology | None = None
) -> ParsedRound:
    """Read a round from free text; see the module docstring for what is and is not guessed."""
    options = options or Options()
    morph = morphology or NoMorphology()
    said = tokens(text[:MAX_TEXT], PlayerNames(players, morph), morph)
    reader = _Reader(said[restart_at(said) :], ParsedRound(players=list(players)))
    reader.read()
    reader.assemble()
    settle(reader.result, options)
    check_points(reader.result, reader.points, options)
    return reader.result


def parse(text: str, players: Sequence[str], options: Options | None = None) -> ParsedRound:
    """`parse_round_text` with pymorphy3's word forms and dictionary: what the app uses."""
    return parse_round_text(text, players, options, morphology=morphology.Pymorphy())
