"""The round page's text field: a round said or dictated fills the card grid (issue 10).

With JavaScript the page asks `POST /api/v1/round-from-text` while the text is
dictated and ticks the grid itself; without it, «Fill the grid» posts the form
and the page comes back with the grid filled the same way, from here. Either way
the table sees every card before saving, and words not understood are named.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.core.cards import Card, Rank
from companion.core.round_text import ParsedRound, Question
from companion.core.rules import Options
from companion.i18n import gettext
from companion.round_text import parse
from companion.web.present.cards import card_text, rank_letter

MAX_SAY = 2000


def fill(text: str, players: Sequence[str], in_play: Sequence[str], options: Options) -> dict[str, Any]:
    """What the text says, as the round form holds it: indexes of `players`, card codes of the grid."""
    result = parse(text, list(in_play), options)
    index = {p: i for i, p in enumerate(players)}
    hands = {index[p]: [s.card.code for s in slots if s.card is not None] for p, slots in result.hands.items()}
    finish = result.finishing.card.code if result.finishing is not None and result.finishing.card is not None else None
    return {
        "winner": index.get(result.winner) if result.winner else None,
        "finish": finish,
        "hands": hands,
        "view": said_view(result),
    }


def question_text(question: Question) -> str:
    """A question of the parser in the request's language, cards in its notation (Д♥, Q♥)."""
    params: dict[str, Any] = {}
    for key, value in question.params.items():
        if isinstance(value, Card):
            params[key] = card_text(value)
        elif isinstance(value, tuple):
            params[key] = ", ".join(card_text(c) for c in value)
        elif isinstance(value, Rank):
            params[key] = rank_letter(value)
        else:
            params[key] = value
    return str(gettext(question.template, **params))


def said_view(result: ParsedRound) -> dict[str, Any]:
    return {
        "unrecognised": list(dict.fromkeys(result.unrecognised)),
        "questions": [question_text(q) for q in result.questions],
        "ready": result.exact,
    }


def players_json(players: Sequence[str], in_play: Sequence[str]) -> list[list[Any]]:
    """[[index, name], …] of the players in play, for the page's script."""
    return [[i, p] for i, p in enumerate(players) if p in in_play]
