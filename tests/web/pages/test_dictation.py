"""The round page's dictation field (issues 10, 21): the form path that htmx and the no-JS form share."""

from __future__ import annotations

import re
from typing import Any

from flask.testing import FlaskClient

PLAYERS = ["Аня", "Борис", "Вера"]


# -- the round page's text field without JavaScript ---------------------------------


def test_round_page_fills_the_grid_from_text_and_saves_only_what_was_shown(app: Any, client: FlaskClient) -> None:
    from tests.web.pages.test_play import create, load

    series_id = create(client)
    url = f"/series/{series_id}/round"
    v = str(load(app, series_id).version)
    text = "Аня вышла на десятке пик. У Бориса туз и король пик. У Веры джокер и две десятки. У Глеба дама и туз червей"
    page = client.post(url, data={"version": v, "say": text, "op": "say"})
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and len(load(app, series_id).entries) == 0  # shown, not stored
    assert re.search(r'name="winner" value="0"[^>]*checked', html)
    assert re.search(r'name="finishing_card" value="10S"[^>]*checked', html)
    assert re.search(r'name="hand-1" value="KS"[^>]*checked', html)
    assert "«джокер»" in html and "Не понято" in html
    assert f'name="said" value="{text}"' in html
    # «Save as said» with the grid showing that text saves it as it stands
    data = {
        "version": v,
        "say": text,
        "said": text,
        "op": "say-save",
        "winner": "0",
        "finishing_card": "10S",
        "hand-1": ["AS", "KS"],
        "hand-2": ["10H", "10C"],
        "hand-3": ["QD", "AH"],
    }
    saved = client.post(url, data=data)
    assert saved.status_code == 303 and dict(load(app, series_id).standings.totals)["Вера"] == 20
    # «Save as said» with a text the reader is sure of saves it in one tap
    text2 = "Борис вышел на семёрке пик. У Ани туз. У Веры король. У Глеба девятка"
    v = str(load(app, series_id).version)
    again = client.post(url, data={"version": v, "say": text2, "op": "say-save"})
    assert again.status_code == 303 and len(load(app, series_id).entries) == 2
    assert load(app, series_id).entries[1].winner == "Борис"
    # an empty text says what to write, next to the field
    empty = client.post(url, data={"version": v, "say": " ", "op": "say"})
    assert empty.status_code == 422 and "Сначала скажите или напишите раунд" in empty.get_data(as_text=True)


def test_save_as_said_says_what_to_check_and_marks_the_asked_cards(app: Any, client: FlaskClient) -> None:
    from tests.web.pages.test_play import create, load

    series_id = create(client)
    url = f"/series/{series_id}/round"
    v = str(load(app, series_id).version)
    text = "Аня вышла на тузе пик. У Бориса две дамы. У Веры семёрка. У Глеба король"
    refused = client.post(url, data={"version": v, "say": text, "op": "say-save"})
    html = refused.get_data(as_text=True)
    assert refused.status_code == 422 and len(load(app, series_id).entries) == 0  # never a silent re-render
    assert "Пока не сохранено" in html and "У игрока Борис дамы (2): каких мастей?" in html
    assert html.count("Борис дамы") == 1  # asked once for the group
    # the two queens are shown in Борис's grid, every free queen marked as needing its suit
    assert len(re.findall(r'class="c[^"]* ask"><input type="checkbox" name="hand-1" value="Q[SHDC]"', html)) == 4
    assert re.search(r'name="finishing_card" value="AS"[^>]*checked', html)
    assert f'name="said" value="{text}"' in html
    # the same text again, the grid untouched: still refused
    grid = {"winner": "0", "finishing_card": "AS", "hand-2": ["7S"], "hand-3": ["KH"]}
    again = client.post(url, data={"version": v, "say": text, "said": text, "op": "say-save", **grid})
    assert again.status_code == 422 and len(load(app, series_id).entries) == 0
    # the queens tapped in the grid: the table's answer is saved
    done = client.post(url, data={"version": v, "say": text, "said": text, "op": "say-save", **grid,
                                  "hand-1": ["QH", "QC"]})
    assert done.status_code == 303 and len(load(app, series_id).entries) == 1


def test_a_name_of_nobody_at_the_table_never_credits_the_player_before(app: Any, client: FlaskClient) -> None:
    from tests.web.pages.test_play import create, load

    series_id = create(client)  # Аня, Борис, Вера, Глеб
    url = f"/series/{series_id}/round"
    v = str(load(app, series_id).version)
    text = "Аня вышла на тузе пик. Вера: король. Гоша: туз бубновый, семёрка. У Бориса валет"
    html = client.post(url, data={"version": v, "say": text, "op": "say"}).get_data(as_text=True)
    assert re.search(r'name="hand-2" value="K[HCD]"[^>]*checked', html)  # Вера's king, the suit assumed
    assert not re.search(r'name="hand-\d" value="(AD|7[SHDC])"[^>]*checked', html)  # Гоша's cards: nobody's
    assert "«Гоша» — такого игрока за столом нет. Чьи карты Т♦, 7?" in html


def test_dictation_as_htmx_answers_with_the_filled_form(app: Any, client: FlaskClient) -> None:
    from tests.web.pages.test_play import create, load

    series_id = create(client)
    url = f"/series/{series_id}/round"
    v = str(load(app, series_id).version)
    text = "Боря вышел на даме червей. У Ани туз. У Веры семёрка. У Глеба десятка"
    r = client.post(url, data={"version": v, "say": text, "op": "say"}, headers={"HX-Request": "true"})
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and len(load(app, series_id).entries) == 0
    assert 'id="round-form"' in html and re.search(r'name="winner" value="1"[^>]*checked', html)
    assert re.search(r'name="finishing_card" value="QH"[^>]*checked', html)
    assert "Всё сказанное понятно" in html
    # the field emptied while dictating: nothing to fill and no error shown (204: htmx swaps nothing)
    empty = client.post(url, data={"version": v, "say": "", "op": "say"}, headers={"HX-Request": "true"})
    assert empty.status_code == 204
