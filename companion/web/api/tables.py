"""Tables in the JSON API v1: a table's statistics, its file (export, import) and its name merges."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, request

from companion.core.errors import N_
from companion.service import tables
from companion.storage.database import get_db
from companion.web.api.request import bearer_token, created, json_object
from companion.web.errors import ApiError
from companion.web.http.conditional import conditional
from companion.web.http.links import public_url

bp = Blueprint("tables_api", __name__)


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
    """The table's statistics; `?period=month|year|all` counts only the series started this month or year."""
    period = tables.check_period(request.args.get("period"))
    table = load_table(table_id)
    day = tables.today()
    return conditional(table.etag(period, day), lambda: jsonify(table.to_json(period, day)))


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
    from companion.web.api.record import read_upload_json

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
