"""Times and numbers as the table reads them (issue 21): the scoresheet's times in the phone's own zone, Russian
decimals and dates on Russian pages, the «⌨» legend only under a typed round."""

from __future__ import annotations

import re
import subprocess
from datetime import datetime, timedelta
from typing import Any

from flask.testing import FlaskClient

MOSCOW = timedelta(hours=3)  # Europe/Moscow keeps UTC+3 all year


def corrected_series(client: FlaskClient) -> tuple[dict[str, Any], str]:
    """Three players, two rounds, round 1 corrected; the correction's stored (UTC) time."""
    made = client.post("/api/v1/series", json={"players": ["Аня", "Борис", "Вера"], "starter": "Аня"}).get_json()
    auth = {"Authorization": f"Bearer {made['edit_token']}"}
    rounds = f"/api/v1/series/{made['id']}/rounds"
    for card in ("8c", "8d"):
        body = {"winner": "Аня", "finishing_card": card, "hands": {"Борис": ["as"], "Вера": ["ks"]}}
        assert client.post(rounds, json=body, headers=auth).status_code == 201
    fixed = {"winner": "Аня", "finishing_card": "8c", "hands": {"Борис": ["10s"], "Вера": ["ks"]}}
    assert client.put(f"{rounds}/1", json=fixed, headers=auth).status_code == 200
    history = client.get(f"/api/v1/series/{made['id']}/history").get_json()["history"]
    return made, next(h["at"] for h in history if h["action"] == "edit")


def sheet_text(client: FlaskClient, series_id: str, zone: str | None) -> tuple[str, str]:
    """The PDF as text (pdftotext) and its ETag, asked from a phone in `zone` (None: no zone sent)."""
    if zone:
        client.set_cookie("tz", zone)
    else:
        client.delete_cookie("tz")
    response = client.get(f"/series/{series_id}/scoresheet.pdf", headers={"Accept-Language": "ru"})
    assert response.status_code == 200
    text = subprocess.run(["pdftotext", "-layout", "-", "-"], input=response.data, capture_output=True, check=True)
    return text.stdout.decode("utf-8"), response.headers["ETag"]


def test_the_scoresheet_prints_corrections_in_the_tables_time_zone(client: FlaskClient) -> None:
    made, at = corrected_series(client)
    utc = datetime.fromisoformat(at)
    moscow, moscow_etag = sheet_text(client, made["id"], "Europe/Moscow")
    assert f"{(utc + MOSCOW):%d.%m.%Y %H:%M}" in moscow  # the table's clock, Russian date
    assert "UTC" not in moscow.split("Приложение")[1]
    unknown, unknown_etag = sheet_text(client, made["id"], "Mars/Olympus_Mons")  # not a zone: UTC, and it says so
    assert f"{utc:%d.%m.%Y %H:%M} UTC" in unknown
    assert moscow_etag != unknown_etag  # a cached sheet is never served to a phone in another zone
    assert sheet_text(client, made["id"], None)[1] == unknown_etag


def test_russian_pages_write_decimals_and_dates_the_russian_way(client: FlaskClient) -> None:
    made = client.post("/api/v1/series", json={"players": ["Аня", "Борис"], "starter": "Аня"}).get_json()
    auth = {"Authorization": f"Bearer {made['edit_token']}"}
    for cards in (["as"], ["10s"]):  # Борис takes 11, then 10: 10.5 points a round
        body = {"winner": "Аня", "finishing_card": "8c", "hands": {"Борис": cards}}
        assert client.post(f"/api/v1/series/{made['id']}/rounds", json=body, headers=auth).status_code == 201
    table = client.get(f"/api/v1/series/{made['id']}").get_json()["table"]
    created = datetime.fromisoformat(made["created_at"])
    page = client.get(f"/tables/{table}", headers={"Accept-Language": "ru"}).get_data(as_text=True)
    assert "<td>10,5</td>" in page and "10.5" not in page
    assert f"1. {created:%d.%m.%Y} · Аня, Борис" in page
    assert not re.search(r"\d{4}-\d\d-\d\d", page.split("<main")[1])  # no ISO date anywhere a person reads
    english = client.get(f"/tables/{table}", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "<td>10.5</td>" in english


def test_the_typed_in_legend_shows_only_under_a_typed_round(client: FlaskClient) -> None:
    made = client.post("/api/v1/series", json={"players": ["Аня", "Борис"], "starter": "Аня"}).get_json()
    auth = {"Authorization": f"Bearer {made['edit_token']}"}
    rounds = f"/api/v1/series/{made['id']}/rounds"
    legend = "⌨ после очков"
    tapped = {"winner": "Аня", "finishing_card": "8c", "hands": {"Борис": ["as"]}}
    assert client.post(rounds, json=tapped, headers=auth).status_code == 201
    assert legend not in client.get(f"/series/{made['id']}").get_data(as_text=True)
    typed = {"winner": "Аня", "finishing_card": "8d", "typed_points": {"Борис": 17}}
    assert client.post(rounds, json=typed, headers=auth).status_code == 201
    assert legend in client.get(f"/series/{made['id']}").get_data(as_text=True)
