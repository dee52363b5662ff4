"""Live changes pushed to the phones: a small event-stream server beside the app (issues 22 and 24).

Every phone at a table follows its series: the standings, the round being entered, a seat. Polling made
each phone ask every few seconds whether anything changed (most answers a 304), which is most of what a
table costs the server. Here a phone keeps one quiet connection open instead, and hears "changed" the
moment a write to its series is stored; only then does it ask for the new fragment or draft, as before.

- The app's processes say what changed in one UDP datagram each (`notify`, the series id) to this
  server on loopback, after the write is stored (`web.http.live`); nothing waits for an answer.
- This server is one asyncio process (granian's embedded server, ASGI, HTTP in Rust): `GET
  /events/<series id>` answers `text/event-stream` and stays open; each change sends `data: changed`.
  A `ping` event at the start and then every PING seconds (its data: PING, the seconds until the next one)
  keeps proxies from closing a quiet connection and tells the phone that the stream is alive: a phone
  whose Wi-Fi dropped without the connection being closed hears nothing, and opens it again after two
  and a half pings' time (`Live` in static/app.js), then asks once what changed meanwhile. An idle
  follower costs a socket and a waiting coroutine, never a thread.
- A lost datagram, a restarted server or a phone whose stream broke costs nothing but time: the page
  asks whenever its stream (re)opens, polls every 2 minutes as a safety net while it is open, and at the
  old pace while it is not (`Live` in static/app.js).
- It knows nothing of the data: no database, no tokens; a series id is what a view link already shows.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import socket
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]

PATH = re.compile(r"/events/([A-Za-z0-9_-]{1,64})")
PING = 15.0  # seconds between pings on a quiet stream: a phone that hears none for 2.5 × PING opens it again
RETRY_MS = 2000  # what the browser waits before it opens a broken stream again
FOLLOWERS_LIMIT = 20_000  # streams open at once: 2,500 tables × 4 phones fit, with room
HEADERS = [
    (b"content-type", b"text/event-stream; charset=utf-8"),
    (b"cache-control", b"no-store"),
    (b"access-control-allow-origin", b"*"),  # the pages are on the app's port: another origin
    (b"x-accel-buffering", b"no"),
    (b"x-content-type-options", b"nosniff"),
]


class Hub:
    """Who follows which series, and waking them: one asyncio.Event per open stream."""

    def __init__(self) -> None:
        self.followers: dict[str, set[asyncio.Event]] = {}
        self.count = 0

    def follow(self, series_id: str) -> asyncio.Event:
        woken = asyncio.Event()
        self.followers.setdefault(series_id, set()).add(woken)
        self.count += 1
        return woken

    def leave(self, series_id: str, woken: asyncio.Event) -> None:
        streams = self.followers.get(series_id)
        if streams is not None and woken in streams:
            streams.discard(woken)
            self.count -= 1
            if not streams:
                del self.followers[series_id]

    def changed(self, series_id: str) -> None:
        for woken in self.followers.get(series_id, ()):
            woken.set()


class Datagrams(asyncio.DatagramProtocol):
    """The app's processes name a changed series in one datagram each."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    def datagram_received(self, data: bytes, addr: Any) -> None:
        text = data.decode("ascii", "replace")
        if PATH.fullmatch(f"/events/{text}"):
            self.hub.changed(text)


class EventsApp:
    """The ASGI app: the lifespan opens the datagram socket on `port` (UDP, loopback); each stream waits
    for its series' changes."""

    def __init__(self, port: int, hub: Hub | None = None, ping: float = PING) -> None:
        self.port, self.hub, self.ping = port, hub or Hub(), ping
        self.ping_event = f"event: ping\ndata: {ping:g}\n\n".encode()  # the data: seconds until the next one

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.lifespan(receive, send)
        elif scope["type"] == "http":
            await self.http(scope, receive, send)

    async def lifespan(self, receive: Receive, send: Send) -> None:
        transport = None
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                transport, _ = await asyncio.get_running_loop().create_datagram_endpoint(
                    lambda: Datagrams(self.hub), local_addr=("127.0.0.1", self.port))
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                if transport is not None:
                    transport.close()
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = PATH.fullmatch(scope.get("path", ""))
        if scope.get("method") != "GET" or found is None:
            await plain(send, 404, b"Not found: GET /events/<series id>\n")
            return
        if self.hub.count >= FOLLOWERS_LIMIT:
            await plain(send, 503, b"Too many followers; the page polls instead\n", [(b"retry-after", b"30")])
            return
        series_id = found.group(1)
        woken = self.hub.follow(series_id)
        try:
            await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
            await send({"type": "http.response.body", "body": f"retry: {RETRY_MS}\n\n".encode() + self.ping_event,
                        "more_body": True})
            await self.stream(woken, receive, send)
        finally:
            self.hub.leave(series_id, woken)

    async def stream(self, woken: asyncio.Event, receive: Receive, send: Send) -> None:
        """`data: changed` after each change, a ping after `ping` quiet seconds, until the phone goes away."""
        gone = asyncio.ensure_future(disconnected(receive))
        try:
            while True:
                waiting = asyncio.ensure_future(woken.wait())
                done, _ = await asyncio.wait({waiting, gone}, timeout=self.ping,
                                             return_when=asyncio.FIRST_COMPLETED)
                if gone in done:
                    waiting.cancel()
                    return
                if waiting in done:
                    woken.clear()
                    body = b"data: changed\n\n"
                else:
                    waiting.cancel()
                    body = self.ping_event
                await send({"type": "http.response.body", "body": body, "more_body": True})
        finally:
            gone.cancel()


async def disconnected(receive: Receive) -> None:
    """Returns when the phone has gone away (the request's own empty body comes first)."""
    while (await receive())["type"] != "http.disconnect":
        pass


async def plain(send: Send, status: int, text: bytes, extra: list[tuple[bytes, bytes]] | None = None) -> None:
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"access-control-allow-origin", b"*"),
               *(extra or [])]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": text})


def notify(port: int, series_id: str) -> None:
    """Tell the events server on `port` that `series_id` changed (one datagram on loopback; a lost one costs
    the phones a slow poll's wait, never data)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock, contextlib.suppress(OSError):
        sock.sendto(series_id.encode("ascii"), ("127.0.0.1", port))


def run_events(host: str, port: int, parent: int | None = None) -> None:
    """The events server on `host`:`port` (TCP for the phones, UDP on loopback for the app), in this process,
    until it is stopped (or, on Linux, until `parent` dies)."""
    import sys

    if parent is not None and sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None).prctl(15, b"companion-events")  # PR_SET_NAME: told apart from the app's workers in ps
        from companion.ops.servers import die_with

        die_with(parent)
    from granian.constants import HTTPModes, Interfaces
    from granian.http import HTTP1Settings
    from granian.log import LogLevels
    from granian.server.embed import Server

    from companion.ops.servers import BACKLOG, CHANNEL_TIMEOUT
    from companion.ops.servers.granian import listen_address

    # a client that never finishes its request head is closed by granian, as on the app's port
    server = Server(EventsApp(port), address=listen_address(host), port=port, interface=Interfaces.ASGI,
                    http=HTTPModes.http1, websockets=False, backlog=BACKLOG, backpressure=FOLLOWERS_LIMIT,
                    http1_settings=HTTP1Settings(header_read_timeout=CHANNEL_TIMEOUT * 1000),
                    log_level=LogLevels.error)
    asyncio.run(server.serve())
