"""The lean load generator of `load.py`: the phones of `load_phones.py` over asyncio (uvloop when installed).

One process, one event loop, one HTTP/1.1 keep-alive socket per phone, opened at its first request as
Locust's FastHttpUser does. A response is parsed by httptools (llhttp, the parser of Node.js): the status
line, the headers, a body by Content-Length or chunked; a gzip body is decoded only when the phone reads
it. Set-Cookie is kept per phone and sent back by path (the seat's cookie), and a redirect is followed on
the same connection, inside the request's time, as Locust does. A phone has one request in flight at most;
its latency runs from writing the request to the end of its (last) response (a request that meets its
kept-alive connection closed by the server is sent again on a new one, as a browser does, within the same time).

With `events_port` (the server pushes changes: `companion/ops/servers/events.py`) every phone also keeps
the stream its page keeps open, on a second socket (`follow`): while it is open the phone's polls wait
`load_phones.SAFETY`, and the stream's opening and each `data: changed` start the phone's next turn at once
(a viewer's stream brings the new standings whole, `event: standings`: the phone takes their version and asks
nothing)
(the server's `ping` events are read and ignored: a phone on loopback never misses 2.5 of them). How long it took from
sending a save to each phone of its table hearing its first change after it is kept per step (`push_lags`).
"""

from __future__ import annotations

import asyncio
import gzip
import json
import sys
import time
from collections import Counter
from typing import Any

import httptools
from load_phones import Answer, Figures, Phone, Request

REDIRECTS = frozenset({301, 302, 303, 307, 308})
KEPT = frozenset({b"etag", b"set-cookie", b"content-encoding", b"location"})  # the headers anyone reads
TIMEOUT = 60.0  # seconds without a whole answer: the request fails (Locust's network_timeout)


class Connection(asyncio.Protocol):
    """One socket and its response parser; `waiter` gets (status, headers, body, keep-alive) of each answer."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.parser = httptools.HttpResponseParser(self)
        self.waiter: asyncio.Future[tuple[int, list[tuple[bytes, bytes]], bytes, bool]] | None = None
        self.headers: list[tuple[bytes, bytes]] = []
        self.body: list[bytes] = []
        self.closed = False
        self.sent_at = 0.0

    def connection_made(self, transport: Any) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserError as error:
            self.fail(error)
            if self.transport is not None:
                self.transport.close()

    def on_message_begin(self) -> None:
        self.headers, self.body = [], []

    def on_header(self, name: bytes, value: bytes) -> None:
        key = name.lower()
        if key in KEPT:
            self.headers.append((key, value))

    def on_body(self, body: bytes) -> None:
        self.body.append(body)

    def on_message_complete(self) -> None:
        waiter, self.waiter = self.waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_result((self.parser.get_status_code(), self.headers, b"".join(self.body),
                               self.parser.should_keep_alive()))

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self.fail(exc or ConnectionResetError("the server closed the connection"))

    def fail(self, error: BaseException) -> None:
        waiter, self.waiter = self.waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_exception(error)


class Client:
    """A phone's HTTP/1.1 connection and cookies."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.conn: Connection | None = None
        self.cookies: dict[str, tuple[str, str]] = {}  # name → (value, path)

    def cookie_line(self, path: str) -> str:
        return "; ".join(f"{name}={value}" for name, (value, where) in self.cookies.items()
                         if path == where or path.startswith(where.rstrip("/") + "/") or where == "/")

    def keep(self, path: str, set_cookie: str) -> None:
        pair, *attributes = set_cookie.split(";")
        name, _, value = pair.strip().partition("=")
        where = path.rsplit("/", 1)[0] or "/"  # the default path: the request's folder
        gone = False
        for attribute in attributes:
            key, _, val = attribute.strip().partition("=")
            if key.lower() == "path" and val:
                where = val
            elif key.lower() == "max-age" and val.lstrip("-").isdigit() and int(val) <= 0:
                gone = True
        if gone:
            self.cookies.pop(name, None)
        else:
            self.cookies[name] = (value, where)

    async def send(self, request: Request) -> tuple[int, dict[str, str], bytes]:
        method, path, body = request.method, request.path, request.body
        for _ in range(30):
            status, headers, body_in = await self.once(method, path, request.headers, body)
            if status not in REDIRECTS or "location" not in headers:
                return status, headers, body_in
            location = headers["location"]
            path = location.split("://", 1)[1].partition("/")[2] if "://" in location else location
            path = path if path.startswith("/") else "/" + path
            if status == 303 or (status in (301, 302) and method == "POST"):
                method, body = "GET", b""
        raise ConnectionError("too many redirects")

    async def once(self, method: str, path: str, fields: Any, body: bytes) -> tuple[int, dict[str, str], bytes]:
        """One exchange; a request on a kept-alive connection that the server closed as it was sent (granian
        closes one idle for CHANNEL_TIMEOUT: with push a phone's requests may be minutes apart) is sent again on a
        new one, once, as browsers do for any request that got no answer on a reused connection (Chromium's
        `ShouldResendRequest`): the server closed it before reading the request."""
        reused = self.conn is not None and not self.conn.closed
        try:
            return await self.exchange_on(method, path, fields, body)
        except (ConnectionResetError, BrokenPipeError, EOFError):
            if not reused:
                raise
            self.conn = None
            return await self.exchange_on(method, path, fields, body)

    async def exchange_on(self, method: str, path: str, fields: Any, body: bytes) -> tuple[int, dict[str, str], bytes]:
        conn = self.conn
        if conn is None or conn.closed:
            loop = asyncio.get_running_loop()
            _, conn = await loop.create_connection(Connection, self.host, self.port)
            self.conn = conn
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}", "User-Agent: load.py-lean"]
        head.extend(f"{name}: {value}" for name, value in fields.items())
        cookie = self.cookie_line(path) if self.cookies else ""
        if cookie:
            head.append(f"Cookie: {cookie}")
        if body or method in ("POST", "PUT"):
            head.append(f"Content-Length: {len(body)}")
        waiter = conn.waiter = asyncio.get_running_loop().create_future()
        conn.sent_at = time.monotonic()
        assert conn.transport is not None
        conn.transport.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body)
        status, raw, answer, keep_alive = await waiter
        headers: dict[str, str] = {}
        for name, value in raw:
            key, text = name.decode("latin-1"), value.decode("latin-1")
            if key == "set-cookie":
                self.keep(path, text)
            headers[key] = text
        if not keep_alive:
            conn.closed = True
            if conn.transport is not None:
                conn.transport.close()
        return status, headers, answer


def figures(times: list[float], failures: int) -> Figures:
    times.sort()
    n = len(times)

    def at(q: float) -> float:  # nearest rank
        return times[min(n - 1, max(0, int(q * n + 0.999999) - 1))] if n else 0.0

    return Figures(n, failures, at(0.5), at(0.95), at(0.99))


def pushed_fields(event: bytes) -> tuple[str, str]:
    """The id and the data (its lines joined) of one event of a stream."""
    lines = event.decode("utf-8", "replace").split("\n")
    ident = next((line[4:] for line in lines if line.startswith("id: ")), "")
    return ident, "\n".join(line[6:] for line in lines if line.startswith("data: "))


class LeanDriver:
    """Runs phones on one event loop; from the outside, synchronous: `start`, `sleep`, `summary`, `quit`."""

    def __init__(self, port: int, events_port: int | None = None) -> None:
        try:
            import uvloop

            self.loop = uvloop.new_event_loop()
        except ImportError:
            self.loop = asyncio.new_event_loop()
        asyncio.set_event_loop(self.loop)
        self.port, self.events_port = port, events_port
        self.woken: dict[int, asyncio.Event] = {}  # id(phone) → set when a change is pushed to it
        self.saved_at: dict[str, float] = {}  # table id → when its last save was sent
        self.push_lags: list[float] = []  # ms from a save's answer to each phone of its table hearing of it
        self.tasks: list[asyncio.Task[None]] = []
        self.clients: list[Client] = []
        self.started = 0
        self.times: dict[tuple[str, str], list[float]] = {}
        self.failures: Counter[tuple[str, str, str]] = Counter()
        self.statuses: Counter[tuple[str, str, int]] = Counter()  # (method, kind, status) → answers
        self.tasks.append(self.loop.create_task(self.sweep()))

    def start(self, phones: list[Phone], rate: float) -> None:
        """Start the phones not yet started, `rate` a second (Locust's spawn rate)."""
        for i, phone in enumerate(phones[self.started:]):
            client = Client("127.0.0.1", self.port)
            self.clients.append(client)
            self.tasks.append(self.loop.create_task(self.run_phone(phone, client, i / rate)))
            if self.events_port:
                self.tasks.append(self.loop.create_task(self.follow(phone, i / rate)))
        self.started = len(phones)

    def sleep(self, seconds: float) -> None:
        self.loop.run_until_complete(asyncio.sleep(seconds))

    def reset(self) -> None:
        self.times.clear()
        self.failures.clear()
        self.statuses.clear()
        self.push_lags.clear()

    def summary(self) -> tuple[dict[tuple[str, str], Figures], Figures, list[tuple[int, str, str, str]]]:
        """Per (method, kind), all together, and the errors (count, method, kind, message) since `reset`."""
        failed: Counter[tuple[str, str]] = Counter()
        for (method, kind, _), count in self.failures.items():
            failed[method, kind] += count
        kinds = {key: figures(list(times), failed[key]) for key, times in self.times.items()}
        total = figures([t for times in self.times.values() for t in times], sum(failed.values()))
        errors = [(count, method, kind, message) for (method, kind, message), count in self.failures.most_common()]
        return kinds, total, errors

    def quit(self) -> None:
        for task in self.tasks:
            task.cancel()
        for client in self.clients:
            if client.conn is not None and client.conn.transport is not None:
                client.conn.transport.abort()
        self.loop.run_until_complete(asyncio.gather(*self.tasks, return_exceptions=True))
        self.loop.close()

    async def run_phone(self, phone: Phone, client: Client, delay: float) -> None:
        await asyncio.sleep(delay)
        woken = self.woken.setdefault(id(phone), asyncio.Event())
        phone.start()
        while True:
            phone.last_act = time.monotonic()
            turn = phone.act()
            try:
                request = next(turn)
                while True:
                    request = turn.send(await self.exchange(client, request))
            except StopIteration:
                pass
            except (KeyError, ValueError, TypeError, AssertionError) as error:  # the model failed on an answer
                self.failures["-", "model", f"{type(error).__name__}: {error}"] += 1
                print(f"a phone failed: {error!r}", file=sys.stderr)
            due = time.monotonic() + phone.wait()
            while (left := due - time.monotonic()) > 0:
                try:
                    async with asyncio.timeout(left):
                        await woken.wait()
                except TimeoutError:
                    break
                woken.clear()  # a change was pushed: the turn comes forward, to when the phone's pace allows
                due = min(due, phone.pushed())

    async def follow(self, phone: Phone, delay: float) -> None:
        """The phone's pushed stream, opened again 2 s after it breaks (the `retry` it is sent)."""
        await asyncio.sleep(delay)
        woken = self.woken.setdefault(id(phone), asyncio.Event())
        timed = 0.0  # the save whose push this phone has timed (only the first change after a save counts)
        request = (f"GET {phone.stream()} HTTP/1.1\r\nHost: 127.0.0.1:{self.events_port}\r\n"
                   "Accept: text/event-stream\r\nUser-Agent: load.py-lean\r\n\r\n").encode()
        while True:
            writer = None
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", self.events_port)
                writer.write(request)
                head = await reader.readuntil(b"\r\n\r\n")
                if not head.startswith(b"HTTP/1.1 200"):
                    raise ConnectionError(head.split(b"\r\n", 1)[0].decode("latin-1"))
                phone.streaming = True
                woken.set()  # as static/app.js: an opened stream asks once what changed meanwhile
                heard = b""
                while chunk := await reader.read(65536):
                    *events, heard = (heard + chunk).split(b"\n\n")
                    for event in events:  # each begins with the chunk's size line (the stream is chunked)
                        standings, draft = b"event: standings" in event, b"event: draft" in event
                        if not standings and not draft and b"data: changed" not in event:
                            continue  # a ping, the retry
                        saved = self.saved_at.get(phone.table.id)
                        if saved is not None and saved != timed:
                            timed = saved
                            self.push_lags.append((time.perf_counter() - saved) * 1000)
                        if standings:  # the new standings, whole: nothing to ask
                            phone.pushed_standings(event.decode("utf-8", "replace"))
                        elif draft:  # the new draft, whole: the phone acts on it if it must
                            etag, data = pushed_fields(event)
                            if phone.pushed_draft(etag, json.loads(data)):
                                woken.set()
                        else:
                            woken.set()
            except (OSError, asyncio.IncompleteReadError, ConnectionError) as failure:
                self.failures["GET", "stream", f"{type(failure).__name__}: {failure}"] += 1
            finally:
                phone.streaming = False
                if writer is not None:
                    writer.close()
            await asyncio.sleep(2)

    async def exchange(self, client: Client, request: Request) -> Answer:
        t0 = time.perf_counter()
        if request.kind == "save":  # /api/v1/series/<id>/rounds: its phones' pushes are timed from here
            self.saved_at[request.path.split("/")[4]] = t0
        try:
            status, headers, body = await client.send(request)
            error = None if status in request.ok else f"status {status}"
        except (OSError, EOFError, httptools.HttpParserError) as failure:
            status, headers, body, error = 0, {}, b"", f"{type(failure).__name__}: {failure}"
        key = (request.method, request.kind)
        times = self.times.get(key)
        if times is None:
            times = self.times[key] = []
        times.append((time.perf_counter() - t0) * 1000)
        self.statuses[key[0], key[1], status] += 1
        if error:
            self.failures[request.method, request.kind, error] += 1
        if request.read and headers.get("content-encoding") == "gzip":
            body = gzip.decompress(body)
        return Answer(status, headers, body)

    async def sweep(self) -> None:
        """Fail a request left without an answer for TIMEOUT seconds (its socket is closed)."""
        while True:
            await asyncio.sleep(5)
            late = time.monotonic() - TIMEOUT
            for client in self.clients:
                conn = client.conn
                if conn is not None and conn.waiter is not None and conn.sent_at < late and conn.transport:
                    conn.fail(TimeoutError(f"no answer in {TIMEOUT:.0f} s"))
                    conn.transport.abort()
