"""The health check, and what the app answers when its storage fails (disk full, read-only, damaged).

`GET /api/v1/health` reads the database and its migration level and says
whether the last write failed; any problem is a 503, so a load balancer or
systemd watchdog takes the instance out. It costs one query: the count of
series and the schema's version, read from the file every time; the applied
migrations are read again only when that version moved (a migration changes
the schema: a newer app upgrading the file, an older file put back). A request whose write the storage
refuses gets 503 in the user's language: the transaction was rolled back, so
nothing is half-written and nothing acknowledged before is lost.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, request

from companion.i18n import gettext
from companion.storage import database as storage
from companion.web.errors import answer

bp = Blueprint("health", __name__, url_prefix="/api/v1")

MIN_FREE_BYTES = 1_000_000  # below this, the next rounds may not fit
RETRY_AFTER_SECONDS = 30


class AppliedMigrations:
    """The applied migrations by schema version: read once per version of the schema, per process."""

    def __init__(self) -> None:
        self.schema_version: int | None = None
        self.applied: list[str] = []

    def get(self, db: Any, schema_version: int) -> list[str]:
        if schema_version != self.schema_version:
            applied = storage.applied_migrations(db)
            self.schema_version, self.applied = schema_version, applied
        return self.applied


def _problems() -> tuple[list[str], dict[str, Any]]:
    problems: list[str] = []
    facts: dict[str, Any] = {}
    try:
        db = storage.get_db()
        facts["series"], schema_version = db.execute(
            "select count(*), (select schema_version from pragma_schema_version) from series").fetchone()
        applied = current_app.extensions["companion.migrations"].get(db, schema_version)
    except sqlite3.Error as error:
        return [f"database unreadable: {error}"], facts
    expected = storage.migration_names()
    facts["migration"] = applied[-1] if applied else None
    facts["migrations"] = {"applied": len(applied), "expected": len(expected)}
    if applied != expected:
        problems.append("database migrations differ from this version's: run `companion init-db`")
    failure = storage.last_write_failure(current_app)
    if failure:
        problems.append(f"the last write failed: {failure}")
    path = current_app.config["DATABASE"]
    if path != ":memory:" and Path(path).parent.exists():
        free = shutil.disk_usage(Path(path).parent).free
        facts["free_bytes"] = free
        if free < MIN_FREE_BYTES:
            problems.append(f"the disk is nearly full ({free} bytes free)")
    return problems, facts


@bp.get("/health")
def health() -> Any:
    """{"status": "ok", ...} with the database's migration level, or 503 with the problems."""
    problems, facts = _problems()
    body = {"status": "fail" if problems else "ok", "database": facts, "problems": problems}
    response = jsonify(body)
    response.headers["Cache-Control"] = "no-store"
    if problems:
        response.status_code = 503
        response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def storage_failed(error: sqlite3.DatabaseError) -> Response:
    """A write (or read) the storage refused: 503, nothing stored, in the user's language."""
    storage.note_write_failure(current_app, str(error))
    current_app.logger.error("storage failure on %s %s: %s", request.method, request.path, error)
    text = str(error).lower()
    if "full" in text:
        message = gettext("The server's disk is full, so nothing was saved. Tell whoever runs the app; "
                          "everything saved before is kept.")
    elif "readonly" in text or "read-only" in text:
        message = gettext("The server's database is read-only just now, so nothing was saved. Tell whoever "
                          "runs the app; everything saved before is kept.")
    else:
        message = gettext("The server could not reach its database, so nothing was saved. Try again in a "
                          "minute; everything saved before is kept.")
    response = answer(503, "storage-unavailable", message, title=gettext("Not saved"))
    response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def init_app(app: Flask) -> None:
    app.extensions["companion.migrations"] = AppliedMigrations()
    app.register_blueprint(bp)
    app.register_error_handler(sqlite3.DatabaseError, storage_failed)
