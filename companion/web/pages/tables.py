"""Tables: the API and the page of a table's series and statistics; house rules by short link.

`/tables/<id>` is the table's view link (read-only, for everyone); a phone
holding the edit cookie of one of the table's series opens the same page at
`/series/<series id>/table`, where it may also merge two spellings of a name
(the cookie is scoped to the series' path, so edit rights follow the series).
`/r/<code>` opens the start page with a table's house rules preselected.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, jsonify, request

from companion.core.errors import N_, RuleError
from companion.core.rules import OPTION_SPECS, get_ruleset
from companion.core.stats import PlayerStats, ranked
from companion.i18n import gettext, translate_error
from companion.service import house_rules, tables
from companion.service.series import Series
from companion.storage.database import get_db
from companion.web.api.request import bearer_token, created, json_object
from companion.web.errors import ApiError
from companion.web.http.conditional import conditional
from companion.web.http.edit_rights import can_edit
from companion.web.http.links import public_url, qr_svg
from companion.web.http.pages import load_or_404, page, see_other
from companion.web.present.cards import card_or_none, card_text
from companion.web.present.series_view import PALETTE

bp = Blueprint("tables", __name__)


# -- API -----------------------------------------------------------------------------


def load_table(table_id: str) -> tables.Table:
    table = tables.load(get_db(), table_id)
    if table is None:
        raise ApiError(404, "not-found", N_("There is no table “%(id)s”. Check the link."), id=table_id)
    return table


def authorize_table(table: tables.Table) -> None:
    token = bearer_token(
        N_("Changing a table needs the edit token of one of its series: send “Authorization: Bearer <edit_token>”.")
    )
    if not table.token_matches(token):
        raise ApiError(403, "forbidden", N_("This edit token belongs to no series of this table."))


@bp.get("/api/v1/tables/<table_id>")
def get_table(table_id: str) -> Any:
    table = load_table(table_id)
    return conditional(table.etag, lambda: jsonify(table.to_json()))


@bp.get("/api/v1/tables/<table_id>/export")
def export_table(table_id: str) -> Any:
    from companion.service import record

    table = load_table(table_id)
    document = record.export_table(get_db(), table, public_url("tables.show", table_id=table.id),
                                   lambda series_id: public_url("series.show", series_id=series_id))
    response = jsonify(document)
    if request.args.get("download"):
        first = table.series[0]
        name = record_filename(first.row.created_at, table.names())
        response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def record_filename(created_at: str, names: list[str]) -> str:
    from companion.ops.pdf import sheet_filename

    return sheet_filename(created_at, names, "table.json")


@bp.post("/api/v1/tables/import")
def import_table() -> Any:
    from companion.service import record
    from companion.web.pages.record import read_upload_json

    table_id, stored = record.import_table(get_db(), read_upload_json())
    body = {"table": load_table(table_id).to_json(),
            "series": [{"id": series.id, "edit_token": token} for series, token in stored]}
    return created(body, f"/api/v1/tables/{table_id}")


@bp.get("/api/v1/tables/<table_id>/merges")
def list_merges(table_id: str) -> Any:
    table = load_table(table_id)
    return {"id": table.id, "merges": [m.to_json() for m in table.merges]}


@bp.post("/api/v1/tables/<table_id>/merges")
def add_merge(table_id: str) -> Any:
    table = load_table(table_id)
    authorize_table(table)
    data = json_object()
    merged = tables.merge(get_db(), table, data.get("from"), data.get("into"))
    return created({"merge": merged.to_json(), "table": load_table(table_id).to_json()})


@bp.delete("/api/v1/tables/<table_id>/merges/<int:merge_id>")
def undo_merge(table_id: str, merge_id: int) -> Any:
    table = load_table(table_id)
    authorize_table(table)
    undone = tables.undo_merge(get_db(), table, merge_id)
    return {"merge": undone.to_json(), "table": load_table(table_id).to_json()}


# -- the table page ------------------------------------------------------------------


def chart(table: tables.Table, stats: list[PlayerStats], width: int = 340, height: int = 150) -> dict[str, Any]:
    """Series lost so far by each player, after each series of the table (SVG polylines, pixel coordinates)."""
    count = len(table.series)
    high = max([1] + [s.series_lost for s in stats])
    pad = 8

    def x(i: int) -> float:
        return round(pad + (width - 2 * pad) * i / max(1, count), 1)

    def y(v: int) -> float:
        return round(height - pad - (height - 2 * pad) * v / high, 1)

    lines = [
        {
            "name": s.name,
            "colour": PALETTE[i % len(PALETTE)],
            "points": " ".join(f"{x(k)},{y(v)}" for k, v in enumerate([0, *s.lost_by_series])),
        }
        for i, s in enumerate(stats)
    ]
    return {"width": width, "height": height, "lines": lines, "high": high, "top_y": y(high), "series": count}


def series_rows(table: tables.Table) -> list[dict[str, Any]]:
    rows = []
    for n, game in enumerate(table.series, start=1):
        st = game.standings
        rows.append(
            {
                "n": n,
                "id": game.id,
                "date": game.row.created_at[:10],
                "players": ", ".join(game.setup.players),
                "ruleset": gettext(game.setup.ruleset.name),
                "rounds": len(game.entries),
                "finished": st.finished,
                "losers": ", ".join(st.losers),
                "winner": st.winner,
            }
        )
    return rows


def render_table(table: tables.Table, editor: Series | None, error: str | None = None, status: int = 200) -> Any:
    stats = table.stats
    order = ranked(stats)
    colours = {s.name: PALETTE[i % len(PALETTE)] for i, s in enumerate(stats)}
    view_url = public_url("tables.show", table_id=table.id)
    latest = table.series[-1] if table.series else None
    context: dict[str, Any] = {
        "table": table,
        "stats": order,
        "colours": colours,
        "chart": chart(table, stats),
        "series": series_rows(table),
        "editor": editor,
        "error": error,
        "names": table.names(),
        "merges": list(reversed(table.merges)),
        "view_url": view_url,
        "view_qr": qr_svg(view_url),
        "rules": rules_share(latest) if latest else None,
        "loser": order[0] if order and order[0].series_lost else None,
        "hands": {s.name: " ".join(card_text(card_or_none(c)) for c in s.most_expensive_hand_cards) for s in stats},
    }
    return page("table.html", status, **context)


@bp.get("/tables/<table_id>")
def show(table_id: str) -> Any:
    table = tables.load(get_db(), table_id)
    if table is None:
        abort(404)
    return render_table(table, None)


def editor_table(series_id: str) -> tuple[tables.Table, Series]:
    game = load_or_404(series_id)
    table = tables.load(get_db(), game.row.table_id)
    if table is None:
        abort(404)
    return table, game


@bp.get("/series/<series_id>/table")
def show_for_editor(series_id: str) -> Any:
    table, game = editor_table(series_id)
    if not can_edit(game):
        return see_other("tables.show", table_id=table.id)
    return render_table(table, game)


@bp.post("/series/<series_id>/table/merge")
def merge_names(series_id: str) -> Any:
    table, game = editor_table(series_id)
    if not can_edit(game):
        abort(403)
    try:
        tables.merge(get_db(), table, request.form.get("from", ""), request.form.get("into", ""))
    except RuleError as error:
        return render_table(table, game, translate_error(error), 422)
    return see_other("tables.show_for_editor", series_id=game.id)


@bp.post("/series/<series_id>/table/merges/<int:merge_id>/undo")
def undo_merge_page(series_id: str, merge_id: int) -> Any:
    table, game = editor_table(series_id)
    if not can_edit(game):
        abort(403)
    try:
        tables.undo_merge(get_db(), table, merge_id)
    except RuleError as error:
        return render_table(table, game, translate_error(error), 422)
    return see_other("tables.show_for_editor", series_id=game.id)


# -- house rules -----------------------------------------------------------------------


def option_text(key: str, value: Any) -> str:
    """An option's value in words, as the start form names it (the core's choice labels)."""
    spec = next(s for s in OPTION_SPECS if s.key == key)
    if spec.kind == "bool":
        if spec.choice_labels:
            return str(gettext(spec.choice_labels[1 if value else 0]))
        return str(gettext("yes") if value else gettext("no"))
    if spec.kind == "choice" and spec.choice_labels and value in spec.choices:
        return str(gettext(spec.choice_labels[spec.choices.index(value)]))
    if key == "resets":
        return ", ".join(f"{old} → {new}" for old, new in value.items()) if value else str(gettext("none"))
    return str(value)


def rules_lines(rules: house_rules.HouseRules) -> list[tuple[str, str]]:
    """(label, value) of every option the table changed, in the start form's words."""
    return [
        (str(gettext(spec.label)), option_text(spec.key, rules.changes[spec.key]))
        for spec in OPTION_SPECS
        if spec.key in rules.changes
    ]


def series_rules_lines(series: Series) -> list[tuple[str, str]]:
    """The options a series changed from its rule set, in words (nothing stored)."""
    ruleset = get_ruleset(series.setup.ruleset.id)
    changes = house_rules.changed_options(ruleset, series.setup.options)
    return rules_lines(house_rules.HouseRules(house_rules.code_of(ruleset.id, changes), ruleset, changes))


def rules_share(game: Series) -> dict[str, Any]:
    """The short link and QR of a series' house rules, for the share and table pages."""
    rules = house_rules.share(get_db(), game.setup.ruleset, game.setup.options)
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
    form = StartForm(ruleset=rules.ruleset.id, options=house_rules.form_options(rules.ruleset, rules.options))
    return render_start(
        form,
        house_rules={
            "name": gettext(rules.ruleset.name),
            "id": rules.ruleset.id,
            "lines": rules_lines(rules),
        },
    )
