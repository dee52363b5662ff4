"""Issues 22 and 24: the events server that pushes "changed" to the phones (`ops/servers/events.py`), driven as
ASGI in-process, then as `companion serve` starts it."""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Coroutine, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar, cast
from urllib.parse import quote

import pytest

from companion.ops import servers
from companion.ops.servers import events
from companion.ops.servers.events import EventsApp, Hub

ROOT = Path(__file__).resolve().parents[2]
T = TypeVar("T")


def run_apart(coroutine: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run` in a thread of its own: Playwright's sync API (the browser tests of the same session) leaves
    its loop marked as running in the main thread."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Phone:
    """An ASGI conversation: what the app sent, and a disconnect to send when the test says so."""

    def __init__(self) -> None:
        self.sent: list[MutableMapping[str, Any]] = []
        self.gone = asyncio.Event()
        self.asked = False

    async def receive(self) -> MutableMapping[str, Any]:
        if not self.asked:
            self.asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await self.gone.wait()
        return {"type": "http.disconnect"}

    async def send(self, message: MutableMapping[str, Any]) -> None:
        self.sent.append(message)

    @property
    def status(self) -> int:
        return int(self.sent[0]["status"])

    @property
    def body(self) -> bytes:
        return b"".join(m.get("body", b"") for m in self.sent[1:])


def scope(path: str, method: str = "GET") -> dict[str, Any]:
    return {"type": "http", "method": method, "path": path, "headers": []}


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_a_stream_hears_each_change_of_its_series_only_and_is_forgotten_when_the_phone_goes() -> None:
    async def run() -> None:
        app = EventsApp(0)
        phone, other = Phone(), Phone()
        tasks = [asyncio.ensure_future(app(scope("/events/abc"), phone.receive, phone.send)),
                 asyncio.ensure_future(app(scope("/events/xyz"), other.receive, other.send))]
        await settle()
        assert phone.status == 200 and dict(phone.sent[0]["headers"])[b"content-type"].startswith(b"text/event-stream")
        assert phone.body == b"retry: 2000\n\nevent: ping\ndata: 15\n\n" and app.hub.count == 2
        app.hub.changed("abc")
        await settle()
        app.hub.changed("abc")
        await settle()
        assert phone.body.count(b"data: changed\n\n") == 2 and b"changed" not in other.body
        phone.gone.set()
        other.gone.set()
        await asyncio.gather(*tasks)
        assert app.hub.count == 0 and app.hub.followers == {}

    run_apart(run())


def test_a_stream_pings_at_once_and_then_whenever_it_is_quiet_saying_when_the_next_comes() -> None:
    async def run() -> None:
        app = EventsApp(0, ping=0.01)
        phone = Phone()
        task = asyncio.ensure_future(app(scope("/events/abc"), phone.receive, phone.send))
        await asyncio.sleep(0.05)
        phone.gone.set()
        await task
        assert phone.body.startswith(b"retry: 2000\n\nevent: ping\ndata: 0.01\n\n")  # at once: alive
        assert phone.body.count(b"event: ping\ndata: 0.01\n\n") >= 3  # then after each quiet 0.01 s
        assert b"changed" not in phone.body  # a ping is never taken for a change (an event of its own)

    run_apart(run())


@pytest.mark.parametrize(("path", "method"), [("/events/", "GET"), ("/events/a/b", "GET"), ("/", "GET"),
                                              ("/events/abc", "POST"), ("/events/" + "a" * 65, "GET"),
                                              ("/events/ab%20c", "GET")])
def test_anything_but_a_stream_of_a_series_id_is_404_with_how_to_ask(path: str, method: str) -> None:
    async def run() -> Phone:
        phone = Phone()
        await EventsApp(0)(scope(path, method), phone.receive, phone.send)
        return phone

    phone = run_apart(run())
    assert phone.status == 404 and b"GET /events/<series id>" in phone.body


def test_past_the_followers_limit_a_phone_is_told_to_poll(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(events, "FOLLOWERS_LIMIT", 1)

    async def run() -> tuple[Phone, Phone]:
        app = EventsApp(0)
        first, second = Phone(), Phone()
        task = asyncio.ensure_future(app(scope("/events/abc"), first.receive, first.send))
        await settle()
        await app(scope("/events/abc"), second.receive, second.send)
        first.gone.set()
        await task
        return first, second

    first, second = run_apart(run())
    assert first.status == 200 and second.status == 503 and b"polls" in second.body


def test_the_app_names_a_changed_series_in_a_datagram_and_its_streams_hear_it() -> None:
    port = free_port()

    async def run() -> Phone:
        app = EventsApp(port)
        startup: asyncio.Queue[dict[str, str]] = asyncio.Queue()
        sent: list[str] = []
        for message in ({"type": "lifespan.startup"}, {"type": "lifespan.shutdown"}):
            startup.put_nowait(message)

        async def life_send(message: MutableMapping[str, Any]) -> None:
            sent.append(message["type"])
            if message["type"] == "lifespan.startup.complete":
                await asyncio.sleep(10)  # hold the shutdown back until the test is done

        life = asyncio.ensure_future(app({"type": "lifespan"}, startup.get, life_send))
        await asyncio.sleep(0.05)
        phone = Phone()
        task = asyncio.ensure_future(app(scope("/events/abc"), phone.receive, phone.send))
        await settle()
        events.notify(port, "abc")
        events.notify(port, "not a series id!")
        for _ in range(100):
            if b"data: changed" in phone.body:
                break
            await asyncio.sleep(0.01)
        phone.gone.set()
        await task
        life.cancel()
        return phone

    assert run_apart(run()).body.count(b"data: changed") == 1


def test_hub_wakes_every_follower_of_a_series() -> None:
    async def run() -> None:
        hub = Hub()
        a, b = hub.follow("s"), hub.follow("s", events.wanted(b"live=ru"))  # no source: `changed` for all
        hub.changed("s")
        hub.changed("t")  # nobody follows it: nothing happens
        assert a.woken.is_set() and b.woken.is_set()
        assert a.take() == b.take() == b"data: changed\n\n"
        assert not a.woken.is_set() and a.take() == b""
        hub.leave("s", a)
        hub.leave("s", a)  # twice: counted once
        assert hub.count == 1

    run_apart(run())


NOT_MODIFIED_ANSWER = events.NOT_MODIFIED


class Standings:
    """A stand-in for the app (`events.Source`): what each fetch answers (by language, or "draft"), and what it
    was asked."""

    def __init__(self, *answers: Any, **by_language: Any) -> None:
        self.answers = {"ru": list(answers), **{k: [v] for k, v in by_language.items()}}
        self.asked: list[tuple[str, str, str | None]] = []
        self.hold = asyncio.Event()
        self.hold.set()

    async def fetch(self, series_id: str, what: str, etag: str | None) -> tuple[str, bytes] | None:
        language = what.partition(":")[2] or what
        self.asked.append((series_id, language, etag))
        await self.hold.wait()
        answer = self.answers[language].pop(0)
        if isinstance(answer, BaseException):
            raise answer
        return cast("tuple[str, bytes] | None", answer)


def test_a_readers_standings_are_fetched_once_per_change_and_language_and_pushed_whole() -> None:
    async def run() -> None:
        source = Standings(('W/"v2-ru-r-f"', b'<section id="live" data-version="2">\n<p>17</p>\r\n</section>'),
                           en=('W/"v2-en-r-f"', b'<section id="live">en</section>'))
        hub = Hub(source)  # type: ignore[arg-type]
        ru = [hub.follow("s", events.wanted(b"live=ru")) for _ in range(3)]
        en, plain = hub.follow("s", events.wanted(b"live=en")), hub.follow("s")
        hub.changed("s")
        await settle()
        assert sorted(source.asked) == [("s", "en", None), ("s", "ru", None)]  # once per language, for 4 phones
        event = (b'event: standings\ndata: <section id="live" data-version="2">\ndata: <p>17</p>\n'
                 b"data: </section>\n\n")
        assert [f.take() for f in ru] == [event] * 3
        assert en.take() == b'event: standings\ndata: <section id="live">en</section>\n\n'
        assert plain.take() == b"data: changed\n\n"  # a seat or an editor asks for itself

    run_apart(run())


@pytest.mark.parametrize("answer", [events.NOT_MODIFIED, None, OSError("refused"), TimeoutError()])
def test_unchanged_standings_push_nothing_and_a_failed_fetch_lets_the_phones_ask(answer: Any) -> None:
    async def run() -> bytes:
        source = Standings(('W/"v1-ru-r-f"', b"<section id=\"live\">1</section>"), answer)
        hub = Hub(source)  # type: ignore[arg-type]
        follower = hub.follow("s", events.wanted(b"live=ru"))
        hub.changed("s")
        await settle()
        follower.take()
        hub.changed("s")  # a hand in the draft: the standings are as they were
        await settle()
        assert source.asked[1] == ("s", "ru", 'W/"v1-ru-r-f"')  # asked with what was pushed last: a 304
        return follower.take()

    assert run_apart(run()) == (b"" if answer == events.NOT_MODIFIED else b"data: changed\n\n")


def test_a_draft_is_pushed_whole_with_its_etag_to_the_pages_that_follow_it() -> None:
    async def run() -> None:
        source = Standings(draft=('W/"d-2-abc"', b'{"round": 2,\n "hands": {}}'))
        hub = Hub(source)  # type: ignore[arg-type]
        seat, both = hub.follow("s", events.wanted(b"draft=1")), hub.follow("s", events.wanted(b"draft=1&live=ru"))
        assert both.wants == {"draft", "standings:ru"}
        source.answers["ru"].append(NOT_MODIFIED_ANSWER)
        hub.changed("s")
        await settle()
        assert seat.take() == b'event: draft\nid: W/"d-2-abc"\ndata: {"round": 2,\ndata:  "hands": {}}\n\n'
        assert both.take().startswith(b"event: draft\n")  # the standings as they were: nothing for them

    run_apart(run())


@pytest.mark.parametrize("query", [b"", b"live=", b"live=russian", b"live=RU", b"draft=0", b"draft", b"x=1&y"])
def test_a_stream_asks_for_nothing_whole_but_a_language_or_the_draft(query: bytes) -> None:
    assert events.wanted(query) == frozenset()


def test_a_change_during_a_fetch_is_fetched_again_once_and_the_newest_is_pushed() -> None:
    async def run() -> None:
        source = Standings(('W/"v2-ru-r-f"', b"2"), ('W/"v4-ru-r-f"', b"4"))
        hub = Hub(source)  # type: ignore[arg-type]
        follower = hub.follow("s", events.wanted(b"live=ru"))
        source.hold.clear()
        hub.changed("s")
        await settle()
        hub.changed("s")
        hub.changed("s")  # two more writes while the first fetch is on its way: one more fetch
        source.hold.set()
        await settle()
        assert len(source.asked) == 2 and not hub.fetching
        assert follower.take() == b"event: standings\ndata: 4\n\n"  # the older one, not yet sent, is replaced
        hub.leave("s", follower)
        assert hub.etags == {}  # forgotten with the last follower of the series

    run_apart(run())


def test_the_events_port_is_the_next_one_unless_asked_otherwise_or_taken(capsys: pytest.CaptureFixture[str]) -> None:
    port = free_port()
    assert servers.events_port("127.0.0.1", 8101, 0) is None
    assert servers.events_port("127.0.0.1", 65535, None) is None
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as taken:
        taken.bind(("127.0.0.1", port))
        assert servers.events_port("127.0.0.1", 8101, port) is None
    assert "poll" in capsys.readouterr().err
    assert servers.events_port("127.0.0.1", 8101, port) == port


def open_stream(port: int, path: str) -> socket.socket:
    """A phone's stream on the events server (which may still be starting), once its head is in."""
    for _ in range(50):
        try:
            stream = socket.create_connection(("127.0.0.1", port), timeout=5)
            stream.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            head = stream.recv(4096)
            break
        except OSError:
            time.sleep(0.1)
    assert head.startswith(b"HTTP/1.1 200") and b"text/event-stream" in head
    return stream


def heard(stream: socket.socket, end: bytes) -> bytes:
    """What the stream says until `end`."""
    said = b""
    while end not in said:
        said += stream.recv(65536)
    return said


def test_companion_serve_pushes_a_saved_round_to_a_phone_following_its_series(tmp_path: Path) -> None:
    port = free_port()
    events_port = free_port()
    (tmp_path / "config.py").write_text("RATELIMIT_ENABLED = False\n")
    server = subprocess.Popen(
        [sys.executable, "-m", "companion.ops.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--workers", "2", "--events-port", str(events_port)],
        cwd=ROOT, env={"COMPANION_INSTANCE": str(tmp_path), "PATH": "/usr/bin:/bin"},
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(150):
            try:
                urllib.request.urlopen(f"{base}/api/v1/health", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        created = json.loads(urllib.request.urlopen(urllib.request.Request(
            f"{base}/api/v1/series", data=json.dumps({"players": ["Аня", "Борис"]}).encode(),
            headers={"Content-Type": "application/json"})).read())
        page = urllib.request.urlopen(f"{base}/series/{created['id']}")  # a view link: a reader's standings
        assert f'data-events=":{events_port}/events/{created["id"]}?live=ru"' in page.read().decode()
        assert f"connect-src 'self' http://127.0.0.1:{events_port};" in page.headers["Content-Security-Policy"]
        streams = [open_stream(events_port, f"/events/{created['id']}{query}")
                   for query in ("", "?live=ru", "?draft=1")]
        body = json.dumps({"winner": "Аня", "finishing_card": "9h", "typed_points": {"Борис": 3}}).encode()
        started = time.monotonic()
        urllib.request.urlopen(urllib.request.Request(
            f"{base}/api/v1/series/{created['id']}/rounds", data=body,
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {created['edit_token']}"}))
        plain, standings = heard(streams[0], b"data: changed"), heard(streams[1], b"</section>")
        assert time.monotonic() - started < 2
        assert b"event: standings" not in plain  # a seat's or an editor's page asks for itself
        # the reader's standings as the app renders them, each line a data line: what a poll would have fetched
        fragment = urllib.request.urlopen(urllib.request.Request(
            f"{base}/series/{created['id']}", headers={"HX-Request": "true", "HX-Target": "live"})).read()
        event = standings[standings.index(b"event: standings"):].split(b"\n\n")[0]
        assert event.split(b"\n")[1:] == [b"data: " + line for line in fragment.split(b"\n")]
        assert b'data-version="2"' in event and b">3<" in event.replace(b" ", b"")
        assert b"event: draft" in heard(streams[2], b"event: draft")  # the save began round 2: a new draft
        urllib.request.urlopen(urllib.request.Request(
            f"{base}/api/v1/series/{created['id']}/draft/{quote('Борис')}",
            data=json.dumps({"cards": ["AS"]}).encode(),
            method="PUT", headers={"Content-Type": "application/json",
                                   "Authorization": f"Bearer {created['edit_token']}"}))
        pushed = heard(streams[2], '"A♠"'.encode())
        draft = pushed[pushed.rindex(b"event: draft"):].split(b"\n\n")[0].decode().split("\n")
        etag = draft[1].removeprefix("id: ")
        hands = json.loads("\n".join(line.removeprefix("data: ") for line in draft[2:]))["hands"]
        assert hands["Борис"]["cards"] == ["A♠"]
        again = urllib.request.Request(f"{base}/api/v1/series/{created['id']}/draft", headers={"If-None-Match": etag})
        with pytest.raises(urllib.error.HTTPError) as not_modified:  # the pushed ETag is the draft's own
            urllib.request.urlopen(again)
        assert not_modified.value.code == 304
        for stream in streams:
            stream.close()
    finally:
        server.terminate()
        server.wait(15)
