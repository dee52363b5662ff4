"""The scoresheet: PDF and CSV of a series."""

from __future__ import annotations

import csv
import io
from typing import Any

from flask.testing import FlaskClient


def embedded(context: dict[str, Any], name: str, mime: str) -> bytes:
    """One of the sheet's own images (its chart, its QR code), handed to the render in memory, of type `mime`."""
    found_mime, data = context["images"][name]
    assert found_mime == mime
    return data


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
    from companion.web.pages import export

    created = client.post("/api/v1/series", json={"players": ["<i>Аня</i>", "Борис"], "starter": "Борис"}).get_json()
    client.post(f"/api/v1/series/{created['id']}/rounds", json={"winner": "Борис", "finishing_card": "9♥",
                "hands": {"<i>Аня</i>": ["Q♥"]}}, headers={"Authorization": f"Bearer {created['edit_token']}"})
    with client.application.test_request_context("/?lang=ru"):
        from flask import render_template

        from companion.service import series as series_service
        from companion.storage.database import get_db

        html = render_template("scoresheet.html", **export.sheet_context(series_service.load(get_db(), created["id"])))
    assert "&lt;i&gt;Аня&lt;/i&gt;" in html and "<i>Аня</i>" not in html
    # one text per square: the card left in hand, the round's points → the total (no box per part)
    assert "<td>Д♥ +40\u00a0→\u00a040</td>" in html and "<td>•9♥ 0\u00a0→\u00a00</td>" in html
    assert "<span" not in html.split('<table class="rounds">')[1]  # nothing nested in the rounds table
    assert "Серия продолжается" in html


def csv_rows(client: FlaskClient, series_id: str, lang: str) -> tuple[str, list[list[str]]]:
    response = client.get(f"/series/{series_id}/scoresheet.csv", headers={"Accept-Language": lang})
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert response.data.startswith("\ufeff".encode())  # the BOM: spreadsheets read UTF-8
    text = response.data.decode("utf-8-sig")
    delimiter = ";" if lang == "ru" else ","
    return response.headers["Content-Disposition"], list(csv.reader(io.StringIO(text), delimiter=delimiter))


def test_csv_one_row_per_round_and_player_in_english(client: FlaskClient, series: dict[str, Any]) -> None:
    play(client, series)
    disposition, rows = csv_rows(client, series["id"], "en")
    assert disposition.startswith("attachment") and "sto-odno-" in disposition and "-anya-boris-vera.csv" in disposition
    head = {row[0]: row[1] for row in rows[:7]}
    assert head["Rule set"].startswith("IgraFan") and head["House rules"] == "none"
    assert head["Players"] == "Аня, Борис, Вера" and head["Result"] == "Lost: Вера" and len(head["Date"]) == 10
    table = rows[rows.index([]) + 1:]
    assert table[0] == ["Round", "Player", "Cards", "Points", "Total", "Events"]
    # numbers plain, sentences with the true minus (issue 10)
    assert table[1] == ["1", "Аня", "last card Q♥", "-40", "-40", "Аня went out on Q♥: −40"]
    assert table[2][:5] == ["1", "Борис", "10♣ J♦ K♠ A♥", "27", "27"]
    assert table[3][:5] == ["1", "Вера", "Q♠", "20", "20"] and "only queens" in table[3][5]
    assert [r[2] for r in table[4:7]] == ["redeal"] * 3
    assert table[9][:5] == ["3", "Вера", "typed in", "90", "110"] and "lost with 110" in table[9][5]
    assert len(table) == 1 + 3 * 3


def test_csv_is_all_russian_with_semicolons_in_russian(client: FlaskClient, series: dict[str, Any]) -> None:
    play(client, series)
    _, rows = csv_rows(client, series["id"], "ru")
    head = {row[0]: row[1] for row in rows[:7]}
    assert {"Правила", "Домашние правила", "Дата", "Игроки", "Итог", "Ссылка для просмотра"} <= set(head)
    table = rows[rows.index([]) + 1:]
    assert table[0] == ["Раунд", "Игрок", "Карты", "Очки", "Счёт", "События"]
    assert table[1][2] == "последняя карта Д♥" and table[2][2] == "10♣ В♦ К♠ Т♥"
    assert not any(word in cell for row in table[1:] for cell in row for word in ("points", "redeal", "typed"))


def test_csv_header_names_the_house_rules(client: FlaskClient) -> None:
    created = client.post("/api/v1/series", json={"players": ["Аня", "Борис"], "options": {"deck": 52}}).get_json()
    _, rows = csv_rows(client, created["id"], "en")
    assert rows[2][0] == "House rules" and "52" in rows[2][1]


def test_unknown_series(client: FlaskClient) -> None:
    assert client.get("/series/nope/scoresheet.pdf").status_code == 404
    assert client.get("/series/nope/scoresheet.csv").status_code == 404


def test_the_standings_page_links_the_scoresheet(client: FlaskClient, series: dict[str, Any]) -> None:
    play(client, series)
    page = client.get(f"/series/{series['id']}").get_data(as_text=True)
    for tail in ("/scoresheet.pdf", "/scoresheet.csv"):
        assert f"/series/{series['id']}{tail}" in page
    assert f"/api/v1/series/{series['id']}" in page


# -- the PDF: file name, cache, conditional GET, render slots, what WeasyPrint may read ----------


def _texts(box: Any) -> list[str]:
    found = [box.text] if hasattr(box, "text") and isinstance(box.text, str) else []
    for child in getattr(box, "children", []):
        found += _texts(child)
    return found


def test_pdf_is_named_by_date_and_players_and_cached_by_version(client: FlaskClient, series: dict[str, Any]) -> None:
    play(client, series)
    renderer = client.application.extensions["companion.pdf"]
    url = f"/series/{series['id']}/scoresheet.pdf"
    first = client.get(url, headers={"Accept-Language": "ru"})
    disposition = first.headers["Content-Disposition"]
    assert disposition.startswith('inline; filename="sto-odno-20') and disposition.endswith('-anya-boris-vera.pdf"')
    assert renderer.cache.renders == 1 and first.headers["ETag"]
    again = client.get(url, headers={"Accept-Language": "ru"})
    assert again.data == first.data and renderer.cache.renders == 1  # from the cache
    unchanged = client.get(url, headers={"Accept-Language": "ru", "If-None-Match": first.headers["ETag"]})
    assert unchanged.status_code == 304 and not unchanged.data
    english = client.get(url, headers={"Accept-Language": "en"})
    assert english.headers["ETag"] != first.headers["ETag"] and renderer.cache.renders == 2
    # a correction is a new version: rendered again, the old ETag no longer matches
    fixed = {"winner": "Борис", "finishing_card": "8♦", "typed_points": {"Аня": 30, "Вера": 10}}
    assert client.put(f"/api/v1/series/{series['id']}/rounds/3", json=fixed,
                      headers={"Authorization": f"Bearer {series['edit_token']}"}).status_code == 200
    stale = client.get(url, headers={"Accept-Language": "ru", "If-None-Match": first.headers["ETag"]})
    assert stale.status_code == 200 and stale.data != first.data and renderer.cache.renders == 3


def test_pdf_render_slots_answer_503_with_retry_after(client: FlaskClient, series: dict[str, Any]) -> None:
    from companion.ops import pdf

    folder = client.application.extensions["companion.pdf"].cache.folder
    client.application.extensions["companion.pdf"] = renderer = pdf.Renderer(folder, slots=1, queue_seconds=0)
    assert renderer.slots.acquire()  # someone else is rendering
    try:
        page = client.get(f"/series/{series['id']}/scoresheet.pdf", headers={"Accept-Language": "en"})
        assert page.status_code == 503 and page.headers["Retry-After"] == str(pdf.RETRY_AFTER_SECONDS)
        assert "Try again in a few seconds" in page.get_data(as_text=True) and page.mimetype == "text/html"
    finally:
        renderer.slots.release()
    assert client.get(f"/series/{series['id']}/scoresheet.pdf").status_code == 200


def test_a_render_gets_a_frame_that_declares_room_for_its_calls() -> None:
    import sys

    from companion.ops import pdf

    def nested(depth: int) -> bytes:  # a render entered deep in the caller's stack still renders
        return nested(depth - 1) if depth else pdf.html_to_pdf("<p>101</p>", "static")

    assert nested(200).startswith(b"%PDF-")
    assert pdf.with_stack_room(lambda: 101) == 101
    if sys.implementation.name == "cpython":
        assert pdf.with_stack_room.__code__.co_stacksize == pdf.STACK_ROOM_SLOTS
        assert pdf.STACK_ROOM_SLOTS * 8 > 128 * 1024  # more than half of a 256 KB chunk: never in one in use


def test_render_cache_keeps_within_its_bytes(tmp_path: Any) -> None:
    from companion.ops.pdf import RenderCache

    cache = RenderCache(tmp_path, max_bytes=10)
    cache.put(("a",), b"12345")
    cache.put(("b",), b"12345")
    assert cache.get(("a",)) == b"12345"  # a is now the most recent
    cache.put(("c",), b"12345")
    assert cache.get(("b",)) is None and cache.get(("a",)) and cache.get(("c",)) and cache.size == 10


def test_weasyprint_may_read_only_the_static_files(tmp_path: Any) -> None:
    from companion import ROOT
    from companion.ops.pdf import html_to_pdf, image_url

    secret = tmp_path / "secret.png"
    secret.write_bytes(b"\\x89PNG not really")
    static = str(ROOT / "static")
    fetched: list[str] = []
    import logging

    class Catch(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            fetched.append(record.getMessage())

    handler = Catch()
    inline = "data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4="
    own = {"dot.svg": ("image/svg+xml", b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"/>')}
    logging.getLogger("weasyprint").addHandler(handler)
    try:
        data = html_to_pdf(f'<img src="{secret.as_uri()}"><img src="http://127.0.0.1:9/x.png">'
                           f'<img src="../pyproject.toml"><img src="icons/icon.svg">'
                           f'<img src="{inline}"><img src="{image_url("dot.svg")}"><img src="{image_url("other.svg")}">'
                           f'<img src="ftp://127.0.0.1/x.png">', static, images=own)
    finally:
        logging.getLogger("weasyprint").removeHandler(handler)
    assert data.startswith(b"%PDF-")
    refused = " ".join(fetched)
    assert "secret.png" in refused and "127.0.0.1" in refused and "pyproject.toml" in refused
    assert "ftp://" in refused and "data:" in refused and "render:other.svg" in refused  # not one of its images
    assert "icon.svg" not in refused and "render:dot.svg" not in refused  # a static file, the render's own image


def test_the_sheet_has_chart_final_standings_and_corrections(client: FlaskClient, series: dict[str, Any]) -> None:
    from flask import render_template

    from companion.service import series as series_service
    from companion.storage.database import get_db
    from companion.web.http.links import qr_png
    from companion.web.pages import export

    play(client, series)
    fixed = {"winner": "Аня", "finishing_card": "Q♥", "hands": {"Борис": ["10c"], "Вера": ["qs"]}}
    assert client.put(f"/api/v1/series/{series['id']}/rounds/1", json=fixed,
                      headers={"Authorization": f"Bearer {series['edit_token']}"}).status_code == 200
    with client.application.test_request_context("/?lang=en"):
        context = export.sheet_context(series_service.load(get_db(), series["id"]))
        html = render_template("scoresheet.html", **context)
    chart = embedded(context, "chart.svg", "image/svg+xml").decode()  # the page's chart with its loss line, an image
    assert "<polyline" in chart and "stroke-dasharray" in chart and 'font-family="Sheet Sans"' in chart
    assert '<img src="render:chart.svg"' in html
    assert embedded(context, "qr.png", "image/png") == qr_png(f"http://localhost/series/{series['id']}")  # follow it
    assert '<p class="outcome">Final standings. Lost: Вера</p>' in html and "Вера in round 3 with" in html  # one
    assert "<h2>Final standings" not in html  # paragraph: the title, then the outcome, in the same bold face
    # the places in one paragraph that wraps between places, not within one (a line per place costs its own layout)
    assert '<p class="places">1.&nbsp;Аня&nbsp;−10 · 2.&nbsp;Борис&nbsp;10 · 3.&nbsp;Вера&nbsp;110 (lost)</p>' in html
    assert "Appendix: corrections" in html and "Round 1 changed" in html
    assert "size: A4 portrait" in html and "counter(pages)" in html
    assert "· 3 rounds · Аня · Борис · Вера</p>" in html  # the players on the date's line: a line fewer to lay out
    from companion import ROOT

    assert "thead { display: table-header-group; }" in (ROOT / "static" / export.SHEET_CSS).read_text()


def test_six_players_turn_the_sheet_to_landscape_and_a_long_series_repeats_its_header(client: FlaskClient) -> None:
    players = ["Аня", "Борис", "Вера", "Глеб", "Дина", "Егор"]
    created = client.post("/api/v1/series", json={"players": players, "ruleset": "igrafan", "starter": "Аня",
                                                  "options": {"deck": 52, "loss_above": 1000, "resets": {}}}).get_json()
    body = {"winner": "Аня", "finishing_card": "A♠", "typed_points": dict.fromkeys(players[1:], 1)}
    for _ in range(60):
        assert client.post(f"/api/v1/series/{created['id']}/rounds", json=body,
                           headers={"Authorization": f"Bearer {created['edit_token']}"}).status_code == 201

    from companion.service import series as series_service
    from companion.storage.database import get_db
    from companion.web.pages import export

    with client.application.test_request_context("/?lang=en"):
        html, images = export.sheet_document(series_service.load(get_db(), created["id"]))
    assert "size: A4 landscape" in html
    # the table's key: after the summary (the page's width, one line), right over the table
    key = html.index('<p class="note">In each square: the cards left in hand')
    assert html.index("</div>", html.index('<div class="summary">')) < key < html.index('<table class="rounds">')
    from companion import ROOT

    chart = images["chart.svg"][1].decode()
    assert chart.count("<text") == 1 and 'class="ticks"' in chart  # the round numbers; the loss label is a sentence
    assert "loss: over 1000" not in chart and 'class="loss"' not in html  # of the caption, no box over the image:
    assert "the dashed line is the loss line. Loss: over 1000. Each line" in html
    from PIL import Image

    from companion.web.present.series_view import PALETTE

    assert "".join(f"<th>{name}</th>" for name in players) in html
    rule = Image.open(io.BytesIO(images["header-rule.png"][1]))  # drawn under the header row, as wide as the table:
    assert rule.size == (export.TABLE_MM[True] * export.RULE_PX_PER_MM, 1)
    column = (export.TABLE_MM[True] - export.NUMBER_MM) / len(players)
    assert rule.getpixel((export.NUMBER_MM * export.RULE_PX_PER_MM // 2, 0)) == (0x1B, 0x1B, 0x1B)  # under the #
    for i, name in enumerate(players):  # a player's chart colour underlines their name in the table's header
        middle = round((export.NUMBER_MM + (i + 0.5) * column) * export.RULE_PX_PER_MM)
        assert bytes(rule.getpixel((middle, 0))).hex() == PALETTE[i % len(PALETTE)][1:], name
    from companion.ops import pdf

    with pdf.document(html, str(ROOT / "static"), export.SHEET_CSS, images) as document:
        assert len(document.pages) >= 2
        for number, page in enumerate(document.pages, 1):  # the table's header row on every page
            texts = _texts(page._page_box)
            assert page.width > page.height
            assert "#" in texts and players == texts[texts.index("#") + 1:texts.index("#") + 7]
            assert f"Page {number} / {len(document.pages)}" in " ".join(texts)


def test_the_pdf_text_has_every_square_with_its_cards_in_both_languages(client: FlaskClient,
                                                                        series: dict[str, Any]) -> None:
    import subprocess

    play(client, series)
    expected = {
        "ru": ("числом", "Вера: одни дамы в руке, 20.", "Вера — проигрыш, счёт 110. Партия окончена.", "Аня: выход на"),
        "en": ("typed in", "Вера held only queens: 20.", "Вера lost with 110. The series is over.", "Аня went out on"),
    }
    for lang, (typed, queens, end, said_by_the_square) in expected.items():
        response = client.get(f"/series/{series['id']}/scoresheet.pdf", headers={"Accept-Language": lang})
        text = subprocess.run(["pdftotext", "-layout", "-", "-"], input=response.data, capture_output=True,
                              check=True).stdout.decode()
        lines = [" ".join(line.split()) for line in text.splitlines()]
        assert "# Аня Борис Вера" in lines  # the table's header
        # round 1: Аня went out on Q♥ (−40); Борис kept 10♣ J♦ K♠ A♥ (+27), Вера only the Q♠ (+20)
        ranks = {"ru": "ДВКТ", "en": "QJKA"}[lang]
        assert f"•{ranks[0]}♥ −40 → −40" in text and f"{ranks[0]}♠ +20 → 20" in text
        assert f"10♣ {ranks[1]}♦ {ranks[2]}♠ {ranks[3]}♥ +27 → 27" in text
        assert f"{typed} +30 → −10" in text and f"{typed} +90 → 110" in text and "•8♦ 0 → 27" in text  # round 3
        # events in a line under their round, except what the squares already say (the queen, typed points)
        assert queens in lines and end in lines and said_by_the_square not in text


def test_a_square_is_one_text_the_cards_then_the_points_and_the_total() -> None:
    from companion.core.cards import parse_card
    from companion.web.pages.export import square
    from companion.web.present.series_view import Cell

    nbsp = "\u00a0"  # the points stay with the total when a long hand wraps
    hand = Cell(change=16, total=-4, typed=False, winner=False, hand=(parse_card("6♣"), parse_card("10♦")))
    assert square(hand, "Д♣") == f"6♣ 10♦ +16{nbsp}→{nbsp}−4"
    assert square(Cell(change=-20, total=-20, typed=False, winner=True), "Д♣") == f"•Д♣ −20{nbsp}→{nbsp}−20"
    assert square(Cell(change=30, total=45, typed=True, winner=False), "8♦") == f"typed in +30{nbsp}→{nbsp}45"
    assert square(Cell(change=0, total=12, typed=False, winner=False), "8♦") == f"0{nbsp}→{nbsp}12"
    assert square(Cell(change=None, total=120, typed=False, winner=False), "8♦") == "120"


def test_two_players_the_other_one_wins() -> None:
    from companion.core.series import RoundInput, SeriesSetup, replay
    from companion.core.stats import final_standings

    setup = SeriesSetup.create(["Аня", "Борис"], "pharaoh", None, "Аня")
    body = {"winner": "Аня", "finishing_card": "A♠", "typed_points": {"Борис": 60}}
    entries = [RoundInput.from_json(body, setup)] * 2
    final = final_standings(replay(setup, entries))
    assert final.finished and final.winner == "Аня" and final.losers == ("Борис",)
    assert [p.name for p in final.places] == ["Аня", "Борис"] and final.out[0].out_round == 2


def test_the_pdf_chart_numbers_its_rounds_in_one_text_centred_where_the_page_centres_them() -> None:
    from fontTools.ttLib import TTFont  # type: ignore[import-untyped]

    from companion import ROOT
    from companion.web.pages import export

    ticks = [{"n": n, "x": 8.0 + 2.7 * n} for n in range(1, 121)]  # 120 rounds: every 20th of them printed
    axis = export.print_chart({"ticks": ticks})["axis"]
    assert axis["text"] == "1" + "".join(str(n) for n in (21, 41, 61, 81, 101))
    xs = [float(x) for x in axis["x"].split()]
    digit = export.DIGIT_EM * export.TICK_SIZE
    assert xs[0] == round(10.7 - digit / 2, 1) and xs[1:3] == [round(64.7 - digit, 1), round(64.7, 1)]  # 1, 21
    assert xs[-3:] == [round(280.7 - 1.5 * digit + i * digit, 1) for i in range(3)]  # 101, centred on its x
    font = TTFont(ROOT / "static" / "fonts" / "dejavu-sans.woff2")  # the sheet's font: every digit as wide
    assert {font["hmtx"][font.getBestCmap()[ord(d)]][0] / font["head"].unitsPerEm for d in "0123456789"} == {
        export.DIGIT_EM}


def test_the_pdf_qr_code_is_a_grey_png_of_the_same_modules() -> None:
    import segno
    from PIL import Image

    from companion.web.http.links import qr_png

    url = "http://club.example/series/abc"
    grey = Image.open(io.BytesIO(qr_png(url)))
    modules = [0 if dark else 255 for row in segno.make(url, error="m").matrix_iter(scale=1, border=4) for dark in row]
    assert grey.mode == "L" and grey.size == segno.make(url, error="m").symbol_size(scale=1, border=4)
    assert list(grey.tobytes()) == modules


def test_the_pdf_chart_caption_says_the_loss_line_as_the_rules_say_it_in_russian(client: FlaskClient) -> None:
    from companion.service import series as series_service
    from companion.storage.database import get_db
    from companion.web.pages import export

    created = client.post("/api/v1/series", json={"players": ["Аня", "Борис"], "ruleset": "igrafan", "starter": "Аня",
                                                  "options": {"loss_above": 99}}).get_json()
    body = {"winner": "Аня", "finishing_card": "A♠", "typed_points": {"Борис": 5}}
    assert client.post(f"/api/v1/series/{created['id']}/rounds", json=body,
                       headers={"Authorization": f"Bearer {created['edit_token']}"}).status_code == 201
    with client.application.test_request_context("/", headers={"Accept-Language": "ru"}):
        html, images = export.sheet_document(series_service.load(get_db(), created["id"]))
    assert "пунктир — черта проигрыша. Проигрыш: от 100. Цвет линии" in html  # "100 or more", said once, under it
    assert "от 100" not in images["chart.svg"][1].decode()
