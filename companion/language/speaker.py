"""The one who dictates (issue 21): «я», «у меня» said while dictating a round.

The scribe is a player too, but which? «у меня семёрка», «я вышла» are asked, never given to the player named
before; «я ошиблась», «я не помню», «я диктую» are the scribe talking. Once the scribe has said who they are («это
Тихон, диктую», «Тихон пишу», «это Мартын пишет»), «я», «у меня» are that player.
"""

from __future__ import annotations

from companion.core.cards import fold
from companion.language.morphology import Morphology
from companion.language.spoken_words import FORGETTING, HESITATIONS, Tok, past_hesitations, word_past_hesitations

# Verbs of the one who dictates or writes: «я диктую», «я говорю», «я пишу» say nothing of the round.
_SCRIBE_VERBS = frozenset({"диктовать", "продиктовать", "говорить", "сказать", "писать", "записать", "записывать"})
_DICTATING = frozenset({"диктовать", "продиктовать", "писать", "записывать"})  # «диктую», «пишу» («говорю»: talk)
_FIRST_PERSON = ("ю", "у")  # «диктую», «пишу», «записываю»
_INTRODUCE = frozenset({"это", "я", "тут", "здесь"})  # «это Тихон диктую»
_THIRD_PERSON = ("ет", "ит")  # «это Мартын пишет», «тут Мартын диктует», «записывает»
_THIS = frozenset({"это", "тут", "здесь"})


def speaker_by_place(toks: list[Tok], morphology: Morphology) -> list[Tok]:
    """«я ошиблась»: a correction; «я диктую»: the scribe talking; «у меня туз», «я вышла»: the one who dictates,
    which player? asked, unless the scribe has said their name (`_named`)."""
    out = list(toks)
    named = _named(toks, morphology)
    for k, tok in enumerate(toks):
        if tok.kind == "speaker":
            nxt = word_past_hesitations(toks, k + 1)
            sorry = nxt is not None and nxt.kind == "correct" or _forgets(toks, k + 1)  # «я не помню»: the scribe
            after_named = named is not None and k > named[2]  # «это Тихон, диктую я, вышел»: Тихон
            says = nxt is None or nxt.kind not in ("win", "play", "draw", "rank", "card", "count", "number")
            prev = toks[k - 1] if k > 0 and fold(tok.text) == "я" and not after_named and says else None  # «пишу я»
            scribe = any(t is not None and _scribe_verb(t, morphology) for t in (nxt, prev))
            if sorry or scribe or _talks_over(toks, k):
                out[k] = Tok("filler", tok.text)
            elif named is not None and k > named[2]:
                out[k] = Tok("player", tok.text, player=named[0])  # «это Тихон, диктую: я вышел»
            elif named is not None and (k == named[1] - 1 or named[2] == named[1] > k):
                out[k] = Tok("filler", tok.text)  # «я Тихон, диктую», «пишу я, Борис»
            else:
                out[k] = Tok("stranger", tok.text)
    if named is not None:
        out[named[1]] = Tok("filler", toks[named[1]].text)
    return out


def _scribe_verb(tok: Tok, morphology: Morphology, verbs: frozenset[str] = _SCRIBE_VERBS) -> bool:
    return tok.kind == "filler" and any(fold(lemma) in verbs for lemma in morphology.lemmas(fold(tok.text)))


def _named(toks: list[Tok], morphology: Morphology) -> tuple[str, int, int] | None:
    """«это Тихон, диктую», «я Тихон, пишу»: a player's name said on its own (not «у Тихона, пишу, …») right before
    a verb of dictating in the first person («говорю» is said in passing too), before any card and not right before
    a win («Аня, пишу, вышла»): the scribe is that player (the player, the index of the name, the index of the
    verb). «это Мартын пишет» too, unless someone says «я диктую» (then «я» is not Мартын)."""
    third = not any(_scribe_verb(t, morphology) and fold(t.text).endswith(_FIRST_PERSON) for t in toks)
    for k, tok in enumerate(toks[:-1]):
        if tok.kind in ("rank", "card", "count", "win"):
            return None
        at, back = past_hesitations(toks, k + 1), past_hesitations(toks, k - 1, -1)  # «это, ну, Тихон, э, диктую»
        if at < len(toks) and fold(toks[at].text) == "я" and _this_is(toks, k):  # «это Тихон, я пишу»
            at = past_hesitations(toks, at + 1)
        if at >= len(toks):
            return None
        verb, before = toks[at], toks[back] if back >= 0 else None
        alone = before is None or before.kind == "end" or fold(before.text) in _INTRODUCE
        then = word_past_hesitations(toks, at + 1)
        # «Аня, пишу, вышла»: «пишу» said in passing
        person = _FIRST_PERSON + (_THIRD_PERSON if third and _this_is(toks, k) else ())  # «это Мартын пишет»
        dictates = _scribe_verb(verb, morphology, _DICTATING) and fold(verb.text).endswith(person)
        dictates = dictates and (then is None or then.kind != "win" or _win_of_another(toks, at + 1, tok.player))
        if tok.kind == "player" and tok.player is not None and alone and dictates:
            return tok.player, k, at
        if tok.kind == "player" and tok.player is not None and (_introduced_after(toks, k, back, morphology)
                                                               or third and _this_is_after(toks, k, back, morphology)):
            return tok.player, k, k
    return None


def _this_is(toks: list[Tok], k: int) -> bool:
    """«это Мартын», «тут, ну, Мартын»: the name said as the one speaking (not «Мартын пишет», which may be someone
    dictating to Мартын)."""
    at = k - 1
    while at >= 0 and (toks[at].kind == "pause" or fold(toks[at].text) in HESITATIONS - _THIS):
        at -= 1
    return at >= 0 and fold(toks[at].text) in _THIS


def _this_is_after(toks: list[Tok], k: int, back: int, morphology: Morphology) -> bool:
    """«это пишет Мартын: я вышел», «тут диктует Мартын»: a dictating verb in the third person after «это», «тут»,
    then the name, with a comma, «я», «у меня» or the end after it (not «это пишет Мартын вышел»)."""
    verb = toks[back] if back >= 0 else None
    if verb is None or not _scribe_verb(verb, morphology, _DICTATING) or not fold(verb.text).endswith(_THIRD_PERSON):
        return False
    said = word_past_hesitations(toks, k + 1)
    apart = k + 1 < len(toks) and toks[k + 1].kind in ("pause", "end")
    first = past_hesitations(toks, 0) == back  # «пишет Панкрат: вышел Фадей …», the first words of the text
    return (_this_is(toks, back) or first) and (said is None or apart or said.kind == "speaker"
                                               or _win_of_another(toks, k + 1, toks[k].player))


def _win_of_another(toks: list[Tok], k: int, scribe: str | None) -> bool:
    """«это Ясмина, записываю, вышел Ислам»: a verb of going out at `k` whose own subject, another player, is said
    right after it: the name before is not the one who went out, so it is the scribe's."""
    at = past_hesitations(toks, k)
    said = word_past_hesitations(toks, at + 1)
    return (at < len(toks) and toks[at].kind == "win" and said is not None and said.kind == "player"
            and said.player is not None and said.player != scribe)


def _introduced_after(toks: list[Tok], k: int, back: int, morphology: Morphology) -> bool:
    """«пишу я, Борис: я вышел», «диктую я Борис»: a player's name right after a verb of dictating in the first
    person and «я», with «я», «у меня», a comma or the end of the sentence after it (not «пишу я, Борис вышел»: who
    dictates is not said)."""
    if back < 0 or toks[back].kind != "speaker" or fold(toks[back].text) != "я":
        return False
    verb, then = past_hesitations(toks, back - 1, -1), past_hesitations(toks, k + 1)
    dictates = verb >= 0 and _scribe_verb(toks[verb], morphology, _DICTATING) and fold(toks[verb].text).endswith(
        _FIRST_PERSON)
    said = toks[then] if then < len(toks) else None
    apart = k + 1 < len(toks) and toks[k + 1].kind in ("pause", "end")  # «пишу я, Света: Аня вышла …»
    apart = apart and (said is None or said.kind not in ("win", "play", "rank", "card", "count", "number"))
    return dictates and (said is None or apart or said.kind == "speaker" or fold(said.text) == "у"
                         and then + 1 < len(toks) and toks[then + 1].kind == "speaker")


def _forgets(toks: list[Tok], k: int) -> bool:
    return k + 1 < len(toks) and fold(toks[k].text) == "не" and fold(toks[k + 1].text) in FORGETTING


def _talks_over(toks: list[Tok], k: int) -> bool:
    """«да тяну я, тяну»: a player's own words while the scribe dictates; a draw verb next to «я» with nothing
    counted after it says nothing of a hand («я взяла две» is the speaker's draw: asked)."""
    near = [j for j in (k - 1, k + 1) if 0 <= j < len(toks) and toks[j].kind == "draw"]
    counted = [t for j in near for t in toks[j + 1 : j + 3] if t.kind in ("number", "count", "rank", "card")]
    return bool(near) and not counted  # «тянул я две»: counted
