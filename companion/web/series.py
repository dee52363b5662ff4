"""The series page everyone can open: standings, history, chart; it follows the table by polling.

`/series/<id>` is read-only for everyone; a phone holding the edit cookie also
sees the buttons that lead to the scorekeeper's forms. Polls are conditional
GETs: the ETag is the series version, the language and the kind of answer, so
an idle phone gets 304 and no body.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, make_response, render_template, request

from .. import series_service
from ..i18n import current_language
from ..storage import get_db, round_history
from . import ui

bp = Blueprint("series", __name__)


def standings_etag(game: series_service.Series, fragment: bool) -> str:
    """Series version, language, editor or reader, fragment or page: what the answer depends on."""
    return f"v{game.version}-{current_language()}-{'e' if ui.can_edit(game) else 'r'}-{'f' if fragment else 'p'}"


def render_series(game: series_service.Series, status: int = 200, message: str | None = None) -> Any:
    editor = ui.can_edit(game)
    # The poll sends the ETag of the fragment it would get, so even the first poll after a page load is a 304.
    context = dict(game=game, standings=game.standings, view=ui.standings_view(game), editor=editor,
                   history=ui.history_view(round_history(get_db(), game.id)), message=message,
                   poll_etag=f'W/"{standings_etag(game, True)}"')
    template = "_standings.html" if ui.is_fragment() else "series.html"
    response = make_response(render_template(template, **context), status)
    response.headers["Vary"] = "HX-Request, HX-Boosted, Cookie, Accept-Language"
    response.headers["Cache-Control"] = "no-cache, private"
    return response


@bp.get("/series/<series_id>")
def show(series_id: str) -> Any:
    game = ui.load_or_404(series_id)
    etag = standings_etag(game, ui.is_fragment())
    if request.if_none_match.contains_weak(etag):
        response = make_response("", 304)
        response.set_etag(etag, weak=True)
        response.headers["Vary"] = "HX-Request, HX-Boosted, Cookie, Accept-Language"
        response.headers["Cache-Control"] = "no-cache, private"
        return response
    response = render_series(game)
    response.set_etag(etag, weak=True)
    ui.remember_recent(response, game.id)
    return response


@bp.errorhandler(404)
def not_found(error: Any) -> Any:
    return render_template("error.html", code=404), 404
