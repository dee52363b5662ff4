"""JSON API v1 of seats: the seat links, the draft of the round being entered, confirmations of saved rounds,
and players joining or leaving between rounds.

A seat token (Bearer) may send only its own player's hand and confirm or dispute that player's
rounds; the edit token does everything else (see `companion.service.seats`).
"""

from __future__ import annotations

from typing import Any

import sqlite_utils
from flask import Blueprint, Request, Response, jsonify

from companion.core.errors import N_
from companion.service import roster, seats
from companion.service import series as series_service
from companion.service.series import Series
from companion.storage.database import get_db
from companion.web.api.request import authorize, bearer_token, created, json_object, load_series
from companion.web.errors import ApiError
from companion.web.http.conditional import Validator
from companion.web.http.links import public_url
from companion.web.http.memory import RowMemo
from companion.web.present.series_json import round_marks_json, series_json

bp = Blueprint("seats_api", __name__, url_prefix="/api/v1")

NO_STORE = {"Cache-Control": "no-store"}
DRAFT_HEADERS = {"Cache-Control": "no-cache"}


def seat_or_editor(series: Series) -> str | None:
    """None for the edit token, else the player whose seat token this is (401 without a token, 403 otherwise)."""
    token = bearer_token(N_("Send the seat token or the edit token: “Authorization: Bearer <token>”."))
    if series.row.token_matches(token):
        return None
    player = seats.seat_player(get_db(), series.id, token)
    if player is None:
        raise ApiError(403, "forbidden", N_("This token opens no seat of this series."))
    return player


def player_of(series: Series, name: str) -> str:
    try:
        return seats.find_player(series, name)
    except seats.UnknownPlayer:
        raise ApiError(404, "not-found", N_("There is no player “%(name)s” in this series. Players: %(players)s."),
                       name=name, players=", ".join(series.setup.players)) from None


def seat_json(series: Series, player: str, token: str) -> dict[str, Any]:
    return {"player": player, "url": public_url("seat.claim", series_id=series.id, token=token), "token": token}


@bp.get("/series/<series_id>/seats")
def list_seats(series_id: str) -> Response:
    series = load_series(series_id)
    authorize(series)
    token = bearer_token(N_("Send the edit token."))
    response = jsonify({"seats": [seat_json(series, p, t) for p, t in seats.seats(get_db(), series, token)]})
    response.headers.update(NO_STORE)
    return response


@bp.post("/series/<series_id>/seats/<player>/renew")
def renew_seat(series_id: str, player: str) -> Response:
    series = load_series(series_id)
    authorize(series)
    name = player_of(series, player)
    new = seats.renew(get_db(), series, bearer_token(N_("Send the edit token.")), name)
    response = jsonify(seat_json(series, name, new))
    response.headers.update(NO_STORE)
    return response


def _writer_for(series: Series, name: str) -> tuple[str, str]:
    """(player, by): the player of the URL, if this token may write their hand."""
    seat = seat_or_editor(series)
    player = player_of(series, name)
    if seat is not None and seat != player:
        raise ApiError(403, "forbidden", N_("This seat belongs to %(seat)s; it can send only their own hand."),
                       seat=seat)
    return player, seats.EDITOR if seat is None else seats.SEAT


@bp.put("/series/<series_id>/draft/<player>")
def put_hand(series_id: str, player: str) -> Any:
    series = load_series(series_id)
    name, by = _writer_for(series, player)
    data = json_object()
    hand = seats.put_hand(get_db(), series, name, data.get("cards"), by, data.get("round"))
    return {"round": len(series.entries) + 1, "player": name, "cards": [str(c) for c in hand.cards],
            "points": hand.points}


@bp.delete("/series/<series_id>/draft/<player>")
def drop_hand(series_id: str, player: str) -> Response:
    series = load_series(series_id)
    name, _by = _writer_for(series, player)
    seats.drop_hand(get_db(), series, name)
    return Response(status=204)


def draft_validator(etag: str) -> Validator:
    return Validator(etag, headers=DRAFT_HEADERS)


# The round being entered and the series' stamp, by the columns of the series row they follow from (version, last
# write, marks), for `idle_draft_poll`
_ENTERING: RowMemo[tuple[str, int, str, int], tuple[int, str]] = RowMemo(8192)


def idle_draft_poll(db: sqlite_utils.Database, series_id: str, _req: Request) -> Validator | None:
    """`draft_validator` of a stored series' draft (None: no such series), for the idle-poll path (`fast_poll`):
    the same ETag (`seats.draft_etag`) from three columns of the series row and the draft's rows; the series is
    loaded only when this process has not seen those columns yet (a save, a correction, a confirmation, a player
    joining or leaving)."""
    found = db.execute("select version, updated_at, marks from series where id = ?", [series_id]).fetchone()
    if found is None:
        return None
    key = (series_id, int(found[0]), str(found[1]), int(found[2] or 0))
    known = _ENTERING.get(key)
    if known is None:
        series = series_service.load(db, series_id)
        if series is None:
            return None
        known = (len(series.entries) + 1, series.row.stamp)
        row = series.row
        if (row.id, row.version, row.updated_at, row.marks) == key:  # not written in between
            _ENTERING.put(key, known)
    return draft_validator(seats.draft_etag(*known, db.execute(seats.DRAFT_ROWS, [series_id]).fetchall()))


def shared_draft_slot(series_id: str, _validator: Validator, req: Request) -> tuple[str, ...]:
    """Where the idle-poll layer keeps the draft's 200 answer for every process (`shared_answers`): every hand,
    save and confirmation changes the draft for every phone of the table, and each then fetches it.

    The answer is the same for every request holding the same ETag: public, read from the stored rows the ETag
    is made of (the round, the series' stamp, every draft row), no cookie read or set, no URL in it; only gzip
    (`shell.compress`) differs by request. The full ETag is kept with the answer, so a change is a miss."""
    return ("seats_api.get_draft", series_id, "gzip" if "gzip" in req.headers.get("Accept-Encoding", "") else "")


@bp.get("/series/<series_id>/draft")
def get_draft(series_id: str) -> Response:
    found = seats.draft(get_db(), load_series(series_id))
    return draft_validator(found.etag).answer(lambda: jsonify(found.to_json()))


@bp.post("/series/<series_id>/rounds/<int:n>/confirmation")
def confirm(series_id: str, n: int) -> Any:
    series = load_series(series_id)
    seat = seat_or_editor(series)
    if seat is None:
        raise ApiError(403, "forbidden", N_("Only a player's own seat confirms or disputes a round; "
                                            "the edit token corrects it instead."))
    if not 1 <= n <= len(series.entries):
        raise ApiError(404, "not-found", N_("Round %(n)s does not exist in this series (rounds so far: %(count)s)."),
                       n=n, count=len(series.entries))
    data = json_object()
    fresh = seats.confirm(get_db(), series, seat, n, data.get("agree"), data.get("note"))
    return {"round": n, "player": seat, **round_marks_json(fresh.marks.get(n, {}))}


# -- players joining and leaving between rounds ----------------------------------------------------------


@bp.post("/series/<series_id>/players")
def add_player(series_id: str) -> Response:
    series = load_series(series_id)
    authorize(series)
    data = json_object()
    changed = roster.join(get_db(), series, data.get("name"), data.get("total"))
    return created(series_json(changed), f"/api/v1/series/{series.id}")


@bp.delete("/series/<series_id>/players/<player>")
def remove_player(series_id: str, player: str) -> Any:
    series = load_series(series_id)
    authorize(series)
    return series_json(roster.leave(get_db(), series, player_of(series, player)))
