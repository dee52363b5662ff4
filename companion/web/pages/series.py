"""The series page everyone can open: standings, history, chart; it follows the table by polling.

`/series/<id>` is read-only for everyone; a phone holding the edit cookie also
sees the buttons that lead to the scorekeeper's forms. Polls are conditional
GETs: the ETag is the series version, the language and the kind of answer, so
an idle phone gets 304 and no body.
"""

from __future__ import annotations

import sqlite_utils
from flask import Blueprint, Request, Response, abort, make_response, request

from companion.i18n import select_language
from companion.service.series import Series
from companion.storage.database import SeriesRow, get_db, load_series, round_history
from companion.web.http.conditional import Validator
from companion.web.http.edit_rights import can_edit, can_edit_row
from companion.web.http.memory import RowMemo, app_cache
from companion.web.http.pages import is_fragment, load_or_404, page
from companion.web.http.recent import recent_ids, remember_recent
from companion.web.present.restore import restore_effect
from companion.web.present.series_view import history_view, series_view

bp = Blueprint("series", __name__)

SERIES_HEADERS = {"Vary": "HX-Request, HX-Boosted, Cookie, Accept-Language", "Cache-Control": "no-cache, private"}
# Rendered reader fragments by (series, ETag): after a save, a table's watchers share one render. The ETag
# already names everything the fragment depends on, so the rule that answers a poll 304 lets its bytes be reused.
FRAGMENT_CACHE_SIZE = 1024


def standings_etag(row: SeriesRow, fragment: bool, req: Request = request) -> str:
    """Series version, language, editor or reader, fragment or page: what the answer depends on.

    Made from the stored row alone, so an idle poll is answered 304 without loading or replaying the rounds."""
    editor = can_edit_row(row, req)
    return f"v{row.stamp}-{select_language(req)}-{'e' if editor else 'r'}-{'f' if fragment else 'p'}"


def standings_validator(row: SeriesRow, req: Request = request) -> Validator:
    """The ETag and headers of `/series/<id>` as `req` asks for it (the page, or the fragment a poll gets)."""
    etag = standings_etag(row, is_fragment(req), req) + ("-u" if req.args.get("saved") else "")  # the undo offer
    return Validator(etag, weak=True, headers=SERIES_HEADERS)


# Stored rows the idle-poll path has read, by what its validator reads of them (see `idle_poll`)
_POLLED_ROWS: RowMemo[tuple[str, int, int, str], SeriesRow] = RowMemo(8192)


def idle_poll(db: sqlite_utils.Database, series_id: str, req: Request) -> Validator | None:
    """`standings_validator` of a stored series (None: no such series), for the idle-poll path (`fast_poll`).

    The validator reads three columns of the row (version and marks: the stamp; the edit token's hash: the
    rights), so those are read first, by one plain query; the whole row is loaded only when one of them
    changed since this process last saw it (a save, a confirmation, a new edit link)."""
    found = db.conn.execute("select version, marks, edit_token_hash from series where id = ?",
                            [series_id]).fetchone()
    if found is None:
        return None
    key = (series_id, int(found[0]), int(found[1] or 0), str(found[2]))
    row = _POLLED_ROWS.get(key)
    if row is None:
        row = load_series(db, series_id, with_rounds=False)
        if row is None:
            return None
        if (row.id, row.version, row.marks, row.edit_token_hash) == key:  # not written in between
            _POLLED_ROWS.put(key, row)
    return standings_validator(row, req)


def shared_slot(series_id: str, validator: Validator, req: Request) -> tuple[str, ...] | None:
    """Where the idle-poll layer keeps this request's 200 answer for every process (`shared_answers`), or None
    when the answer is not the same for every request holding the same ETag.

    Shared: a reader's fragment (no edit buttons), asked without a query string (?saved offers the undo),
    from a device whose list of recent series already starts with this one (else the answer sets that
    cookie). The slot is the ETag without its version (language, reader, fragment) and gzip or not; the
    full ETag is kept with the answer, so a new round makes the kept answer a miss."""
    if not validator.etag.endswith("-r-f") or req.query_string or recent_ids(req)[:1] != [series_id]:
        return None
    _version, _, rest = validator.etag.partition("-")
    return ("series.show", series_id, rest, "gzip" if "gzip" in req.headers.get("Accept-Encoding", "") else "")


def render_series(series: Series, status: int = 200, message: str | None = None) -> Response:
    # The poll sends the ETag of the fragment it would get, so even the first poll after a page load is a 304.
    template = "_standings.html" if is_fragment() else "series.html"
    editor = can_edit(series)
    # Just saved from this phone (?saved=<version> and nothing changed since): offer to undo that round.
    just_saved = request.args.get("saved") == str(series.version) and editor and bool(series.entries)
    changes = round_history(get_db(), series.id)
    history = history_view(changes)
    # «Bring round N back» asks first, naming what it changes (an editor's button only)
    restores = {h["change"]: restore_effect(series, changes[h["change"] - 1]) for h in history
                if editor and h["restorable"]}
    response = page(
        template, status, vary=SERIES_HEADERS["Vary"],
        series=series, standings=series.standings, view=series_view(series), editor=editor,
        undo=len(series.entries) if just_saved and not is_fragment() else None,
        history=history, restores=restores, message=message,
        poll_etag=f'W/"{standings_etag(series.row, True)}"',
    )
    response.headers.update(SERIES_HEADERS)
    return response


@bp.get("/series/<series_id>")
def show(series_id: str) -> Response:
    row = load_series(get_db(), series_id, with_rounds=False)  # one small query; the rounds only if rendering
    if row is None:
        abort(404)

    validator = standings_validator(row)
    etag = validator.etag
    # Readers' polls: every watcher of a table asks for the same fragment after a save; render it once.
    shared = is_fragment() and not can_edit_row(row) and not request.args.get("saved")

    def render() -> Response:
        cached = app_cache("series_fragments", FRAGMENT_CACHE_SIZE).get((series_id, etag)) if shared else None
        if cached is not None:
            response = make_response(cached)
            response.headers.update(SERIES_HEADERS)
        else:
            response = render_series(load_or_404(series_id))
            if shared and response.status_code == 200:
                app_cache("series_fragments", FRAGMENT_CACHE_SIZE).put((series_id, etag), response.get_data())
        remember_recent(response, series_id)
        return response

    return validator.answer(render)
