"""What every phone of `load.py` does, once, for both load generators (the lean one and Locust).

A phone is a small state machine: `start` when it joins its table, then `act` (a generator that yields each
`Request` it sends and gets back its `Answer`, so it decides the next request from the last answer), then
`wait` for the seconds until its next act, again and again, as a Locust user runs `on_start`, a task, then
`wait_time`. The drivers (`load_lean.py`, `load_locust.py`) only carry the requests: the periods, the
phases, the headers and bodies, the ETags a phone holds and the seat's state machine are all here.

Each request names every header the phone sends (Accept-Encoding too: where the app's pages ask for
nothing, Locust's default `gzip, deflate, br` is written out), so both drivers put the same bytes on the
wire but the Host, Content-Length, Cookie and User-Agent lines.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Generator, Mapping
from dataclasses import dataclass
from typing import Any

PLAYERS = ["Аня", "Борис", "Вера"]
ROUNDS_BEFORE = 12  # every table has played a while: the fragment has a real history
PHONES = 3  # per table; one of them is the editor's
POLL_EVERY = 4.0
SAVE_EVERY = 30.0
# as static/seat.js: until a hand of the round is sent, then until the save; SENT: a seat whose own hand is in,
# and the round page once every hand but the winner's is in
SEAT_IDLE, SEAT_FAST, SEAT_SENT = 4.0, 1.0, 1.5
ENTRY = 15.0  # the scorekeeper's round page is open this long before each save
SAFETY = 120.0  # static/app.js (Live): any poll's period while the phone's pushed stream is open, on average:
# each wait drawn from half to one and a half of it, as the page draws it
SEAT_HANDS = {"Аня": ["js"], "Борис": ["jh"], "Вера": ["jc"]}  # 2 points each: no series ends during a run
ANY_ENCODING = {"Accept-Encoding": "gzip, deflate, br"}  # what Locust's FastHttpUser adds when none is named
LIVE = {"HX-Request": "true", "HX-Target": "seat-live"}  # seat.js asking for a seat's live part
FORM = {"Content-Type": "application/x-www-form-urlencoded"}


@dataclass(frozen=True, slots=True)
class Request:
    kind: str  # the name its figures are reported under (with the method)
    method: str
    path: str
    headers: Mapping[str, str]
    body: bytes = b""
    ok: tuple[int, ...] = (200,)
    read: bool = False  # the phone reads the body (a driver may skip decoding it otherwise)


@dataclass(frozen=True, slots=True)
class Answer:
    status: int  # 0: no answer (the connection failed)
    headers: Mapping[str, str]  # names in lower case
    body: bytes = b""  # decoded (gzip) when the request said `read`

    def header(self, name: str) -> str | None:
        return self.headers.get(name.lower())

    def text(self) -> str:
        return self.body.decode("utf-8", "replace")

    def json(self) -> Any:
        return json.loads(self.body)


Acts = Generator[Request, Answer, None]


@dataclass(frozen=True, slots=True)
class Figures:
    """What a driver reports of one kind of request (or of all) over a step."""

    requests: int
    failures: int
    p50: float  # ms
    p95: float
    p99: float


def round_body(k: int) -> dict[str, Any]:
    """A round that never ends the series: the winner rotates, the others take a point or two."""
    winner = PLAYERS[k % 3]
    others = [p for p in PLAYERS if p != winner]
    return {"winner": winner, "finishing_card": "9h", "typed_points": {others[0]: 1, others[1]: 2}}


def json_post(kind: str, path: str, body: dict[str, Any], token: str, ok: int) -> Request:
    """A JSON write with the edit token, as Locust's `json=` sends it (its Content-Type and Accept)."""
    headers = {"Authorization": f"Bearer {token}", **ANY_ENCODING, "Content-Type": "application/json",
               "Accept": "application/json"}
    return Request(kind, "POST", path, headers, json.dumps(body).encode(), ok=(ok,))


@dataclass(slots=True)
class Table:
    id: str
    token: str
    seats: dict[str, str]
    save_due: float | None = None  # when its scorekeeper saves the next round (its seats plan their hands by it)


class Every:
    """The pacing of a phone that acts every `period` seconds from a random phase of its own.

    Not Locust's `constant_pacing`: it counts a sleep in `on_start` as task time and shortens the next wait
    by it, so users spawned together poll in the same instant every period however they were offset (all
    3,000 polls of 1,000 tables in one burst every 4 s). Real phones load the page at different moments.
    A phone that fell behind (a slow answer) goes at once: it never catches up in a burst.
    """

    __slots__ = ("due",)

    def __init__(self) -> None:
        self.due: float | None = None

    def wait(self, period: float, cap: float = float("inf")) -> float:
        now = time.monotonic()
        due = now + random.uniform(0, period) if self.due is None else max(min(self.due + period, cap), now)
        self.due = due
        return due - now


class Phone:
    """`streaming`: the phone's pushed stream (`/events/<series>`) is open (the driver keeps it); its polls then
    wait SAFETY at least, and a pushed change (`pushed`) brings its next turn forward to when its own pace is
    up since its last turn (`last_act`, set by the driver), or now: as static/app.js's Live."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.etag: str | None = None
        self.streaming = False
        self.last_act = 0.0

    def stream(self) -> str:
        """The path of the page's pushed stream: a reader's standings come whole (`?live=ru`), the other pages hear
        `changed` and ask for themselves."""
        return f"/events/{self.table.id}"

    def pushed_standings(self, html: str) -> None:
        """The reader's standings were pushed whole: the phone holds their version (its next poll says so)."""
        found = re.search(r"hx-headers='([^']*)'", html)
        if found:
            self.etag = json.loads(found.group(1)).get("If-None-Match") or self.etag

    def pushed_draft(self, etag: str, draft: dict[str, Any]) -> bool:
        """The draft was pushed whole (a stream that asked `?draft=1`): True when the phone must act on it now."""
        return True

    def period(self, seconds: float) -> float:
        """A poll's period: as without a stream, or the safety net's while the stream is open."""
        return max(seconds, SAFETY * random.uniform(0.5, 1.5)) if self.streaming else seconds

    def gap(self) -> float:
        """The phone's pace without a stream: the least time between two of its asks."""
        return POLL_EVERY

    def pushed(self) -> float:
        """A change was pushed: when (time.monotonic()) the next turn should start at the latest."""
        return self.last_act + self.gap()

    def start(self) -> None:
        """The phone joins its table (Locust's `on_start`)."""

    def act(self) -> Acts:  # the requests of one turn
        raise NotImplementedError

    def wait(self) -> float:  # the seconds until the next turn, asked right after it (Locust's `wait_time`)
        raise NotImplementedError

    def poll_fragment(self) -> Acts:
        """What htmx sends every 4 s: the fragment, with the ETag of the one the phone holds."""
        headers = {"HX-Request": "true", "HX-Target": "live", "Accept-Encoding": "gzip"}
        if self.etag:
            headers["If-None-Match"] = self.etag
        answer = yield Request("poll", "GET", f"/series/{self.table.id}", headers, ok=(200, 304))
        if answer.status in (200, 304):
            self.etag = answer.header("ETag") or self.etag


class Viewer(Phone):
    """A phone watching the standings (a view link): the fragment every 4 s; with push, pushed whole."""

    def __init__(self, table: Table) -> None:
        super().__init__(table)
        self.pace = Every()

    def stream(self) -> str:
        return f"/events/{self.table.id}?live=ru"

    def act(self) -> Acts:
        yield from self.poll_fragment()

    def wait(self) -> float:
        return self.pace.wait(self.period(POLL_EVERY))


class Editor(Phone):
    """The phone that keeps the score: it polls like the others and saves a round every 30 s (`apart`: it only
    saves, on a connection of its own: a fourth phone per table). As in every run since issue 9, it follows the
    reader's standings fragment (no edit cookie), but as the editor's page does it hears `changed` on its stream
    and asks for them, where the viewers are sent them whole."""

    def __init__(self, table: Table, apart: bool) -> None:
        super().__init__(table)
        self.apart, self.k, self.pace = apart, ROUNDS_BEFORE, Every()

    def start(self) -> None:
        self.table.save_due = time.monotonic() + random.uniform(0, SAVE_EVERY + ENTRY)

    def act(self) -> Acts:
        if not self.apart:
            yield from self.poll_fragment()
            assert self.table.save_due is not None
            if time.monotonic() < self.table.save_due:
                return
            self.table.save_due += SAVE_EVERY
        self.k += 1
        yield json_post("save", f"/api/v1/series/{self.table.id}/rounds", round_body(self.k), self.table.token, 201)

    def wait(self) -> float:
        if self.apart:
            return self.pace.wait(SAVE_EVERY)
        # with a stream its polls are 2 minutes apart: it still saves when the round is due, as its player does
        cap = self.table.save_due if self.streaming and self.table.save_due else float("inf")
        return self.pace.wait(self.period(POLL_EVERY), cap=cap)


class Scorekeeper(Phone):
    """The editor of a table with seats: the standings every 4 s; the last 15 s before each save its round page's
    draft (every second while hands are missing, then every 1.5 s), then the save with "hands": "draft"."""

    def __init__(self, table: Table) -> None:
        super().__init__(table)
        self.draft_etag: str | None = None
        self.hands_missing = True
        self.k, self.pace = ROUNDS_BEFORE, Every()

    def start(self) -> None:
        self.table.save_due = time.monotonic() + random.uniform(ENTRY + 2, SAVE_EVERY + ENTRY)

    def due(self) -> float:
        assert self.table.save_due is not None
        return self.table.save_due

    def stream(self) -> str:
        return f"/events/{self.table.id}?draft=1"

    def pushed_draft(self, etag: str, draft: dict[str, Any]) -> bool:
        """On the round page it takes the draft as fetched; on its standings (an editor's) a change means asking."""
        if time.monotonic() < self.due() - ENTRY:
            return True
        self.take_draft(etag, draft)
        return False

    def take_draft(self, etag: str | None, draft: dict[str, Any]) -> None:
        """A new draft on the round page, fetched or pushed: its ETag, and whether hands are still missing."""
        self.draft_etag = etag or self.draft_etag
        self.hands_missing = len(draft["hands"]) < len(PLAYERS) - 1

    def act(self) -> Acts:
        if time.monotonic() < self.due() - ENTRY:
            yield from self.poll_fragment()
        else:
            headers = {"Accept": "application/json", **ANY_ENCODING}
            if self.draft_etag:
                headers["If-None-Match"] = self.draft_etag
            answer = yield Request("editor draft poll", "GET", f"/api/v1/series/{self.table.id}/draft", headers,
                                   ok=(200, 304), read=True)
            if answer.status == 200:
                self.take_draft(answer.header("ETag"), answer.json())
            elif answer.status == 304:
                self.draft_etag = answer.header("ETag") or self.draft_etag
        if time.monotonic() >= self.due():
            self.k += 1
            body = {**round_body(self.k), "typed_points": {}, "hands": "draft"}
            yield json_post("save", f"/api/v1/series/{self.table.id}/rounds", body, self.table.token, 201)
            self.table.save_due = self.due() + SAVE_EVERY
            self.hands_missing = True

    def gap(self) -> float:
        entering = time.monotonic() >= self.due() - ENTRY
        return (SEAT_FAST if self.hands_missing else SEAT_SENT) if entering else POLL_EVERY

    def wait(self) -> float:
        return self.pace.wait(self.period(self.gap()), cap=self.due())


def live_etag_of(html: str) -> str:
    found = re.search(r"data-etag='([^']+)'", html)
    return found.group(1) if found else ""


def live_version_of(html: str) -> str:
    found = re.search(r'id="seat-live"[^>]*?data-version="([^"]+)"', html, re.S)
    return found.group(1) if found else ""


@dataclass(slots=True)
class SeatState:
    etag: str | None = None  # of the draft
    live_etag: str = ""  # of the live part the page shows
    round: int = 0
    version: str = ""
    wait: float = SEAT_IDLE  # as seat.js: idle, a round being entered, or its own hand in
    poll_at: float = 0.0
    send_at: float = float("inf")
    confirm_at: float = float("inf")
    polled_at: float = 0.0  # its last draft poll
    opened: bool = False  # the seat link is opened at the phone's first act
    pushed: dict[str, Any] | None = None  # a draft pushed whole, not yet taken


class Seat(Phone):
    """A player's own phone (issue 22), doing what static/seat.js does: it follows the draft (GET
    /api/v1/series/<id>/draft with If-None-Match) every 4 s, every 1 s once a hand of the round is sent, every
    1.5 s once its own is in; sends its hand 4-14 s before the save (one POST answered with JSON); when the
    draft says the series changed (the save, a confirmation) it asks for its live part with the ETag it holds;
    2-10 s after the save it confirms the round (one POST answered with the live part)."""

    def __init__(self, table: Table, player: str) -> None:
        super().__init__(table)
        self.player = player
        self.s = SeatState()

    def start(self) -> None:
        self.s.poll_at = time.monotonic() + random.uniform(0, SEAT_IDLE)

    def stream(self) -> str:
        return f"/events/{self.table.id}?draft=1"

    def pushed_draft(self, etag: str, draft: dict[str, Any]) -> bool:
        """Taken as a fetched draft (`take_draft`) at the phone's next turn, which comes now (`pushed`)."""
        self.s.etag = etag
        self.s.pushed = draft
        return True

    def pushed(self) -> float:
        if self.s.pushed is not None:  # a draft pushed whole: taken now, the polls as they were
            return time.monotonic()
        self.s.poll_at = min(self.s.poll_at, self.s.polled_at + self.s.wait)
        return time.monotonic() + self.wait()

    def wait(self) -> float:
        return max(0.0, min(self.s.poll_at, self.s.send_at, self.s.confirm_at) - time.monotonic())

    def live(self, answer: Answer) -> None:
        """The live part seat.js puts on the page: its ETag and the series version it shows."""
        if answer.status == 200:
            html = answer.text()
            self.s.live_etag = live_etag_of(html)
            self.s.version = live_version_of(html) or self.s.version

    def plan_send(self) -> None:
        if self.table.save_due is not None:
            self.s.send_at = self.table.save_due - random.uniform(4, ENTRY - 1)

    def act(self) -> Acts:
        s, sid = self.s, self.table.id
        if not s.opened:  # the player scans the seat's QR code (a 303 to the seat page, followed)
            s.opened = True
            link = f"/series/{sid}/seat/open?token={self.table.seats[self.player]}"
            self.live((yield Request("seat page", "GET", link, dict(ANY_ENCODING), read=True)))
        now = time.monotonic()
        if now >= s.send_at:
            s.send_at = float("inf")
            yield Request("seat hand", "POST", f"/series/{sid}/seat/hand",
                          {**FORM, "Accept": "application/json", **ANY_ENCODING},
                          f"card={SEAT_HANDS[self.player][0]}&round={s.round}".encode())
            s.wait = SEAT_SENT
            s.poll_at = time.monotonic() + self.period(SEAT_SENT)
        if now >= s.confirm_at:
            s.confirm_at = float("inf")
            self.live((yield Request("seat confirm", "POST", f"/series/{sid}/seat/rounds/{s.round - 1}/confirmation",
                                     {**FORM, **LIVE, **ANY_ENCODING}, b"agree=1", read=True)))
        if s.pushed is not None:
            draft, s.pushed = s.pushed, None
            yield from self.take_draft(draft)
        if now < s.poll_at:
            return
        s.polled_at = time.monotonic()
        yield from self.follow_draft()
        s.poll_at = time.monotonic() + self.period(s.wait)

    def follow_draft(self) -> Acts:
        s, sid = self.s, self.table.id
        headers = {"Accept": "application/json", "Accept-Encoding": "gzip"}
        if s.etag:
            headers["If-None-Match"] = s.etag
        answer = yield Request("seat poll", "GET", f"/api/v1/series/{sid}/draft", headers, ok=(200, 304), read=True)
        if answer.status != 200:
            return
        s.etag = answer.header("ETag")
        yield from self.take_draft(answer.json())

    def take_draft(self, draft: dict[str, Any]) -> Acts:
        """What seat.js does with a new draft, fetched or pushed: a save is confirmed in a moment, a changed series
        brings its live part."""
        s, sid = self.s, self.table.id
        if s.round and draft["round"] != s.round:  # a save: confirm it in a moment
            s.confirm_at = time.monotonic() + random.uniform(2, 10)
            self.plan_send()
        if s.version and draft["version"] != s.version:  # a save or a confirmation: the live part
            self.live((yield Request("seat live", "GET", f"/series/{sid}/seat",
                                     {**LIVE, "If-None-Match": s.live_etag, **ANY_ENCODING}, ok=(200, 304),
                                     read=True)))
        if not s.round:
            self.plan_send()
        s.round, s.version = draft["round"], draft["version"]
        s.wait = SEAT_SENT if self.player in draft["hands"] else SEAT_FAST if draft["hands"] else SEAT_IDLE


def table_phones(found: dict[str, Any], seats: bool, editor_apart: bool) -> list[Phone]:
    """The phones of one table, the editor's first: with seats the scorekeeper and one seat per player; else
    the viewers and the editor (polling and saving, or with `editor_apart` a fourth phone that only saves)."""
    table = Table(found["id"], found["token"], found["seats"])
    if seats:
        return [Scorekeeper(table), *(Seat(table, p) for p in PLAYERS)]
    viewers = PHONES if editor_apart else PHONES - 1
    return [Editor(table, editor_apart), *(Viewer(table) for _ in range(viewers))]


def all_phones(tables: list[dict[str, Any]], seats: bool, editor_apart: bool) -> tuple[list[Phone], int]:
    """Every table's phones, table after table (the first n tables are the first n × per-table phones), and how
    many phones a table has."""
    phones = [p for t in tables for p in table_phones(t, seats, editor_apart)]
    return phones, len(phones) // max(1, len(tables))
