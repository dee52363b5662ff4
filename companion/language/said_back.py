"""Words that point back at what was just said (issue 21): token rewrites before the reading.

«у Кузи король и девятка, у Харитона то же самое»: a hand said as the hand before it; «у Гаврика не помню, а нет,
помню: туз пик», «на даме, не помню какой, а, да, крестовой»: a «не помню» taken back at once, by remembering; «у
Феликса туз и у него же валет»: «он», «она» are the player just named, if the word fits them; «на даме, а какой
масти я не видел»: the suit asked about before the forgetting; «и, ой, у Риты ещё туз был»: a card remembered, not a
correction; «щас спрошу: Вадик, что у тебя? — девятка»: the player asked, the answer is the hand.
"""

from __future__ import annotations

from companion.core.cards import fold
from companion.language.restated import TALK
from companion.language.spoken_words import FORGETTING, FORGOT, Names, Tok, past_hesitations

_SAME = (("то", "же", "самое"), ("тоже", "самое"), ("то", "же"), ("все", "то", "же"))
_NAMES = frozenset({"player", "ambiguous", "stranger"})
_PLAIN = frozenset({"rank", "count", "and", "filler", "pause"})  # a hand of ranks only, said plainly
_AFTER_SAME = frozenset({"player", "ambiguous", "stranger", "end", "pause", "and", "win"})
_AS = frozenset({"что", "как", "чем"})


def _same_at(toks: list[Tok], k: int) -> int:
    """How many words «то же самое» takes at `k` («то же, ну, самое»: hesitations inside), 0 if it is not said
    there."""
    at = [k]
    while len(at) < 3 and at[-1] < len(toks):
        at.append(past_hesitations(toks, at[-1] + 1))
    said = tuple(fold(toks[i].text) if i < len(toks) else "" for i in at)
    for phrase in _SAME:
        if said[: len(phrase)] == phrase:
            end = at[len(phrase) - 1] + 1
            after = toks[end] if end < len(toks) else None
            if phrase[-1] == "самое" or after is None or after.kind in _AFTER_SAME:
                return end - k
    return 0


def same_hand(toks: list[Tok]) -> list[Tok]:
    """«у Кузи король и девятка, у Харитона то же самое»: right after a player's name, «то же самое» says that hand
    as the hand said just before it, of another player's name: its ranks again. Only a hand of ranks said plainly
    (no suit, no correction, no verb) is said again so, and only when nothing more is said of that hand; anything else
    («туз пик», «вышла на …») cannot be the same cards, «то же самое, только с тузом», «…, нет, туз» may change
    them, and «то же самое» said elsewhere is not clear: asked (a hedge)."""
    out: list[Tok] = []
    k = 0
    while k < len(toks):
        n = _same_at(toks, k)
        name = next((i for i in range(len(out) - 1, -1, -1) if out[i].kind != "filler"), None)
        if not n:
            out.append(toks[k])
            k += 1
            continue
        name = name if name is not None and out[name].kind == "player" else 0
        before = next((i for i in range(name - 1, -1, -1) if out[i].kind in _NAMES), None)
        hand = out[before + 1 : name] if before is not None and out[before].player != out[name].player else []
        at = next((i for i in range(k + n, len(toks)) if toks[i].kind not in ("filler", "and", "pause")), len(toks))
        alone = at == len(toks) or toks[at].kind in (*_NAMES, "end")  # not «то же самое, только с тузом», «…, нет, туз»
        alone = alone and not any(fold(t.text) in _AS for t in toks[k + n : at])  # «то же самое, что у Ани»: whose?
        if alone and hand and all(t.kind in _PLAIN and t.suit is None for t in hand) and any(
                t.kind == "rank" for t in hand):
            out += [t for t in hand if t.kind in ("rank", "count", "and")]
            out += [Tok("filler", t.text) for t in toks[k : k + n]]
        else:
            out += [Tok("hedge", toks[k].text)] + [Tok("filler", t.text) for t in toks[k + 1 : k + n]]
        k += n
    return out


_BACK = frozenset({"а", "ой", "нет", "да", "вот", "ну", "хотя", "ах"})  # «а нет», «а, да»: taking it back
_YES_NO = frozenset({"нет", "да"})
_RECALL = frozenset({"помню", "вспомнил", "вспомнила", "вспомнили", "знаю"})
_WHICH = frozenset({"какой", "какая", "какую", "какие", "что", "масти", "масть"})
_CARD = frozenset({"rank", "card", "count", "number", "suit-before", "suit-after", "suit-letter"})


def recalled(toks: list[Tok]) -> list[Tok]:
    """«не помню, а нет, помню: туз пик», «на даме, не помню какой, а, да, крестовой», «не помню… а, вспомнила,
    туз»: a «не помню» taken back at once («а нет», «а да», «вспомнила») with the card said right after carries
    nothing: what is remembered is read as if said straight away. Without a card right after («не помню, а нет, у
    Веры …») the «не помню» stands (asked)."""
    out = list(toks)
    for k in range(len(toks) - 1):
        j = past_hesitations(toks, k + 1)  # «не, ну, помню»
        if fold(toks[k].text) != "не" or j >= len(toks) or fold(toks[j].text) not in FORGETTING:
            continue
        j = past_hesitations(toks, j + 1)
        while j < len(toks) and fold(toks[j].text) in _WHICH:
            j = past_hesitations(toks, j + 1)
        back = j
        while j < len(toks) and fold(toks[j].text) in _BACK:
            j = past_hesitations(toks, j + 1)
        said = {fold(t.text) for t in toks[back:j]}
        if j < len(toks) and fold(toks[j].text) in _RECALL and said:
            j = past_hesitations(toks, j + 1)
        elif not said & _YES_NO:
            continue
        if j < len(toks) and toks[j].kind in _CARD:
            k = k - 1 if k > 0 and toks[k - 1].kind == "pause" else k  # «на десятке, не знаю какой, …»: no comma
            out[k:j] = [Tok("filler", t.text) for t in toks[k:j]]
    return out


_SUIT_ASKED = frozenset({"какой", "какая", "какую", "какие", "каких", "масти", "масть"})
_BEFORE_ASKED = frozenset({"rank", "card", "count", "suit-after", "suit-before", "suit-letter"})


def asked_first(toks: list[Tok]) -> list[Tok]:
    """«на даме, а какой масти я не видел», «дама одна, а какая — не помню», «а масть не знаю»: the suit asked about
    before the forgetting, right after a card, is read as «не помню, какая» said after it (Corrections.suit_forgotten):
    that card's suit stays open."""
    out = list(toks)
    k = 0
    while k < len(out):
        end = k
        while end < len(out) and fold(out[end].text) in _SUIT_ASKED:
            end += 1
        at = past_hesitations(out, end)
        at = past_hesitations(out, at + 1) if at < len(out) and fold(out[at].text) == "я" else at  # «я не видел»
        verb = past_hesitations(out, at + 1)
        said = past_hesitations(out, k - 1, -1)
        said = past_hesitations(out, said - 1, -1) if said >= 0 and fold(out[said].text) == "а" else said
        if end == k or verb >= len(out) or fold(out[at].text) != "не" or fold(out[verb].text) not in FORGETTING or (
                said < 0 or out[said].kind not in _BEFORE_ASKED):
            k += 1
            continue
        out[k : verb + 1] = out[end : verb + 1] + out[k:end]
        k = verb + 1
    return out


_ASK = ("спрош", "спрос", "спраш", "уточн")  # «щас спрошу», «спросим», «уточню у Вадика»
_YOU = frozenset({"ты", "тебя", "тебе"})
_QUESTION = frozenset({"что", "какая", "какой", "какие", "какую", "у", "там", "было", "была", "был", "есть",
                       "осталось"}) | _YOU
_VAGUE = frozenset({"count", "suit-before", "suit-after", "suit-letter", "filler", "hedge", "unknown", "pause",
                    "and", "remark", "not"})  # no card named: «одна бубновая какая-то», «не знаю»


def asked_player(toks: list[Tok]) -> list[Tok]:
    """«у Вадика одна бубновая какая-то, щас спрошу: Вадик, что у тебя? — девятка, говорит», «спрошу у Вадика»,
    «Вадик, что у тебя было?»: the scribe asks the player whose hand is being said; the answer is the hand. What was
    said of it before the question, if no card was named («одна бубновая какая-то»), and the question carry nothing:
    they are left out. After a card named («у Вадика туз и ещё какая-то, спрошу …»), the question is not read
    (asked)."""
    for k, tok in enumerate(toks):
        asks = tok.kind == "unknown" and fold(tok.text).startswith(_ASK)
        name = past_hesitations(toks, k + 1) if asks else k
        name = past_hesitations(toks, name + 1) if name < len(toks) and fold(toks[name].text) == "у" else name
        if name >= len(toks) or toks[name].kind != "player":
            continue
        end = past_hesitations(toks, name + 1)
        while end < len(toks) and fold(toks[end].text) in _QUESTION:
            end = past_hesitations(toks, end + 1)
        said = next((i for i in range(min(k, name) - 1, -1, -1) if toks[i].kind in _NAMES), None)
        asked = {fold(t.text) for t in toks[name + 1 : end]}
        you = bool(asked & _YOU and asked & _WHICH)  # «Вадик, что у тебя?»; not «Айдар, ты где?»
        if (not asks and not you) or said is None or toks[said].player != toks[name].player or any(
                t.kind not in _VAGUE for t in toks[said + 1 : min(k, name)]):
            continue
        return [*toks[: said + 1], *asked_player(toks[end:])]
    return toks


_OH = frozenset({"ой", "упс", "погоди", "подожди", "стоп"})  # «ой, забыла»: not «нет», «вернее» (corrections)
_ONE_MORE = frozenset({"ещё", "еще", "тоже", "также"})
_TO_NAME = frozenset({"и", "а", "у", "же"})
_TELL = frozenset({"сказать", "сказал", "сказала", "ещё", "еще"})  # «ой, забыла сказать, у Риты …»


def remembered(toks: list[Tok]) -> list[Tok]:
    """«у Олега король и, ой, у Риты ещё туз был», «ой, забыла, у Яши тоже десятка», «ой, подожди, у Гули ещё дама
    была»: «ой», «подожди», «забыла» before a name and «ещё», «тоже» with a card after it is a card remembered, not
    the last one taken back nor a hand forgotten: those words carry nothing (with «нет», «вернее» it stays a
    correction)."""
    out = list(toks)
    for k, tok in enumerate(toks):
        if not (tok.kind == "correct" and fold(tok.text) in _OH or fold(tok.text) in FORGOT):
            continue
        name = past_hesitations(toks, k + 1)
        while name < len(toks) and fold(toks[name].text) in _TO_NAME | FORGOT | _TELL | _OH:  # «ой, подожди, у Гули»
            name = past_hesitations(toks, name + 1)
        more = past_hesitations(toks, name + 1)
        more = past_hesitations(toks, more + 1) if more < len(toks) and fold(toks[more].text) == "же" else more
        card = past_hesitations(toks, more + 1)
        if (card < len(toks) and toks[name].kind in _NAMES and fold(toks[more].text) in _ONE_MORE
                and toks[card].kind in _CARD):
            out[k:name] = [Tok("pause" if fold(t.text) in FORGOT else "filler", t.text) if t.kind != "pause" else t
                           for t in toks[k:name]]  # «забыла» read as nothing, not as «не помню»
    return out


_PRONOUNS = {"он": "masc", "него": "masc", "нему": "masc", "ему": "masc", "нем": "masc",
             "она": "femn", "нее": "femn", "ней": "femn", "ей": "femn"}


def pronouns(toks: list[Tok], names: Names) -> list[Tok]:
    """«у Феликса туз треф и у него же валет», «у Карины, она говорит, две семёрки»: «он», «у него», «она», «у неё»
    read as nothing, so the cards after them stay with the player just named; where the word does not fit that
    player («у Веры король и у него дама»: which «он»?) it is a name of nobody here: its cards go with it into a
    question. «она говорит …» is somebody talking over (restated.summed_up), whoever she is."""
    out = list(toks)
    named: str | None = None
    for k, tok in enumerate(toks):
        if tok.kind == "player":
            named = tok.player
        elif tok.kind in ("ambiguous", "stranger"):
            named = None
        gender = _PRONOUNS.get(fold(tok.text)) if tok.kind == "filler" else None
        talks = k + 1 < len(toks) and fold(toks[k + 1].text) in TALK
        if gender is not None and named is not None and not talks and gender not in (None, *names.genders(named)):
            out[k] = Tok("stranger", tok.text)
    return out
