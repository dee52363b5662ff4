"""A player's own phone (a seat): their hand for the round being entered, and their word on saved rounds.

The seat link carries its secret once (`/series/<id>/seat/open?token=…`); the phone then keeps it in
an HttpOnly cookie for that series only, like the edit cookie (`edit_rights`). The editor's round
page sends its own ticks into the same draft through `/series/<id>/draft/<i>` (edit cookie).

Without JavaScript «Send», «Right» and «Not right» are form posts answered 303 to the seat page. With it
(`static/seat.js`) the same posts are answered in place: the hand as JSON (`Accept: application/json`),
a confirmation as the seat's live part (`HX-Target: seat-live`), so a tap costs one request and no
whole page. The live part's ETag names only what it shows (the rounds, this player's words and every
dispute, the language), so the refresh a seat makes when another player agrees is a 304, answered
before Flask (`idle_live_poll`, registered in `web.idle_polls()`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import sqlite_utils
from flask import Blueprint, Request, Response, abort, jsonify, request

from companion.core.errors import RuleError
from companion.i18n import current_language, gettext, hand_text, select_language, translate_error
from companion.service import seats
from companion.service.series import Series
from companion.storage.database import Mark, SeriesRow, get_db, load_marks, load_series
from companion.web.errors import error_page
from companion.web.http.conditional import Validator, conditional
from companion.web.http.edit_rights import EDIT_COOKIE_DAYS, can_edit, edit_cookie, editable_or_403
from companion.web.http.links import public_url, qr_svg
from companion.web.http.pages import is_fragment, load_or_404, page, see_other
from companion.web.pages.play.form_values import whole
from companion.web.present.cards import card_grid
from companion.web.present.series_view import SeriesView, dispute_text, series_view

bp = Blueprint("seat", __name__)

SEAT_HEADERS = {"Vary": "HX-Request, Cookie, Accept-Language", "Cache-Control": "no-cache, private"}


def seat_cookie(series_id: str) -> str:
    return f"s_{series_id}"


def seat_of_phone(series: Series) -> str | None:
    """The player whose seat this phone holds in this series, if any."""
    return seats.seat_player(get_db(), series.id, request.cookies.get(seat_cookie(series.id), ""))


def seated_or_403(series_id: str) -> tuple[Series, str]:
    series = load_or_404(series_id)
    player = seat_of_phone(series)
    if player is None:
        abort(403)
    return series, player


@bp.get("/series/<series_id>/seat/open")
def claim(series_id: str) -> Response:
    """The seat link: keep its secret on this phone, then show the seat without it in the address."""
    series = load_or_404(series_id)
    token = request.args.get("token", "")
    if seats.seat_player(get_db(), series.id, token) is None:
        return error_page(403, gettext("This seat link no longer works: the scorekeeper renewed it. "
                                       "Ask them to show you the new QR code."), gettext("Seat link renewed"))
    response = see_other("seat.show", series_id=series.id)
    response.set_cookie(seat_cookie(series.id), token, max_age=EDIT_COOKIE_DAYS * 86400, path=f"/series/{series.id}",
                        httponly=True, samesite="Lax", secure=request.is_secure)
    return response


def latest_round(view: SeriesView, player: str) -> dict[str, Any] | None:
    """The last saved round the player took part in, as it was scored for them."""
    column = list(view.series.setup.players).index(player)
    for r in reversed(view.rounds):
        cell = r.cells[column]
        if cell.change is None:
            continue
        mark = r.marks.get(player)
        if r.redeal:
            text = gettext("Round %(n)s: a redeal, no points; total %(total)s", n=r.n, total=cell.total)
        elif cell.winner:
            text = gettext("Round %(n)s: you went out on %(card)s (%(points)s), total %(total)s",
                           n=r.n, card=r.finish, points=cell.change, total=cell.total)
        elif cell.typed:
            text = gettext("Round %(n)s: you have %(points)s points (typed in), total %(total)s",
                           n=r.n, points=cell.change, total=cell.total)
        else:
            text = gettext("Round %(n)s: you have %(cards)s = %(points)s, total %(total)s",
                           n=r.n, cards=cell.cards, points=cell.change, total=cell.total)
        return {"n": r.n, "text": text, "mark": mark}
    return None


def seat_context(series: Series, player: str, error: str | None = None, *, live_only: bool = False,
                 found: seats.Draft | None = None) -> dict[str, Any]:
    """What the seat page shows; `live_only`: its live part alone (no draft, no card grid)."""
    view = series_view(series)
    context: dict[str, Any] = {
        "series": series, "view": view, "player": player, "error": error,
        "lines": sorted(view.players, key=lambda p: p.name != player),  # their own line first
        "latest": latest_round(view, player),
        "disputes": [(r.n, dispute_text(p, note)) for r in view.rounds for p, note in r.disputes],
        "in_play": player in series.standings.in_play and not series.standings.finished,
        "live_etag": live_etag(series.row, player, series.marks, current_language()),
    }
    if live_only:
        return context
    found = found or seats.draft(get_db(), series)
    mine = found.hands.get(player)
    return {
        **context, "draft": found, "mine": mine, "mine_text": sent_text(mine),
        "grid_rows": grid_rows(series.setup.options.deck, current_language()),
        "chosen": [c.code for c in mine.cards] if mine else [],
    }


@lru_cache(maxsize=16)
def grid_rows(deck: int, _language: str) -> list[list[Any]]:
    """The card grid of a deck in a language (the same for every seat: made once, only read by templates)."""
    return card_grid(deck)


def sent_text(mine: seats.DraftHand | None) -> str:
    return hand_text(mine.cards) if mine else ""


def seat_etag(series: Series, player: str, draft_etag: str, fragment: bool) -> str:
    """The whole seat page's ETag (its hand and grid follow the draft)."""
    return (f"seat-{series.row.stamp}-{draft_etag}-{current_language()}-{series.setup.players.index(player)}"
            f"-{'f' if fragment else 'p'}")


def live_etag(row: SeriesRow, player: str, marks: Mapping[int, Mapping[str, Mark]], language: str) -> str:
    """The live part's ETag: the rounds (`version`: saves, corrections, players joining or leaving), this
    player's own words and every dispute, the language. Another player's «Right» changes none of them."""
    shown = sorted((n, p, m.agree, m.note) for n, by in marks.items() for p, m in by.items()
                   if p == player or not m.agree)
    words = hashlib.sha256(json.dumps([player, shown], ensure_ascii=False).encode()).hexdigest()[:16]
    return f"seat-live-{row.version}-{words}-{language}"


def live_validator(etag: str) -> Validator:
    return Validator(etag, weak=True, headers=SEAT_HEADERS)


def asks_live(req: Request = request) -> bool:
    """seat.js asks for the live part alone (a refresh, or the answer to a confirmation)."""
    return is_fragment(req) and req.headers.get("HX-Target") == "seat-live"


def idle_live_poll(db: sqlite_utils.Database, series_id: str, req: Request) -> Validator | None:
    """`live_validator` of a seat's live part from the stored rows, for the idle-poll path (`fast_poll`);
    None (Flask answers) for anything else: the whole page, a phone without this series' seat."""
    if not asks_live(req):
        return None
    row = load_series(db, series_id, with_rounds=False)
    if row is None:
        return None
    player = seats.seat_player(db, row.id, req.cookies.get(seat_cookie(row.id), ""))
    if player is None:
        return None
    marks = load_marks(db, row.id) if row.marks else {}
    return live_validator(live_etag(row, player, marks, select_language(req)))


@bp.get("/series/<series_id>/seat")
def show(series_id: str) -> Response:
    series, player = seated_or_403(series_id)
    if asks_live():  # seat.js refreshes the live part; else the page (a boosted load, a no-JS reload)
        etag = live_etag(series.row, player, series.marks, current_language())
        return live_validator(etag).answer(lambda: live_page(series, player))
    found = seats.draft(get_db(), series)

    def render() -> Response:
        return page("seat.html", vary=SEAT_HEADERS["Vary"], **seat_context(series, player, found=found))

    return conditional(seat_etag(series, player, found.etag, False), render, weak=True, headers=SEAT_HEADERS)


def live_page(series: Series, player: str, status: int = 200, error: str | None = None) -> Response:
    """The seat's live part alone, with its ETag (so the next refresh can be a 304)."""
    context = seat_context(series, player, live_only=True)
    response = page("_seat_live.html", status, vary=SEAT_HEADERS["Vary"], live_error=error, **context)
    return live_validator(context["live_etag"]).finish(response)


def asks_json(req: Request = request) -> bool:
    return req.accept_mimetypes.best_match(["text/html", "application/json"]) == "application/json"


@bp.post("/series/<series_id>/seat/hand")
def send_hand(series_id: str) -> Response:
    """«Send»: the ticked cards become this player's hand in the draft (nothing ticked: no hand).

    A form post is answered 303 to the seat page; seat.js asks for JSON (`Accept: application/json`) and gets
    the hand as the draft now holds it, `{"round", "player", "cards", "points", "by", "text"}` (`text`: the
    line the page shows), or `{"error"}` with 422 (409: the series is over, or the round was saved meanwhile)."""
    series, player = seated_or_403(series_id)
    cards = request.form.getlist("card")[:60]
    for_round = whole(request.form.get("round", ""))
    try:
        if cards:
            hand: seats.DraftHand | None = seats.put_hand(get_db(), series, player, cards, seats.SEAT, for_round)
        else:
            seats.drop_hand(get_db(), series, player, for_round)
            hand = None
    except RuleError as error:
        if asks_json():
            return error_json(error)
        context = seat_context(series, player, translate_error(error))
        context["chosen"] = cards
        return page("seat.html", 422, **context)
    if asks_json():
        text = (f"{gettext('In the round:')} {sent_text(hand)} = {hand.points}" if hand else
                gettext("Tap the cards left in your hand, then «Send». Went out? Send nothing."))
        body = {"round": len(series.entries) + 1, "player": player,
                **(hand.to_json() if hand else {"cards": [], "points": 0, "by": seats.SEAT}), "text": text}
        return jsonify(body)
    return see_other("seat.show", series_id=series.id)


def error_json(error: RuleError) -> Response:
    response = jsonify({"error": translate_error(error)})
    response.status_code = 409 if error.code in ("series-finished", "round-saved") else 422
    return response


@bp.post("/series/<series_id>/seat/rounds/<int:n>/confirmation")
def confirm(series_id: str, n: int) -> Response:
    """«Right» or «Not right» (with a note) on a saved round: 303 to the seat page, or for seat.js
    (`HX-Target: seat-live`) the live part as it is now (422: the same, saying what was wrong)."""
    series, player = seated_or_403(series_id)
    if not 1 <= n <= len(series.entries):
        abort(404)
    agree = request.form.get("agree") == "1"
    try:
        fresh = seats.confirm(get_db(), series, player, n, agree, request.form.get("note", ""))
    except RuleError as error:
        if asks_live():
            return live_page(series, player, 422, translate_error(error))
        return page("seat.html", 422, **seat_context(series, player, translate_error(error)))
    if asks_live():
        return live_page(fresh, player)
    return see_other("seat.show", series_id=series.id)


@bp.post("/series/<series_id>/draft/<int:i>")
def editor_hand(series_id: str, i: int) -> Response:
    """The editor's round page sends each hand it ticks into the draft, so the seats see it (JSON for its script)."""
    series = load_or_404(series_id)
    players = series.setup.players
    if not 0 <= i < len(players):
        abort(404)
    if not can_edit(series):
        abort(403)
    cards = request.form.getlist("card")[:60]
    for_round = whole(request.form.get("round", ""))
    try:
        if cards:
            hand = seats.put_hand(get_db(), series, players[i], cards, seats.EDITOR, for_round)
            body: dict[str, Any] = {"player": players[i], **hand.to_json()}
        else:
            seats.drop_hand(get_db(), series, players[i], for_round)
            body = {"player": players[i], "cards": [], "points": 0, "by": seats.EDITOR}
    except RuleError as error:
        return error_json(error)
    return jsonify(body)


@bp.post("/series/<series_id>/share/seats/<int:i>/renew")
def renew(series_id: str, i: int) -> Response:
    """A new link for one seat (a phone lost, a link sent to the wrong person): the old one stops working."""
    series = editable_or_403(series_id)
    if not 0 <= i < len(series.setup.players):
        abort(404)
    seats.renew(get_db(), series, request.cookies[edit_cookie(series.id)], series.setup.players[i])
    return see_other("play.share", series_id=series.id, _anchor=f"seat-{i}")


def draft_form_hands(series: Series) -> dict[int, list[str]]:
    """The draft's hands as the round form holds them: player index → card codes."""
    players = list(series.setup.players)
    return {players.index(p): [c.code for c in h.cards] for p, h in seats.draft(get_db(), series).hands.items()}


def seat_links(series: Series, edit_token: str) -> list[dict[str, Any]]:
    """Each player's seat link and QR code, for the share page."""
    links = []
    for player, token in seats.seats(get_db(), series, edit_token):
        url = public_url("seat.claim", series_id=series.id, token=token)
        links.append({"player": player, "i": series.setup.players.index(player), "url": url, "qr": qr_svg(url)})
    return links
