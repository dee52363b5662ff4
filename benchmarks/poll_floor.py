"""The floor of a request under granian: a trivial app answering what `load.py`'s phones ask, nothing else.

`load.py --floor wsgi|rsgi` starts this instead of `companion serve`, on the same connections, pacing and
requests: a GET with If-None-Match gets a 304 with the headers the app's idle poll carries (ETag, Vary,
Cache-Control, the security headers), any other GET a small 200, a POST a 201. What the server costs
per request here is granian's own work through that interface (HTTP, the hand-off to Python, the
environ or scope): no Flask, no database. Run by hand:

    .venv/bin/python benchmarks/poll_floor.py --interface wsgi --port 8001 --workers 2 --threads 8
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

HEADERS = [
    ("ETag", 'W/"v13-ru-r-f"'),
    ("Vary", "HX-Request, HX-Boosted, Cookie, Accept-Language"),
    ("Cache-Control", "no-cache, private"),
    ("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
                                "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"),
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "same-origin"),
]
BODY = b"<div>standings</div>" * 100
SAVED = b'{"id": "x", "version": 14}'


def wsgi(environ: dict[str, Any], start_response: Any) -> list[bytes]:
    if environ["REQUEST_METHOD"] == "POST":
        environ["wsgi.input"].read()
        start_response("201 Created", [("Content-Type", "application/json")])
        return [SAVED]
    if "HTTP_IF_NONE_MATCH" in environ:
        start_response("304 Not Modified", HEADERS)
        return []
    start_response("200 OK", [("Content-Type", "text/html; charset=utf-8"), *HEADERS])
    return [BODY]


class RSGI:
    async def __rsgi__(self, scope: Any, proto: Any) -> None:
        if scope.method == "POST":
            await proto()
            proto.response_bytes(201, [("content-type", "application/json")], SAVED)
        elif "if-none-match" in scope.headers:
            proto.response_empty(304, HEADERS)
        else:
            proto.response_bytes(200, [("content-type", "text/html; charset=utf-8"), *HEADERS], BODY)


rsgi = RSGI()


def main() -> int:
    from granian.constants import HTTPModes, Interfaces
    from granian.log import LogLevels
    from granian.server import Server

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--interface", choices=["wsgi", "rsgi"], default="wsgi")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=8, help="granian's blocking threads (WSGI)")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    Server(
        f"poll_floor:{args.interface}", address="127.0.0.1", port=args.port,
        interface=Interfaces.WSGI if args.interface == "wsgi" else Interfaces.RSGI,
        workers=args.workers, blocking_threads=args.threads if args.interface == "wsgi" else None,
        backlog=2048, backpressure=5500, http=HTTPModes.http1, websockets=False, log_level=LogLevels.error,
    ).serve()
    return 0


if __name__ == "__main__":
    sys.exit(main())
