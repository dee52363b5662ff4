"""PDF rendering with WeasyPrint, fonts from static/fonts (no system font needed)."""

from __future__ import annotations

from pathlib import Path


def html_to_pdf(html: str, static_folder: str) -> bytes:
    # Imported here: WeasyPrint takes a while to import and only this export needs it.
    from weasyprint import HTML
    from weasyprint.text.fonts import FontConfiguration

    fonts = FontConfiguration()
    base = Path(static_folder).resolve().as_uri() + "/"
    pdf: bytes = HTML(string=html, base_url=base).write_pdf(font_config=fonts)
    return pdf
