"""Cards and hands said without being named (issue 21): token rewrites before the reading.

«и ещё что-то», «туз и картинка какая-то», «девятка и ещё мелочь»: a card not named; «вроде король»: not sure of
it; «то ли валет, то ли король», «валет или король»: one of two; «серёга свои карты в колоду смешал»: a hand gone
before anyone saw it. Each is a hedge: that hand is asked, not given (dictation._Reader.on_hedge). «на даме то ли
червей, то ли бубей» is only the suit not known, as «дама червей или бубей»: it stays open (Suits.on_or).
"""

from __future__ import annotations

from companion.core.cards import fold
from companion.language.spoken_words import OR, Tok, past_hesitations

_SOME = frozenset({"что", "чего", "какой", "какая", "какую", "какие", "каких", "кое", "какое"})
_SOME_TAIL = frozenset({"то", "нибудь", "либо"})
_HEDGES = frozenset({"вроде"})  # «у Вики вроде король»: not sure of the card (but «вроде всё» ends the round)
_CARD_WORDS = frozenset({"rank", "card", "count", "number", "suit-before"})
# Words for a card that name none: «картинка» (a face card), «мелочь», «мелкая», «фоска» (a low card), «фигура»,
# «остальное»
_NO_CARD = ("картинк", "мелоч", "мелк", "фоск", "фигур", "остальн")
# The cards put back before anyone saw them: «в колоду смешал», «перемешала», «замешал»
_GONE = ("смеша", "смешива", "перемеша", "перемешива", "замеша", "замешива")
_EITHER = (("то", "ли"), ("не", "то"))  # «то ли валет, то ли дама», «не то валет, не то дама»
_SUITS = frozenset({"suit-after", "suit-before", "suit-letter"})


def vague(toks: list[Tok]) -> list[Tok]:
    """«и ещё что-то», «какая-то карта», «картинка», «мелочь»: a card not named, so the hand is not known; «вроде
    король», «вроде бы туз»: the card is not sure; «смешал», «перемешала»: the hand gone. Each is a hedge."""
    out = list(toks)
    for k, tok in enumerate(toks):
        low = fold(tok.text)
        nxt = toks[k + 1] if k + 1 < len(toks) else None
        if low in _SOME and nxt is not None and fold(nxt.text) in _SOME_TAIL:
            out[k] = Tok("hedge", tok.text)
            out[k + 1] = Tok("filler", nxt.text)
        elif low in _HEDGES:
            after = next((t for t in toks[k + 1 :] if fold(t.text) not in ("бы", "как")), None)
            if after is not None and after.kind in _CARD_WORDS:
                out[k] = Tok("hedge", tok.text)
        elif tok.kind in ("unknown", "stranger") and low.startswith(_NO_CARD + _GONE):
            out[k] = Tok("hedge", tok.text)
    return out


def either(toks: list[Tok]) -> list[Tok]:
    """«то ли валет, то ли дама», «не то валет, не то дама», «валет или король», «или туз, или король»: not sure of
    the card, a hedge (that hand asked). «дама то ли пик, то ли треф»: two suits, the suit open, read as «дама пик
    или треф» (Suits.on_or)."""
    out = list(toks)
    for pair in _EITHER:
        said = [k for k in range(len(toks) - 1) if (fold(toks[k].text), fold(toks[k + 1].text)) == pair]
        if pair != _EITHER[0] and len(said) < 2:  # «не то» once: not «не то …, не то …»
            continue
        for first, second in zip(said[::2], said[1::2] + [None] * (len(said) % 2), strict=True):
            _one_of_two(toks, out, first, second)
    for k, tok in enumerate(toks):
        at = past_hesitations(toks, k + 1)
        if tok.kind == "or" and fold(tok.text) in OR and at < len(toks) and toks[at].kind in _CARD_WORDS - {
                "suit-before"}:
            out[k] = Tok("hedge", tok.text)  # «валет или король»: which?
    return out


def _one_of_two(toks: list[Tok], out: list[Tok], first: int, second: int | None) -> None:
    """The two words of «то ли» at `first` and `second`: two suits (each one word) are an open suit; else a hedge."""
    one = past_hesitations(toks, first + 2)
    other = past_hesitations(toks, second + 2) if second is not None else len(toks)
    suits = other < len(toks) and toks[one].kind in _SUITS and toks[other].kind in _SUITS and second == (
        past_hesitations(toks, one + 1))
    out[first] = Tok("filler" if suits else "hedge", toks[first].text)
    out[first + 1] = Tok("filler", toks[first + 1].text)
    if second is not None:
        out[second] = Tok("filler", toks[second].text)
        out[second + 1] = Tok("or" if suits else "filler", toks[second + 1].text)
