"""The one error path of the app (as Datasette does it).

Under `/api/` every error is JSON `{"error": {"code", "message"}}`; everywhere
else it is the `error.html` page. Both are in the request's language, for
every HTTP error (unknown URLs and 405s included), for input the rules
refuse (`RuleError`) and for a write that lost a race (`VersionConflict`).
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, jsonify, request
from flask.globals import request_ctx
from werkzeug.exceptions import HTTPException

from companion.core.errors import N_, FormatError, Msg, RuleError, SeriesFinishedError
from companion.i18n import gettext, translate_error
from companion.service.series import UnreadableSeries, VersionConflict
from companion.web.http.pages import page

API_PREFIX = "/api/"
ERROR_VARY = "Accept-Language, Cookie"


class ApiError(Exception):
    """An API request refused before the rules see it (no token, unknown series …)."""

    def __init__(self, status: int, code: str, message: Msg, **params: Any) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.params = status, code, message, params


def is_api_request() -> bool:
    return request.path.startswith(API_PREFIX)


def error_response(status: int, code: str, message: str, **extra: Any) -> Response:
    response = jsonify({"error": {"code": code, "message": message}, **extra})
    response.status_code = status
    response.headers["Vary"] = "Accept-Language"
    return response


def error_page(status: int, message: str | None = None, title: str | None = None) -> Response:
    """error.html: its own words for 403 and 404; `title` and `message` for a refusal that is nobody's typo."""
    if request_ctx.url_adapter is None:  # the host itself was refused: no link can be built, so plain text
        text = message or gettext("The request could not be handled. Go back and try again.")
        return Response(text, status, mimetype="text/plain", headers={"Vary": ERROR_VARY})
    return page("error.html", status, vary=ERROR_VARY, code=status, message=message, title=title)


def answer(status: int, code: str, message: str, *, title: str | None = None, **extra: Any) -> Response:
    """The error as JSON under /api/, as the error page elsewhere (every module's errors go through here)."""
    if is_api_request():
        return error_response(status, code, message, **extra)
    return error_page(status, message, title)


def rule_error_status(error: RuleError) -> int:
    if isinstance(error, FormatError):
        return 400
    if isinstance(error, SeriesFinishedError) or error.code == "round-saved":
        return 409
    return 422


# The API's words for plain HTTP errors; pages show error.html's own text for 403 and 404.
_API_MESSAGES = {
    400: N_("The request could not be read. Send a JSON object with Content-Type: application/json."),
    404: N_("There is no such address in the API. See GET /api/v1/rulesets and the README for the list."),
    405: N_("This address does not accept that method."),
    413: N_("The request is too large (at most 64 KB)."),
}
_PAGE_MESSAGES = {
    400: N_("The request could not be read. Go back and try again."),
    405: N_("This address does not accept that kind of request. Open it from a link or a button."),
    413: N_("What was sent is too large. Nothing was saved."),
}
_CODES = {400: "bad-request", 403: "forbidden", 404: "not-found", 405: "method-not-allowed", 413: "too-large"}


def _http_error(error: HTTPException) -> Response:
    status = error.code or 500
    code = _CODES.get(status, "bad-request" if status < 500 else "server-error")
    if is_api_request():
        fallback = N_("The request could not be handled.")
        response = error_response(status, code, gettext(_API_MESSAGES.get(status, fallback)))
    else:
        message = _PAGE_MESSAGES.get(status)
        response = error_page(status, gettext(message) if message else None)
    allow = dict(error.get_headers()).get("Allow")
    if allow:  # a 405 names the methods the address accepts
        response.headers["Allow"] = allow
    return response


def _api_error(error: ApiError) -> Response:
    return answer(error.status, error.code, translate_error(RuleError(error.message, **error.params)))


def _rule_error(error: RuleError) -> Response:
    return answer(rule_error_status(error), error.code, translate_error(error))


def _version_conflict(error: VersionConflict) -> Response:
    if error.round_no is not None:  # a write without If-Match whose round itself was changed meanwhile
        message = gettext(
            "Round %(n)s was changed by someone else meanwhile (the series is now at version %(version)s). "
            "Nothing was changed; look at the fresh round and try again.", n=error.round_no,
            version=error.series.version)
    else:
        message = gettext(
            "Someone else saved first: the series is now at version %(version)s. "
            "Nothing was changed; look at the fresh state and try again.", version=error.series.version)
    if is_api_request():
        from companion.web.present.series_json import series_json

        return error_response(409, "stale-version", message, series=series_json(error.series))
    return error_page(409, message)


def _unreadable_series(error: UnreadableSeries) -> Response:
    from flask import current_app

    current_app.logger.error("unreadable stored %s", error)
    message = gettext("This series was stored by another version of the app and cannot be shown by this one "
                      "(%(reason)s). Nothing was changed; its data is kept as it was.",
                      reason=translate_error(error.cause) if isinstance(error.cause, RuleError) else error.cause)
    return answer(409, "unreadable-series", message, title=gettext("This series cannot be shown"))


def init_app(app: Flask) -> None:
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(ApiError, _api_error)
    app.register_error_handler(RuleError, _rule_error)
    app.register_error_handler(VersionConflict, _version_conflict)
    app.register_error_handler(UnreadableSeries, _unreadable_series)
