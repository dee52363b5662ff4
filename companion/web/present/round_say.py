"""The round page's dictation field: a round said or dictated fills the card grid (issues 10 and 21).

One path for both: the form posts `op=say` («Fill the grid» without JavaScript; with
it, htmx posts the same form while the text is dictated and swaps the page's form
for the answer) and the page comes back with the grid filled from here. The table
sees every card before saving; words not understood are named, open questions
asked once per group, and the cards whose suit is asked are marked in the grid.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.core.cards import deck
from companion.core.rules import Options
from companion.i18n import render
from companion.language.dictation import ParsedRound, Question, parse

MAX_SAY = 2000


def fill(text: str, players: Sequence[str], in_play: Sequence[str], options: Options) -> dict[str, Any]:
    """What the text says, as the round form holds it: indexes of `players`, card codes of the grid.

    `asks` maps a grid ("p2", "finish") to the cards to mark as needing a suit: every card of
    an asked rank that the text leaves free."""
    result = parse(text, list(in_play), options)
    index = {p: i for i, p in enumerate(players)}
    hands = {index[p]: [s.card.code for s in slots if s.card is not None] for p, slots in result.hands.items()}
    finish = result.finishing.card.code if result.finishing is not None and result.finishing.card is not None else None
    asks = _asks(result, index, options)
    return {
        "winner": index.get(result.winner) if result.winner else None,
        "finish": finish,
        "hands": hands,
        "ready": result.exact,
        "view": said_view(result, asks),
    }


def _asks(result: ParsedRound, index: dict[str, int], options: Options) -> dict[str, list[str]]:
    taken = {s.card for s in result.live() if s.card is not None}
    free = [c for c in deck(options.deck) if c not in taken]
    asks: dict[str, list[str]] = {}
    for slot in result.live():
        if slot.suit is None:
            grid = "finish" if slot.finishing else f"p{index[slot.owner]}"
            codes = [c.code for c in free if c.rank is slot.rank]
            asks[grid] = list(dict.fromkeys([*asks.get(grid, []), *codes]))
    return asks


def question_text(question: Question) -> str:
    """A question of the reader in the request's language, cards in its notation (Д♥, Q♥)."""
    return render(question.template, question.params)


def said_view(result: ParsedRound, asks: dict[str, list[str]] | None = None) -> dict[str, Any]:
    """What the dictation block shows under the field: words not understood, questions, whether it is ready."""
    return {
        "unrecognised": list(dict.fromkeys(result.unrecognised)),
        "questions": [question_text(q) for q in result.questions],
        "ready": result.exact,
        "asks": asks or {},
    }


def shown(said: dict[str, Any], winner: int | None, finish: str, hands: dict[int, list[str]]) -> bool:
    """Does the grid still show exactly what the text was read as (nothing tapped since)?"""
    if said["winner"] is not None and said["winner"] != winner:
        return False
    if said["finish"] and said["finish"] != finish:
        return False
    return all(sorted(hands.get(i, [])) == sorted(codes) for i, codes in said["hands"].items())
