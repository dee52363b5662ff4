"""Idle polls answered before Flask: a conditional GET whose ETag the client already holds gets its 304 here.

Most requests a table makes are idle polls (the standings fragment every 4 s from each phone, the
draft every second while a round is entered), and Flask's full request path — request context,
session, routing, hooks, response conversion — is most of what such a 304 costs. This WSGI layer
sits in front of the Flask app (inside ProxyFix, so it sees the client's address as Flask does)
and answers exactly those polls:

- a GET without a query string, with If-None-Match, to a view listed in `web.idle_polls()`
  (its URL rule comes from the app's own URL map), on a host the app serves (Flask's
  TRUSTED_HOSTS, the app's SERVED_HOSTS) and with no rate limit on that view;
- the ETag comes from the view module's own validator function (`series.idle_poll`,
  `seats.idle_draft_poll`): the same function the Flask view answers with, read from the
  stored row with the same request parsing (the app's request class);
- the 304 carries what Flask's 304 carries: the validator's ETag and headers, the security
  headers (`security.add_secure_headers`) and the same request-log line (`security.log_answer`).

A stale ETag on a view listed in `web.shared_slots()` (a reader's standings fragment after a save) is
answered from the 200 Flask made for the same slot and ETag, in this process or another
(`shared_answers`), or goes to Flask, whose answer is then kept for the table's other phones.
Anything else — an unknown series, an answer that differs per phone, an error — goes to Flask unchanged.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Any

import sqlite_utils
from flask import Flask, Request
from werkzeug.exceptions import SecurityError
from werkzeug.http import unquote_etag
from werkzeug.wsgi import get_host

from companion.ops import security
from companion.storage.database import connection
from companion.web.http import live, shared_answers
from companion.web.http.conditional import Validator

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

# A view's validator from the stored data: (database, series id of the URL, request) → None for no such series
IdlePoll = Callable[[sqlite_utils.Database, str, Request], Validator | None]
# Where a view's 200 answer is kept for every process: (series id of the URL, validator, request) → slot or None
SharedSlot = Callable[[str, Validator, Request], Hashable | None]


@dataclass(frozen=True)
class Route:
    endpoint: str
    path: re.Pattern[str]
    poll: IdlePoll


def rule_pattern(rule: str) -> re.Pattern[str]:
    """The regular expression of a URL rule whose variables are plain strings (`/series/<series_id>`);
    a variable with a converter (`<int:n>`) stays literal text, so such a rule never matches here."""
    parts = re.split(r"<([a-z_]+)>", rule)
    return re.compile("".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>[^/]+)" for i, p in enumerate(parts)))


class FastPoll:
    """The WSGI app in front of `app.wsgi_app`; `answered` counts the polls it answered itself with a 304,
    `replayed` those it answered with a kept 200 (for tests and benchmarks; not locked, so under threads they
    may miss a count)."""

    def __init__(self, app: Flask, polls: Mapping[str, IdlePoll], shared: Mapping[str, SharedSlot] | None = None,
                 ) -> None:
        self.app = app
        self.inner: WSGIApplication = app.wsgi_app
        self.polls = dict(polls)
        self.shared_slots = dict(shared or {})
        self.answers = shared_answers.init_app(app) if self.shared_slots else None
        self.answered = 0
        self.replayed = 0

    @cached_property
    def routes(self) -> list[Route]:
        """Made at the first request: the rate limits are put on the views after this layer is built."""
        found = []
        for rule in self.app.url_map.iter_rules():
            poll = self.polls.get(rule.endpoint)
            if poll is not None and "GET" in (rule.methods or ()) and security.unlimited(self.app, rule.rule, "GET"):
                found.append(Route(rule.endpoint, rule_pattern(rule.rule), poll))
        return found

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") == "GET" and "HTTP_IF_NONE_MATCH" in environ and not environ.get(
                "QUERY_STRING") and self.app.config.get("FAST_POLL", True):
            started = time.perf_counter()
            polled = self.poll(environ)
            if polled is not None:
                route, series_id, req, validator = polled
                if validator.held_by(req):
                    status, headers = finished_304(route.endpoint, validator.etag, validator.weak,
                                                   tuple(validator.headers.items()), live.page_csp(self.app, req))
                    security.log_answer(req, 304, started)
                    self.answered += 1
                    start_response(status, list(headers))
                    return []
                return self.shared(route, series_id, req, validator, started, environ, start_response)
        return self.inner(environ, start_response)

    def poll(self, environ: WSGIEnvironment) -> tuple[Route, str, Request, Validator] | None:
        """The route, series id, request and current validator of a poll the layer may answer, or None."""
        path = environ.get("PATH_INFO", "")
        route, found = next(((r, m) for r in self.routes if (m := r.path.fullmatch(path))), (None, None))
        if route is None or found is None or self.app.config.get("SERVER_NAME"):
            return None
        try:  # the host checks Flask makes (TRUSTED_HOSTS) and the app's own (SERVED_HOSTS)
            host = get_host(environ, self.app.config.get("TRUSTED_HOSTS"))
        except SecurityError:
            return None
        if not security.host_served(host, self.app.config.get("SERVED_HOSTS")):
            return None
        req = self.app.request_class(environ, populate_request=False)
        try:
            validator = route.poll(connection(self.app), found["series_id"], req)
        except Exception:  # noqa: BLE001  # a storage or data error: Flask answers it its own way
            return None
        if validator is None:
            return None
        return route, found["series_id"], req, validator

    def shared(self, route: Route, series_id: str, req: Request, validator: Validator, started: float,
               environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        """A poll whose answer changed: the 200 another process (or this one) already made for the same slot
        and ETag (`shared_answers`), or Flask's, kept for the next phones when it may be shared."""
        slotted = self.shared_slots.get(route.endpoint)
        slot = slotted(series_id, validator, req) if slotted is not None and self.answers is not None else None
        if slot is None or self.answers is None:
            return self.inner(environ, start_response)
        kept = self.answers.get(slot, validator.etag)
        if kept is None:
            with self.answers.making(slot):  # the table's other phones, asking in the same instant, wait for it
                kept = self.answers.get(slot, validator.etag)
                if kept is None:
                    return self.keep(slot, validator, environ, start_response)
        status, headers, body = kept
        start_response(status, headers)
        security.log_answer(req, int(status.split(" ", 1)[0]), started)
        self.replayed += 1
        return [body]

    def keep(self, slot: Hashable, validator: Validator, environ: WSGIEnvironment,
             start_response: StartResponse) -> Iterable[bytes]:
        """Flask's answer, kept in `slot` for the next phones when it may be shared."""
        assert self.answers is not None
        made: list[Any] = []

        def keeping(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            made[:] = [status, list(headers)]
            return start_response(status, headers, exc_info)

        answer = self.inner(environ, keeping)
        try:
            body = b"".join(answer)
        finally:
            if hasattr(answer, "close"):
                answer.close()
        if made and made[0].startswith("200 ") and not any(k.lower() == "set-cookie" for k, _ in made[1]):
            etag = next((v for k, v in made[1] if k.lower() == "etag"), None)
            # made from the same version (a save in between would be another); gzip may have made it weak
            if etag is not None and unquote_etag(etag)[0] == validator.etag:
                self.answers.put(slot, validator.etag, (made[0], made[1], body))
        return [body]


@lru_cache(maxsize=4096)
def finished_304(endpoint: str, etag: str, weak: bool, headers: tuple[tuple[str, str], ...],
                 csp: str | None = None) -> tuple[str, tuple[tuple[str, str], ...]]:
    """The status line and headers Flask's 304 goes out with (the validator's headers, the security
    headers with the page's own policy `csp` where it connects to the events server, `live.after_write`,
    werkzeug's finishing), made by the same code, once per validator: they depend on nothing else."""
    response = Validator(etag, weak, dict(headers)).not_modified()
    if csp:
        response.headers["Content-Security-Policy"] = csp
    response = security.add_secure_headers(response, endpoint)
    _body, status, finished = response.get_wsgi_response({"REQUEST_METHOD": "GET"})
    return status, tuple(finished)


def init_app(app: Flask, polls: Mapping[str, IdlePoll], shared: Mapping[str, SharedSlot] | None = None) -> FastPoll:
    """Put the idle-poll layer in front of the app (before ProxyFix is put around it)."""
    layer = FastPoll(app, polls, shared)
    app.wsgi_app = layer  # type: ignore[method-assign]
    app.extensions["companion.fast_poll"] = layer
    return layer
