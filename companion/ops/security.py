"""What keeps the app safe to leave running: headers, forged-write check, trusted hosts, rate limits, request log.

- Every response carries a Content-Security-Policy without 'unsafe-inline' or
  'unsafe-eval' (scripts and styles come only from /static/), nosniff, a
  Referrer-Policy, and frame-ancestors 'none'.
- Forged writes (CSRF): a browser write must come from a page of this very
  origin. We check the `Sec-Fetch-Site` header that every current browser
  sends (and, for older ones, `Origin`) instead of form tokens: it covers the
  plain forms and htmx posts alike without a token in every template, keeps
  working on pages restored from the back-forward cache, and refuses exactly
  the attack at hand — another service on the same host (same site, other
  port) posting with the editor's cookie, which SameSite=Lax does not stop.
  The JSON API is exempt: it never reads cookies, only `Authorization: Bearer`.
- Rate limits per client address (Flask-Limiter; counters in a SQLite file
  beside the database that every worker process shares, `rate_limits`, unless
  RATELIMIT_STORAGE_URI says otherwise) on series writes, series creation,
  PDF and search; a refusal is 429 with a Retry-After header. Limits are off
  under TESTING unless RATELIMIT_ENABLED is set.
- One log line per request without secrets: the edit token in `?token=` is
  replaced by `…` and no header is logged; control characters are escaped
  and the path is cut at LOG_PATH_MAX characters (`log_safe`).
"""

from __future__ import annotations

import ipaddress
import logging
import math
import re
import time
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, Request, Response, abort, current_app, g, request
from flask_limiter import Limiter
from flask_limiter.errors import RateLimitExceeded
from flask_limiter.util import get_remote_address

from companion.i18n import gettext
from companion.ops import rate_limits
from companion.storage.database import shared_folder

CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})

# Limits per client address, in Flask-Limiter's notation; an instance config.py may change them.
DEFAULT_LIMITS = {
    "RATELIMIT_WRITES": "120 per minute",  # rounds added, changed, removed (a table saves ~2 a minute)
    "RATELIMIT_CREATE": "60 per hour",  # new series
    "RATELIMIT_PDF": "10 per minute",  # scoresheet PDFs
    "RATELIMIT_SEARCH": "120 per minute",  # FAQ search
}

# Pages whose address or content carries an edit token: never leak it in a Referer.
TOKEN_ENDPOINT_SUFFIXES = (".share", ".claim")

log = logging.getLogger("companion.requests")


class ForgedWrite(Exception):
    """A write that a page of another origin (or site) tried to make in the user's name (answered 403).

    Not an HTTPException: the pages' own 403 handler ("this phone can only view") must not catch it."""


# -- forged writes --------------------------------------------------------------


def _same_origin(origin: str) -> bool:
    parts = urlsplit(origin)
    return bool(parts.scheme) and parts.netloc.lower() == request.host.lower() and parts.scheme == request.scheme


def check_origin() -> None:
    """Refuse a browser write that does not come from this origin (see the module docstring)."""
    if request.method not in UNSAFE_METHODS or request.path.startswith("/api/"):
        return
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None:
        if site in ("same-origin", "none"):  # "none": typed by the user, not sent by a page
            return
        raise ForgedWrite()
    origin = request.headers.get("Origin")
    if origin is not None and not _same_origin(origin):
        raise ForgedWrite()
    # Neither header: not a browser (curl, a script); it cannot carry someone else's cookie.


# -- host names -------------------------------------------------------------------


def check_host() -> None:
    """Refuse a Host that is neither an IP address nor a name the app is served on (SERVED_HOSTS)."""
    if not host_served(request.host, current_app.config.get("SERVED_HOSTS")):
        abort(400)


def host_served(host: str, served: Iterable[str] | None) -> bool:
    """`host` (a Host header) is an IP address or one of `served` (no list: every host is).

    DNS rebinding needs a host name of the attacker's, so IP addresses pass; names must be listed."""
    if not served:
        return True
    name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    if name.startswith("[") and "]" in name:
        name = name[1:name.index("]")]
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        pass
    return name.lower() in {h.strip("[]").lower() for h in served}


# -- headers --------------------------------------------------------------------


def secure_headers(response: Response) -> Response:
    return add_secure_headers(response, request.endpoint or "")


def add_secure_headers(response: Response, endpoint: str) -> Response:
    """The headers every answer carries; `endpoint` says whether the page may hold a token."""
    headers = response.headers
    headers.setdefault("Content-Security-Policy", CSP)
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("X-Frame-Options", "DENY")
    if endpoint.endswith(TOKEN_ENDPOINT_SUFFIXES):
        headers["Referrer-Policy"] = "no-referrer"
        headers["Cache-Control"] = "no-store"
    else:
        headers.setdefault("Referrer-Policy", "same-origin")
    return response


# -- rate limits ----------------------------------------------------------------


def _limit(key: str) -> Callable[[], str]:
    return lambda: str(current_app.config[key])


def _categories(rule_path: str, methods: set[str]) -> list[tuple[str, list[str]]]:
    """Which limits (config key, methods) apply to a URL rule."""
    found: list[tuple[str, list[str]]] = []
    writes = sorted(methods & UNSAFE_METHODS)
    creates = ("/api/v1/series", "/new", "/api/v1/series/import", "/import", "/api/v1/tables/import")
    if (writes and ("/series/" in rule_path or "/tables/" in rule_path) and not rule_path.endswith("/preview")
            and rule_path not in creates):
        found.append(("RATELIMIT_WRITES", writes))
    if "POST" in methods and (rule_path in creates or rule_path.endswith("/again")):
        found.append(("RATELIMIT_CREATE", ["POST"]))
    if rule_path.endswith(".pdf"):
        found.append(("RATELIMIT_PDF", ["GET"]))
    if rule_path.rstrip("/") in ("/api/v1/faq", "/faq") and "GET" in methods:
        found.append(("RATELIMIT_SEARCH", ["GET"]))
    return found


# Flask-Limiter's settings that would put a limit on every view (none is set by this app)
LIMITS_ON_EVERY_VIEW = ("RATELIMIT_DEFAULT", "RATELIMIT_APPLICATION", "RATELIMIT_META")


def unlimited(app: Flask, rule_path: str, method: str) -> bool:
    """No rate limit counts `method` requests to `rule_path` (the idle-poll path may answer them)."""
    if app.config.get("RATELIMIT_ENABLED") and any(app.config.get(key) for key in LIMITS_ON_EVERY_VIEW):
        return False
    return not any(method in methods for _key, methods in _categories(rule_path, {method}))


def apply_limits(app: Flask, limiter: Limiter) -> None:
    """Put the limits on every view they concern (by URL, so renamed endpoints keep them)."""
    for rule in list(app.url_map.iter_rules()):
        view: Any = app.view_functions.get(rule.endpoint)
        if view is None:
            continue
        for key, methods in _categories(rule.rule, set(rule.methods or ())):
            scope = key.removeprefix("RATELIMIT_").lower()
            view = limiter.shared_limit(_limit(key), scope=scope, methods=methods)(view)
        app.view_functions[rule.endpoint] = view


def problem_page(status: int, title: str, message: str) -> Response:
    """A page saying what went wrong that was not the user's typo (the app's one error page)."""
    from companion.web.errors import error_page

    return error_page(status, message, title)


def too_many(error: RateLimitExceeded) -> Any:
    current = current_app.extensions["companion.limiter"].current_limit
    wait = max(1, math.ceil(current.reset_at - time.time())) if current is not None else 60
    message = gettext("Too many requests from this device. Wait %(seconds)s s and try again.", seconds=wait)
    from companion.web.errors import answer

    response = answer(429, "too-many-requests", message, title=gettext("Please wait a moment"))
    response.headers["Retry-After"] = str(wait)
    return response


def forged(_error: ForgedWrite) -> Any:
    message = gettext("This change did not come from a page of this app, so it was refused. "
                      "Open the series from its own link and try again.")
    return problem_page(403, gettext("Refused"), message)


# -- CSV cells --------------------------------------------------------------------

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # OWASP CSV injection: what a spreadsheet may run
_PLAIN_NUMBER = re.compile(r"[+-]?\d+(?:[.,]\d+)?")


def csv_cell(value: Any) -> Any:
    """A cell a spreadsheet shows as text: one starting like a formula gets a leading apostrophe.

    Numbers (and text that is just a number, such as "-5") are left alone: they cannot be formulas."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not _PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value


class SafeCsvWriter:
    """csv.writer whose rows go through `csv_cell` (every export writes through it)."""

    def __init__(self, writer: Any) -> None:
        self.writer = writer

    def writerow(self, row: Iterable[Any]) -> Any:
        return self.writer.writerow([csv_cell(cell) for cell in row])


# -- request log -----------------------------------------------------------------


def _safe_path(req: Request) -> str:
    """The path and query, with any edit token blanked."""
    if not req.query_string:
        return req.path
    args = [(k, "…" if k.lower() in ("token", "edit_token") else v) for k, v in req.args.items(multi=True)]
    return req.path + "?" + "&".join(f"{k}={v}" for k, v in args)


LOG_PATH_MAX = 1000  # characters of path and query a log line keeps
_UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def log_safe(text: str, limit: int = LOG_PATH_MAX) -> str:
    """`text` on one line: control characters written as \\xNN (a %0a in a query cannot start a forged
    line), and cut to `limit` characters, saying how long it was."""
    escaped = _UNPRINTABLE.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 256
                               else f"\\u{ord(m.group()):04x}", text)
    if len(escaped) > limit:
        return f"{escaped[:limit]}…({len(escaped)} chars)"
    return escaped


def start_timer() -> None:
    g.started = time.perf_counter()


def log_request(response: Response) -> Response:
    log_answer(request, response.status_code, g.get("started", time.perf_counter()))
    return response


def log_answer(req: Request, status: int, started: float) -> None:
    """The request's log line (`started`: its time.perf_counter() on arrival)."""
    if log.isEnabledFor(logging.INFO):
        took = (time.perf_counter() - started) * 1000
        log.info("%s %s %s %s %.1fms", log_safe(str(req.remote_addr), 64), log_safe(req.method, 16),
                 log_safe(_safe_path(req)), status, took)


def init_app(app: Flask) -> None:
    for key, value in DEFAULT_LIMITS.items():
        app.config.setdefault(key, value)
    app.config.setdefault("RATELIMIT_ENABLED", not app.testing)
    # Shared by the worker processes (`rate_limits`): memory:// would count per process.
    counters = shared_folder(app) / "ratelimits.sqlite3"
    app.config.setdefault("RATELIMIT_STORAGE_URI", rate_limits.storage_uri(str(counters)))
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", True)
    limiter = Limiter(get_remote_address, app=app)
    app.extensions["companion.limiter"] = limiter
    apply_limits(app, limiter)
    proxies = int(app.config.get("PROXY_FIX", 0) or 0)
    if proxies:  # behind N reverse proxies: the client address and scheme come from X-Forwarded-*
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies)  # type: ignore[method-assign]
    app.before_request(start_timer)
    app.before_request(check_host)
    app.before_request(check_origin)
    app.after_request(secure_headers)
    app.after_request(log_request)
    app.register_error_handler(RateLimitExceeded, too_many)
    app.register_error_handler(ForgedWrite, forged)

