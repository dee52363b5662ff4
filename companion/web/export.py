"""The scoresheet of a series: PDF to keep or share, CSV for spreadsheets (JSON is the API)."""

from __future__ import annotations

import csv
import io
from datetime import datetime
from typing import Any

from flask import Blueprint, Response, current_app, render_template
from flask_babel import gettext

from markupsafe import Markup, escape

from .. import series_service
from ..i18n import current_language
from ..pdf import html_to_pdf
from . import ui

bp = Blueprint("export", __name__)



def suited(text: str) -> Markup:
    """Card text with red suits in red (the PDF font has the suit signs)."""
    return Markup("").join(
        Markup('<span class="red">{}</span>').format(char) if char in "♥♦" else escape(char) for char in text
    )


def sheet_context(game: series_service.Series) -> dict[str, Any]:
    view_url = ui.public_url("series.show", series_id=game.id)
    created = datetime.fromisoformat(game.row.created_at)
    return {
        "game": game,
        "view": ui.standings_view(game),
        "ruleset_name": game.setup.ruleset.name[current_language()],
        "created": created.strftime("%d.%m.%Y"),
        "view_url": view_url,
        "qr": ui.qr_svg(view_url),
        "suited": suited,
    }


@bp.get("/series/<series_id>/scoresheet.pdf")
def scoresheet_pdf(series_id: str) -> Response:
    game = ui.load_or_404(series_id)
    html = render_template("scoresheet.html", **sheet_context(game))
    pdf = html_to_pdf(html, current_app.static_folder or "static")
    response = Response(pdf, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="101-{game.id}.pdf"'
    response.headers["Vary"] = "Accept-Language, Cookie"
    return response


@bp.get("/series/<series_id>/scoresheet.csv")
def scoresheet_csv(series_id: str) -> Response:
    game = ui.load_or_404(series_id)
    players = game.setup.players
    out = io.StringIO()
    out.write("\ufeff")  # lets spreadsheet programs read the file as UTF-8
    writer = csv.writer(out)
    writer.writerow([gettext("Round"), gettext("Winner"), gettext("Last card")]
                    + [f"{p}: {gettext('points')}" for p in players]
                    + [f"{p}: {gettext('total')}" for p in players]
                    + [gettext("Events")])
    for r in game.standings.rounds:
        entry = r.entry
        writer.writerow(
            [r.n, gettext("redeal") if entry.redeal else entry.winner, str(entry.finishing_card or "")]
            + [r.points.get(p, "") for p in players]
            + [r.totals[p] for p in players]
            + ["; ".join(ui.event_text(e) for e in r.events)]
        )
    response = Response(out.getvalue(), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="101-{game.id}.csv"'
    return response
