"""What one round of a table playing with seats costs the app: requests by kind and their time (issue 22).

In-process (Flask's test client, the idle-poll layer in front as served), one table after another on a
virtual clock, so the counts are exact and the times are the app's own work, in CPU time of the thread
(so a busy machine slows it less): the WSGI call and its body, as a server takes them (`app`), and with the
test client's own work around it (`with client`, ~0.25 ms a request, what the figures before 2026-12-02
14:00 UTC were). An HTTP server adds its per-request cost on top (`load.py --seats` measures that; granian's
floor is ~0.25 ms of CPU a request). Each table has the scorekeeper's round page
and three seats, as `load.py --seats` models them: a round saved every 30 s (`"hands": "draft"`), the
seats sending their hands 12, 9 and 6 s before the save and confirming 3, 6 and 9 s after it, every
phone polling from its own moment. Two ways of being a seat:

- `js`: what static/seat.js does now: «Send» answered with JSON, «Right» with the live part, the live part
  refreshed with its ETag when the draft's version moves; a seat whose own hand is in polls every 1.5 s,
  the round page every 1.5 s once every hand but the winner's is in (else 1 s, and 4 s while no round
  is being entered);
- `forms`: what seat.js did before (and what a phone without JavaScript does, bar the polls): «Send» and
  «Right» are form posts answered 303 and followed by the whole seat page, a save fetches the whole seat
  page, a moved version the live part; every poll 1 s while a round is entered;
- `watch`: the reference, a table of three phones without seats (`load.py` without `--seats`): the
  scorekeeper saves every 30 s with typed points, and it and two watching phones poll the standings
  fragment every 4 s.

`--root` runs the same model against another checkout (e.g. `git worktree add /tmp/before <commit>`), so
the code before a change can be measured by the same script; only `forms` works against code older than
seat.js's `js` answers.

    .venv/bin/python benchmarks/seat_round.py --model js
    .venv/bin/python benchmarks/seat_round.py --model forms --root /tmp/before
"""

from __future__ import annotations

import argparse
import heapq
import json
import re
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ["Аня", "Борис", "Вера"]
HANDS = {"Аня": "js", "Борис": "jh", "Вера": "jc"}  # 2 points each: no series ends
ROUND, ENTRY, IDLE, FAST, SENT = 30.0, 15.0, 4.0, 1.0, 1.5
SEND_BEFORE = {"Аня": 12.0, "Борис": 9.0, "Вера": 6.0}
CONFIRM_AFTER = {"Аня": 3.0, "Борис": 6.0, "Вера": 9.0}
LIVE = {"HX-Request": "true", "HX-Target": "seat-live"}
FORM = {"Content-Type": "application/x-www-form-urlencoded"}


class Timed:
    """The app's WSGI callable, timed: the call and its whole body, in CPU time of the thread (`spent`, seconds)."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.spent = inner, 0.0

    def __call__(self, environ: Any, start_response: Any) -> list[bytes]:
        started = time.thread_time()
        answer = self.inner(environ, start_response)
        try:
            body = b"".join(answer)
        finally:
            if hasattr(answer, "close"):
                answer.close()
        self.spent += time.thread_time() - started
        return [body]


class Table:
    """One table's phones on a virtual clock; `request` sends one request and books it by kind."""

    def __init__(self, app: Any, model: str, booked: dict[str, list[tuple[float, float]]], rounds_before: int,
                 ) -> None:
        self.app, self.model, self.booked = app, model, booked
        self.timed: Timed = app.wsgi_app
        editor = app.test_client()
        made = editor.post("/api/v1/series", json={"players": PLAYERS, "starter": "Аня"}).get_json()
        self.id, self.auth = made["id"], {"Authorization": f"Bearer {made['edit_token']}"}
        for k in range(rounds_before):
            winner = PLAYERS[k % 3]
            others = [p for p in PLAYERS if p != winner]
            editor.post(f"/api/v1/series/{self.id}/rounds", headers=self.auth, json={
                "winner": winner, "finishing_card": "9h", "typed_points": {others[0]: 1, others[1]: 2}})
        tokens = {s["player"]: s["token"] for s in
                  editor.get(f"/api/v1/series/{self.id}/seats", headers=self.auth).get_json()["seats"]}
        self.editor = editor
        self.seats = {}
        self.readers: dict[str, dict[str, Any]] = {}
        for player in PLAYERS[1:] if model == "watch" else []:  # a watching phone opened the series page
            phone = app.test_client()
            phone.get(f"/series/{self.id}")
            self.readers[player] = {"client": phone, "etag": None}
        for player, token in tokens.items() if model != "watch" else []:
            phone = app.test_client()
            page = phone.get(f"/series/{self.id}/seat/open?token={token}", follow_redirects=True)
            self.seats[player] = {"client": phone, "etag": None, "round": 0, "version": self.live_version(page),
                                  "live_etag": self.live_etag(page), "mine": False, "busy": False}
        self.k = rounds_before
        self.hands_missing = True
        self.draft_etag: str | None = None
        self.standings_etag: str | None = None
        self.counting = False

    @staticmethod
    def live_etag(response: Any) -> str:
        """The ETag the page's live part is asked for with (before seat.js's in-place answers: its hx-headers)."""
        html = response.get_data(as_text=True)
        found = re.search(r"data-etag='([^']+)'", html)
        if found:
            return found.group(1)
        old = re.search(r"hx-headers='(\{.*?\})'", html)
        return str(json.loads(old.group(1))["If-None-Match"]) if old else ""

    @staticmethod
    def live_version(response: Any) -> str:
        found = re.search(r'id="seat-live"[^>]*?data-version="([^"]+)"', response.get_data(as_text=True), re.S)
        return found.group(1) if found else ""

    def request(self, kind: str, send: Callable[[], Any], *ok: int) -> Any:
        started = time.thread_time()  # CPU time: what the request cost, however busy the machine is
        self.timed.spent = 0.0
        response = send()
        if self.counting:  # a conditional GET by its answer: a 304 is the idle-poll layer's, a 200 the app's
            name = f"{kind} {response.status_code}" if 304 in ok else kind
            self.booked[name].append((self.timed.spent * 1000, (time.thread_time() - started) * 1000))
        if response.status_code not in ok:
            raise SystemExit(f"{kind}: {response.status_code} {response.get_data(as_text=True)[:300]}")
        return response

    # -- the phones ---------------------------------------------------------------------------------------

    def seat_poll(self, player: str) -> float:
        seat = self.seats[player]
        phone = seat["client"]
        headers = {"Accept": "application/json", **({"If-None-Match": seat["etag"]} if seat["etag"] else {})}
        answer = self.request("seat poll", lambda: phone.get(f"/api/v1/series/{self.id}/draft", headers=headers),
                              200, 304)
        if answer.status_code == 200:
            seat["etag"] = answer.headers["ETag"]
            draft = answer.get_json()
            saved = seat["round"] and draft["round"] != seat["round"]
            if saved and self.model == "forms":  # the whole seat page in place (htmx.ajax #seat)
                page = self.request("seat page", lambda: phone.get(
                    f"/series/{self.id}/seat", headers={"HX-Request": "true", "HX-Target": "seat"}), 200)
                seat["live_etag"] = self.live_etag(page)
            elif draft["version"] != seat["version"]:
                live = self.request("seat live", lambda: phone.get(
                    f"/series/{self.id}/seat", headers={**LIVE, "If-None-Match": seat["live_etag"]}), 200, 304)
                if live.status_code == 200:
                    seat["live_etag"] = self.live_etag(live)
            seat["round"], seat["version"] = draft["round"], draft["version"]
            seat["mine"], seat["busy"] = player in draft["hands"], bool(draft["hands"])
        if self.model == "js":
            return SENT if seat["mine"] else FAST if seat["busy"] else IDLE
        return FAST if seat["busy"] else IDLE

    def send(self, player: str) -> None:
        seat = self.seats[player]
        phone = seat["client"]
        body = f"card={HANDS[player]}&round={self.k + 1}"
        url = f"/series/{self.id}/seat/hand"
        if self.model == "js":
            self.request("seat hand", lambda: phone.post(url, data=body, headers={
                **FORM, "Accept": "application/json"}), 200)
            seat["mine"] = True
        else:
            self.request("seat hand", lambda: phone.post(url, data=body, headers=FORM), 303)
            self.request("seat page", lambda: phone.get(f"/series/{self.id}/seat", headers={
                "HX-Request": "true", "HX-Boosted": "true"}), 200)

    def confirm(self, player: str) -> None:
        seat = self.seats[player]
        phone = seat["client"]
        url = f"/series/{self.id}/seat/rounds/{self.k}/confirmation"
        if self.model == "js":
            live = self.request("seat confirm", lambda: phone.post(url, data="agree=1", headers={**FORM, **LIVE}),
                                200)
            seat["live_etag"], seat["version"] = self.live_etag(live), self.live_version(live)
        else:
            self.request("seat confirm", lambda: phone.post(url, data="agree=1", headers=FORM), 303)
            page = self.request("seat page", lambda: phone.get(f"/series/{self.id}/seat", headers={
                "HX-Request": "true", "HX-Boosted": "true"}), 200)
            seat["live_etag"] = self.live_etag(page)

    def reader_poll(self, player: str) -> float:
        reader = self.readers[player]
        headers = {"HX-Request": "true", "HX-Target": "live",
                   **({"If-None-Match": reader["etag"]} if reader["etag"] else {})}
        answer = self.request("reader poll", lambda: reader["client"].get(f"/series/{self.id}", headers=headers),
                              200, 304)
        reader["etag"] = answer.headers.get("ETag") or reader["etag"]
        return IDLE

    def editor_poll(self, now: float, save_at: float) -> float:
        if now < save_at - ENTRY or self.model == "watch":  # the standings page, as every watching phone
            headers = {"HX-Request": "true", "HX-Target": "live",
                       **({"If-None-Match": self.standings_etag} if self.standings_etag else {})}
            answer = self.request("standings poll", lambda: self.editor.get(f"/series/{self.id}", headers=headers),
                                  200, 304)
            self.standings_etag = answer.headers.get("ETag") or self.standings_etag
            return IDLE
        headers = {"Accept": "application/json", **({"If-None-Match": self.draft_etag} if self.draft_etag else {})}
        answer = self.request("round page draft poll", lambda: self.editor.get(
            f"/api/v1/series/{self.id}/draft", headers=headers), 200, 304)
        if answer.status_code == 200:
            self.draft_etag = answer.headers["ETag"]
            self.hands_missing = len(answer.get_json()["hands"]) < len(PLAYERS) - 1
        return SENT if self.model == "js" and not self.hands_missing else FAST

    def save(self) -> None:
        self.k += 1
        winner = PLAYERS[self.k % 3]
        others = [p for p in PLAYERS if p != winner]
        body: dict[str, Any] = {"winner": winner, "finishing_card": "9h", "hands": "draft"}
        if self.model == "watch":
            body = {"winner": winner, "finishing_card": "9h", "typed_points": {others[0]: 1, others[1]: 2}}
        self.request("save", lambda: self.editor.post(f"/api/v1/series/{self.id}/rounds", json=body,
                                                      headers=self.auth), 201)
        self.hands_missing = True

    def play(self, rounds: int) -> None:
        """`rounds` rounds, saved at 30 s, 60 s, …; booked from 15 s to 15 s after the last save: each round's
        hands, save and confirmations, and `rounds` × 30 s of polls."""
        events: list[tuple[float, int, str, str]] = []
        seq = 0

        def at(when: float, what: str, who: str = "") -> None:
            nonlocal seq
            seq += 1
            heapq.heappush(events, (when, seq, what, who))

        for i, player in enumerate(PLAYERS):
            at(0.4 + 1.3 * i, "reader poll" if self.model == "watch" else "seat poll", player)
        at(0.7, "editor poll")
        for r in range(1, rounds + 1):
            at(ROUND * r, "save")
            for player in PLAYERS if self.model != "watch" else []:
                at(ROUND * r - SEND_BEFORE[player], "send", player)
                at(ROUND * r + CONFIRM_AFTER[player], "confirm", player)
        end = ROUND * rounds + ENTRY
        while events:
            now, _, what, who = heapq.heappop(events)
            if now >= end:
                break
            self.counting = now >= ENTRY
            if what == "seat poll":
                at(now + self.seat_poll(who), "seat poll", who)
            elif what == "reader poll" and who in self.readers:
                at(now + self.reader_poll(who), "reader poll", who)
            elif what == "editor poll":
                save_at = ROUND * (int(now // ROUND) + 1)
                wait = self.editor_poll(now, save_at)
                at(min(now + wait, save_at) if now >= save_at - ENTRY else now + wait, "editor poll")
            elif what == "send":
                self.send(who)
            elif what == "confirm":
                self.confirm(who)
            elif what == "save":
                self.save()


def run_once(model: str, tables: int, rounds: int) -> dict[str, list[tuple[float, float]]]:
    from companion import create_app

    folder = tempfile.mkdtemp(prefix="companion-seat-round-")
    app = create_app({"DATABASE": str(Path(folder) / "db.sqlite3"), "SECRET_KEY": "bench", "TESTING": True,
                      "RATELIMIT_ENABLED": False, "REQUEST_LOG": False})
    app.wsgi_app = Timed(app.wsgi_app)
    Table(app, model, defaultdict(list), 12).play(1)  # warm: templates compiled, caches made, not booked
    booked: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for _ in range(tables):
        Table(app, model, booked, 12).play(rounds)
    return booked


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", choices=["js", "forms", "watch"], default="js")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose app is measured")
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3, help="rounds per table (each 30 s of virtual time)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--floor", type=float, default=0.25,
                        help="the HTTP server's CPU per request (ms) for the served estimate (granian's, measured)")
    args = parser.parse_args()
    sys.path.insert(0, str(args.root.resolve()))
    per_round = args.tables * args.rounds
    counts: Counter[str] = Counter()
    times: dict[str, list[tuple[float, float]]] = defaultdict(list)  # kind → per run: (app, with client) a round
    for _ in range(args.runs):
        booked = run_once(args.model, args.tables, args.rounds)
        for kind, values in booked.items():
            counts[kind] = len(values)
            times[kind].append((sum(a for a, _ in values) / per_round, sum(w for _, w in values) / per_round))
    runs = [(sum(times[k][i][0] for k in times), sum(times[k][i][1] for k in times)) for i in range(args.runs)]
    requests = sum(counts.values()) / per_round
    print(f"model {args.model}, app at {args.root}; {args.tables} tables × {args.rounds} rounds, {args.runs} runs; "
          "per table and 30 s round, CPU ms (min / median):")
    print(f"{'kind':28} {'requests':>8} {'app':>15} {'with client':>15}")

    def line(name: str, count: float, pairs: list[tuple[float, float]]) -> None:
        app, whole = [a for a, _ in pairs], [w for _, w in pairs]
        print(f"{name:28} {count:>8.1f} {min(app):>7.2f} / {statistics.median(app):<5.2f} "
              f"{min(whole):>7.2f} / {statistics.median(whole):.2f}")

    for kind in sorted(counts):
        line(kind, counts[kind] / per_round, times[kind])
    line("all", requests, runs)
    served = [requests * args.floor + a for a, _ in runs]
    print(f"served estimate: {requests:.1f} requests × {args.floor} ms + app = "
          f"{min(served):.1f} / {statistics.median(served):.1f} ms of server CPU a round")
    return 0


if __name__ == "__main__":
    sys.exit(main())
