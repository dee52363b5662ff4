"""The app shell around every page: the sticky language choice, gzip, the service worker.

The service worker is served from the site root so its scope is the whole
app; it caches only files under /static/ (see static/sw.js), never pages.
"""

from __future__ import annotations

import gzip
from typing import Any

from flask import Blueprint, Response, current_app, request, send_from_directory

from companion.i18n import LANGUAGES

bp = Blueprint("shell", __name__)

COMPRESSIBLE = ("text/", "application/javascript", "application/json", "application/manifest+json",
                "image/svg+xml")
MIN_GZIP_SIZE = 600


@bp.get("/sw.js")
def service_worker() -> Any:
    response = send_from_directory(current_app.static_folder or "static", "sw.js", max_age=0)
    response.headers["Service-Worker-Allowed"] = "/"
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.after_app_request
def remember_language(response: Response) -> Response:
    """?lang= switches the language and a cookie keeps it for the next visits."""
    chosen = request.args.get("lang")
    if chosen in LANGUAGES and request.cookies.get("lang") != chosen:
        response.set_cookie("lang", chosen, max_age=365 * 86400, samesite="Lax", secure=request.is_secure)
    return response


@bp.after_app_request
def compress(response: Response) -> Response:
    """gzip text answers for clients that accept it (pages, CSS, JS, SVG)."""
    if (
        response.status_code != 200
        or "gzip" not in request.headers.get("Accept-Encoding", "")
        or "Content-Encoding" in response.headers
        or not (response.mimetype or "").startswith(COMPRESSIBLE)
    ):
        return response
    response.direct_passthrough = False
    data = response.get_data()
    if len(data) < MIN_GZIP_SIZE:
        return response
    response.set_data(gzip.compress(data, compresslevel=6, mtime=0))
    response.headers["Content-Encoding"] = "gzip"
    etag, weak = response.get_etag()
    if etag and not weak:
        response.set_etag(etag, weak=True)  # same content, another encoding: no longer byte-identical
    vary = response.headers.get("Vary")
    if not vary:
        response.headers["Vary"] = "Accept-Encoding"
    elif "accept-encoding" not in vary.lower():
        response.headers["Vary"] = f"{vary}, Accept-Encoding"
    return response
