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
- What every phone of a series would fetch alike is pushed whole: a page showing a reader's standings (a
  view link) asks for them (`?live=<language>`), a seat and the scorekeeper's round page for the draft
  (`?draft=1`). On a change this server asks the app for it once, as a phone's poll would (`Source`: the same
  URL and headers, so the app makes it once for everyone, `web.http.shared_answers`), and sends it in a
  `standings` or `draft` event to every phone of the series that wants it, which takes it without asking.
  A change that leaves it as it was (a hand in the draft, for the standings) is a 304 and sends nothing; a
  fetch that fails sends `changed`, and the phones ask for themselves. The phones of a table then cost the
  server one request per change, not one each.
- A lost datagram, a restarted server or a phone whose stream broke costs nothing but time: the page
  asks whenever its stream (re)opens, polls about every 2 minutes (1 to 3) as a safety net while it is open, and at the
  old pace while it is not (`Live` in static/app.js).
- It knows nothing of the data: no database, no tokens; a series id is what a view link already shows, and
  what it pushes is what anyone may fetch with it (the view link's standings, the draft's public JSON).
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import re
import socket
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
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


NOT_MODIFIED = ("", b"")  # what was asked for is what was pushed last
DRAFT = "draft"  # what a page may ask to be pushed: the draft, or a reader's standings ("standings:<language>")


@dataclass(frozen=True)
class Source:
    """Where the events server asks the app for what it pushes whole, as a phone's poll does (the same URL and
    headers): the app's address and port, the Host it answers to. One request per change serves every phone
    that shows it; the app makes it once for all (`web.http.shared_answers`)."""

    address: str
    port: int
    host: str
    timeout: float = 10.0
    limit: int = 4 << 20  # a body above it is not pushed: the phones ask for it

    def request(self, series_id: str, what: str) -> str:
        """The head of the request for `what` (the draft's JSON, or a reader's standings in a language)."""
        if what == DRAFT:
            return f"GET /api/v1/series/{series_id}/draft HTTP/1.1\r\nAccept: application/json\r\n"
        language = what.partition(":")[2]
        return (f"GET /series/{series_id} HTTP/1.1\r\nHX-Request: true\r\nHX-Target: live\r\n"
                f"Cookie: lang={language}; recent={series_id}\r\n")

    async def fetch(self, series_id: str, what: str, etag: str | None) -> tuple[str, bytes] | None:
        """(ETag, body) of `what`, NOT_MODIFIED when `etag` is still its ETag, or None (any other answer: the
        phones then ask for themselves)."""
        request = (self.request(series_id, what) + f"Host: {self.host}\r\nAccept-Encoding: gzip\r\n"
                   + (f"If-None-Match: {etag}\r\n" if etag else "")
                   + "User-Agent: companion-events\r\nConnection: close\r\n\r\n")
        async with asyncio.timeout(self.timeout):
            reader, writer = await asyncio.open_connection(self.address, self.port)
            try:
                writer.write(request.encode("latin-1"))
                head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
                status = head[0].split(" ", 2)[1] if head[0].startswith("HTTP/1.") else ""
                headers = {name.lower(): value for name, _, value in (line.partition(": ") for line in head[1:])}
                if status == "304":
                    return NOT_MODIFIED
                length = int(headers.get("content-length", "-1"))
                if status != "200" or not 0 <= length <= self.limit or "etag" not in headers:
                    return None
                body = await reader.readexactly(length)
            finally:
                writer.close()
        if headers.get("content-encoding") == "gzip":
            body = gzip.decompress(body)
        elif "content-encoding" in headers:
            return None
        return headers["etag"], body


def pushed_event(what: str, etag: str, body: bytes) -> bytes:
    """`body` as one event named for what it is (`standings` or `draft`), each of its lines a `data:` line; a
    draft's ETag is its id (the page's next ask for it sends it, and gets a 304)."""
    lines = body.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
    name = what.partition(":")[0].encode()
    ident = b"id: " + etag.encode("latin-1").replace(b"\n", b"") + b"\n" if what == DRAFT else b""
    return b"event: " + name + b"\n" + ident + b"".join(b"data: " + line + b"\n" for line in lines) + b"\n"


def wanted(query: bytes) -> frozenset[str]:
    """What a page's stream asks to be pushed whole: `?live=<language>` a reader's standings, `draft=1` the draft."""
    found = set()
    for part in query.split(b"&"):
        name, _, value = part.partition(b"=")
        if name == b"live" and re.fullmatch(rb"[a-z]{2}", value):
            found.add(f"standings:{value.decode()}")
        elif name == b"draft" and value == b"1":
            found.add(DRAFT)
    return frozenset(found)


class Follower:
    """One open stream: what to send it next. `wants`: what it is pushed whole (`wanted`); without it, or when
    fetching fails, it hears `changed` and asks for itself."""

    __slots__ = ("woken", "wants", "changed", "events")

    def __init__(self, wants: frozenset[str] = frozenset()) -> None:
        self.woken = asyncio.Event()
        self.wants = wants
        self.changed = False
        self.events: dict[str, bytes] = {}  # the newest event of each kind not yet sent

    def tell(self, changed: bool = False, what: str = "", event: bytes = b"") -> None:
        self.changed = self.changed or changed
        if event:
            self.events[what] = event
        self.woken.set()

    def take(self) -> bytes:
        """What is due on the stream now (what was pushed whole, then `changed`), and nothing due after it."""
        body = b"".join(self.events.values()) + (b"data: changed\n\n" if self.changed else b"")
        self.woken.clear()
        self.changed = False
        self.events.clear()
        return body


class Hub:
    """Who follows which series, and telling them: plain followers hear `changed`; what a follower wants pushed
    whole (a reader's standings, the draft) is fetched from the app (`source`) once per change, and pushed to
    every follower of the series that wants it (without a source, or when the fetch fails, they hear `changed`)."""

    def __init__(self, source: Source | None = None) -> None:
        self.followers: dict[str, set[Follower]] = {}
        self.count = 0
        self.source = source
        self.fetching: dict[tuple[str, str], asyncio.Task[None]] = {}  # one fetch at a time per series and what
        self.again: set[tuple[str, str]] = set()  # changed while its fetch was on its way: fetch once more
        self.etags: dict[str, dict[str, str]] = {}  # series → what → ETag last pushed, while the series is followed

    def follow(self, series_id: str, wants: frozenset[str] = frozenset()) -> Follower:
        follower = Follower(wants if self.source is not None else frozenset())
        self.followers.setdefault(series_id, set()).add(follower)
        self.count += 1
        return follower

    def leave(self, series_id: str, follower: Follower) -> None:
        streams = self.followers.get(series_id)
        if streams is not None and follower in streams:
            streams.discard(follower)
            self.count -= 1
            if not streams:
                del self.followers[series_id]
                self.etags.pop(series_id, None)

    def changed(self, series_id: str) -> None:
        fetched: set[str] = set()
        for follower in self.followers.get(series_id, ()):
            if follower.wants:
                fetched |= follower.wants
            else:
                follower.tell(changed=True)
        for what in fetched:
            key = (series_id, what)
            if key in self.fetching:
                self.again.add(key)
            else:
                self.fetching[key] = asyncio.ensure_future(self.push(key))

    async def push(self, key: tuple[str, str]) -> None:
        """Fetch `key` (series, what) until no change came meanwhile, and push each new version to the followers
        that want it."""
        assert self.source is not None
        series_id, what = key
        try:
            while True:
                self.again.discard(key)
                try:
                    fetched = await self.source.fetch(series_id, what, self.etags.get(series_id, {}).get(what))
                except (OSError, ValueError, TimeoutError):
                    fetched = None
                followers = [f for f in self.followers.get(series_id, ()) if what in f.wants]
                if fetched is None:  # not fetched: each phone asks for itself
                    for follower in followers:
                        follower.tell(changed=True)
                elif fetched != NOT_MODIFIED and followers:
                    etag, body = fetched
                    self.etags.setdefault(series_id, {})[what] = etag
                    event = pushed_event(what, etag, body)
                    for follower in followers:
                        follower.tell(what=what, event=event)
                if key not in self.again:
                    return
        finally:
            del self.fetching[key]


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

    def __init__(self, port: int, hub: Hub | None = None, ping: float = PING, source: Source | None = None) -> None:
        self.port, self.hub, self.ping = port, hub or Hub(source), ping
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
        follower = self.hub.follow(series_id, wanted(scope.get("query_string") or b""))
        try:
            await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
            await send({"type": "http.response.body", "body": f"retry: {RETRY_MS}\n\n".encode() + self.ping_event,
                        "more_body": True})
            await self.stream(follower, receive, send)
        finally:
            self.hub.leave(series_id, follower)

    async def stream(self, follower: Follower, receive: Receive, send: Send) -> None:
        """What each change brings (`data: changed`, or what the phone wants whole), a ping after `ping` quiet
        seconds, until the phone goes away."""
        gone = asyncio.ensure_future(disconnected(receive))
        try:
            while True:
                waiting = asyncio.ensure_future(follower.woken.wait())
                done, _ = await asyncio.wait({waiting, gone}, timeout=self.ping,
                                             return_when=asyncio.FIRST_COMPLETED)
                if gone in done:
                    waiting.cancel()
                    return
                if waiting in done:
                    body = follower.take()
                else:
                    waiting.cancel()
                    body = self.ping_event
                if body:
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


def run_events(host: str, port: int, parent: int | None = None, source: Source | None = None) -> None:
    """The events server on `host`:`port` (TCP for the phones, UDP on loopback for the app), in this process,
    until it is stopped (or, on Linux, until `parent` dies); it fetches what it pushes whole from `source`."""
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
    server = Server(EventsApp(port, source=source), address=listen_address(host), port=port, interface=Interfaces.ASGI,
                    http=HTTPModes.http1, websockets=False, backlog=BACKLOG, backpressure=FOLLOWERS_LIMIT,
                    http1_settings=HTTP1Settings(header_read_timeout=CHANNEL_TIMEOUT * 1000),
                    log_level=LogLevels.error)
    asyncio.run(server.serve())
