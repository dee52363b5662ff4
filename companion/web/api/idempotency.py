"""Idempotency-Key for writes (API header, or the round form's hidden field) and retried races.

A retried or double-tapped write with the same key records exactly one change
and gets the same answer: the key is stored in the write's own transaction,
and the answer right after it. The same key for a different request is a 422.

Without If-Match, a write that lost a race is retried on the fresh state until
it succeeds or a real conflict remains: an add always applies to the newest
state; an edit or a delete targets round n as the client saw it stored, so it
is retried only while that round is unchanged, and otherwise answered 409
naming the round.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from flask import Response, request

from companion.core.errors import N_
from companion.service import series as series_service
from companion.service.series import Series
from companion.storage import database as storage
from companion.storage.database import get_db
from companion.web.errors import ApiError

HEADER = "Idempotency-Key"
FORM_FIELD = "idempotency_key"
MAX_KEY_LENGTH = 200

Change = Callable[[Series, "int | None", "tuple[str, str] | None"], Series]


def key_from(value: str | None) -> str | None:
    """A key of visible ASCII, at most MAX_KEY_LENGTH long; None when absent; ApiError when malformed."""
    if value is None or value == "":
        return None
    if len(value) > MAX_KEY_LENGTH or not all("!" <= c <= "~" for c in value):
        raise ApiError(400, "bad-request", N_("Idempotency-Key must be 1 to %(max)s visible ASCII characters, "
                                              "such as a UUID."), max=MAX_KEY_LENGTH)
    return value


def request_hash(data: Any) -> str:
    canonical = json.dumps([request.method, request.path, data], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()


def earlier(series_id: str, key: str, digest: str) -> dict[str, Any] | None:
    """The stored write with this key (None if there is none); 422 when the key was used for another request."""
    found = storage.idempotent_answer(get_db(), series_id, key)
    if found is not None and found["request_hash"] != digest:
        raise ApiError(422, "idempotency-key-reused", N_("This Idempotency-Key was already used for a different "
                                                         "request. Send a new key for a new change."))
    return found


def replay(found: dict[str, Any], current: Callable[[], Response], status: int) -> Response:
    """The answer the first attempt got; if it is stored but not answered yet (a race of two sends of the
    same request), the current state with the status the first one is getting."""
    if found["body"] is not None:
        response = Response(found["body"], found["status"] or status, mimetype="application/json")
    else:
        response = current()
        response.status_code = status
    response.headers["Idempotent-Replayed"] = "true"
    return response


def remember(series_id: str, key: str | None, response: Response) -> Response:
    if key is not None:
        storage.record_answer(get_db(), series_id, key, response.status_code, response.get_data(as_text=True))
    return response


def apply(series: Series, change: Change, *, expected: int | None, key: tuple[str, str] | None,
          target: int | None = None) -> Series:
    """Apply `change`; without If-Match, retry on the fresh state while only other rounds moved."""
    seen = series_service.round_id(series, target)
    for _ in range(series_service.WRITE_ATTEMPTS):
        try:
            return change(series, expected, key)
        except series_service.VersionConflict as conflict:
            if expected is not None:
                raise
            fresh = conflict.series
            if not series_service.same_round(fresh, target, seen):
                raise series_service.VersionConflict(fresh, round_no=target) from None
            series = fresh
    raise series_service.VersionConflict(series)
