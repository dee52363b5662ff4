"""JSON API v1: rule sets, scoring a hand, series and their rounds.

Errors are always `{"error": {"code", "message"}}` in the request's language.
"""

from __future__ import annotations

from dataclasses import fields
from enum import Enum
from typing import Any, Callable

from flask import Blueprint, Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException

from .. import series_service
from ..core.cards import parse_card
from ..core.errors import N_, FormatError, Msg, RuleError, SeriesFinishedError
from ..core.rules import OPTION_SPECS, RULESETS, get_ruleset
from ..core.scoring import score_hand
from ..i18n import translate_error
from ..storage import get_db
from flask_babel import gettext

bp = Blueprint("api", __name__, url_prefix="/api/v1")


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: Msg, **params: Any) -> None:
        self.status, self.code, self.message, self.params = status, code, message, params


def error_response(status: int, code: str, message: str) -> Response:
    response = jsonify({"error": {"code": code, "message": message}})
    response.status_code = status
    response.headers["Vary"] = "Accept-Language"
    return response


def json_body() -> Any:
    data = request.get_json(silent=True)
    if data is None:
        raise ApiError(400, "malformed-json", N_("The request body is not valid JSON. Send a JSON object with Content-Type: application/json."))
    return data


def json_object() -> dict[str, Any]:
    data = json_body()
    if not isinstance(data, dict):
        raise ApiError(400, "bad-request", N_("The request body must be a JSON object."))
    return data


# -- rule sets and scoring -------------------------------------------------


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, Enum) else value


def ruleset_json(ruleset_id: str) -> dict[str, Any]:
    rs = RULESETS[ruleset_id]
    play = rs.play
    return {
        "id": rs.id,
        "name": dict(rs.name),
        "description": dict(rs.description),
        "differences": {lang: list(lines) for lang, lines in rs.differences.items()},
        "sources": list(rs.sources),
        "players": {"min": rs.min_players, "max": rs.max_players, "max_with_52_cards": rs.max_players_for(rs.options({"deck": 52}))},
        "parameters": {
            **{f.name: _plain(getattr(play, f.name)) for f in fields(play)},
            "cannot_finish_on": sorted(play.must_be_covered),
        },
        "options": rs.defaults.to_json(),
    }


@bp.get("/rulesets")
def rulesets() -> Any:
    return {
        "rulesets": [ruleset_json(rid) for rid in RULESETS],
        "options": [spec.to_json() for spec in OPTION_SPECS],
    }


@bp.post("/score")
def score() -> Any:
    data = json_object()
    ruleset = get_ruleset(data.get("ruleset", "igrafan"))
    options = ruleset.options(data.get("options"))
    cards = data.get("cards")
    if not isinstance(cards, list):
        raise FormatError(N_("“cards” must be a list of cards, e.g. [\"10♣\", \"J♦\"]."))
    parsed = [parse_card(c, options.deck) for c in cards]
    if len(set(parsed)) != len(parsed):
        dup = next(c for c in parsed if parsed.count(c) > 1)
        raise RuleError(N_("%(card)s is twice in the hand; a deck has one of each card."), card=str(dup))
    return score_hand(parsed, options).to_json()


# -- series -----------------------------------------------------------------


def series_json(game: series_service.Series) -> dict[str, Any]:
    st = game.standings
    options = game.setup.options
    return {
        "id": game.id,
        "ruleset": game.setup.ruleset.id,
        "options": options.to_json(),
        "players": [
            {"name": p, "total": st.totals[p], "status": st.statuses[p].value,
             "points_to_loss": options.loss_above - st.totals[p] + 1}
            for p in game.setup.players
        ],
        "rounds": [r.json for r in st.rounds],
        "status": "finished" if st.finished else "active",
        "losers": list(st.losers),
        "winner": st.winner,
        "next_starter": st.next_starter,
        "starter": game.setup.starter,
        "starter_drawn": game.row.starter_drawn,
        "version": game.version,
        "created_at": game.row.created_at,
        "updated_at": game.row.updated_at,
    }


def load_game(series_id: str) -> series_service.Series:
    game = series_service.load(get_db(), series_id)
    if game is None:
        raise ApiError(404, "not-found", N_("There is no series “%(id)s”. Check the link."), id=series_id)
    return game


def authorize(game: series_service.Series) -> None:
    header = request.headers.get("Authorization", "")
    if not header:
        raise ApiError(401, "unauthorized", N_("Changing a series needs its edit token: send the header “Authorization: Bearer <edit_token>”."))
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "unauthorized", N_("Write the header as “Authorization: Bearer <edit_token>”."))
    if not game.row.token_matches(token.strip()):
        raise ApiError(403, "forbidden", N_("This edit token does not belong to this series."))


def if_match_version() -> int | None:
    value = request.headers.get("If-Match")
    if value is None:
        return None
    digits = value.strip().removeprefix("W/").strip('"')
    if not digits.isdigit():
        raise ApiError(400, "bad-request", N_("If-Match must be the series version, a whole number such as 3."))
    return int(digits)


def write(series_id: str, change: Callable[[series_service.Series, int | None], series_service.Series]) -> series_service.Series:
    """Authorize, then apply `change`; without If-Match, a race is retried once on fresh state."""
    game = load_game(series_id)
    authorize(game)
    expected = if_match_version()
    try:
        return change(game, expected)
    except series_service.VersionConflict as conflict:
        if expected is not None:
            raise
        return change(conflict.series, None)


def stored_round(game: series_service.Series, n: int) -> int:
    found = series_service.round_number(game, n)
    if found is None:
        raise ApiError(404, "not-found", N_("Round %(n)s does not exist in this series (rounds so far: %(count)s)."),
                       n=n, count=len(game.entries))
    return found


@bp.post("/series")
def create_series() -> Any:
    data = json_object()
    game, token = series_service.create(get_db(), data.get("players"), data.get("ruleset"), data.get("options"), data.get("starter"))
    body = series_json(game)
    body["edit_token"] = token
    if game.row.starter_drawn:
        body["message"] = gettext("The first starter was drawn by lot: %(name)s.", name=game.setup.starter)
    response = jsonify(body)
    response.status_code = 201
    response.headers["Location"] = f"/api/v1/series/{game.id}"
    return response


@bp.get("/series/<series_id>")
def get_series(series_id: str) -> Any:
    game = load_game(series_id)
    etag = str(game.version)
    if request.if_none_match.contains(etag):  # a client following the series: nothing new
        response = Response(status=304)
    else:
        response = jsonify(series_json(game))
    response.set_etag(etag)
    return response


@bp.post("/series/<series_id>/rounds")
def add_round(series_id: str) -> Any:
    data = json_body()
    game = write(series_id, lambda g, v: series_service.add_round(get_db(), g, data, v))
    response = jsonify(series_json(game))
    response.status_code = 201
    return response


@bp.put("/series/<series_id>/rounds/<int:n>")
def edit_round(series_id: str, n: int) -> Any:
    data = json_body()
    game = write(series_id, lambda g, v: series_service.edit_round(get_db(), g, stored_round(g, n), data, v))
    return series_json(game)


@bp.delete("/series/<series_id>/rounds/<int:n>")
def delete_round(series_id: str, n: int) -> Any:
    game = write(series_id, lambda g, v: series_service.delete_round(get_db(), g, stored_round(g, n), v))
    return series_json(game)


@bp.get("/series/<series_id>/history")
def history(series_id: str) -> Any:
    from ..storage import round_history

    game = load_game(series_id)
    return {"id": game.id, "history": round_history(get_db(), game.id)}


# -- errors -----------------------------------------------------------------


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def api_error(error: ApiError) -> Response:
        return error_response(error.status, error.code, translate_error(RuleError(error.message, **error.params)))

    @app.errorhandler(RuleError)
    def rule_error(error: RuleError) -> Response:
        status = 400 if isinstance(error, FormatError) else 409 if isinstance(error, SeriesFinishedError) else 422
        body = error_response(status, error.code, translate_error(error))
        return body

    @app.errorhandler(series_service.VersionConflict)
    def conflict(error: series_service.VersionConflict) -> Response:
        response = error_response(409, "stale-version", gettext(
            "Someone else saved first: the series is now at version %(version)s. Nothing was changed; look at the fresh state and try again.",
            version=error.series.version))
        body = response.get_json()
        body["series"] = series_json(error.series)
        response.set_data(jsonify(body).get_data())
        return response

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Any:
        if not request.path.startswith("/api/"):
            return error
        messages = {
            400: N_("The request could not be read. Send a JSON object with Content-Type: application/json."),
            404: N_("There is no such address in the API. See GET /api/v1/rulesets and the README for the list."),
            405: N_("This address does not accept that method."),
            413: N_("The request is too large (at most 64 KB)."),
        }
        status = error.code or 500
        message = messages.get(status, N_("The request could not be handled."))
        return error_response(status, {413: "too-large", 404: "not-found", 405: "method-not-allowed"}.get(status, "bad-request"), gettext(message))
