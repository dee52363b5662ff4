"""What the JSON API views read from a request: the JSON body, the series of the URL, the edit token, If-Match.

Shared by every API module (api, referee_api, record, tables); pages read forms instead.
"""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify, request

from companion.core.errors import N_, Msg
from companion.ops.hardening import ascii_int
from companion.service import series as series_service
from companion.storage.database import get_db
from companion.web.errors import ApiError


def json_body() -> Any:
    data = request.get_json(silent=True)
    if data is None:
        raise ApiError(
            400,
            "malformed-json",
            N_("The request body is not valid JSON. Send a JSON object with Content-Type: application/json."),
        )
    return data


def json_object() -> dict[str, Any]:
    data = json_body()
    if not isinstance(data, dict):
        raise ApiError(400, "bad-request", N_("The request body must be a JSON object."))
    return data


def load_series(series_id: str) -> series_service.Series:
    series = series_service.load(get_db(), series_id)
    if series is None:
        raise ApiError(404, "not-found", N_("There is no series “%(id)s”. Check the link."), id=series_id)
    return series


def bearer_token(missing: Msg) -> str:
    """The token of `Authorization: Bearer <edit_token>`; `missing` says what a request without it needs."""
    header = request.headers.get("Authorization", "")
    if not header:
        raise ApiError(401, "unauthorized", missing)
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "unauthorized", N_("Write the header as “Authorization: Bearer <edit_token>”."))
    return token.strip()


def authorize(series: series_service.Series) -> None:
    token = bearer_token(
        N_("Changing a series needs its edit token: send the header “Authorization: Bearer <edit_token>”.")
    )
    if not series.row.token_matches(token):
        raise ApiError(403, "forbidden", N_("This edit token does not belong to this series."))


def created(body: Any, location: str | None = None) -> Response:
    """201 with the JSON body (and where the new thing lives)."""
    response = jsonify(body)
    response.status_code = 201
    if location:
        response.headers["Location"] = location
    return response


def if_match_version() -> int | None:
    value = request.headers.get("If-Match")
    if value is None:
        return None
    digits = value.strip().removeprefix("W/").strip('"').split(".")[0]  # an ETag "7.2": version 7, marks 2
    version = ascii_int(digits) if digits.isdigit() else None  # "²" and 5,000 digits are no version
    if version is None:
        raise ApiError(400, "bad-request", N_("If-Match must be the series version, a whole number such as 3."))
    return version
