"""The series as the JSON API shows it, built from the core's record of each round.

The API's series is language-free: names, numbers, card codes, event records. It is
built from the replayed standings directly (each round's record is the core's
`RoundResult.json`), never from the display view-model, whose card names and
sentences the JSON does not carry. A field added to every round goes in
`round_json`; one added to the series in `series_json`.

`series_response` answers with the same bytes as `jsonify(series_json(series))`, but
keeps each round's JSON text once made (`RoundTexts`): a round's record is shared by
every later version of its series while nothing before it changes (an added round is
applied to the cached standings, see `companion.service.series`), so a write or a poll of a long
series encodes only what is new (docs/benchmarks.md, «Series replay and round requests»).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Any

from flask import Response, current_app, jsonify

from companion.core.series import RoundResult
from companion.service.series import Series
from companion.storage.database import Mark
from companion.web.present.series_view import points_to_loss

ROUND_TEXTS = 32_768  # rounds whose JSON text is kept (about 400 bytes each), oldest dropped first


def player_json(series: Series, name: str) -> dict[str, Any]:
    """One player's line: total, status and the points still allowed before the loss line."""
    st = series.standings
    return {
        "name": name,
        "total": st.totals[name],
        "status": st.statuses[name].value,
        "points_to_loss": points_to_loss(series, name),
    }


def round_json(result: RoundResult) -> dict[str, Any]:
    """One round as the API shows it: what was entered, the points, the totals, the events, the starter."""
    return result.json


def round_marks_json(marks: Mapping[str, Mark]) -> dict[str, Any]:
    """A round's confirmations by player ("agreed" or "disputed") and its disputes with their notes."""
    return {
        "confirmations": {p: "agreed" if m.agree else "disputed" for p, m in marks.items()},
        "disputes": [{"player": p, "note": m.note} for p, m in marks.items() if not m.agree],
    }


def _head(series: Series) -> dict[str, Any]:
    return {
        "id": series.id,
        "table": series.row.table_id,
        "ruleset": series.setup.ruleset.id,
        "options": series.setup.options.to_json(),
        "players": [player_json(series, name) for name in series.setup.players],
    }


def _tail(series: Series) -> dict[str, Any]:
    st = series.standings
    return {
        "status": "finished" if st.finished else "active",
        "losers": list(st.losers),
        "winner": st.winner,
        "next_starter": st.next_starter,
        "next_starter_rule": series.setup.ruleset.play.next_starter.value,
        "starter": series.setup.starter,
        "starter_drawn": series.row.starter_drawn,
        "version": series.version,
        "created_at": series.row.created_at,
        "updated_at": series.row.updated_at,
    }


def series_json(series: Series) -> dict[str, Any]:
    """The API's series, in the documented field order: the head, the rounds, the tail."""
    rounds = [{**round_json(r), **round_marks_json(series.marks.get(r.n, {}))} for r in series.standings.rounds]
    return {**_head(series), "rounds": rounds, **_tail(series)}


class RoundTexts:
    """Rounds' JSON texts by round record (`RoundResult`), the oldest dropped first past `size`.

    Keyed by the record's identity, and the record is kept with its text, so a key is never
    reused by another record while its entry lives. Records are immutable: a text never goes stale."""

    def __init__(self, size: int = ROUND_TEXTS) -> None:
        self.size = size
        self.texts: dict[int, tuple[RoundResult, str]] = {}
        self.lock = threading.Lock()

    def text(self, result: RoundResult, encode: Callable[[Any], str]) -> str:
        found = self.texts.get(id(result))
        if found is not None and found[0] is result:
            return found[1]
        text = encode({**round_json(result), **round_marks_json({})})  # as most rounds are: no one's word yet
        with self.lock:
            self.texts[id(result)] = (result, text)
            while len(self.texts) > self.size:
                del self.texts[next(iter(self.texts))]
        return text


ROUNDS = RoundTexts()


def series_text(series: Series) -> str:
    """`series_json(series)` as compact JSON text, each round's part made once (`RoundTexts`)."""
    def encode(data: Any) -> str:
        return current_app.json.dumps(data, separators=(",", ":"))

    # A round's record is cached with no confirmations; the few rounds that have some (they change without
    # the record) are encoded on each answer.
    rounds = ",".join(
        encode({**round_json(r), **round_marks_json(series.marks[r.n])}) if series.marks.get(r.n)
        else ROUNDS.text(r, encode)
        for r in series.standings.rounds
    )
    return f'{encode(_head(series))[:-1]},"rounds":[{rounds}],{encode(_tail(series))[1:]}'


def series_response(series: Series, status: int = 200) -> Response:
    """The series as `jsonify` would answer it (debug mode's indented JSON included), status `status`."""
    if current_app.debug or getattr(current_app.json, "compact", None) is False:
        response = jsonify(series_json(series))
    else:
        response = current_app.response_class(series_text(series) + "\n", mimetype="application/json")
    response.status_code = status
    return response
