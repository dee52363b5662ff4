"""«Поделиться итогом»: the series' result as text and image, shared in one tap.

With the Web Share API (a phone on HTTPS) one button opens the phone's share sheet with the text
and the chart image (`static/share.js`); elsewhere (plain HTTP on a LAN) the text is copied with
one tap, and the Telegram and WhatsApp links open with it filled in. Without JavaScript the text
is on the page to select, and the two links work as they are.
"""

from __future__ import annotations

from urllib.parse import quote

from flask import Blueprint, Response

from companion.web.http.pages import load_or_404, page
from companion.web.present.summary import share_summary

bp = Blueprint("summary", __name__)


@bp.get("/series/<series_id>/result")
def result(series_id: str) -> Response:
    series = load_or_404(series_id)
    told, image = share_summary(series)
    text = told.text
    without_url = text.rsplit("\n", 1)[0]  # Telegram puts the link above the text itself
    links = {
        "telegram": f"https://t.me/share/url?url={quote(told.url, safe='')}&text={quote(without_url, safe='')}",
        "whatsapp": f"https://wa.me/?text={quote(text, safe='')}",
    }
    return page("result.html", series=series, summary=told, text=text, image_url=image, links=links,
                file_name=f"sto-odno-{series.id}.png")
