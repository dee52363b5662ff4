"""Every string of the phone UI has its Russian, with Russian plural forms."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file
from babel.messages.pofile import read_po
from flask import Flask

ROOT = Path(__file__).resolve().parent.parent
CATALOG = ROOT / "companion/translations/ru/LC_MESSAGES/scorekeeper.po"
PYTHON = ["companion/web/play.py", "companion/web/ui.py", "companion/web/series.py", "companion/web/shell.py"]
TEMPLATES = ["base.html", "error.html", "start.html", "share.html", "series.html", "_standings.html",
             "_cards.html", "_preview.html", "round.html"]
PLURAL_FORMS = ("nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && "
                "(n%100<10 || n%100>=20) ? 1 : 2);")
KEYWORDS = {**DEFAULT_KEYWORDS, "N_": None}


def ui_messages() -> set[str | tuple[str, ...]]:
    found: set[str | tuple[str, ...]] = set()
    files = [("python", ROOT / p) for p in PYTHON] + [("jinja2", ROOT / "templates" / t) for t in TEMPLATES]
    for method, path in files:
        for _line, message, _comments, _context in extract_from_file(method, str(path), keywords=KEYWORDS):
            found.add(message)
    return found


def test_every_ui_string_has_its_russian() -> None:
    with CATALOG.open("rb") as f:
        catalog = read_po(f)
    assert catalog.plural_forms == PLURAL_FORMS
    missing = []
    for message in ui_messages():
        key = message[0] if isinstance(message, tuple) else message
        entry = catalog.get(key)
        if entry is None or not entry.string or (isinstance(message, tuple) and not all(entry.string)):
            missing.append(key)
        elif isinstance(message, tuple):
            assert len(entry.string) == 3, key
    assert not missing, f"untranslated: {missing}"


@pytest.mark.parametrize("n, expected", [(1, "1 очко"), (3, "3 очка"), (5, "5 очков"), (11, "11 очков"),
                                         (21, "21 очко"), (24, "24 очка"), (112, "112 очков")])
def test_russian_plurals_of_points(app: Flask, n: int, expected: str) -> None:
    from companion.web.ui import points_to_loss_text

    with app.test_request_context("/?lang=ru"):
        assert points_to_loss_text(n).replace("%(num)s", str(n)).startswith(expected)


def test_english_pages_show_no_russian_ui_text(client: Flask) -> None:
    page = client.get("/?lang=en").get_data(as_text=True)  # type: ignore[attr-defined]
    for russian in ("Новая партия", "Правила", "Начать партию", "Домашние правила"):
        assert russian not in page
