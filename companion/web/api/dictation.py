"""`POST /api/v1/round-from-text`: a whole round read from what the table says (issue 10).

Body `{"text", "players", "ruleset"?, "options"?}` → 200
`{"winner", "finishing_card", "hands", "unrecognised", "questions"}` (plus `assumed`
and `ready`). The same body as a round is then posted as usual; a card whose suit
must still be asked is written rank + "?" ("Q?") and is not a card a round accepts.
Errors use the API's `{"error": {"code", "message"}}` shape.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from companion.core.errors import N_, FormatError
from companion.core.rules import get_ruleset
from companion.core.series import MAX_NAME_LENGTH
from companion.language.dictation import MAX_TEXT, ParsedRound, parse
from companion.web.api.request import json_object
from companion.web.present.round_say import question_text

bp = Blueprint("round_text_api", __name__, url_prefix="/api/v1")

MAX_PLAYERS = 12


def read_players(value: Any) -> list[str]:
    if not isinstance(value, list) or not value or not all(isinstance(p, str) for p in value):
        raise FormatError(N_('“players” must be a list of the players\' names, e.g. ["Аня", "Борис"].'))
    names = [" ".join(p.split()) for p in value]
    if len(names) > MAX_PLAYERS or any(not n or len(n) > MAX_NAME_LENGTH for n in names):
        raise FormatError(
            N_("“players” takes 1 to %(max)s names, each 1 to %(length)s characters long."),
            max=MAX_PLAYERS,
            length=MAX_NAME_LENGTH,
        )
    folded = [n.casefold() for n in names]
    if len(set(folded)) != len(folded):
        raise FormatError(N_("Each name in “players” must be different."))
    return names


def parsed_json(result: ParsedRound) -> dict[str, Any]:
    body = result.to_json()
    body["unrecognised"] = list(dict.fromkeys(result.unrecognised))
    body["questions"] = [question_text(q) for q in result.questions]
    body["assumed"] = [{"player": s.owner, "card": s.text, "finishing": s.finishing} for s in result.assumed]
    body["ready"] = result.exact
    return body


@bp.post("/round-from-text")
def round_from_text() -> Any:
    data = json_object()
    text = data.get("text")
    if not isinstance(text, str):
        raise FormatError(N_('“text” must be the round as said, e.g. "Аня вышла дамой червей, у Бориса туз".'))
    if len(text) > MAX_TEXT:
        raise FormatError(N_("“text” is too long: at most %(max)s characters."), max=MAX_TEXT)
    players = read_players(data.get("players"))
    ruleset = get_ruleset(data.get("ruleset") if data.get("ruleset") is not None else "igrafan")
    options = ruleset.options(data.get("options"))
    return parsed_json(parse(text, players, options))
