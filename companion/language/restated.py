"""Hands said again after talk, and hands said by what they lack (issue 21): token rewrites before the reading.

«у Матвея восьмёрка и девятка, да не девятка, десятка, говорит, ну значит восьмёрка и десятка»: somebody talked
over the scribe, then the hand was summed up; what was said last, in full, is the hand. «у Валика ничего нет»,
«ничего не досталось, кроме десятки»: the «нет», «не» negate the «ничего», not a card said before.
"""

from __future__ import annotations

from collections import Counter

from companion.core.cards import Rank, Suit, fold
from companion.language.spoken_words import ABSENT, CARD_NOUNS, HESITATIONS, HOLDING, Tok, past_hesitations

_NOTHING = frozenset({"ничего", "ничегошеньки", "nothing"})
# «ничего не досталось», «ничего не осталось»: what a hand holds («ничего не помню» is not about the hand: asked)
_HELD = HOLDING | {"досталось", "досталась", "достался", "достались", "пришло", "перепало"}
_WITHOUT = frozenset({"без", "without"})  # «Руслан без карт вышел»: no cards held
_CARDS = frozenset({"rank", "card", "count", "number"})
_NAMED_OR_CARD = _CARDS | {"player", "ambiguous", "stranger", "end"}


def nothing_held(toks: list[Tok]) -> list[Tok]:
    """«у Валика ничего нет», «ничего не досталось кроме десятки», «ничего не осталось»: a hand said by what it
    lacks. The «нет», «не» + a verb of holding after «ничего» (hesitations aside) negate the «ничего», not a card
    said before: no correction; the cards after «кроме» are the hand («кроме» carries nothing). «ничего не помню» is
    read as before (the hand is asked). «без карт» says the same: nothing held (only the winner holds nothing;
    anyone else's hand is then not said, and asked); «без» before anything else is not read («без туза»)."""
    out = list(toks)
    for k, tok in enumerate(toks):
        noun = past_hesitations(toks, k + 1)  # «без, э, карт»
        if fold(tok.text) in _WITHOUT and noun < len(toks) and fold(toks[noun].text) in CARD_NOUNS:
            said = next((t for t in reversed(toks[:k]) if t.kind in _NAMED_OR_CARD), None)
            if said is None or said.kind not in _CARDS:  # «у Ани король без карт»: which? not read
                out[k] = Tok("filler", tok.text)
        if fold(tok.text) not in _NOTHING:
            continue
        at = next((i for i in range(k + 1, len(toks)) if fold(toks[i].text) not in HESITATIONS), None)
        if at is None:
            continue
        nxt = toks[at + 1] if at + 1 < len(toks) else None
        absent = toks[at].kind == "correct" and fold(toks[at].text) in ABSENT  # «ничего нет»
        negated = toks[at].kind == "not" and nxt is not None and fold(nxt.text) in _HELD  # «ничего не досталось»
        if absent or negated:
            out[at] = Tok("filler", toks[at].text)
    return out


# Words that sum a hand up after talk: «ну», «значит», «короче», «в общем», «итак».
_SUM_UP = frozenset({"ну", "значит", "короче", "итак", "общем", "словом"})
TALK = frozenset({"говорит", "говорят", "сказал", "сказала", "кричит"})  # somebody talking over the scribe
_HAND_ENDS = frozenset({"player", "ambiguous", "stranger", "end", "win", "draw", "play"})
_PREPOSITIONS = frozenset({"на", "с", "со", "у", "в", "к", "по"})
_MORE = frozenset({"и", "ещё", "еще", "плюс", "and"})
_BEFORE_NAME = frozenset({"у", "а", "и", ",", "and"})
_RUN = frozenset({"rank", "card", "count", "suit-after", "suit-before", "suit-letter", "and", "pause"})


def summed_up(toks: list[Tok]) -> list[Tok]:
    """«у Инны дама червей и пиковая дама, она говорит не пиковая а трефовая, ну дама червей и дама треф»: after a
    correction or somebody talking over, in a hand said after its player's name, a word that sums up («ну»,
    «значит») and then the last cards of the hand, every rank of them said before in that hand, is the hand said
    again in full: what was said before it in that hand carries nothing. Where that is not sure, asked (`_unsure`);
    cards of ranks not said before («нет, туз, ну, дама» adds the queen) are read as before."""
    out = list(toks)
    start, named = 0, False
    for k, tok in enumerate(toks + [Tok("end", "")]):
        if tok.kind not in _HAND_ENDS:
            continue
        if named and k > start:  # a hand said after its player's name (not a finishing card after «вышла»)
            _sum_up_hand(toks, out, start, k)
        start, named = k + 1, tok.kind == "player"
    return out


def _sum_up_hand(toks: list[Tok], out: list[Tok], start: int, end: int) -> None:
    """The hand said between `start` and `end` (no name, end or verb inside): rewrite it in `out` if it is summed
    up at its end."""
    if _said_over(toks, out, start, end):
        return
    while end > start and toks[end - 1].kind in ("filler", "and", "pause") and fold(toks[end - 1].text) in _BEFORE_NAME:
        end -= 1  # «… восьмёрка и десятка, а у Леси»
    run = end
    while run > start and (toks[run - 1].kind in _RUN or fold(toks[run - 1].text) in HESITATIONS - _SUM_UP
                           or _inside_card(toks, run - 1, start)):
        run -= 1
    if run <= start or fold(toks[run - 1].text) not in _SUM_UP | TALK:
        _doubled(toks, out, start, end)
        return
    marker = run - 1
    while marker > start and (fold(toks[marker - 1].text) in _SUM_UP | TALK | {"в", "она", "он", "они"}
                              or toks[marker - 1].kind == "pause"):
        marker -= 1
    if past_hesitations(toks, marker - 1, -1) >= start and toks[past_hesitations(toks, marker - 1, -1)].kind in (
            "correct", "not"):
        return  # «туз червей, нет, короче, туз бубей»: a hesitation in the correction, not a sum-up
    corrected = any(t.kind in ("correct", "not") or fold(t.text) in TALK for t in toks[start:run])
    again, before = _ranks(toks[run:end]), _ranks(toks[start:marker])
    confirmed = fold(toks[run - 1].text) in _SUM_UP  # «ну», «значит» right before the cards: the scribe sums up
    then = past_hesitations(toks, run, 1)
    if marker > start and fold(toks[marker - 1].text) in _MORE or then < end and toks[then].kind == "and":
        return  # «король и, ну, туз», «валет, значит, вот и валет»: one more card
    if corrected and confirmed and again and set(again) <= set(before) and _restates(toks[start:marker], toks[run:end]):
        for i in range(start, run):
            if toks[i].kind != "filler":
                out[i] = Tok("filler", toks[i].text)
    elif _unsure(again, before, corrected, confirmed, any(t.kind == "count" for t in toks[run:end])):
        out[run - 1] = Tok("hedge", toks[run - 1].text)


def _said_over(toks: list[Tok], out: list[Tok], start: int, end: int) -> bool:
    """«король и девятка, вернее, король и восьмёрка»: right after a correction word, the hand said again from its
    first card (the same rank, the same suit if one was said), at least as many cards as before it: the hand is
    said over, and what was said before the correction carries nothing. «король и девятка, нет, туз и восьмёрка»
    (which of them was wrong?) and a suit lost («туз червей и дама, нет, туз и валет») are read as before (asked)."""
    while end > start and (toks[end - 1].kind == "pause" or fold(toks[end - 1].text) in _BEFORE_NAME | HESITATIONS):
        end -= 1  # «…, ну, у Аделаиды»
    run = end
    while run > start and (toks[run - 1].kind in _RUN or fold(toks[run - 1].text) in HESITATIONS):
        run -= 1  # «дама, ну, и девятка»
    corr = run - 1
    head = corr  # «ой, вернее», «нет, нет»: the first of the correction words
    while head > start and (toks[head - 1].kind in ("correct", "pause") or fold(toks[head - 1].text) in HESITATIONS):
        head -= 1
    if corr < start or toks[corr].kind != "correct" or any(
            t.kind not in _RUN or t.kind == "count" for t in toks[start:head] if fold(t.text) not in HESITATIONS):
        return False
    first = past_hesitations(toks, corr + 1)
    if first >= end or toks[first].kind == "and":  # «король и девятка, ой, и король»: one more
        return False
    said, again = _cards(toks[start:head]), _cards(toks[run:end])
    if len(said) < 2 or len(again) < len(said) or any(t.kind == "count" for t in toks[run:end]):
        return False
    if said[0][0] != again[0][0] or said[0][1] not in (None, again[0][1]):
        return False
    for i in range(start, run):
        if toks[i].kind != "filler":
            out[i] = Tok("filler", toks[i].text)
    return True


def _doubled(toks: list[Tok], out: list[Tok], start: int, end: int) -> None:
    """«у Бори туз и король туз и король», «туз, король и дама, король и дама»: two cards or more said twice in a row
    in a hand, the same in the same order: said again, or as many more? asked (the hand is not given)."""
    at = [k for k in range(start, end) if toks[k].kind in ("rank", "card")]
    if len(at) < 4 or any(t.kind == "count" for t in toks[start:end]):
        return
    cards = _cards(toks[start:end])
    for n in range(2, len(cards) // 2 + 1):
        twice = next((i for i in range(len(cards) - 2 * n + 1) if cards[i : i + n] == cards[i + n : i + 2 * n]), None)
        if twice is not None:
            out[at[twice + n]] = Tok("hedge", toks[at[twice + n]].text)
            return


def _inside_card(toks: list[Tok], k: int, start: int) -> bool:
    """«два, ну, туза», «восьмёрка, ну, и десятка»: a hesitation inside a card or before «и», no summing up."""
    if fold(toks[k].text) not in HESITATIONS or k <= start or k + 1 >= len(toks):
        return False
    after = toks[k + 2] if k + 2 < len(toks) else None
    own_suit = toks[k + 1].suit is not None or (after is not None and after.kind in ("suit-after", "suit-letter"))
    suit_waits = toks[k - 1].kind == "suit-before" and not own_suit  # «пиковая, ну, дама» (not «…, ну, дама червей»)
    governs = fold(toks[k - 1].text) in _PREPOSITIONS  # «на, ну, даме»
    return toks[k - 1].kind in ("count", "number") or suit_waits or governs or toks[k + 1].kind == "and"


def _unsure(again: list[Rank], before: list[Rank], corrected: bool, confirmed: bool, counted: bool) -> bool:
    """Cards said after a sum-up or talk word that may be the hand said again or more cards: asked. «туз, нет,
    король, значит, туз и дама» (the ace again: the hand summed up, or one more card?); «дама червей, говорит, дама
    пик» (somebody says otherwise, the scribe does not sum up); «восьмёрка и девятка, ну, восьмёрка и девятка (и
    туз)» (said again, or more cards?). Cards of other ranks only add to the hand, as before; a count after the
    same cards sums them up, as before («туз и туз, ну, два туза»)."""
    if not again or not before:
        return False
    if not confirmed:  # «…, он говорит, десятка и восьмёрка»: what somebody says, and the scribe does not sum up
        return True
    if corrected:
        return bool(set(again) & set(before))
    return not counted and not Counter(before) - Counter(again)


def _restates(said: list[Tok], again: list[Tok]) -> bool:
    """The cards said again keep what the last correction put in («не девятка, десятка, …, ну, восьмёрка и
    десятка»: the ten), and the suits said («туз червей, нет, бубей, ну, туз» loses the suit: asked)."""
    last = max((i for i, t in enumerate(said) if t.kind in ("correct", "not") or fold(t.text) in TALK), default=-1)
    put_in = _ranks(said[last + 1 :])
    if last >= 0 and said[last].kind == "not":
        put_in = put_in[1:]  # «не девятка»: the card that was wrong
    suited = {rank for rank, suit in _cards(said) if suit is not None}
    cards = _cards(again)
    return set(put_in) <= {rank for rank, _ in cards} and not any(s is None and r in suited for r, s in cards)


def _cards(toks: list[Tok]) -> list[tuple[Rank, Suit | None]]:
    """Each rank said with the suit said right with it, if any («дама червей», «пиковая дама», «Q♥», «queen of
    hearts»)."""
    cards: list[tuple[Rank, Suit | None]] = []
    for k, tok in enumerate(toks):
        if tok.kind not in ("rank", "card") or tok.rank is None:
            continue
        before = toks[k - 1] if k > 0 else None
        nxt = k + 2 if k + 2 < len(toks) and fold(toks[k + 1].text) == "of" else k + 1  # «seven of hearts»
        after = toks[nxt] if nxt < len(toks) else None
        suit = tok.suit or (after.suit if after is not None and after.kind in ("suit-after", "suit-letter") else None)
        suit = suit or (before.suit if before is not None and before.kind == "suit-before" else None)
        cards.append((tok.rank, suit))
    return cards


def _ranks(toks: list[Tok]) -> list[Rank]:
    """The ranks of the cards said, one per card («две дамы»: two queens)."""
    ranks: list[Rank] = []
    count = 1
    for tok in toks:
        if tok.kind == "count":
            count = tok.count or 1
        elif tok.kind in ("rank", "card") and tok.rank is not None:
            ranks += [tok.rank] * count
            count = 1
    return ranks
