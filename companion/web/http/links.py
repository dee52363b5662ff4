"""Links another phone can open, and their QR codes."""

from __future__ import annotations

import io
from functools import lru_cache
from typing import Any

import segno
from flask import current_app, request, url_for
from markupsafe import Markup

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")


def public_url(endpoint: str, **values: Any) -> str:
    """An absolute link another phone can open (for QR codes and shared links).

    Opened on the serving machine itself (localhost), the request's host would
    be useless to other phones, so the network address `companion serve`
    found (config PUBLIC_URL) is used instead.
    """
    base = request.host_url
    public = current_app.config.get("PUBLIC_URL")
    if public and request.host.rsplit(":", 1)[0] in LOOPBACK_HOSTS:
        base = public
    return base.rstrip("/") + url_for(endpoint, **values)


@lru_cache(maxsize=1024)
def qr_svg(url: str) -> Markup:
    """A QR code of `url` as inline SVG without a fixed size (CSS sizes it).

    Kept per URL: encoding one (choosing among eight masks) took 3 ms, a third of everything
    but WeasyPrint in a scoresheet, and a series' or table's link does not change."""
    return Markup(segno.make(url, error="m").svg_inline(scale=4, dark="#000", light="#fff", omitsize=True))


@lru_cache(maxsize=1024)
def qr_png(url: str) -> bytes:
    """A QR code of `url` as an 8-bit grey PNG with one pixel per module (for the PDFs).

    The print stylesheet scales it up without smoothing (`image-rendering: pixelated`), so it prints as
    sharp as the SVG; WeasyPrint reads a small PNG in a fraction of the time it takes to lay out the
    SVG's path, and a grey one after a single decode (a 1-bit PNG it first converted to RGB and encoded
    again). Pillow is imported here, when a PDF is made, not by every idle process. Kept per URL."""
    from PIL import Image

    code = segno.make(url, error="m")
    width, height = code.symbol_size(scale=1, border=4)
    pixels = bytes(0 if dark else 255 for row in code.matrix_iter(scale=1, border=4) for dark in row)
    out = io.BytesIO()
    Image.frombytes("L", (int(width), int(height)), pixels).save(out, format="PNG")
    return out.getvalue()


def faq_url(slug: str, ruleset: str | None = None) -> str:
    """The site-relative link of a FAQ entry, read with a rule set's notes when one is named."""
    return f"/faq/{slug}" + (f"?ruleset={ruleset}" if ruleset else "")
