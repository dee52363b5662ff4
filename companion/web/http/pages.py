"""What every HTML page view shares: rendering with its Vary header, fragments, redirects, the series of the URL."""

from __future__ import annotations

from typing import Any

from flask import Request, Response, abort, make_response, redirect, render_template, request, url_for
from htmx_flask.requests import HtmxHeaders  # type: ignore[import-untyped]  # no type information

from companion.service import series as series_service
from companion.storage.database import get_db

PAGE_VARY = "HX-Request, Accept-Language, Cookie"


def page(template: str, status: int = 200, /, *, vary: str = PAGE_VARY, **context: Any) -> Response:
    """A rendered page (or fragment) whose answer depends on htmx, the language and the cookies."""
    response = make_response(render_template(template, **context), status)
    response.headers["Vary"] = vary
    return response


def is_fragment(req: Request = request) -> bool:
    """An htmx request for a piece of the page: not a boosted link, not a history restore."""
    htmx = HtmxHeaders(req.headers)
    return bool(htmx) and not htmx.boosted and not htmx.history_restore_request


def see_other(endpoint: str, **values: Any) -> Response:
    """303 to another page (after a POST, or a GET fall-back)."""
    return make_response(redirect(url_for(endpoint, **values), code=303))


def load_or_404(series_id: str) -> series_service.Series:
    """The series of a page's URL; an unknown one is the 404 page."""
    series = series_service.load(get_db(), series_id)
    if series is None:
        abort(404)
    return series
