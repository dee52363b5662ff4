"""Tables: the page of a table's series and statistics; house rules by short link (the API: `web/api/tables.py`).

`/tables/<id>` is the table's view link (read-only, for everyone); a phone
holding the edit cookie of one of the table's series opens the same page at
`/series/<series id>/table`, where it may also merge two spellings of a name
(the cookie is scoped to the series' path, so edit rights follow the series).
`/r/<code>` opens the start page with a table's house rules preselected.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, current_app, render_template, request

from companion.core.errors import RuleError
from companion.core.stats import rivals
from companion.i18n import current_language, gettext, translate_error
from companion.service import house_rules, tables
from companion.service.series import Series
from companion.storage.database import get_db
from companion.web.errors import answer
from companion.web.http.edit_rights import can_edit
from companion.web.http.links import public_url, qr_png, qr_svg
from companion.web.http.pages import load_or_404, page, see_other
from companion.web.http.recent import recent_ids
from companion.web.present.numbers import zone_key
from companion.web.present.rules_text import form_options, rules_lines
from companion.web.present.series_view import PALETTE
from companion.web.present.table_view import pairs, rival_line, table_view

bp = Blueprint("tables", __name__)


# -- the table page ------------------------------------------------------------------


def series_rows(table: tables.Table) -> list[dict[str, Any]]:
    rows = []
    for n, played in enumerate(table.series, start=1):
        st = played.standings
        rows.append(
            {
                "n": n,
                "id": played.id,
                "date": played.row.created_at,  # the page prints it as a date of the table's zone
                "players": ", ".join(played.setup.players),
                "ruleset": gettext(played.setup.ruleset.name),
                "rounds": len(played.entries),
                "finished": st.finished,
                "losers": ", ".join(st.losers),
                "winner": st.winner,
            }
        )
    return rows


def render_table(table: tables.Table, editor: Series | None, error: str | None = None, status: int = 200) -> Any:
    try:
        period = tables.check_period(request.args.get("period"))
    except RuleError as refused:
        period, error, status = "all", translate_error(refused), 400
    numbers = tables.statistics(table, period)
    view_url = public_url("tables.show", table_id=table.id)
    latest = table.series[-1] if table.series else None
    context: dict[str, Any] = {
        **table_view(table, numbers),
        "table": table,
        "series": series_rows(table),
        "editor": editor,
        "error": error,
        "names": table.names(),
        "names_elsewhere": names_elsewhere(table) if editor else [],
        "merges": list(reversed(table.merges)),
        "view_url": view_url,
        "view_qr": qr_svg(view_url),
        "rules": rules_share(latest) if latest else None,
        "here": "tables.show_for_editor" if editor else "tables.show",
        "here_args": {"series_id": editor.id} if editor else {"table_id": table.id},
    }
    return page("table.html", status, **context)


@bp.get("/tables/<table_id>")
def show(table_id: str) -> Any:
    table = tables.load(get_db(), table_id)
    if table is None:
        abort(404)
    return render_table(table, None)


def editor_table(series_id: str) -> tuple[tables.Table, Series]:
    series = load_or_404(series_id)
    table = tables.load(get_db(), series.row.table_id)
    if table is None:
        abort(404)
    return table, series


@bp.get("/series/<series_id>/table")
def show_for_editor(series_id: str) -> Any:
    table, series = editor_table(series_id)
    if not can_edit(series):
        return see_other("tables.show", table_id=table.id)
    return render_table(table, series)


@bp.post("/series/<series_id>/table/merge")
def merge_names(series_id: str) -> Any:
    table, series = editor_table(series_id)
    if not can_edit(series):
        abort(403)
    try:
        tables.merge(get_db(), table, request.form.get("from", ""), request.form.get("into", ""),
                     elsewhere=names_elsewhere(table))
    except RuleError as error:
        return render_table(table, series, translate_error(error), 422)
    return see_other("tables.show_for_editor", series_id=series.id)


@bp.post("/series/<series_id>/table/merges/<int:merge_id>/undo")
def undo_merge_page(series_id: str, merge_id: int) -> Any:
    table, series = editor_table(series_id)
    if not can_edit(series):
        abort(403)
    try:
        tables.undo_merge(get_db(), table, merge_id)
    except RuleError as error:
        return render_table(table, series, translate_error(error), 422)
    return see_other("tables.show_for_editor", series_id=series.id)


def names_elsewhere(table: tables.Table) -> list[str]:
    """The players of this phone's other tables (its recent list), as a merge may name them."""
    others = [t for t in tables.tables_of(get_db(), recent_ids()) if t.id != table.id]
    own = set(table.names())
    return [n for n in tables.people(others) if n not in own]


@bp.get("/tables/<table_id>/stats.pdf")
def stats_pdf(table_id: str) -> Any:
    """«Статистика стола»: the table page's statistics (of `?period=`) as a PDF page, cached per table state."""
    from companion.ops import pdf
    from companion.web.pages.export import SHEET_CSS, compact

    table = tables.load(get_db(), table_id)
    if table is None:
        abort(404)
    try:
        period = tables.check_period(request.args.get("period"))
    except RuleError as refused:
        return answer(400, refused.code, translate_error(refused))
    numbers = tables.statistics(table, period)
    view_url = public_url("tables.show", table_id=table.id)

    def render() -> bytes:
        html = render_template("table_sheet.html", **table_view(table, numbers), table=table, series=series_rows(table),
                               view_url=view_url, made=tables.today().strftime("%d.%m.%Y"))
        return pdf.html_to_pdf(compact(html), current_app.static_folder or "static", SHEET_CSS,
                               {"qr.png": ("image/png", qr_png(view_url))})  # static/scoresheet.css: `.qr`

    renderer: pdf.Renderer = current_app.extensions["companion.pdf"]
    key = ("table", table.etag(period), current_language(), request.host_url, zone_key())  # dates of the zone
    try:
        data = renderer.get_or_render(key, render)
    except pdf.RenderBusy:
        response = answer(503, "busy",
                          gettext("Many scoresheets are being prepared right now. Try again in a few seconds."))
        response.headers["Retry-After"] = str(pdf.RETRY_AFTER_SECONDS)
        return response
    first = table.series[0].row.created_at if table.series else table.created_at
    response = Response(data, mimetype="application/pdf")
    name = pdf.sheet_filename(first, table.names(), "pdf").replace("sto-odno-", "sto-odno-stol-", 1)
    response.headers["Content-Disposition"] = f'inline; filename="{name}"'
    response.headers["Vary"] = "Accept-Language, Cookie"
    return response


# -- one person across the phone's tables -------------------------------------------------


@bp.get("/players/<name>")
def person_page(name: str) -> Any:
    """One player across the tables this phone keeps (its recent list): each table, and all together.

    `?table=<id>`: the table page the name was tapped on counts too, kept by the phone or not."""
    recent = recent_ids()
    kept = tables.tables_of(get_db(), recent)
    here = tables.load(get_db(), request.args.get("table", "")) if request.args.get("table") else None
    if here is not None and all(t.id != here.id for t in kept):
        kept.insert(0, here)
    found = tables.person(kept, name)
    if found.combined is None:
        abort(404)
    colours = {n: PALETTE[i % len(PALETTE)] for i, n in enumerate(found.head_to_head)}
    mine = [p for p in pairs(found.head_to_head) if name in (p.first, p.second)]
    return page("person.html", person=found, stats=found.combined, pairs=mine, colours=colours,
                rival=rival_line(rivals(found.head_to_head, name)),
                # The edit cookie is sent to the series' own pages only: link there; without it the page is read-only.
                editable=[(t, next(g.id for g in t.series if g.id in recent)) for t in kept
                          if any(g.id in recent for g in t.series)])


# -- house rules -----------------------------------------------------------------------


def rules_share(series: Series) -> dict[str, Any]:
    """The short link and QR of a series' house rules, for the share and table pages."""
    rules = house_rules.share(get_db(), series.setup.ruleset, series.setup.options)
    url = public_url("tables.house_rules_link", code=rules.code)
    return {"url": url, "qr": qr_svg(url), "lines": rules_lines(rules), "code": rules.code}


@bp.get("/r/<code>")
def house_rules_link(code: str) -> Any:
    """The short link of house rules: the start page with them chosen, and their card shown."""
    from companion.web.pages.play.start import render_start
    from companion.web.pages.play.start_form import StartForm

    rules = house_rules.load(get_db(), code) if len(code) <= 16 else None
    if rules is None:
        abort(404)
    form = StartForm(ruleset=rules.ruleset.id, options=form_options(rules.ruleset, rules.options))
    return render_start(
        form,
        house_rules={
            "name": gettext(rules.ruleset.name),
            "id": rules.ruleset.id,
            "lines": rules_lines(rules),
        },
    )
