"""«Поделиться итогом» in the API: a series' result as a short text and its chart as a PNG image.

`GET /api/v1/series/<id>/summary?lang=ru|en` → `{"text", "image_url"}`; the image URL
names the series' version, so a phone or a chat that cached it never shows an old chart.
"""

from __future__ import annotations

import functools
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from companion.core.errors import N_
from companion.core.languages import LANGUAGES
from companion.i18n import current_language
from companion.service.series import Series
from companion.web.api.request import load_series
from companion.web.errors import ApiError
from companion.web.http.conditional import conditional
from companion.web.http.memory import app_cache
from companion.web.present.summary import share_summary
from companion.web.present.summary_image import CACHE_ITEMS, series_png

bp = Blueprint("summary_api", __name__)


def checked_language() -> str:
    """`?lang=`: ru or en; without it, the request's language."""
    lang = request.args.get("lang")
    if lang is not None and lang not in LANGUAGES:
        raise ApiError(400, "invalid-lang", N_("“lang” must be ru or en (for example ?lang=en); you sent “%(value)s”."),
                       value=lang[:20])
    return current_language()


@bp.get("/api/v1/series/<series_id>/summary")
def get_summary(series_id: str) -> Any:
    lang = checked_language()
    series = load_series(series_id)

    def render() -> Response:
        told, image = share_summary(series)
        return jsonify({"text": told.text, "image_url": image})

    return conditional(f"s-{series.id}-v{series.version}-{lang}", render, headers={"Vary": "Accept-Language, Cookie"})


def png_of(series: Series, lang: str) -> bytes:
    """The chart image of this version of the series, drawn once per language."""
    title = share_summary(series)[0].headline
    draw = functools.partial(series_png, series, title, current_app.static_folder or "static")
    return app_cache("summary_images", CACHE_ITEMS).get_or_make((series.id, str(series.version), lang), draw)


@bp.get("/api/v1/series/<series_id>/summary.png")
def summary_png(series_id: str) -> Any:
    lang = checked_language()
    series = load_series(series_id)

    def render() -> Response:
        response = Response(png_of(series, lang), mimetype="image/png")
        response.headers["Content-Disposition"] = f'inline; filename="sto-odno-{series.id}-{series.version}.png"'
        return response

    return conditional(f"png-{series.id}-v{series.version}-{lang}", render,
                       headers={"Cache-Control": "public, max-age=300", "Vary": "Accept-Language, Cookie"})
