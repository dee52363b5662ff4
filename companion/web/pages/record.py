"""The import page: `/import` takes a series' or a whole table's exported file picked on the phone.

A refused file stores nothing and says what is wrong in it; a good one makes this phone its editor.
"""

from __future__ import annotations

from flask import Blueprint, Response, request
from werkzeug.exceptions import RequestEntityTooLarge

from companion.core.errors import N_, FormatError, RuleError
from companion.i18n import translate_error
from companion.ops.hardening import InputRefused, strict_loads
from companion.service import record
from companion.service.record import IMPORT_MAX_BYTES
from companion.storage.database import get_db
from companion.web.http.pages import page, see_other
from companion.web.pages.play.sharing import as_editor

bp = Blueprint("record", __name__)

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
            data = strict_loads(raw.decode("utf-8-sig"))
        except InputRefused as refused:
            raise FormatError(refused.template, **refused.params) from None
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
