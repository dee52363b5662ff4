"""A series as a file through the API: `GET /api/v1/series/<id>/export` and `POST /api/v1/series/import`.

The export is the whole series (see `companion.service.record`); the import takes that document back and
answers 201 with the new series and its `edit_token`. A refused file stores nothing and says what is wrong in it.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, request
from werkzeug.exceptions import RequestEntityTooLarge

from companion.core.errors import N_
from companion.ops.hardening import strict_loads
from companion.service import record
from companion.storage.database import get_db
from companion.web.api.request import created, load_series
from companion.web.errors import ApiError
from companion.web.http.links import public_url
from companion.web.present.series_json import series_json

bp = Blueprint("record_api", __name__)

IMPORT_MAX_BYTES = record.IMPORT_MAX_BYTES


def export_filename(document: dict[str, Any]) -> str:
    from companion.ops.pdf import sheet_filename

    return sheet_filename(document["created_at"], document["players"], "json")


@bp.get("/api/v1/series/<series_id>/export")
def export_series(series_id: str) -> Any:
    series = load_series(series_id)
    document = record.export_document(get_db(), series, public_url("series.show", series_id=series.id))
    response = jsonify(document)
    if request.args.get("download"):
        response.headers["Content-Disposition"] = f'attachment; filename="{export_filename(document)}"'
    return response


def read_upload_json() -> Any:
    request.max_content_length = IMPORT_MAX_BYTES
    try:
        raw = request.get_data(cache=True)
    except RequestEntityTooLarge:
        raise ApiError(413, "too-large", N_("The file is too large (at most %(size)s MB)."),
                       size=IMPORT_MAX_BYTES // (1024 * 1024)) from None
    try:
        return strict_loads(raw.decode("utf-8-sig"))  # InputRefused: the app's 400, in the user's language
    except (UnicodeDecodeError, ValueError):
        raise ApiError(
            400,
            "malformed-json",
            N_("The file is not valid JSON. Send the document GET /api/v1/series/<id>/export gave, unchanged."),
        ) from None


@bp.post("/api/v1/series/import")
def import_series() -> Any:
    data = read_upload_json()
    series, token = record.import_document(get_db(), data)
    body = series_json(series)
    body["edit_token"] = token
    return created(body, f"/api/v1/series/{series.id}")


