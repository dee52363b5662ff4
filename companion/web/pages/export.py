"""The scoresheet of a series: PDF to keep or share, CSV for spreadsheets (JSON is the API and the export).

Both are written from the same series view-model as the page (`series_view`).
The PDF is rendered at most a few at a time and kept by (series, version,
language): a repeated request of an unchanged series is answered from the
cache, or with 304 when the client sends the ETag it got (see `companion.pdf`).
"""

from __future__ import annotations

import csv
import functools
import io
import re
from datetime import datetime
from typing import Any

from flask import Blueprint, Response, current_app, render_template, request
from markupsafe import Markup

from companion.core.stats import final_standings
from companion.i18n import current_language, gettext
from companion.ops import pdf
from companion.ops.security import SafeCsvWriter
from companion.service.series import Series
from companion.storage.database import get_db, round_history
from companion.web.errors import answer
from companion.web.http.conditional import conditional
from companion.web.http.links import public_url, qr_png
from companion.web.http.pages import load_or_404
from companion.web.present.numbers import minus, signed, zone_key
from companion.web.present.rules_text import series_rules_lines
from companion.web.present.scoresheet import Sheet, scoresheet
from companion.web.present.series_view import (
    Cell,
    SeriesView,
    dispute_text,
    event_text,
    history_view,
    series_view,
)

bp = Blueprint("export", __name__)
bp.record_once(lambda state: pdf.init_app(state.app))

# Above this many players the columns do not fit an A4 page upright: the sheet turns to landscape.
PORTRAIT_MAX_PLAYERS = 5
# The page's width for the rounds table, by orientation (static/scoresheet.css: A4 less the 12 mm margins),
# and the round numbers' column (`col.n`).
TABLE_MM = {False: 210 - 24, True: 297 - 24}
NUMBER_MM = 8


NBSP = "\u00a0"


def square(cell: Cell, finish: str) -> str:
    """One player's square of a round in the PDF: what made the round's points, the points, the total.

    One text, one line when it fits ("2♣ 3♦ +5 → −13"; the winner's "•Д♣ −20 → −20"): WeasyPrint
    lays out one text run, not a box per part (see docs/benchmarks.md, PDF scoresheet). The squares are
    right-aligned, so the totals stand in a column at the right edge; a long hand wraps before its
    points, which stay with the total (no-break spaces).
    """
    total = minus(cell.total)
    if cell.change is None:  # not in play this round
        return total
    points = f"{signed(cell.change) if cell.change else '0'}{NBSP}→{NBSP}{total}"
    if cell.winner:
        what = f"•{finish}"
    elif cell.cards:
        what = cell.cards
    elif cell.typed:
        what = gettext("typed in")
    else:
        return points
    return f"{what} {points}"


# Events the round's squares already say: the winner's square shows the card and its points, a typed
# square says "typed in", a redeal has its own row. The PDF prints the others (resets, a hand of only
# queens, who lost or left, the end) in a line under the round.
SAID_BY_THE_SQUARES = frozenset({"queen-finish", "typed-points", "redeal"})


def sheet_rows(view: SeriesView) -> list[dict[str, Any]]:
    """The rounds table of the PDF: per round its number, one text per player square, and the events
    the squares do not already say, as one line (empty when there are none)."""
    rows = []
    for line, played in zip(view.rounds, view.series.standings.rounds, strict=True):
        events = [event_text(e) for e in played.events if e.get("type") not in SAID_BY_THE_SQUARES]
        events += [dispute_text(player, note) for player, note in line.disputes]
        rows.append({"n": line.n, "redeal": line.redeal, "cells": [square(c, line.finish) for c in line.cells],
                     "events": " ".join(f"{e}." for e in events)})  # each event is a sentence of its own
    return rows


def css_string(text: str) -> Markup:
    """Text for a CSS string inside the sheet's <style> (page footer).

    Anything but letters, digits and spaces is escaped.
    """
    return Markup("".join(c if c.isalnum() or c == " " else f"\\{ord(c):x} " for c in text))


def corrections(series: Series) -> list[dict[str, Any]]:
    """Every round changed or removed after it was entered, oldest first, for the appendix."""
    return list(reversed(history_view(round_history(get_db(), series.id))))


PRINT_TICKS = 6  # round numbers along the PDF chart's axis, at most (each label is one more text to lay out)
TICK_SIZE = 9  # the chart's round numbers, in its units (templates/_chart.html)
DIGIT_EM = 1303 / 2048  # the width of every digit of the sheet's font (DejaVu Sans: tabular figures)


def print_chart(chart: dict[str, Any]) -> dict[str, Any]:
    """The series page's chart with at most PRINT_TICKS round numbers on its axis, as one text, and its loss
    label said by the figure's caption instead (templates/scoresheet.html).

    WeasyPrint lays out an SVG text letter by letter, and a centred one (`text-anchor="middle"`) as a
    drawing of its own: the page's one text per number cost about 2 % of a 10-round sheet. Here every
    digit is placed where the centred number would put it (the font's digits are all DIGIT_EM wide), in
    one text starting at the left (`axis`: the x of each digit, and the digits). The loss label, an SVG text of
    21 letters (about 2 % of the sheet) and then a line of HTML placed over the image (1.5 %: an absolutely placed
    box), is a sentence of the caption under the chart: it says which line is the loss line already."""
    ticks = chart["ticks"][:: -(-len(chart["ticks"]) // PRINT_TICKS) or 1]
    digit = DIGIT_EM * TICK_SIZE
    xs, digits = [], []
    for tick in ticks:
        number = str(tick["n"])
        start = tick["x"] - len(number) * digit / 2
        xs += [f"{start + i * digit:.1f}" for i in range(len(number))]
        digits.append(number)
    return {**chart, "ticks": ticks, "axis": {"x": " ".join(xs), "text": "".join(digits)}, "label_in_caption": True}


def chart_svg(chart: dict[str, Any]) -> bytes:
    """The series page's chart as an SVG image of its own, its labels in the sheet's font.

    As an image WeasyPrint reads the SVG with its own small parser and styles it by its own attributes;
    inline in the HTML it was parsed and styled as part of the page (about a tenth of a 10-round sheet)."""
    return render_template("_chart.html", chart=chart, chart_font=SHEET_FONT).encode("utf-8")


RULE_INK = "#1b1b1b"  # the header's rule under the round numbers (static/scoresheet.css: the text's ink)
RULE_PX_PER_MM = 10


@functools.lru_cache(maxsize=64)
def header_rule_png(colours: tuple[str, ...], landscape: bool) -> bytes:
    """The rule under the rounds table's header: black under the round numbers, then each player's chart colour
    under their name, as one image of the header row's width, RULE_PX_PER_MM pixels to the millimetre and one
    pixel high (the print stylesheet draws it 2 pt high, unsmoothed: `thead.key tr`).

    One image on the row, not a one-sided border per cell with a class per colour: WeasyPrint draws a one-sided
    border in pieces, and computes a style of its own for each cell that has a class of its own (together
    about 3 % of a 10-round sheet). The columns are the table's fixed layout: NUMBER_MM, then equal shares."""
    from PIL import Image

    width = TABLE_MM[landscape]
    edges = [round((NUMBER_MM + i * (width - NUMBER_MM) / len(colours)) * RULE_PX_PER_MM)
             for i in range(len(colours) + 1)]
    row = bytes.fromhex(RULE_INK[1:]) * edges[0]
    for colour, start, end in zip(colours, edges, edges[1:], strict=False):
        row += bytes.fromhex(colour[1:]) * (end - start)
    out = io.BytesIO()
    Image.frombytes("RGB", (edges[-1], 1), row).save(out, format="PNG")
    return out.getvalue()


@functools.lru_cache(maxsize=1)
def rule_png() -> bytes:
    """One pixel of RULE_INK: the rule over the totals, a strip of their row (`tr.totals`), not a border per cell."""
    from PIL import Image

    out = io.BytesIO()
    Image.frombytes("RGB", (1, 1), bytes.fromhex(RULE_INK[1:])).save(out, format="PNG")
    return out.getvalue()


def sheet_context(series: Series) -> dict[str, Any]:
    view_url = public_url("series.show", series_id=series.id)
    created = datetime.fromisoformat(series.row.created_at)
    view = series_view(series)
    chart = view.chart if view.rounds else None  # a property that builds the chart: once
    names = [p.name for p in view.players]
    landscape = len(names) > PORTRAIT_MAX_PLAYERS
    footer = f"{gettext('One hundred and one')} · {', '.join(names)} · {created.strftime('%d.%m.%Y')}"
    return {
        "view": view,
        "images": {
            "qr.png": ("image/png", qr_png(view_url)),  # static/scoresheet.css: `.qr`
            "header-rule.png": ("image/png", header_rule_png(tuple(p.colour for p in view.players), landscape)),
            "rule.png": ("image/png", rule_png()),
            **({"chart.svg": ("image/svg+xml", chart_svg(print_chart(chart)))} if chart else {}),
        },
        "chart_src": pdf.image_url("chart.svg"),
        "final": final_standings(series.standings),
        "next_starter": series.standings.next_starter,
        "corrections": corrections(series),
        "rules_lines": series_rules_lines(series),
        "landscape": landscape,
        "loss_label": chart["loss_label"] if chart else None,  # said by the chart's caption (templates/scoresheet.html)
        "ruleset_name": gettext(series.setup.ruleset.name),
        "created": created.strftime("%d.%m.%Y"),
        "rows": sheet_rows(view),
        "footer": css_string(footer),
        "page_label": css_string(gettext("Page")),
    }


def sheet_name(series: Series, extension: str) -> str:
    return pdf.sheet_filename(series.row.created_at, list(series.setup.players), extension)


def compact(html: str) -> str:
    """The sheet without the template's indentation between tags: each such gap would be a text box to lay out."""
    return re.sub(r">\s*\n\s*<", "><", html)


SHEET_CSS = "scoresheet.css"  # the sheet's print stylesheet, in the static folder
SHEET_FONT = "Sheet Sans"  # the font its @font-face rules name


def sheet_document(series: Series) -> tuple[str, pdf.Images]:
    """The scoresheet's HTML for WeasyPrint (styled by `SHEET_CSS`) and the images it names (`pdf.image_url`)."""
    context = sheet_context(series)
    return compact(render_template("scoresheet.html", **context)), context["images"]


def render_pdf(series: Series) -> bytes:
    """The series' PDF in the request's language, from the cache when this version was rendered before."""
    renderer: pdf.Renderer = current_app.extensions["companion.pdf"]
    key = (series.id, series.row.stamp, series.row.updated_at, current_language(), request.host_url, zone_key())

    def render() -> bytes:
        html, images = sheet_document(series)
        return pdf.html_to_pdf(html, current_app.static_folder or "static", SHEET_CSS, images)

    return renderer.get_or_render(key, render)


@bp.get("/series/<series_id>/scoresheet.pdf")
def scoresheet_pdf(series_id: str) -> Response:
    series = load_or_404(series_id)
    filename = sheet_name(series, "pdf")

    def render() -> Response:
        response = Response(render_pdf(series), mimetype="application/pdf")
        response.headers["Content-Disposition"] = f'inline; filename="{filename}"'
        return response

    headers = {"Vary": "Accept-Language, Cookie", "Cache-Control": "private, no-cache"}
    try:
        etag = f"pdf-{series.id}-v{series.row.stamp}-{current_language()}-{zone_key()}"  # its times are the table's
        return conditional(etag, render, headers=headers)
    except pdf.RenderBusy:
        response = answer(
            503,
            "busy",
            gettext("Many scoresheets are being prepared right now. Try again in a few seconds."),
            title=gettext("Please wait a moment"),
        )
        response.headers["Retry-After"] = str(pdf.RETRY_AFTER_SECONDS)
        return response


# -- CSV ---------------------------------------------------------------------------------

# Spreadsheets split a CSV by the list separator of the user's locale: Russian
# Excel and LibreOffice expect ";" (the comma is their decimal sign), English ones ",".
CSV_DELIMITERS = {"ru": ";", "en": ","}


def csv_text(sheet: Sheet, delimiter: str) -> str:
    """The sheet as CSV: its facts, an empty line, then the rounds table; every cell through `SafeCsvWriter`."""
    out = io.StringIO()
    out.write("\ufeff")  # lets spreadsheet programs read the file as UTF-8
    writer = SafeCsvWriter(csv.writer(out, delimiter=delimiter, lineterminator="\r\n"))
    for label, value in sheet.facts:
        writer.writerow([label, value])
    writer.writerow([])
    writer.writerow(sheet.columns)
    for row in sheet.rows:
        writer.writerow(row)
    return out.getvalue()


@bp.get("/series/<series_id>/scoresheet.csv")
def scoresheet_csv(series_id: str) -> Response:
    series = load_or_404(series_id)
    sheet = scoresheet(series_view(series), public_url("series.show", series_id=series.id))
    text = csv_text(sheet, CSV_DELIMITERS.get(current_language(), ","))
    response = Response(text, mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="{sheet_name(series, "csv")}"'
    response.headers["Vary"] = "Accept-Language, Cookie"
    return response
