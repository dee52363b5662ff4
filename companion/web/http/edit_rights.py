"""Who may change a series from a phone: the edit cookie the edit link sets, for that series only."""

from __future__ import annotations

from flask import Request, Response, abort, request

from companion.service.series import Series
from companion.storage.database import SeriesRow
from companion.web.http.pages import load_or_404

EDIT_COOKIE_DAYS = 400


def edit_cookie(series_id: str) -> str:
    return f"e_{series_id}"


def can_edit(series: Series) -> bool:
    """True when this phone holds the series' edit token (set by the edit link)."""
    return can_edit_row(series.row)


def can_edit_row(row: SeriesRow, req: Request = request) -> bool:
    """`can_edit` from the stored row alone (an idle poll never loads the rounds)."""
    token = req.cookies.get(edit_cookie(row.id))
    return bool(token) and row.token_matches(token or "")


def grant_edit(response: Response, series_id: str, token: str) -> None:
    """Remember the edit token on this phone, for this series only."""
    response.set_cookie(
        edit_cookie(series_id), token, max_age=EDIT_COOKIE_DAYS * 86400, path=f"/series/{series_id}",
        httponly=True, samesite="Lax", secure=request.is_secure,
    )


def editable_or_403(series_id: str) -> Series:
    """The series of a page's URL, if this phone may change it (else the 403 page)."""
    series = load_or_404(series_id)
    if not can_edit(series):
        abort(403)
    return series
