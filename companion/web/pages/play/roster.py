"""Players join and leave the table between rounds, from the share page (docs/rules-decisions.md,
«Joining and leaving between rounds»); the JSON API does the same in web/api/seats.py."""

from __future__ import annotations

from typing import Any

from flask import Response, abort, request

from companion.core.errors import N_, FormatError, RuleError
from companion.core.series import MAX_NAME_LENGTH
from companion.i18n import translate_error
from companion.service import roster
from companion.storage.database import get_db
from companion.web.http.edit_rights import edit_cookie, editable_or_403
from companion.web.http.pages import see_other
from companion.web.pages.play import bp
from companion.web.pages.play.form_values import whole
from companion.web.pages.play.sharing import share_page


@bp.post("/series/<series_id>/players")
def add_player(series_id: str) -> Response:
    """«Add a player» between rounds: at the total typed, or the highest total in play."""
    series = editable_or_403(series_id)
    typed = request.form.get("total", "").strip()
    total: Any = whole(typed) if typed else None
    try:
        if typed and total is None:
            raise FormatError(N_("“total” must be a whole number, e.g. 54."))
        roster.join(get_db(), series, request.form.get("name", "")[:MAX_NAME_LENGTH * 2], total)
    except RuleError as error:
        return share_page(series, request.cookies[edit_cookie(series.id)], 422, translate_error(error))
    return see_other("play.share", series_id=series.id, _anchor="players")


@bp.post("/series/<series_id>/players/<int:i>/leave")
def remove_player(series_id: str, i: int) -> Response:
    series = editable_or_403(series_id)
    if not 0 <= i < len(series.setup.players):
        abort(404)
    try:
        roster.leave(get_db(), series, series.setup.players[i])
    except RuleError as error:
        return share_page(series, request.cookies[edit_cookie(series.id)], 422, translate_error(error))
    return see_other("play.share", series_id=series.id, _anchor="players")
