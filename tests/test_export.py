"""The scoresheet: PDF and CSV of a series."""

from __future__ import annotations

import csv
import io
from typing import Any

from flask.testing import FlaskClient


def play(client: FlaskClient, series: dict[str, Any]) -> None:
    auth = {"Authorization": f"Bearer {series['edit_token']}"}
    url = f"/api/v1/series/{series['id']}/rounds"
    rounds = [
        {"winner": "Аня", "finishing_card": "Q♥", "hands": {"Борис": ["10c", "jd", "КП", "Тч"], "Вера": ["qs"]}},
        {"redeal": True},
        {"winner": "Борис", "finishing_card": "8♦", "typed_points": {"Аня": 30, "Вера": 90}},
    ]
    for body in rounds:
        assert client.post(url, json=body, headers=auth).status_code == 201


def test_pdf(client: FlaskClient, series: dict[str, Any]) -> None:
    play(client, series)
    response = client.get(f"/series/{series['id']}/scoresheet.pdf")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    assert response.data.startswith(b"%PDF-") and response.data.rstrip().endswith(b"%%EOF")
    assert "inline" in response.headers["Content-Disposition"]


def test_scoresheet_html_shows_the_rounds_and_escapes_names(client: FlaskClient) -> None:
    from companion.web import export

    created = client.post("/api/v1/series", json={"players": ["<i>Аня</i>", "Борис"], "starter": "Борис"}).get_json()
    client.post(f"/api/v1/series/{created['id']}/rounds", json={"winner": "Борис", "finishing_card": "9♥",
                "hands": {"<i>Аня</i>": ["Q♥"]}}, headers={"Authorization": f"Bearer {created['edit_token']}"})
    with client.application.test_request_context("/?lang=ru"):
        from companion import series_service
        from companion.storage import get_db
        from flask import render_template

        html = render_template("scoresheet.html", **export.sheet_context(series_service.load(get_db(), created["id"])))
    assert "&lt;i&gt;Аня&lt;/i&gt;" in html and "<i>Аня</i>" not in html
    assert "Д<span class=\"red\">♥</span>" in html  # the queen of hearts, with a red suit
    assert "40" in html and "Серия продолжается" in html


def test_csv(client: FlaskClient, series: dict[str, Any]) -> None:
    play(client, series)
    response = client.get(f"/series/{series['id']}/scoresheet.csv", headers={"Accept-Language": "en"})
    assert response.status_code == 200 and response.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(response.data.decode("utf-8-sig"))))
    assert rows[0][:3] == ["Round", "Winner", "Last card"]
    assert rows[1][:3] == ["1", "Аня", "Q♥"] and rows[1][3:6] == ["-40", "27", "20"]
    assert rows[2][1] == "redeal"
    assert rows[3][6:9] == ["-10", "27", "110"] and "lost" in rows[3][9]


def test_unknown_series(client: FlaskClient) -> None:
    assert client.get("/series/nope/scoresheet.pdf").status_code == 404
    assert client.get("/series/nope/scoresheet.csv").status_code == 404


def test_the_standings_page_links_the_scoresheet(client: FlaskClient, series: dict[str, Any]) -> None:
    play(client, series)
    page = client.get(f"/series/{series['id']}").get_data(as_text=True)
    for tail in ("/scoresheet.pdf", "/scoresheet.csv"):
        assert f"/series/{series['id']}{tail}" in page
    assert f"/api/v1/series/{series['id']}" in page
