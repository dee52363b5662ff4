"""A series as a file: JSON export, import through the API and through a page.

`GET /api/v1/series/<id>/export` is the whole series (see `companion.record`);
`POST /api/v1/series/import` takes that document back and answers 201 with the
new series and its `edit_token`. `/import` does the same from a file picked on
the phone. A refused file stores nothing and says what is wrong in it.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, jsonify, request
from werkzeug.exceptions import RequestEntityTooLarge

from companion.core.errors import N_, FormatError, RuleError
from companion.i18n import translate_error
from companion.service import record
from companion.storage.database import get_db
from companion.web.api.request import created, load_series
from companion.web.errors import ApiError
from companion.web.http.links import public_url
from companion.web.http.pages import page, see_other
from companion.web.pages.play.sharing import as_editor
from companion.web.present.series_json import series_json

bp = Blueprint("record", __name__)

# An exported series of a few hundred rounds with its history is well over the
# app's 64 KB request limit; an import may be this large.
IMPORT_MAX_BYTES = 2 * 1024 * 1024


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
        return json.loads(raw.decode("utf-8-sig"))
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


# -- the import page ------------------------------------------------------------------


@bp.get("/import")
def import_page() -> Response:
    return page("import.html", error=None)


@bp.post("/import")
def import_upload() -> Response:
    request.max_content_length = IMPORT_MAX_BYTES
    try:
        upload = request.files.get("file")
        raw = upload.read() if upload is not None else b""
    except RequestEntityTooLarge:
        return page(
            "import.html",
            413,
            error=translate_error(
                RuleError(N_("The file is too large (at most %(size)s MB)."), size=IMPORT_MAX_BYTES // (1024 * 1024))
            ),
        )
    if not raw:
        return page(
            "import.html",
            422,
            error=translate_error(RuleError(N_("Choose the file of a series exported from this app (a .json file)."))),
        )
    try:
        try:
            data = json.loads(raw.decode("utf-8-sig"))
        except (UnicodeDecodeError, ValueError):
            raise FormatError(
                N_("The file is not valid JSON. Pick the .json file the app exported, unchanged.")
            ) from None
        whole_table = isinstance(data, dict) and data.get("format") == record.TABLE_FORMAT
        if whole_table:
            _, stored = record.import_table(get_db(), data)
        else:
            stored = [record.import_document(get_db(), data)]
    except RuleError as error:
        return page("import.html", 422, error=translate_error(error))
    # A table's file: this phone becomes the editor of every series of it, and sees the latest.
    series, token = stored[-1]
    response = (see_other("tables.show_for_editor", series_id=series.id) if whole_table
                else see_other("play.share", series_id=series.id))
    for other, other_token in stored:
        as_editor(response, other, other_token)
    return response
