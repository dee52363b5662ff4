"""JSON API v1: rule sets, scoring a hand, series and their rounds.

Errors are always `{"error": {"code", "message"}}` in the request's language
(the app-wide handler in `errors.py` writes them).
"""

from __future__ import annotations

from dataclasses import fields
from enum import Enum
from typing import Any

from flask import Blueprint, Response, request

from companion.core.cards import parse_card
from companion.core.errors import N_, FormatError, RuleError
from companion.core.languages import LANGUAGES
from companion.core.rules import DEFAULT_RULESET, OPTION_SPECS, RULESETS, get_ruleset
from companion.core.scoring import max_hand, score_hand
from companion.i18n import gettext, in_both_languages
from companion.service import seats
from companion.service import series as series_service
from companion.storage import database as storage
from companion.storage.database import get_db, round_history
from companion.web.api import idempotency
from companion.web.api.request import authorize, created, if_match_version, json_body, json_object, load_series
from companion.web.errors import ApiError
from companion.web.http.conditional import conditional
from companion.web.present.rules_text import option_spec_json
from companion.web.present.series_json import series_json, series_response

bp = Blueprint("api", __name__, url_prefix="/api/v1")


# -- rule sets and scoring -------------------------------------------------


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, Enum) else value


def ruleset_json(ruleset_id: str) -> dict[str, Any]:
    rs = RULESETS[ruleset_id]
    play, opt = rs.play, rs.defaults
    return {
        "id": rs.id,
        "name": in_both_languages(rs.name),
        "description": in_both_languages(rs.description),
        "differences": {lang: [in_both_languages(line)[lang] for line in rs.differences] for lang in LANGUAGES},
        "sources": list(rs.sources),
        "players": {
            "min": rs.min_players,
            "max": rs.max_players,
            "max_with_52_cards": rs.max_players_for(rs.options({"deck": 52})),
        },
        "parameters": {
            **{f.name: _plain(getattr(play, f.name)) for f in fields(play)},
            # the play options in force, also under the names this object used before they became options
            "hand_size": opt.hand_size,
            "six": "self-cover" if opt.six.draw == 0 else "next-draws",
            "six_draw": opt.six.draw,
            "seven_draw": opt.seven_draw,
            "spade_king_draw": opt.spade_king_draw,
            "ten_reverses": opt.ten_reverses,
            "eight_continue": opt.eight.value != "normal",
            "drawn_card_playable": opt.drawn_card_playable,
            "draw_until_fits": opt.draw_until_fits,
            "penalty_transfer": opt.penalty_transfer,
            "must_be_covered": sorted(rs.must_be_covered),
            "cannot_finish_on": sorted(rs.cannot_finish_on),
        },
        "options": rs.defaults.to_json(),
    }


@bp.get("/rulesets")
def rulesets() -> Any:
    return {
        "rulesets": [ruleset_json(rid) for rid in RULESETS],
        "options": [option_spec_json(spec) for spec in OPTION_SPECS],
    }


@bp.post("/score")
def score() -> Any:
    data = json_object()
    ruleset = get_ruleset(data.get("ruleset", DEFAULT_RULESET))
    options = ruleset.options(data.get("options"))
    cards = data.get("cards")
    if not isinstance(cards, list):
        raise FormatError(N_('“cards” must be a list of cards, e.g. ["10♣", "J♦"].'))
    parsed = [parse_card(c, options.deck) for c in cards]
    if len(set(parsed)) != len(parsed):
        dup = next(c for c in parsed if parsed.count(c) > 1)
        raise RuleError(N_("%(card)s is twice in the hand; a deck has one of each card."), card=str(dup))
    most = max_hand(options)
    if len(parsed) > most:  # docs/rules.md §6: at least one card lies on the discard pile
        raise RuleError(
            N_(
                "A hand of %(count)s cards cannot happen with a %(deck)s-card deck: at most %(most)s cards "
                "can be in one hand, since at least one lies on the discard pile."
            ),
            count=len(parsed),
            deck=options.deck,
            most=most,
        )
    return score_hand(parsed, options).to_json()


# -- series -----------------------------------------------------------------


def write(
    series_id: str, change: idempotency.Change, *, data: Any = None, target: int | None = None, status: int = 200
) -> Response:
    """Authorize, then apply `change` once per Idempotency-Key; without If-Match a race is retried on fresh state."""
    series = load_series(series_id)
    authorize(series)
    expected = if_match_version()
    key = idempotency.key_from(request.headers.get(idempotency.HEADER))
    digest = idempotency.request_hash(data) if key else ""

    def current() -> Response:
        return series_response(load_series(series_id))

    if key:
        found = idempotency.earlier(series.id, key, digest)
        if found is not None:
            return idempotency.replay(found, current, status)
    try:
        changed = idempotency.apply(
            series, change, expected=expected, key=(key, digest) if key else None, target=target
        )
    except storage.DuplicateKey:  # the same key won a race a moment ago: answer as it was answered
        found = idempotency.earlier(series.id, key or "", digest)
        assert found is not None
        return idempotency.replay(found, current, status)
    return idempotency.remember(series.id, key, series_response(changed, status))


def stored_round(series: series_service.Series, n: int) -> int:
    found = series_service.round_number(series, n)
    if found is None:
        raise ApiError(
            404,
            "not-found",
            N_("Round %(n)s does not exist in this series (rounds so far: %(count)s)."),
            n=n,
            count=len(series.entries),
        )
    return found


@bp.post("/series")
def create_series() -> Any:
    data = json_object()
    table_id = None
    after = data.get("after")
    if after is not None:  # the next series of the same table: needs the edit token of the one it follows
        if not isinstance(after, str):
            raise ApiError(400, "bad-request", N_("“after” must be the id of the series this one follows."))
        previous = load_series(after)
        authorize(previous)
        table_id = previous.row.table_id
        # The same players and rules unless the body says otherwise (another rule set: its own options).
        same_rules = data.get("ruleset", previous.setup.ruleset.id) == previous.setup.ruleset.id
        data = {
            "players": list(previous.setup.players),
            "ruleset": previous.setup.ruleset.id,
            "options": (previous.row.options or None) if same_rules else None,
            **data,
        }
    series, token = series_service.create(
        get_db(), data.get("players"), data.get("ruleset"), data.get("options"), data.get("starter"), table_id=table_id
    )
    body = series_json(series)
    body["edit_token"] = token
    if series.row.starter_drawn:
        body["message"] = gettext("The first starter was drawn by lot: %(name)s.", name=series.setup.starter)
    return created(body, f"/api/v1/series/{series.id}")


@bp.get("/series/<series_id>")
def get_series(series_id: str) -> Any:
    series = load_series(series_id)
    return conditional(series.row.stamp, lambda: series_response(series))


@bp.post("/series/<series_id>/rounds")
def add_round(series_id: str) -> Any:
    data = json_body()

    def add(g: series_service.Series, v: int | None, k: tuple[str, str] | None) -> series_service.Series:
        if isinstance(data, dict) and data.get("hands") == "draft":  # the hands the seats sent
            return series_service.add_round(get_db(), g, seats.round_from_draft(get_db(), g, data), v, k)
        return series_service.add_round(get_db(), g, data, v, k)

    return write(series_id, add, data=data, status=201)


@bp.put("/series/<series_id>/rounds/<int:n>")
def edit_round(series_id: str, n: int) -> Any:
    data = json_body()
    return write(
        series_id,
        lambda g, v, k: series_service.edit_round(get_db(), g, stored_round(g, n), data, v, k),
        data=data,
        target=n,
    )


@bp.delete("/series/<series_id>/rounds/<int:n>")
def delete_round(series_id: str, n: int) -> Any:
    return write(
        series_id, lambda g, v, k: series_service.delete_round(get_db(), g, stored_round(g, n), v, k), target=n
    )


@bp.get("/series/<series_id>/history")
def history(series_id: str) -> Any:
    series = load_series(series_id)
    return {"id": series.id, "history": round_history(get_db(), series.id)}
