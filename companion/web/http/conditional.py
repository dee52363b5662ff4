"""Conditional GET for the series views (JSON and HTML): the ETag is checked before anything is rendered."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from flask import Request, Response, request


@dataclass(frozen=True)
class Validator:
    """What a conditional GET is answered by: its ETag (weak or strong) and the headers both answers carry
    (Vary, Cache-Control). The Flask view and the idle-poll path (`fast_poll`) use the same one."""

    etag: str
    weak: bool = False
    headers: Mapping[str, str] = field(default_factory=dict)

    @property
    def quoted(self) -> str:
        """The ETag header's value, as `finish` sets it."""
        return f'W/"{self.etag}"' if self.weak else f'"{self.etag}"'

    def held_by(self, req: Request = request) -> bool:
        """The client already holds this answer (its If-None-Match names the ETag).

        If-None-Match compares weakly (RFC 9110, 13.1.2), also for a strong ETag: gzip turns the ETag of a
        large enough answer weak (`shell.compress`), and the client sends back what it got (W/"…")."""
        return req.if_none_match.contains_weak(self.etag)

    def finish(self, response: Response) -> Response:
        response.set_etag(self.etag, weak=self.weak)
        for key, value in self.headers.items():
            response.headers[key] = value
        return response

    def not_modified(self) -> Response:
        """304 with no body."""
        return self.finish(Response("", 304))

    def answer(self, render: Callable[[], Response]) -> Response:
        """304 when the client already holds it; otherwise `render()` (only then) with the ETag set."""
        return self.not_modified() if self.held_by() else self.finish(render())


def conditional(etag: str, render: Callable[[], Response], *, weak: bool = False,
                headers: dict[str, str] | None = None) -> Response:
    """304 with no body when the client already holds `etag`; otherwise `render()` with the ETag set.

    `render` is only called when the client's copy is stale, so an idle poll costs
    no rendering. `headers` (Vary, Cache-Control) go on both answers.
    """
    return Validator(etag, weak, headers or {}).answer(render)
