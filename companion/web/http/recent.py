"""The device's list of recent series: a plain cookie of series ids, newest first."""

from __future__ import annotations

from flask import Request, Response, request

RECENT_COOKIE = "recent"
RECENT_MAX = 6


def recent_ids(req: Request = request) -> list[str]:
    raw = req.cookies.get(RECENT_COOKIE, "")
    return [i for i in raw.split(".") if i and len(i) <= 20 and all(c.isalnum() or c in "-_" for c in i)][:RECENT_MAX]


def remember_recent(response: Response, series_id: str) -> None:
    """Put this series first in the device's list of recent series."""
    ids = recent_ids()
    if ids[:1] == [series_id]:
        return
    ids = [series_id] + [i for i in ids if i != series_id]
    response.set_cookie(RECENT_COOKIE, ".".join(ids[:RECENT_MAX]), max_age=365 * 86400, samesite="Lax",
                        secure=request.is_secure)
