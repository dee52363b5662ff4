"""The API's series JSON, built from the core's round records, is the one the display view-model gave.

Before, `series_json` read the display view (`series_view`, with its card names and sentences)
and kept its language-free parts; now it reads the replayed standings directly and keeps
each round's encoded text (`present.series_json.RoundTexts`). The contract is unchanged:
the same fields, the same order, the same bytes as `jsonify` — for any series.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.cards import deck, parse_card
from companion.core.errors import RuleError
from companion.core.rules import RULESETS
from companion.core.series import RoundInput, SeriesSetup, Standings, play_round, replay
from companion.service.series import Series
from companion.storage.database import SeriesRow
from companion.web.present.series_json import RoundTexts, series_json, series_response, series_text
from companion.web.present.series_view import series_view

# Series up to 40 rounds are large examples; the app fixture serves every example alike (nothing is stored).
BIG_EXAMPLES = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture]


def view_model_json(series: Series) -> dict[str, Any]:
    """The series JSON as it was made from the display view-model (the contract this module keeps)."""
    view = series_view(series)
    st = series.standings
    return {
        "id": series.id,
        "table": series.row.table_id,
        "ruleset": series.setup.ruleset.id,
        "options": series.setup.options.to_json(),
        "players": [{"name": p.name, "total": p.total, "status": p.status, "points_to_loss": p.points_to_loss}
                    for p in view.players],
        "rounds": [{**r.json,
                    "confirmations": {p: "agreed" if m.agree else "disputed" for p, m in r.marks.items()},
                    "disputes": [{"player": p, "note": m.note} for p, m in r.marks.items() if not m.agree]}
                   for r in view.rounds],
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


@st.composite
def a_round(draw: st.DrawFn, setup: SeriesSetup, standings: Standings) -> RoundInput:
    """A redeal, or a winner out on some card and the others' hands (some typed in as points)."""
    if draw(st.integers(0, 9)) == 0:
        return RoundInput(redeal=True)
    cards = list(draw(st.permutations(deck(setup.options.deck))))
    winner = draw(st.sampled_from(standings.in_play))
    finish = cards.pop()
    hands, typed = {}, {}
    for player in standings.in_play:
        if player == winner:
            continue
        if draw(st.integers(0, 7)) == 0:
            typed[player] = draw(st.integers(0, 60))
        else:
            hands[player] = tuple(cards.pop() for _ in range(draw(st.integers(1, 5))))
    return RoundInput(False, winner, finish, hands, typed)


@st.composite
def series_of_rounds(draw: st.DrawFn) -> Series:
    """A series of any rule set, 2..max players, up to 40 rounds the rules accept (some loss lines low)."""
    ruleset = RULESETS[draw(st.sampled_from(sorted(RULESETS)))]
    count = draw(st.integers(ruleset.min_players, min(ruleset.max_players, 6)))
    names = draw(st.permutations(["Аня", "Борис", "Вера", "Гоша", "Дина", "Zoë \"Z\""]))[:count]
    options = draw(st.sampled_from([None, {"loss_above": 60}]))
    setup = SeriesSetup.create(list(names), ruleset.id, options, draw(st.sampled_from(names)))
    entries: list[RoundInput] = []
    standings = replay(setup, entries)
    for _ in range(draw(st.integers(0, 40))):
        if standings.finished:
            break
        entry = draw(a_round(setup, standings))
        try:
            standings = play_round(standings, entry)
        except RuleError:
            continue  # a hand the rules refuse (a card that cannot finish, too many cards): not entered
        entries.append(entry)
    row = SeriesRow(id="s1", ruleset=setup.ruleset.id, options=setup.options.to_json(), players=list(names),
                    starter=setup.starter, starter_drawn=draw(st.booleans()), edit_token_hash="", version=len(entries),
                    created_at="2026-11-29T19:00:00+00:00", updated_at="2026-11-29T21:30:00+00:00",
                    rounds=[e.to_json() for e in entries], table_id=draw(st.sampled_from(["", "t1"])))
    return Series(row, setup, tuple(entries), standings)


@settings(max_examples=60, deadline=None, suppress_health_check=BIG_EXAMPLES)
@given(series_of_rounds())
def test_the_json_equals_what_the_view_model_gave(app: Flask, series: Series) -> None:
    with app.test_request_context("/?lang=ru"):
        expected = view_model_json(series)
        assert series_json(series) == expected
        assert list(series_json(series)) == list(expected)  # the documented field order
        compact = app.json.dumps(expected, separators=(",", ":"))
        assert series_text(series) == compact
        assert series_text(series) == compact  # again, every round's text now kept
        response = series_response(series, 201)
        assert response.status_code == 201 and response.mimetype == "application/json"
        assert response.get_data(as_text=True) == compact + "\n"  # byte for byte what jsonify answered


@settings(max_examples=10, deadline=None, suppress_health_check=BIG_EXAMPLES)
@given(series_of_rounds())
def test_debug_mode_keeps_the_indented_json(app: Flask, series: Series) -> None:
    app.debug = True
    try:
        with app.test_request_context("/"):
            body = series_response(series).get_data(as_text=True)
            assert body == app.json.dumps(view_model_json(series), indent=2) + "\n"
    finally:
        app.debug = False


def test_a_kept_round_text_belongs_to_its_own_round_record() -> None:
    """Texts are kept by round record: equal-looking rounds of two series keep their own texts, and a
    record whose text was dropped (past the size) is encoded afresh."""
    setup = SeriesSetup.create(["Аня", "Борис"], "igrafan", None, "Аня")
    first = replay(setup, [RoundInput(False, "Аня", parse_card("9♣"), {"Борис": (parse_card("K♠"),)})])
    second = replay(setup, [RoundInput(False, "Борис", parse_card("9♣"), {"Аня": (parse_card("A♠"),)})])
    texts = RoundTexts(size=1)
    encoded: list[str] = []

    def encode(data: Any) -> str:
        encoded.append(data["winner"])
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    one = texts.text(first.rounds[0], encode)
    assert texts.text(first.rounds[0], encode) is one and encoded == ["Аня"]
    two = texts.text(second.rounds[0], encode)
    assert json.loads(one)["winner"] == "Аня" and json.loads(two)["winner"] == "Борис"
    assert texts.text(first.rounds[0], encode) == one and encoded == ["Аня", "Борис", "Аня"]


def test_edits_and_removals_answer_the_replayed_series(client: FlaskClient, series: dict[str, Any]) -> None:
    """An edit of round 1 changes every later round's totals: the answers carry the new ones, not kept texts."""
    auth = {"Authorization": f"Bearer {series['edit_token']}"}
    url = f"/api/v1/series/{series['id']}/rounds"
    for winner in ("Аня", "Борис", "Вера"):
        others = [p for p in ("Аня", "Борис", "Вера") if p != winner]
        body = {"winner": winner, "finishing_card": "9♣", "hands": {others[0]: ["K♠"], others[1]: ["7♥"]}}
        assert client.post(url, json=body, headers=auth).status_code == 201
    before = client.get(f"/api/v1/series/{series['id']}").get_json()
    edited = client.put(f"{url}/1", json={"winner": "Аня", "finishing_card": "9♣", "hands": {"Борис": ["A♠"],
                                                                                               "Вера": ["7♥"]}},
                        headers=auth).get_json()
    assert edited["rounds"][0]["points"]["Борис"] != before["rounds"][0]["points"]["Борис"]
    for name in ("Аня", "Борис", "Вера"):  # no reset at these totals: a total is the sum of its round's points
        assert edited["rounds"][2]["totals"][name] == sum(r["points"][name] for r in edited["rounds"])
    assert client.get(f"/api/v1/series/{series['id']}").get_json() == edited
    removed = client.delete(f"{url}/1", headers=auth).get_json()
    assert [r["n"] for r in removed["rounds"]] == [1, 2]
    assert client.get(f"/api/v1/series/{series['id']}").get_json() == removed
