"""JSON API v1: the referee. `POST /api/v1/referee/play` asks whether a card may go on another.

Errors are the API's usual `{"error": {"code", "message"}}` (the app-wide handler in `errors.py`).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from companion.core.cards import parse_card
from companion.core.errors import N_, FormatError, Msg, PlayError
from companion.core.referee import check_play
from companion.core.rules import DEFAULT_RULESET, RuleSet, get_ruleset
from companion.i18n import translate_error
from companion.service import series as series_service
from companion.storage.database import get_db
from companion.web.api.request import json_object
from companion.web.errors import ApiError
from companion.web.present.cards import parse_suit

bp = Blueprint("referee_api", __name__, url_prefix="/api/v1/referee")

FIELDS = ("ruleset", "options", "series", "players", "top", "ordered_suit", "card", "also", "covering",
          "penalty_pending", "pending_draw", "clockwise")


def question_ruleset(data: dict[str, Any]) -> tuple[RuleSet, int | None]:
    """The rule set with the options in force: a series' own (`series`), or a preset with the table's
    `options` (as a series takes them); and the series' number of players still in play, if any."""
    series_id = data.get("series")
    if series_id is not None:
        if "ruleset" in data or "options" in data:
            raise FormatError(N_("Give either “series” or “ruleset” and “options”: a series has its own rules."))
        if not isinstance(series_id, str):
            raise FormatError(N_("“%(field)s” must be a series id (text)."), field="series")
        series = series_service.load(get_db(), series_id)
        if series is None:
            raise ApiError(404, "not-found", N_("There is no series “%(id)s”. Check the link."), id=series_id)
        return series.setup.ruleset, len(series.standings.in_play)
    return get_ruleset(data.get("ruleset", DEFAULT_RULESET)).with_options(data.get("options")), None


@bp.post("/play")
def play() -> Any:
    data = json_object()
    unknown = sorted(set(data) - set(FIELDS))
    if unknown:
        raise FormatError(
            N_("Unknown field “%(field)s”. Known fields: %(known)s."), field=unknown[0], known=", ".join(FIELDS)
        )
    ruleset, seated = question_ruleset(data)
    deck = ruleset.defaults.deck
    if "card" not in data:
        raise FormatError(N_('Say which card is to be played (“card”), e.g. "Q♣".'))
    card = parse_card(data["card"], deck)
    top = None if data.get("top") is None else parse_card(data["top"], deck)
    ordered = None if data.get("ordered_suit") is None else parse_suit(data["ordered_suit"])
    also = data.get("also", [])
    if not isinstance(also, list):
        raise FormatError(N_('“also” must be a list of cards laid with “card”, e.g. ["8♣"].'))
    players: Any = data.get("players", seated)  # check_play refuses what is not a whole number
    verdict = check_play(
        ruleset,
        players,
        top,
        card,
        ordered,
        covering=_flag(data, "covering", None),
        pending_draw=data.get("pending_draw", 0),
        clockwise=bool(_flag(data, "clockwise", True)),
        penalty_pending=_flag(data, "penalty_pending", None),
        also=[parse_card(c, deck) for c in also],
    )
    return {
        "legal": verdict.legal,
        "reason": _text(verdict.reason, verdict.params),
        "effect": _text(verdict.effect, verdict.effect_params) if verdict.effect else "",
        "next_draws": verdict.next_draws,
        "next_turn": verdict.next_turn,
        "penalty_pending": verdict.penalty_pending,
        "must_cover": verdict.must_cover,
        "clockwise": verdict.clockwise,
        "faq": verdict.faq,
        "faq_url": f"/faq/{verdict.faq}",
    }


def _flag(data: dict[str, Any], key: str, default: bool | None) -> bool | None:
    value = data.get(key, default)
    if value is not None and not isinstance(value, bool):
        raise FormatError(N_("“%(field)s” must be true or false."), field=key)
    return value


def _text(template: Msg, params: Any) -> str:
    return translate_error(PlayError(template, **params))
