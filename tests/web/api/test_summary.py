"""«Поделиться итогом»: `GET /api/v1/series/<id>/summary?lang=ru|en`, the PNG it names, the share page."""

from __future__ import annotations

import io
from types import SimpleNamespace
from urllib.parse import parse_qs, urlsplit

from flask import Flask
from flask.testing import FlaskClient
from PIL import Image


def test_the_text_tells_the_series_in_101_terms_in_both_languages(client: FlaskClient,
                                                                      table_play: SimpleNamespace) -> None:
    first, second = table_play.two_series()
    ru = client.get(f"/api/v1/series/{first['id']}/summary?lang=ru").get_json()
    assert list(ru) == ["text", "image_url"]
    # Series 1: Аня lost with 110; Борис went out on Q♠ (−20), Вера hit 101 → 0; totals, best first; the link.
    assert ru["text"].split("\n") == [
        "Серия 1: проигрыш — Аня (110).",
        "Борис: выход на даме пик (−20), Вера: ровно 101, сброс до 0.",
        "Счёт: Вера 0 · Борис 50 · Аня 110.",
        f"http://localhost/series/{first['id']}",
    ]
    en = client.get(f"/api/v1/series/{second['id']}/summary?lang=en").get_json()
    # Series 2: Борис out on Q♥ (−40) and Q♣ (−20), Аня out on Q♦ (−20); Аня lost with 105.
    assert en["text"].split("\n") == [
        "Series 2: Аня (105) lost.",
        "Борис went out on the queen of hearts (−40), Борис went out on the queen of clubs (−20), "
        "Аня went out on the queen of diamonds (−20).",
        "Totals: Борис −40 · Аня 105.",
        f"http://localhost/series/{second['id']}",
    ]


def test_during_a_series_the_text_says_the_round(client: FlaskClient, series: dict[str, object],
                                                 table_play: SimpleNamespace) -> None:
    table_play.play(series, [{"winner": "Аня", "finishing_card": "8♥", "typed_points": {"Борис": 60, "Вера": 85}}])
    text = client.get(f"/api/v1/series/{series['id']}/summary?lang=ru").get_json()["text"]
    assert text.startswith("Серия 1, после раунда 1.\nСчёт: Аня 0 · Борис 60 · Вера 85.")


def test_the_image_is_a_small_png_drawn_once_per_version(app: Flask, client: FlaskClient,
                                                         table_play: SimpleNamespace) -> None:
    first, _ = table_play.two_series()
    for lang in ("ru", "en"):
        url = client.get(f"/api/v1/series/{first['id']}/summary?lang={lang}").get_json()["image_url"]
        parts = urlsplit(url)
        assert parts.path == f"/api/v1/series/{first['id']}/summary.png"
        assert parse_qs(parts.query) == {"lang": [lang], "v": ["4"]}  # 3 rounds: version names the chart
        response = client.get(f"{parts.path}?{parts.query}")
        assert response.status_code == 200 and response.mimetype == "image/png"
        assert len(response.data) < 40_000
        image = Image.open(io.BytesIO(response.data))
        image.load()
        assert image.format == "PNG" and image.size == (640, 340)
        colours = {c for _, c in image.convert("RGB").getcolors(maxcolors=64) or []}
        assert (211, 63, 73) in colours and (42, 125, 225) in colours  # Аня's and Борис's lines (the palette)
        again = client.get(f"{parts.path}?{parts.query}", headers={"If-None-Match": response.headers["ETag"]})
        assert again.status_code == 304
    assert app.extensions["summary_images"].made == 2  # once per language
    client.get(f"/api/v1/series/{first['id']}/summary.png?lang=ru")
    assert app.extensions["summary_images"].made == 2


def test_a_bad_language_or_series_is_refused(client: FlaskClient, series: dict[str, object]) -> None:
    bad = client.get(f"/api/v1/series/{series['id']}/summary?lang=de", headers={"Accept-Language": "ru"})
    assert bad.status_code == 400
    assert bad.get_json()["error"]["message"] == "«lang» — это ru или en (например, ?lang=en); прислано «de»."
    assert client.get("/api/v1/series/nope/summary").status_code == 404
    assert client.get("/api/v1/series/nope/summary.png").status_code == 404


def test_the_share_page_fills_in_telegram_and_whatsapp(client: FlaskClient, table_play: SimpleNamespace) -> None:
    first, _ = table_play.two_series()
    page = client.get(f"/series/{first['id']}/result", headers={"Accept-Language": "ru"}).get_data(as_text=True)
    assert "Поделиться итогом" in page and "Серия 1: проигрыш — Аня (110)." in page
    assert "https://t.me/share/url?url=http%3A%2F%2Flocalhost%2Fseries%2F" in page
    assert "&amp;text=%D0%A1%D0%B5%D1%80%D0%B8%D1%8F%201" in page  # «Серия 1…»
    assert "https://wa.me/?text=%D0%A1%D0%B5%D1%80%D0%B8%D1%8F%201" in page
    assert f"/api/v1/series/{first['id']}/summary.png?lang=ru&amp;v=4" in page
    standings = client.get(f"/series/{first['id']}").get_data(as_text=True)
    assert f"/series/{first['id']}/result" in standings  # the end screen offers it
