"""Russian plural forms and language choice of the phone UI (that every string has its Russian: tests/test_i18n.py)."""

from __future__ import annotations

import pytest
from flask import Flask


@pytest.mark.parametrize("n, expected", [(1, "1 очко"), (3, "3 очка"), (5, "5 очков"), (11, "11 очков"),
                                         (21, "21 очко"), (24, "24 очка"), (112, "112 очков")])
def test_russian_plurals_of_points(app: Flask, n: int, expected: str) -> None:
    from companion.web.present.series_view import points_to_loss_text

    with app.test_request_context("/?lang=ru"):
        assert points_to_loss_text(n).replace("%(num)s", str(n)).startswith(expected)


def test_english_pages_show_no_russian_ui_text(client: Flask) -> None:
    page = client.get("/?lang=en").get_data(as_text=True)  # type: ignore[attr-defined]
    for russian in ("Новая партия", "Правила", "Начать партию", "Домашние правила"):
        assert russian not in page
