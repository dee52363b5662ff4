"""Sharing a series: the edit link that gives a phone edit rights, and the share page with both QR codes."""

from __future__ import annotations

from flask import Response, abort, request

from companion.service.series import Series
from companion.web.http.edit_rights import edit_cookie, editable_or_403, grant_edit
from companion.web.http.links import public_url, qr_svg
from companion.web.http.pages import load_or_404, page, see_other
from companion.web.http.recent import remember_recent
from companion.web.pages.play import bp


def as_editor(response: Response, series: Series, token: str) -> Response:
    """Give this phone the series' edit rights and list it among its recent series."""
    grant_edit(response, series.id, token)
    remember_recent(response, series.id)
    return response


@bp.get("/series/<series_id>/edit")
def claim(series_id: str) -> Response:
    """The edit link: remember its token on this phone, then show the series."""
    series = load_or_404(series_id)
    token = request.args.get("token", "")
    if not token or not series.row.token_matches(token):
        abort(403)
    return as_editor(see_other("series.show", series_id=series.id), series, token)


@bp.get("/series/<series_id>/share")
def share(series_id: str) -> Response:
    series = editable_or_403(series_id)
    return share_page(series, request.cookies[edit_cookie(series.id)])


def share_page(series: Series, token: str, status: int = 200, roster_error: str | None = None) -> Response:
    view_url = public_url("series.show", series_id=series.id)
    edit_url = public_url("play.claim", series_id=series.id, token=token)
    from companion.service.roster import default_total
    from companion.web.pages.seat import seat_links
    from companion.web.pages.tables import rules_share

    return page("share.html", status, series=series, roster_error=roster_error,
                default_total=None if series.standings.finished else default_total(series),
                view_url=view_url, edit_url=edit_url,
                view_qr=qr_svg(view_url), edit_qr=qr_svg(edit_url), rules=rules_share(series),
                seats=[] if series.standings.finished else seat_links(series, token))
