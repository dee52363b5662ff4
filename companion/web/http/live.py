"""The app's side of pushed changes (`ops/servers/events.py`): saying what changed, and telling the pages where
to listen.

- After a write to a series is stored (a non-GET request under `<series_id>` answered below 400, other
  than the previews that store nothing), the series id goes to the events server in one datagram.
- A page that follows a series (the standings, the round page's draft, a seat) carries the URL of its
  stream (`events_attribute`; a reader's standings and the draft ask to be pushed whole); static/app.js's
  `Live` listens there and keeps the old polling as a slow safety net, or at its old pace while no stream is
  open.
- The stream is on another port of the same host (EVENTS_PORT, set by `companion serve` under granian),
  so the page's Content-Security-Policy lets it connect there. Behind a reverse proxy the phones cannot
  reach that port: EVENTS_URL (the stream's public base, routed by the proxy) turns it on there; without
  it the pages poll as before.
"""

from __future__ import annotations

from functools import lru_cache
from urllib.parse import urlsplit

from flask import Flask, Request, Response, current_app, request
from markupsafe import Markup

from companion.i18n import select_language
from companion.ops import security
from companion.ops.servers.events import notify

STORES_NOTHING = frozenset({"play.round_preview"})  # a POST under a series that only answers (the live preview)


def events_base(app: Flask) -> str | None:
    """Where the phones reach the events server, without the series id (None: no push): EVENTS_URL, or
    ":<port>/events", which the page completes with its own scheme and host (static/app.js, Live), so that
    a fragment kept for every phone (`shared_answers`) names no host."""
    configured = app.config.get("EVENTS_URL")
    if configured:
        return str(configured).rstrip("/")
    port = app.config.get("EVENTS_PORT")
    if not port or app.config.get("PROXY_FIX"):
        return None
    return f":{int(port)}/events"


def events_attribute(series_id: str, standings: bool = False, draft: bool = False) -> Markup:
    """` data-events="…"`: the stream a page of `series_id` listens to, or nothing without push (a template
    global, on the element that follows the series). What the page shows that every phone shows alike comes
    whole on the stream (`ops/servers/events.py`): `standings`, a reader's, in the page's language
    (`?live=<language>`); `draft`, the round being entered (`?draft=1`)."""
    base = events_base(current_app)
    if not base:
        return Markup("")
    query = "&".join([f"live={select_language()}"] * standings + ["draft=1"] * draft)
    return Markup(' data-events="%s"') % (f"{base}/{series_id}" + (f"?{query}" if query else ""))


def events_origin(base: str, host: str, scheme: str) -> str | None:
    """The origin the page's Content-Security-Policy must let it connect to for `base` (None: its own), for a
    page asked for on `host` over `scheme`."""
    if base.startswith(":"):
        name = urlsplit(f"//{host}").hostname or ""
        name = f"[{name}]" if ":" in name else name  # an IPv6 address
        return f"{scheme}://{name}{base.split('/', 1)[0]}"
    parts = urlsplit(base)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else None


def page_csp(app: Flask, req: Request) -> str | None:
    """The Content-Security-Policy of a page (or of its 304: the browser keeps the headers of the latest answer)
    that connects to the events server, or None where the app's own CSP serves (no push, or on the same
    origin)."""
    base = events_base(app)
    return csp_for(base, req.host, req.scheme) if base else None


@lru_cache(maxsize=256)
def csp_for(base: str, host: str, scheme: str) -> str | None:
    """`page_csp` once per events base, host and scheme: it is asked on every idle poll's 304."""
    origin = events_origin(base, host, scheme)
    return security.CSP.replace("connect-src 'self'", f"connect-src 'self' {origin}") if origin else None


def after_write(response: Response) -> Response:
    """Tell the events server that the series of a stored write changed; let the page connect to it."""
    app = current_app
    port = app.config.get("EVENTS_PORT")
    series_id = (request.view_args or {}).get("series_id")
    if (port and series_id and request.method in security.UNSAFE_METHODS and response.status_code < 400
            and request.endpoint not in STORES_NOTHING):
        notify(int(port), str(series_id))
    csp = page_csp(app, request) if response.mimetype == "text/html" else None
    if csp:
        response.headers["Content-Security-Policy"] = csp
    return response


def init_app(app: Flask) -> None:
    app.after_request(after_write)
    app.jinja_env.globals["events_attribute"] = events_attribute
