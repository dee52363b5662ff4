"""GET fall-backs: a page rendered after a POST links back to its own address (the language
switch does), so a GET there answers with the page it belongs to, not 405."""

from __future__ import annotations

from flask import Response

from companion.web.http.pages import see_other
from companion.web.pages.play import bp


@bp.get("/new")
def new_get() -> Response:
    return see_other("play.start")


@bp.get("/series/<series_id>/again")
@bp.get("/series/<series_id>/round/<int:n>/delete")
def back_to_series(series_id: str, n: int | None = None) -> Response:
    return see_other("series.show", series_id=series_id)
