"""Conditional GET for the series views (JSON and HTML): the ETag is checked before anything is rendered."""

from __future__ import annotations

from collections.abc import Callable

from flask import Response, make_response, request


def conditional(etag: str, render: Callable[[], Response], *, weak: bool = False,
                headers: dict[str, str] | None = None) -> Response:
    """304 with no body when the client already holds `etag`; otherwise `render()` with the ETag set.

    `render` is only called when the client's copy is stale, so an idle poll costs
    no rendering. `headers` (Vary, Cache-Control) go on both answers.
    """
    matches = request.if_none_match.contains_weak(etag) if weak else request.if_none_match.contains(etag)
    response = make_response("", 304) if matches else render()
    response.set_etag(etag, weak=weak)
    for key, value in (headers or {}).items():
        response.headers[key] = value
    return response
