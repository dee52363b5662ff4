"""The scoresheet of a series: PDF to keep or share, CSV for spreadsheets (JSON is the API).

Both are written from the same series view-model as the page (`series_view`).
"""

from __future__ import annotations

import csv
import io
from datetime import datetime
from typing import Any

from flask import Blueprint, Response, current_app, render_template
from markupsafe import Markup, escape

from ..i18n import current_language, gettext
from ..pdf import html_to_pdf
from ..series_service import Series
from .links import public_url, qr_svg
from .pages import load_or_404
from .series_view import series_view

bp = Blueprint("export", __name__)


def suited(text: str) -> Markup:
    """Card text with red suits in red (the PDF font has the suit signs)."""
    return Markup("").join(
        Markup('<span class="red">{}</span>').format(char) if char in "♥♦" else escape(char) for char in text
    )


def sheet_context(series: Series) -> dict[str, Any]:
    view_url = public_url("series.show", series_id=series.id)
    created = datetime.fromisoformat(series.row.created_at)
    return {
        "game": series,
        "view": series_view(series),
        "ruleset_name": series.setup.ruleset.name[current_language()],
        "created": created.strftime("%d.%m.%Y"),
        "view_url": view_url,
        "qr": qr_svg(view_url),
        "suited": suited,
    }


@bp.get("/series/<series_id>/scoresheet.pdf")
def scoresheet_pdf(series_id: str) -> Response:
    series = load_or_404(series_id)
    html = render_template("scoresheet.html", **sheet_context(series))
    pdf = html_to_pdf(html, current_app.static_folder or "static")
    response = Response(pdf, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="101-{series.id}.pdf"'
    response.headers["Vary"] = "Accept-Language, Cookie"
    return response


@bp.get("/series/<series_id>/scoresheet.csv")
def scoresheet_csv(series_id: str) -> Response:
    series = load_or_404(series_id)
    view = series_view(series)
    names = [p.name for p in view.players]
    out = io.StringIO()
    out.write("\ufeff")  # lets spreadsheet programs read the file as UTF-8
    writer = csv.writer(out)
    writer.writerow([gettext("Round"), gettext("Winner"), gettext("Last card")]
                    + [f"{p}: {gettext('points')}" for p in names]
                    + [f"{p}: {gettext('total')}" for p in names]
                    + [gettext("Events")])
    for r in view.rounds:
        writer.writerow(
            [r.n, gettext("redeal") if r.redeal else r.winner, r.finish]
            + ["" if c.change is None else c.change for c in r.cells]
            + [c.total for c in r.cells]
            + ["; ".join(r.all_events)]
        )
    response = Response(out.getvalue(), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="101-{series.id}.csv"'
    return response
