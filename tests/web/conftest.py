"""Fixtures of the table tests: two series of one table, played through the API as the core test tells them
(tests/core/test_stats_head_to_head.py), and the head to head counted by hand."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.storage.database import get_db

# Series 1 (Аня, Борис, Вера): Аня out on 8♥; Борис out on Q♠ while Вера carried 85 and lands on 101 → 0;
# Вера out on A♠ while Аня goes to 110 and loses.
SERIES_ONE = [
    {"winner": "Аня", "finishing_card": "8♥", "typed_points": {"Борис": 60, "Вера": 85}},
    {"winner": "Борис", "finishing_card": "Q♠", "typed_points": {"Аня": 30, "Вера": 16}},
    {"winner": "Вера", "finishing_card": "A♠", "typed_points": {"Аня": 80, "Борис": 10}},
]
# Series 2 (Аня, Борис): Борис out on Q♥ (Аня 90), on Q♣ while Аня carried 90 (near), Аня out on Q♦ (75),
# Борис out on 7♠ while Аня goes to 105 and loses.
SERIES_TWO = [
    {"winner": "Борис", "finishing_card": "Q♥", "typed_points": {"Аня": 90}},
    {"winner": "Борис", "finishing_card": "Q♣", "typed_points": {"Аня": 5}},
    {"winner": "Аня", "finishing_card": "Q♦", "typed_points": {"Борис": 20}},
    {"winner": "Борис", "finishing_card": "7♠", "typed_points": {"Аня": 30}},
]

# By hand: player → opponent → (pushed_over, queen_finishes_near_line, series_lost_together, resets_caused)
BOTH_SERIES = {
    "Аня": {"Борис": (0, 0, 2, 0), "Вера": (0, 0, 1, 0)},
    "Борис": {"Аня": (1, 1, 0, 0), "Вера": (0, 1, 0, 1)},
    "Вера": {"Аня": (1, 0, 0, 0), "Борис": (0, 0, 0, 0)},
}
SECOND_ONLY = {"Аня": {"Борис": (0, 0, 1, 0)}, "Борис": {"Аня": (1, 1, 0, 0)}}
FIELDS = ("pushed_over", "queen_finishes_near_line", "series_lost_together", "resets_caused")


def as_json(counts: dict[str, dict[str, tuple[int, ...]]]) -> dict[str, dict[str, dict[str, int]]]:
    return {p: {o: dict(zip(FIELDS, n, strict=True)) for o, n in row.items()} for p, row in counts.items()}


def play(client: FlaskClient, series: dict[str, Any], rounds: list[dict[str, Any]]) -> None:
    for body in rounds:
        response = client.post(f"/api/v1/series/{series['id']}/rounds", json=body,
                               headers={"Authorization": f"Bearer {series['edit_token']}"})
        assert response.status_code == 201, response.get_json()


def two_series(client: FlaskClient) -> tuple[dict[str, Any], dict[str, Any]]:
    first = client.post("/api/v1/series", json={"players": ["Аня", "Борис", "Вера"], "starter": "Аня"}).get_json()
    play(client, first, SERIES_ONE)
    second = client.post("/api/v1/series", json={"after": first["id"], "players": ["Аня", "Борис"]},
                         headers={"Authorization": f"Bearer {first['edit_token']}"}).get_json()
    play(client, second, SERIES_TWO)
    return first, second


def started_last_year(app: Flask, series_id: str) -> None:
    """Move a series' start into last year (the periods count calendar months and years from today)."""
    from companion.service.tables import today

    with app.app_context():
        db = get_db()
        stamp = f"{today().year - 1}-06-15T20:00:00+00:00"  # updated_at too: a replayed series is kept by it
        db.execute("update series set created_at = ?, updated_at = ? where id = ?", [stamp, stamp, series_id])
        db.conn.commit()


@pytest.fixture
def table_play(app: Flask, client: FlaskClient) -> SimpleNamespace:
    """The hand counts and the helpers, for the API, page and summary tests of a table."""
    return SimpleNamespace(
        both=as_json(BOTH_SERIES), second_only=as_json(SECOND_ONLY), two_series=lambda: two_series(client),
        play=lambda series, rounds: play(client, series, rounds),
        started_last_year=lambda series_id: started_last_year(app, series_id),
    )
