"""The words of a round read where they stand (issue 21): what a word is can depend on its neighbours.

`tokens` reads each word alone (`spoken_words.classify`), then by its place: the one
who dictates («у меня», «я вышла») is somebody to ask about; a card played «последней картой» is the card
the player went out on, and so is the one card said «последней» in a text with no word of going out; a word where
only a name
can stand («у Пети», «Фая вышла») is a player's pet name by its root or a name of
nobody; a dictionary word one letter off a suit right after a rank is that suit («на
девятке пек»); a lower-case «в», «к» among cards is a rank letter.
"""

from __future__ import annotations

from collections.abc import Callable

from companion.core.cards import SUIT_SYMBOLS, Rank, fold, read_notation
from companion.language.morphology import Morphology
from companion.language.points import said_points
from companion.language.restated import nothing_held, summed_up
from companion.language.said_back import (
    asked_first,
    asked_player,
    pronouns,
    recalled,
    remembered,
    same_hand,
)
from companion.language.speaker import speaker_by_place
from companion.language.spoken_words import (
    CARD_NOUNS,
    CORRECTION_PHRASES,
    HESITATIONS,
    HOLDING,
    RANK_LETTERS_ALL,
    TOKENS,
    Names,
    Tok,
    card_word_token,
    card_word_typo,
    classify,
    past_hesitations,
    player_token,
    suit_word_typo,
    word_past_hesitations,
)
from companion.language.suits import colours, suit_first
from companion.language.vague import either, vague


def tokens(text: str, names: Names, morphology: Morphology) -> list[Tok]:
    out: list[Tok] = []
    words = [(m.lastgroup, m.group()) for m in TOKENS.finditer(text)]
    i = 0
    while i < len(words):
        kind, value = words[i]
        phrase = _correction_phrase(words, i, lambda w: classify(w, names, morphology).kind == "remark")
        if kind == "word" and phrase:  # «то есть», «то, э, есть»
            out.append(Tok("correct", " ".join(v for _, v in words[i : i + phrase])))
            i += phrase
            continue
        if kind == "word":
            multi = _multi_word_name(words, i, names)  # a player's name of several words: «Анна Мария»
            if multi is not None:
                player, used = multi
                out.append(Tok("player", " ".join(v for _, v in words[i : i + used]), player=player))
                i += used
                continue
            out.append(classify(value, names, morphology))
        else:
            out.append(symbol_token(kind, value))
        i += 1
    out = _without_remarks(out)
    out = _preamble_by_place(speaker_by_place(_points_by_place(out), morphology), morphology)
    out = _covers_by_place(_last_by_place(_plays_by_place(out)))
    out = _reasons_by_place(_letters_by_place(_suits_by_place(_names_by_place(out, names, morphology))))
    out = suit_first(colours(out))
    out = pronouns(same_hand(recalled(remembered(asked_first(asked_player(out))))), names)
    return vague(_asked_back(either(summed_up(nothing_held(out)))))


_CARD_WORDS = frozenset({"rank", "card", "count", "number", "suit-before"})


_RESTART = frozenset({"заново", "сызнова"})  # «давай заново»: what was said before is void
_RESTART_PHRASES = frozenset({("по", "новой"), ("по", "новому"), ("давай", "сначала"), ("начнем", "сначала"),
                              ("начну", "сначала")})


def restart_at(toks: list[Tok]) -> int:
    """Where the round is said again from the start («ой, нет, давай заново: Вера вышла …», «стоп, по новой»): the
    index of the first token after the last such word; 0 if there is none. What was said before it is void."""
    start = 0
    for k, tok in enumerate(toks):
        pair = (fold(toks[k - 1].text), fold(tok.text)) if k > 0 else ("", "")
        if fold(tok.text) in _RESTART or pair in _RESTART_PHRASES:
            start = k + 1
    return start


_FOR = frozenset({"за"})


def _reasons_by_place(toks: list[Tok]) -> list[Tok]:
    """«за семёрку две взяла», «за пикового короля пять штрафных»: the card after «за» is the one that made the
    player draw, not a card held: «за» and the card carry nothing."""
    out = list(toks)
    for k, tok in enumerate(toks):
        if fold(tok.text) not in _FOR or tok.kind not in ("unknown", "filler"):
            continue
        at = k + 1
        while at < len(toks) and (toks[at].kind in ("suit-before", "pause") or fold(toks[at].text) in HESITATIONS):
            at += 1  # «за пикового, вот, короля»
        if at >= len(toks) or toks[at].kind not in ("rank", "card"):
            continue
        end = at + 1
        while end < len(toks) and toks[end].kind in ("suit-after", "suit-letter"):
            end += 1
        out[k:end] = [Tok("filler", t.text) for t in toks[k:end]]
    return out


def _without_remarks(toks: list[Tok]) -> list[Tok]:
    """«ого», «кстати», «кошмар», «как обычно»: remarks are left out, as if not said."""
    out: list[Tok] = []
    for k, tok in enumerate(toks):
        nxt = toks[k + 1] if k + 1 < len(toks) else None
        if tok.kind == "remark" or (fold(tok.text) == "как" and nxt is not None and nxt.kind == "remark"):
            continue
        out.append(tok)
    return out


def _correction_phrase(words: list[tuple[str | None, str]], i: int, remark: Callable[[str], bool]) -> int:
    """How many words a correction of two words at `i` takes («то есть»; «то, э, есть», «то, прикинь, есть» with
    hesitations or remarks between)."""
    said = [fold(v) for _, v in words[i : i + 4]]
    for n in range(2, len(said) + 1):  # up to two words between: «то, это, значит, есть»
        if (said[0], said[n - 1]) in CORRECTION_PHRASES and all(w in HESITATIONS or remark(w) for w in said[1 : n - 1]):
            return n
    return 0


_MINUS = frozenset({"минус", "minus"})
_POINTS = frozenset({"number", "count", "unknown"})


def _points_by_place(toks: list[Tok]) -> list[Tok]:
    """«минус сорок ему»: points said aloud (a queen of hearts finish, a score), not cards: the number after
    «минус» is no card and no word left unread."""
    out = list(toks)
    for k, tok in enumerate(toks[:-1]):
        at = past_hesitations(toks, k + 1)  # «минус, вот, сорок»
        if fold(tok.text) in _MINUS and at < len(toks) and toks[at].kind in _POINTS:
            out[k], out[at] = Tok("filler", tok.text), Tok("filler", toks[at].text)
    return said_points(out)


_LAST = ("последн", "last")  # «последней картой», «последнюю», "last card"


def _plays_by_place(toks: list[Tok]) -> list[Tok]:
    """«последней картой положила девятку», «скинула последнюю даму»: a card played said to be the last one is the
    card the player went out on, as «вышла на девятке» says; so is a card played and then «вышла» («Тома даму червей
    кинула и вышла»)."""
    out = list(toks)
    for k, tok in enumerate(toks):
        after = _after_card(toks, past_hesitations(toks, k + 1))  # «выложила, э, короля пик последним»
        near = toks[max(0, k - 3) : k] + after
        if tok.kind == "play" and any(fold(t.text).startswith(_LAST) for t in near if t.kind == "filler"):
            out[k] = Tok("win", tok.text, played=True)
        nxt = next((t for t in toks[k + 1 :] if t.kind not in ("filler", "and", "pause")), None)
        if tok.kind == "play" and nxt is not None and nxt.kind == "win":  # «даму червей кинула и вышла»
            out[k] = Tok("filler", tok.text)
            out[toks.index(nxt, k + 1)] = Tok("win", nxt.text, played=True)
    return out


_CARD_KINDS = ("rank", "card", "suit-after", "suit-before", "suit-letter")
# «последней у Таи была …», «последним, у неё, был …», «последней картой …» (not «последний кон: у Ани …»)
_TO_LAST = CARD_NOUNS | HOLDING | HESITATIONS | {"у", "неё", "нее", "него", "ее", "её", "его", "на", "руках", "руке"}


def _last_by_place(toks: list[Tok]) -> list[Tok]:
    """«последней у Таи была дама пик», «у Василисы последней была девятка крестей», «Кира пустая, последним у неё
    был король червей», «у Веры дама пик последняя»: in a text with no word of going out or playing, one card said
    «последней», «последним» in a player's clause is the card that player went out on, as «…, вышла» after it would
    say: a win is read right after that card (`dictation._Reader.on_win`, `Checks.said_last`). More cards said so,
    a count, or no name before the card: not read (asked)."""
    lasts = [k for k, t in enumerate(toks) if t.kind == "filler" and fold(t.text).startswith(_LAST)]
    if len(lasts) != 1 or any(t.kind in ("win", "play") for t in toks):
        return toks
    k = lasts[0]
    at = past_hesitations(toks, k - 1, -1)  # «у Веры дама пик последняя»: the card before
    while at >= 0 and toks[at].kind in _CARD_KINDS[2:]:
        at -= 1
    said = past_hesitations(toks, k - 1, -1)  # «взял последнюю карту из колоды»: not the card gone out on
    if (at < 0 or toks[at].kind not in ("rank", "card")) and (said < 0 or toks[said].kind in ("player", "filler")):
        at = k + 1  # «последней у Таи была дама пик»: the card after
        while at < len(toks) and at - k <= 7 and (toks[at].kind in ("player", "pause")
                                                   or fold(toks[at].text) in _TO_LAST):
            at += 1
    if not 0 <= at < len(toks) or toks[at].kind not in ("rank", "card") or toks[at].plural:
        return toks
    name = at - 1
    while name >= 0 and toks[name].kind not in ("player", "rank", "card", "count", "number", "end", "ambiguous"):
        name -= 1
    end = at + 1
    while past_hesitations(toks, end) < len(toks) and toks[past_hesitations(toks, end)].kind in _CARD_KINDS[2:]:
        end = past_hesitations(toks, end) + 1  # «король, вот, червей»
    more = past_hesitations(toks, end)  # «… дама пик и туз»: more cards; «король червей, с тузом остался Лёва»: not
    more = past_hesitations(toks, more + 1) if more < len(toks) and toks[more].kind == "and" else more
    if name < 0 or toks[name].kind != "player" or (more < len(toks) and toks[more].kind in _CARD_WORDS):
        return toks
    end = max(end, k + 1)  # «дама пик последняя»: after the word
    return [*toks[:end], Tok("win", toks[k].text, played=True), *toks[end:]]


def _after_card(toks: list[Tok], start: int) -> list[Tok]:
    """The two words after `start`, past the card said there."""
    k = start
    while k < len(toks) and k < start + 3 and toks[k].kind in _CARD_KINDS:
        k += 1
    return toks[start:k] + toks[k : k + 2]


_BY_CARD = ("ой", "ом", "ем", "ём", "ею", "ою")  # «десяткой», «тузом», «королём»


def _covers_by_place(toks: list[Tok]) -> list[Tok]:
    """«положил шестёрку и закрыл её десяткой бубей, вышел»: a win word right before a card in the instrumental,
    after a card played in the same sentence, covers that card (a play); who went out is said after."""
    out = list(toks)
    played = False
    for k, tok in enumerate(toks):
        if tok.kind in ("player", "ambiguous", "stranger", "end"):
            played = False
        played = played or tok.kind == "play"
        nxt = next((t for t in toks[k + 1 :] if t.kind != "filler"), None)
        if (played and tok.kind == "win" and nxt is not None and nxt.kind in ("rank", "card")
                and fold(nxt.text).endswith(_BY_CARD) and any(t.kind == "win" for t in toks[k + 1 :])):
            out[k] = Tok("play", tok.text)
    return out


_NAME_BEFORE = frozenset({"у"})  # «у Пети»: the word after is somebody's name


def _names_by_place(toks: list[Tok], names: Names, morphology: Morphology) -> list[Tok]:
    """A word read as nothing where only a name can stand («у Пети туз», «Фая вышла») is a pet name of a player by
    its root («у Миры»: Мирослава), or else a name of nobody here: its cards go with it into a question, never to
    the player named before. After «у» a name is a genitive: «у Валентина» is Валентин's, not Валентина's."""
    out = list(toks)
    for k, tok in enumerate(toks):
        u = past_hesitations(toks, k - 1, -1)  # «у, ну, Дёмы»
        after_u = u >= 0 and toks[u].kind == "filler" and fold(toks[u].text) in _NAME_BEFORE
        if tok.kind == "ambiguous" and after_u:
            lemmas = {fold(lemma) for lemma in morphology.genitive_lemmas(fold(tok.text))}
            genitive = [p for p in tok.players if fold(p) in lemmas]
            out[k] = Tok("player", tok.text, player=genitive[0]) if len(genitive) == 1 else tok
        if tok.kind not in ("unknown", "stranger") and not (tok.guessed and tok.player is None):
            continue
        win = past_hesitations(toks, k + 1)  # «Лаврик, э, кончил»
        before_win = win < len(toks) and toks[win].kind == "win"
        if after_u or before_win:
            players = names.by_root(tok.text)
            out[k] = player_token(tok.text, players) if players else Tok("stranger", tok.text)
    return out


_ASKED_BACK = frozenset({"какой", "какая", "какую", "какие", "каких"})
_THEM = frozenset({"ними", "ним", "этими", "теми"})


def _asked_back(toks: list[Tok]) -> list[Tok]:
    """«да какой туз, король пик»: a card asked back is the card that was wrong, as «не туз»; «вместе с ними», «с
    ними вместе» (the cards drawn counted in with the hand) say nothing more (hesitations between: «какая, ну,
    дама», «с, короче, ними вместе»)."""
    out = list(toks)
    for k, tok in enumerate(toks):
        low, at = fold(tok.text), past_hesitations(toks, k + 1)
        if low in _ASKED_BACK and at < len(toks) and toks[at].kind in ("rank", "card"):
            out[k] = Tok("not", tok.text)
        elif low == "вместе" and (_with_them(toks, k, 1) or _with_them(toks, k, -1)):
            out[k] = Tok("filler", tok.text)
    return out


def _with_them(toks: list[Tok], k: int, step: int) -> bool:
    """«с ними» right after (step 1) or before (step -1) the word at `k`, hesitations aside."""
    first = past_hesitations(toks, k + step, step)
    second = past_hesitations(toks, first + step, step)
    with_, them = (first, second) if step == 1 else (second, first)
    inside = min(with_, them) >= 0 and max(with_, them) < len(toks)
    return inside and fold(toks[with_].text) in ("с", "со") and fold(toks[them].text) in _THEM


_BEFORE_ROUND = frozenset({"unknown", "filler", "pause", "end", "and"})


def _preamble_by_place(toks: list[Tok], morphology: Morphology) -> list[Tok]:
    """«так деточка записывай», «ребята тихо я диктую»: everyday words of the dictionary said before the round's
    first name, card or verb talk to the table, not about the round. A word right before a win verb with no player
    after it («киса вышла») may be a nickname: it stays to be asked about."""
    out = list(toks)
    for k, tok in enumerate(toks):
        if tok.kind not in _BEFORE_ROUND:
            break
        if tok.kind != "unknown" or not morphology.known(fold(tok.text)):
            continue
        nxt = toks[k + 1] if k + 1 < len(toks) else None
        after = toks[k + 2] if k + 2 < len(toks) else None
        subject = nxt is not None and nxt.kind == "win" and (after is None or after.kind not in ("player", "ambiguous"))
        if not subject:
            out[k] = Tok("filler", tok.text)
    return out


def _suits_by_place(toks: list[Tok]) -> list[Tok]:
    """A dictionary word one letter off a suit word («пек», «пир» for «пик»), right after a rank said without its
    suit, is that suit: where a suit is awaited the typo is no longer a guess."""
    out = list(toks)
    for k, tok in enumerate(toks):
        if tok.kind not in ("unknown", "stranger") or k == 0 or toks[k - 1].kind != "rank" or toks[k - 1].suit:
            continue
        typo = card_word_typo(fold(tok.text))
        if typo is None or typo.suit is None:
            typo = suit_word_typo(fold(tok.text))  # «трев»: as near to «трех», but a suit is awaited here
        if typo is not None and typo.suit is not None and not typo.adjective:
            out[k] = card_word_token(tok.text, typo)
    return out


_AMONG_CARDS = frozenset({"player", "rank", "card", "pause", "and", "suit-after", "suit-letter", "end"})
_BEFORE_NOUN = frozenset({"в", "к"})  # rank letters (валет, король) that are also prepositions
# «в итоге», «к тому же»: what the preposition governs
_GOVERNED_SUIT = ("ах", "ях", "ам", "ям")  # «в червях», «к пикам»
_GOVERNED = frozenset(["итоге", "общем", "целом", "конце", "смысле", "принципе", "руке", "руках", "руку", "руки",
                       "подарок", "тому", "колоду", "колоде", "прикуп", "прикупе"])


def _letters_by_place(toks: list[Tok]) -> list[Tok]:
    """«у Бори т к у Веры 7 в»: a lower-case «в» or «к» among cards, with no noun after it for a preposition to
    govern, is the rank letter (hesitations aside: «т к, ага, и в»); «в итоге», «в руке» stay words; before another
    word («в это» at the end) it is asked."""
    out = list(toks)
    for k, tok in enumerate(toks):
        low = fold(tok.text)
        prev = next((t for t in reversed(toks[:k]) if t.kind != "filler"), None)
        if low not in _BEFORE_NOUN or prev is None or prev.kind not in (*_AMONG_CARDS, "number", "count"):
            continue
        nxt = toks[k + 1] if k + 1 < len(toks) else None
        noun = word_past_hesitations(toks, k + 1)
        if noun is not None and noun.kind == "suit-after" and fold(noun.text).endswith(_GOVERNED_SUIT):
            out[k] = Tok("filler", tok.text)  # «десятка в (вот) червях»: the preposition, the suit governed
        elif noun is not None and fold(noun.text) in _GOVERNED:
            continue  # «пять в, пиши, подарок»: the preposition
        elif _card_place(nxt) or noun is not None and noun.kind != "end" and _card_place(noun):  # «к, ага, и в»
            out[k] = Tok("rank", tok.text, rank=RANK_LETTERS_ALL[low])
        else:
            out[k] = Tok("unknown", tok.text)  # a card or a preposition? not guessed
    return out


def _card_place(tok: Tok | None) -> bool:
    """What may follow a rank letter: nothing, another card, a name, «и», a comma, «у»."""
    return tok is None or tok.kind in _AMONG_CARDS or tok.kind in ("count", "number") or fold(tok.text) == "у"


def symbol_token(kind: str | None, value: str) -> Tok:
    if kind == "numcard":  # «6т», «10п»: a digit and a Cyrillic suit letter, written together
        card = read_notation(value)
        assert card is not None
        return Tok("card", value, rank=card.rank, suit=card.suit)
    if kind == "numrank":  # «7ка»: the rank; «7ки», «6ок» may be several (a plural: how many is asked)
        digits = value[: 2 if value.startswith("10") else 1]
        return Tok("rank", value, rank=Rank(digits), plural=value.endswith(("ки", "ок", "кам", "ками", "ках")))
    if kind == "num":
        return Tok("number", value, count=int(value) if len(value) <= 3 else 0)
    if kind == "suit":
        return Tok("suit-letter", value, suit=SUIT_SYMBOLS[value])
    if kind == "q":
        return Tok("unknown-suit", value)
    return Tok("end" if kind == "end" else "pause", value)


def _multi_word_name(words: list[tuple[str | None, str]], i: int, names: Names) -> tuple[str, int] | None:
    chunk: list[str] = []
    for k, v in words[i : i + 4]:
        if k != "word":
            break
        chunk.append(v)
    return names.multi_word(chunk) if len(chunk) > 1 else None
