"""Points said aloud about a hand (issue 21, tenth round): «туз, десятка и валет, итого двадцать три», «король и
восьмёрка, двенадцать очков», «2 карты туз и 10 21 очко», «у Майи ноль карт».

Points are never turned into cards: a hand's points can be many hands. A number said with «очко», «очка»,
«очков» after it, a number word above ten said on its own («двадцать три», «шестьдесят»; «десять» is a ten),
and «ноль» are points said about the hand being said; so is a number that could be a rank («девять», "9")
right after a hand's last card said as a noun and joined by «и» («дама и шестёрка девять», «валет и валет
четыре», `_points_as_rank`).
Once the cards are read they are checked: points the hand's cards can make (whatever suit a card of unsaid suit
turns out to have) are a check passed and change nothing; points they cannot make, points said before any name,
and «ноль» for a hand with cards or for a player who did not go out (only the winner is left with no cards,
docs/rules.md) leave the words not understood, so that the round is asked about, never guessed.
"""

from __future__ import annotations

from itertools import product

from companion.core.cards import Card, Suit, fold
from companion.core.rules import Options
from companion.core.scoring import score_hand
from companion.language.settle import ParsedRound
from companion.language.spoken_words import CARD_NOUNS, Tok, numeral, past_hesitations

_UNITS = {"один": 1, "одно": 1, "одна": 1, "два": 2, "две": 2, "три": 3, "четыре": 4, "пять": 5, "шесть": 6,
          "семь": 7, "восемь": 8, "девять": 9}
_TEENS = {"одиннадцать": 11, "двенадцать": 12, "тринадцать": 13, "четырнадцать": 14, "пятнадцать": 15,
          "шестнадцать": 16, "семнадцать": 17, "восемнадцать": 18, "девятнадцать": 19}
_TENS = {"двадцать": 20, "тридцать": 30, "сорок": 40, "пятьдесят": 50, "шестьдесят": 60, "семьдесят": 70,
         "восемьдесят": 80, "девяносто": 90, "сто": 100}
_POINT_NOUNS = frozenset({"очко", "очка", "очков", "очки", "points", "point"})
_ZERO = frozenset({"ноль", "нуль", "zero"})
# «шесть человек пишем», «так, три игрока»: the table's size said first, no card
_PEOPLE = frozenset({"человек", "человека", "игрока", "игроков", "people", "players"})
_MOST_UNSAID = 6  # suits tried for at most this many cards of unsaid suit in one hand


def _number_at(toks: list[Tok], k: int) -> tuple[int, int, bool]:
    """The number said from `k`: its value, how many words, and whether it is a word above ten."""
    word = fold(toks[k].text)
    if word.isascii() and word.isdigit() and len(word) <= 3:
        return int(word), 1, False
    if word in _ZERO:
        return 0, 1, True
    if word in _TEENS:
        return _TEENS[word], 1, True
    if word in _TENS:
        at = past_hesitations(toks, k + 1)  # «двадцать, э, одно»
        nxt = fold(toks[at].text) if at < len(toks) else ""
        return (_TENS[word] + _UNITS[nxt], at + 1 - k, True) if nxt in _UNITS else (_TENS[word], 1, True)
    if word in _UNITS:
        return _UNITS[word], 1, False
    return 0, 0, False


_HAND_KINDS = frozenset({"rank", "card", "suit-after"})
_AFTER_HAND = frozenset({"player", "ambiguous", "stranger", "end"})


def _points_as_rank(toks: list[Tok], k: int) -> bool:
    """«у Эльзы дама и шестёрка девять», «валет и валет четыре», «туз и король, э, пятнадцать» (read before): a
    number from two to ten (that could be a rank, or a count with nothing after it to count), right after a hand's
    last card said as a noun (its suit too) and joined to the card before by «и», with a name, «у», «а» or the end
    after it, is the hand's points, not one card more; so is the rank of a hand's only card said again as a number
    right after it («наина восьмёрка восемь»: two eights would be «две восьмёрки»), and a number up to five after
    a lone picture card («валет два», «король четыре»). They are checked against the cards like any points said:
    points the cards cannot make leave the round asked, never guessed."""
    if toks[k].kind not in ("rank", "number", "count") or not 2 <= (numeral(toks[k]) or 0) <= 10:
        return False
    last = past_hesitations(toks, k - 1, -1)
    if last >= 0 and toks[last].kind == "suit-after":  # «шестёрка треф девять»
        last = past_hesitations(toks, last - 1, -1)
    joined = past_hesitations(toks, last - 1, -1)
    first = past_hesitations(toks, joined - 1, -1)
    nxt = past_hesitations(toks, k + 1)
    ends = nxt >= len(toks) or toks[nxt].kind in _AFTER_HAND or fold(toks[nxt].text) in ("у", "а")
    if not (ends and last >= 0 and toks[last].kind in ("rank", "card") and numeral(toks[last]) is None):
        return False
    if joined >= 0 and toks[joined].kind == "and":
        return first >= 0 and toks[first].kind in _HAND_KINDS
    only = joined < 0 or toks[joined].kind not in (*_HAND_KINDS, "and", "count", "number")
    rank, said = toks[last].rank, numeral(toks[k]) or 0
    return only and rank is not None and (rank.value == str(said) or not rank.value.isdigit() and said <= 5)


def said_points(toks: list[Tok]) -> list[Tok]:
    """Points said aloud become one «points» token (the words after it fillers); a number of people («шесть
    человек») is the table's size, no card; a number of cards stays."""
    out = list(toks)
    k = 0
    while k < len(toks):
        if _points_as_rank(toks, k):
            out[k] = Tok("points", toks[k].text, count=numeral(toks[k]) or 0)
            k += 1
            continue
        value, n, above_ten = _number_at(toks, k) if toks[k].kind != "filler" else (0, 0, False)
        noun = past_hesitations(toks, k + n) if n else k  # «15, ага, очков»
        after = fold(toks[noun].text) if n and noun < len(toks) else ""
        if n and after in _PEOPLE:
            out[k : noun + 1] = [Tok("filler", t.text) for t in toks[k : noun + 1]]
            k = noun + 1
            continue
        if n and (after in _POINT_NOUNS or (above_ten and (after not in CARD_NOUNS or value == 0))):
            words = [t.text for t in toks[k : noun + 1 if after in _POINT_NOUNS or after in CARD_NOUNS else k + n]]
            out[k] = Tok("points", " ".join(words), count=value)
            for j in range(k + 1, k + len(words)):
                out[j] = Tok("filler", toks[j].text)
            k += len(words)
            continue
        k += 1
    return out


def _can_make(result: ParsedRound, owner: str, value: int, options: Options) -> bool:
    slots = result.hands.get(owner, [])
    if value == 0:
        return not slots and owner == result.winner
    known = [s.card for s in slots if s.card is not None]
    unsaid = [s.rank for s in slots if s.card is None]
    if len(unsaid) > _MOST_UNSAID:
        return False
    for suits in product(tuple(Suit), repeat=len(unsaid)):
        cards = known + [Card(rank, suit) for rank, suit in zip(unsaid, suits, strict=True)]
        if score_hand(cards, options).points == value:
            return True
    return False


def check_points(result: ParsedRound, said: list[tuple[str | None, Tok]], options: Options) -> None:
    """Points the hand cannot make (or said about nobody) are words not understood: the round is asked."""
    for owner, tok in said:
        if owner is None or not _can_make(result, owner, tok.count, options):
            result.unrecognised.append(tok.text)
