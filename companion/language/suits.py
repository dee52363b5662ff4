"""Suits as people say them, for the dictation reader (issue 21).

«король пик», "K ♠", «пиковый король»; after the card and plural: «два вальта, червовый и
трефовый», «дама и валет червовые»; «пики: туз». A suit adjective between a card said
without its suit and the next card goes to the one it agrees with in gender («туз
бубновый, десятка»: the ace's); where both agree or it cannot be told, the table is
asked. `Suits` is the part of the reader (dictation._Reader) that does this.
"""

from __future__ import annotations

from companion.core.cards import Rank, Suit, card_word, fold
from companion.language.corrections import SKIPPED, Corrections, Group
from companion.language.spoken_words import ABSENT, FILLERS, HESITATIONS, Tok, card_word_typo, past_hesitations

_SUIT_WORDS = ("suit-after", "suit-before", "suit-letter")
_BOTH = frozenset({"оба", "обе", "both"})  # «десятка и девятка, обе черви»
_ALL = frozenset({"все", "all"})  # «туз, король и дама, все пики»

# Grammatical gender of the Russian rank nouns (туз, король, валет; дама, десятка … шестёрка) and of a suit
# adjective's singular endings: «туз бубновый десятка» — «бубновый» is the ace's, not the ten's.
_MASCULINE_RANKS = frozenset({Rank.ACE, Rank.KING, Rank.JACK})
_ADJ_ENDINGS = (("ый", "m"), ("ий", "m"), ("ого", "m"), ("ому", "m"), ("ым", "m"), ("ом", "m"),
                ("ая", "f"), ("яя", "f"), ("ую", "f"), ("юю", "f"), ("ой", "f"), ("ей", "f"), ("ою", "f"))


def rank_gender(tok: Tok) -> str | None:
    """"m" or "f" for a Russian rank noun as said («туза», «десяткой»); None for a letter, a digit, a numeral."""
    low = fold(tok.text)
    if tok.rank is None or len(low) < 3 or low.isascii():
        return None
    known = card_word(low) or card_word_typo(low)
    if known is None or known.numeral or known.rank is None:
        return None
    return "m" if tok.rank in _MASCULINE_RANKS else "f"


def adjective_gender(tok: Tok) -> str | None:
    """"m" or "f" for a singular suit adjective («бубновый», «пиковой»); None for a plural or another word."""
    low = fold(tok.text)
    if tok.plural or tok.kind != "suit-before":
        return None
    return next((g for ending, g in _ADJ_ENDINGS if low.endswith(ending)), None)


class Suits(Corrections):
    """The reader's state that suits read and change (the fields live in dictation._Reader)."""

    paused: bool
    suit_before: tuple[Suit, str] | None
    unplaced: list[str]
    count: tuple[int, str] | None
    plurals: list[str]

    def on_suit(self, tok: Tok, k: int) -> None:
        """«король пик», "king of spades", "К ♠"; «два вальта, червовый и трефовый»; «пики: туз»."""
        assert tok.suit is not None
        nxt = self.next(k)
        if self.both(tok, k) or self.correct_suit(tok, nxt) or self.fill_last(tok):
            return
        if tok.kind == "suit-after" and nxt is not None and nxt.kind == "rank":
            self.suit_before = (tok.suit, tok.text)
        elif fold(tok.text) not in FILLERS:  # «к» is also a preposition
            self.result.unrecognised.append(tok.text)

    def on_suit_before(self, tok: Tok, k: int) -> None:
        """«пиковый король»; «восьмёркой бубновой», «туз бубновый» after its rank."""
        assert tok.suit is not None
        if self.suit_before is not None:
            self.result.unrecognised.append(self.suit_before[1])
            self.suit_before = None
        nxt = self.next(k, SKIPPED)
        if self.both(tok, k):
            return
        # «дама червей, нет, трефовая и восьмёрка»: a suit word does not reach over «и» to the card after it
        joined = self.and_next(k)  # «трефовая, вот, и восьмёрка»: hesitations and commas between too
        after_its_card = joined or nxt is None or nxt.kind not in ("rank", "number", "card")
        if after_its_card and (self.correct_suit(tok, None if joined else nxt) or self.fill_last(tok)):
            return
        if joined:  # no card of its own before it either: whose suit it is, is asked
            self.unplaced.append(tok.text)
            return
        if after_its_card and self.before_name(tok, k):
            return
        if not after_its_card and nxt is not None and self.belongs_before(tok, k, nxt):
            return
        self.suit_before = (tok.suit, tok.text)

    def before_name(self, tok: Tok, k: int) -> bool:
        """«на десятке, бубновой, у Ани туз»: a suit adjective with no card after it before a name (or the end) is
        never the next hand's: it is the suit of the card before it, past the comma, if it agrees with it in gender;
        else not read (asked)."""
        ahead = self.next(k, (*SKIPPED, "pause"))
        if ahead is not None and ahead.kind not in ("player", "ambiguous", "stranger", "end", "win"):
            return False
        last = self.last
        agrees = last is not None and last.said_at >= 0 and adjective_gender(tok) == rank_gender(
            self.toks[last.said_at]) is not None
        self.paused = self.paused and not agrees
        if not self.fill_last(tok):
            self.result.unrecognised.append(tok.text)
        return True

    def and_next(self, k: int) -> bool:
        """«и» is the next word after `k`, commas and hesitations aside."""
        nxt = next((t for t in self.toks[k + 1 :] if t.kind != "pause" and fold(t.text) not in HESITATIONS), None)
        return nxt is not None and nxt.kind == "and"

    def belongs_before(self, tok: Tok, k: int, nxt: Tok) -> bool:
        """«туз бубновый десятка»: a suit adjective between a card without a suit and the next card goes to the one
        it agrees with; where both agree («туз бубновый король») or neither can be told, the table is asked."""
        last = self.last
        if last is None or last.dropped or None not in last.suits or tok.plural or (self.paused and
                                                                                 len(last.suits) == 1):
            return False
        if self.and_next(k):  # «король бубновый и туз»: a suit word does not reach over «и»
            return self.fill_last(tok)
        adjective = adjective_gender(tok)
        before = rank_gender(self.toks[last.said_at]) if last.said_at >= 0 else None
        if adjective is not None and adjective == before != rank_gender(nxt):
            return self.fill_last(tok)
        if adjective is not None and self.own_suit_follows(nxt, k):  # «десятка бубновая десятка червовая»
            return self.fill_last(tok)
        if adjective is None or adjective == before:
            self.unplaced.append(tok.text)
        return False

    def both(self, tok: Tok, k: int) -> bool:
        """«десятка и девятка, обе черви», «туз и десятка у Дианы, обе бубны»: the two cards said last of one
        hand, both without a suit, take it (also with «обе» after the suit: «девятка и десятка червей обе»); after
        «все» every card of the hand said since its name; anything else with «обе», «все» is not read."""
        before = next((t for t in reversed(self.toks[:k]) if t.kind not in ("filler", "pause")
                       or fold(t.text) in _BOTH | _ALL), None)  # «обе, вот, черви»
        after = self.toks[k + 1] if k + 1 < len(self.toks) else None
        if after is not None and fold(after.text) in _BOTH:  # «девятка и десятка червей обе» («всё» after: the end)
            before = after
        if before is None or fold(before.text) not in _BOTH | _ALL:
            return False
        assert tok.suit is not None
        open_cards = self.cards_said_last(every=fold(before.text) in _ALL)
        if len(open_cards) < 2 or any(g.suits[i] is not None for g, i in open_cards) or len(
                {(g.owner, g.stranger) for g, _ in open_cards}) != 1:
            self.result.unrecognised.append(before.text)
            return True
        for group, i in open_cards:
            group.suits[i] = tok.suit
            group.words.append(tok.text)
        self.paused = False
        return True

    def cards_said_last(self, every: bool) -> list[tuple[Group, int]]:
        """The two cards said last («обе»), or every card of the last hand said since its name («все»)."""
        cards = [(g, i) for g in reversed(self.groups) if not g.dropped and not g.finishing
                 for i in reversed(range(len(g.suits)))]
        if not every:
            return cards[:2]
        last = cards[0][0] if cards else None  # «туз, король и дама, все пики»
        return [(g, i) for g, i in cards if last is not None and g in self.groups[self.clause :]
                and (g.owner, g.stranger) == (last.owner, last.stranger)]

    def own_suit_follows(self, card: Tok, k: int) -> bool:
        """The card after the suit word at `k` is said with a suit of its own right after it (hesitations aside:
        «туз пиковый туз, так, бубновый»)."""
        said = self.after(next(i for i in range(k + 1, len(self.toks)) if self.toks[i] is card))
        return said is not None and said.kind in _SUIT_WORDS

    def fill_last(self, tok: Tok) -> bool:
        if tok.plural and self.fill_all(tok):
            return True
        last = self.last
        if last is None or last.dropped or (self.paused and len(last.suits) == 1):
            return False
        assert tok.suit is not None
        if not last.fill(tok.suit, tok.text) and not self.one_more(last, tok):
            return False
        if self.count is not None and self.count[0] == 1:  # «две дамы, одна червовая»: one of them
            self.count = None
        self.paused = False
        return True

    def one_more(self, group: Group, tok: Tok) -> bool:
        """«короли пик и треф», «тузы пиковый и червовый»: a plural rank said without a number has as many cards as
        suits are listed after it (two or more: then nothing is left to ask)."""
        if not group.open_count or tok.suit is None or tok.suit in group.suits:
            return False
        group.suits.append(tok.suit)
        group.words.append(tok.text)
        said = self.toks[group.said_at].text
        self.plurals = [w for w in self.plurals if w != said]
        return True

    def fill_all(self, tok: Tok) -> bool:
        """«дама и валет червовые»: a plural suit adjective gives its suit to every card just said without one."""
        last = self.last
        if last is None:
            return False
        assert tok.suit is not None
        open_groups = [g for g in self.groups[self.clause :] if not g.dropped and None in g.suits
                       and (g.owner, g.stranger) == (last.owner, last.stranger)]
        for group in open_groups:
            while group.fill(tok.suit, tok.text):
                pass
        self.paused = False
        return bool(open_groups)


    def on_unknown_suit(self, tok: Tok, k: int) -> None:
        """"7?": said without a suit on purpose; «дама красная»: the suit open among the colour's two."""
        if tok.suits and self.last is not None and len(self.last.suits) == 1 and self.last.suits[0] is None:
            self.last.within = tok.suits
        self.last = None

    def on_or(self, tok: Tok, k: int) -> None:
        """«десятка пик или треф», «дама то ли пик, то ли треф» (vague.either): the suit is not known; the card stays
        without one, one of the two said (asked where that changes the points)."""
        at = next((i for i in range(k + 1, len(self.toks)) if self.toks[i].kind not in ("filler", "pause")), None)
        nxt = self.toks[at] if at is not None else None
        last = self.last
        said = [i for i, suit in enumerate(last.suits) if suit is not None] if last is not None else []
        before = next((t for t in reversed(self.toks[:k]) if t.kind not in ("filler", "pause")), None)
        just_filled = before is not None and last is not None and bool(last.words) and last.words[-1] == before.text
        if not just_filled or nxt is None or nxt.kind not in _SUIT_WORDS or not said or last is None:
            self.result.unrecognised.append(tok.text)
            return
        if len(last.suits) == 1 and nxt.suit is not None and last.suits[0] is not None:
            last.within = (last.suits[0], nxt.suit)  # one of the two said (as a colour says, `colours`)
        last.suits[said[-1]] = None
        self.consumed.add(self.toks.index(nxt, k + 1))


# Suits said by their colour: «две дамы, обе чёрные» (♠ and ♣), «дама красная» (♥ or ♦: which? asked where it matters)
_COLOURS = (("черн", (Suit.SPADES, Suit.CLUBS)), ("красн", (Suit.HEARTS, Suit.DIAMONDS)),
            ("black", (Suit.SPADES, Suit.CLUBS)), ("red", (Suit.HEARTS, Suit.DIAMONDS)))
_COLOUR_ENDINGS = ("ый", "ая", "ое", "ые", "ой", "ую", "ых", "ым", "ого", "ому", "")


_PLURAL_COLOUR = ("ые", "ых", "ым")


def _colour(tok: Tok) -> tuple[Suit, Suit] | None:
    low = fold(tok.text)
    return next((suits for stem, suits in _COLOURS if low.startswith(stem) and low[len(stem):] in _COLOUR_ENDINGS
                 and (stem.isascii() == low.isascii())), None)


def _plural(tok: Tok) -> bool | None:
    """A colour word said of several cards («чёрные»), of one («чёрная»), or English: either."""
    low = fold(tok.text)
    return None if low.isascii() else low.endswith(_PLURAL_COLOUR)


def _plain_rank(tok: Tok | None) -> bool:
    return tok is not None and tok.kind == "rank" and tok.suit is None and not tok.plural


def colours(toks: list[Tok]) -> list[Tok]:
    """«две дамы, обе чёрные», «пара тузов красные»: two cards of one rank said by their colour are the two cards of
    that colour (♠ and ♣, ♥ and ♦); «дама красная», «чёрный туз»: one card said by its colour has one of its two
    suits, open (asked where the suit changes the points). Anything else said with a colour («три дамы красные»,
    «туз и король оба чёрные», «две дамы, красная и чёрная») is not read: asked."""
    out: list[Tok] = []
    k = 0
    while k < len(toks):
        tok = toks[k]
        suits = _colour(tok) if tok.kind == "unknown" else None
        k += 1
        if suits is None:
            out.append(tok)
            continue
        back = len(out) - 1  # «две дамы, обе, ну, чёрные»
        while back >= 0 and (out[back].kind == "pause" or fold(out[back].text) in _BOTH | HESITATIONS):
            back -= 1
        adjacent = all(fold(t.text) in HESITATIONS for t in out[back + 1 :])  # «дама, ну, красная»; not «дама, красная»
        card = out[back] if back >= 0 else None
        before = past_hesitations(out, back - 1, -1)  # «две, значит, дамы»
        counted = out[before] if back >= 1 and before >= 0 else None
        one = counted is None or counted.kind not in ("count", "number")
        nxt = toks[k] if k < len(toks) else None
        pair = _said_twice(out, back) if _plural(tok) is not False else None  # «туз и туз, оба красные»
        if pair is not None and card is not None and card.rank is not None:
            out[pair] = Tok("card", out[pair].text, rank=card.rank, suit=suits[0])
            out[back] = Tok("card", card.text, rank=card.rank, suit=suits[1])
            out.append(Tok("filler", tok.text))
        elif card is not None and card.kind == "rank" and card.suit is None and counted is not None and (
                counted.kind == "count" and counted.count == 2 and _plural(tok) is not False):
            assert card.rank is not None
            out[before] = Tok("filler", counted.text)
            out[back] = Tok("card", card.text, rank=card.rank, suit=suits[0])
            out += [Tok("and", "и"), Tok("card", tok.text, rank=card.rank, suit=suits[1])]
        elif _plural(tok) is not True and adjacent and _plain_rank(card) and one:
            out.append(Tok("unknown-suit", tok.text, suits=suits))  # «дама красная»
        elif nxt is not None and _plural(tok) is not True and _plain_rank(nxt) and (
                card is None or card.kind not in ("count", "number")):
            absent = k + 1 < len(toks) and fold(toks[k + 1].text) in ABSENT  # «красного короля нет»: as «короля нет»
            out += [Tok("filler", tok.text), nxt] + ([] if absent else [Tok("unknown-suit", "", suits=suits)])
            k += 1  # «красная дама»
        else:
            out.append(tok)
    return out


def _said_twice(out: list[Tok], back: int) -> int | None:
    """«туз и туз» said last at `back`: the index of the first of two cards of one rank said plainly, with no card
    said right before them."""
    joined = past_hesitations(out, back - 1, -1)
    first = past_hesitations(out, joined - 1, -1)
    if not (_plain_rank(out[back] if back >= 0 else None) and joined >= 0 and out[joined].kind == "and"):
        return None
    if first < 0 or not _plain_rank(out[first]) or out[first].rank is not out[back].rank:
        return None
    said = past_hesitations(out, first - 1, -1)
    return first if said < 0 or out[said].kind not in ("rank", "card", "and", "count", "number") else None


_HAND_SIZE = frozenset({"filler", "pause", "count", "number", "and"})  # «у Тимохи три карты, все бубны»
_RUN_ENDS = frozenset({"player", "ambiguous", "stranger", "end", "win", "correct", "not", "draw", "play", "hedge"})


def suit_first(toks: list[Tok]) -> list[Tok]:
    """«у Тимохи три карты, все бубны: валет, дама и король», «две карты, обе пиковые, туз и десятка», «трефовые туз и
    король»: «все», «обе» and a suit (or a plural suit adjective alone) said before any card of the hand are the suit
    of the cards said after it (read as «валет, дама и
    король бубновые», `Suits.fill_all`): all of them with «все» (two or more), the two with «обе». A card with a
    suit of its own among them, a count, another number of cards or a correction after them: not read (asked)."""
    out = list(toks)
    for k, tok in enumerate(toks):
        at = past_hesitations(toks, k + 1)
        low = fold(tok.text)
        if tok.kind == "suit-before" and tok.plural and tok.suit is not None:  # «трефовые: туз и король»
            at, low = k, "все"
        elif low not in _BOTH | _ALL or at >= len(toks) or toks[at].kind not in _SUIT_WORDS or toks[at].suit is None:
            continue
        name = k - 1
        while name >= 0 and toks[name].kind in _HAND_SIZE:
            name -= 1
        end = at + 1
        while end < len(toks) and toks[end].kind not in _RUN_ENDS:
            end += 1
        run = toks[at + 1 : end]
        cards = [i for i, t in enumerate(run, at + 1) if t.kind in ("rank", "card")]
        alone = all(t.kind in ("rank", "and", "pause") or fold(t.text) in HESITATIONS for t in run[: cards[-1] - at]
                    ) if cards else False
        taken_back = end < len(toks) and toks[end].kind in ("correct", "not", "hedge")  # «все черви: туз, нет, …»
        if name < 0 or toks[name].kind != "player" or not alone or taken_back or len(cards) != 2 and (
                low not in _ALL or len(cards) < 2):
            continue
        plural = Tok("suit-before", toks[at].text, suit=toks[at].suit, plural=True)
        out[k], out[at] = Tok("filler", tok.text), Tok("filler", toks[at].text)
        return [*out[: cards[-1] + 1], plural, *suit_first(out[cards[-1] + 1 :])]
    return out
