"""Screens that say more (issue 10), through the Flask test client: end screens, chart, minus signs,
the no-JavaScript check button, the undo offer, the share page's state."""

from __future__ import annotations

import re
from typing import Any

from flask.testing import FlaskClient

BIG = ["AS", "AH", "AC", "AD", "KH", "KC", "KD", "10S", "10H", "10C", "10D", "JS", "JH", "JC"]


def api_series(client: FlaskClient, players: list[str], ruleset: str = "igrafan") -> dict[str, Any]:
    r = client.post("/api/v1/series", json={"players": players, "ruleset": ruleset, "starter": players[0]})
    assert r.status_code == 201
    return r.get_json()


def api_round(client: FlaskClient, series: dict[str, Any], body: dict[str, Any]) -> None:
    r = client.post(
        f"/api/v1/series/{series['id']}/rounds", json=body, headers={"Authorization": f"Bearer {series['edit_token']}"}
    )
    assert r.status_code == 201, r.get_json()


def page(client: FlaskClient, path: str) -> str:
    r = client.get(path)
    assert r.status_code == 200
    return r.get_data(as_text=True)


def test_end_screen_of_a_two_player_series_names_the_winner(client: FlaskClient) -> None:
    s = api_series(client, ["Фёдор", "Маша"], "pharaoh")
    api_round(client, s, {"winner": "Маша", "finishing_card": "7S", "hands": {"Фёдор": BIG}})
    html = page(client, f"/series/{s['id']}")
    assert "Победитель: Маша" in html and "Проигрыш: Фёдор" in html


def test_end_screen_of_elimination_lists_who_went_out_in_order(client: FlaskClient) -> None:
    s = api_series(client, ["Аня", "Борис", "Вера"], "elimination")
    api_round(client, s, {"winner": "Вера", "finishing_card": "7S", "hands": {"Аня": BIG, "Борис": ["6H"]}})
    api_round(client, s, {"winner": "Вера", "finishing_card": "7S", "hands": {"Борис": BIG}})
    html = page(client, f"/series/{s['id']}")
    assert "Побеждает Вера" in html
    order = re.findall(r"<li>(\w+) — раунд (\d+)", html)
    assert order == [("Аня", "1"), ("Борис", "2")]
    # the chart: Аня's line ends in round 1 (two points), Борис's in round 2, Вера's goes on
    lines = re.findall(r'<polyline points="([^"]+)"', html)
    assert [len(pts.split()) for pts in lines] == [2, 3, 3]
    assert html.count('class="left"') == 2


def test_chart_labels_the_real_loss_line_and_numbers_the_rounds(client: FlaskClient) -> None:
    s = api_series(client, ["Фёдор", "Маша"], "pharaoh")
    api_round(client, s, {"winner": "Маша", "finishing_card": "7S", "hands": {"Фёдор": ["AS"]}})
    api_round(client, s, {"winner": "Маша", "finishing_card": "7H", "hands": {"Фёдор": ["AH"]}})
    html = page(client, f"/series/{s['id']}")
    assert "проигрыш: от 100" in html
    assert re.findall(r'class="tick"[^>]*>(\d+)<', html) == ["1", "2"]
    s = api_series(client, ["Аня", "Борис"])
    api_round(client, s, {"winner": "Аня", "finishing_card": "QH", "hands": {"Борис": ["AS"]}})
    html = page(client, f"/series/{s['id']}")
    assert "проигрыш: больше 101" in html
    assert "−40" in html and ">-40<" not in html  # the true minus sign on the page
    assert client.get(f"/api/v1/series/{s['id']}").get_json()["players"][0]["total"] == -40  # data stays plain


def create_by_form(client: FlaskClient, names: list[str]) -> str:
    r = client.post("/new", data={"name": names, "ruleset": "igrafan", "starter": "0"})
    assert r.status_code == 303
    return r.headers["Location"].split("/")[2]


def test_without_javascript_check_shows_points_and_problems_at_the_top(client: FlaskClient) -> None:
    series_id = create_by_form(client, ["Аня", "Борис"])
    r = client.post(f"/series/{series_id}/round", data={"version": "1", "winner": "0", "op": "check"})
    html = r.get_data(as_text=True)
    assert r.status_code == 200
    top = html.index('class="problems no-js-only"')
    assert top < html.index('id="entry"') and "Отметьте последнюю карту игрока Аня" in html[top : top + 600]
    assert page(client, f"/series/{series_id}").count("<tr") == 0  # nothing stored


def test_redeal_with_cards_asks_first_without_javascript(client: FlaskClient) -> None:
    series_id = create_by_form(client, ["Аня", "Борис"])
    url = f"/series/{series_id}/round"
    r = client.post(url, data={"version": "1", "hand-1": ["AS"], "redeal": "1"})
    assert r.status_code == 200 and "Пересдача сбросит" in r.get_data(as_text=True)
    r = client.post(url, data={"version": "1", "hand-1": ["AS"], "redeal": "confirmed"})
    assert r.status_code == 303
    r = client.post(url, data={"version": "2", "redeal": "1"})  # nothing entered: no question
    assert r.status_code == 303


def test_the_standings_offer_to_undo_the_round_just_saved(client: FlaskClient) -> None:
    series_id = create_by_form(client, ["Аня", "Борис"])
    r = client.post(
        f"/series/{series_id}/round", data={"version": "1", "winner": "0", "finishing_card": "8C", "hand-1": ["AS"]}
    )
    assert r.headers["Location"] == f"/series/{series_id}?saved=2"
    html = page(client, r.headers["Location"])
    form = re.search(r'<form class="undo just-saved" method="post" action="([^"]+)"\s+([^>]*)>', html)
    assert form and form.group(1) == f"/series/{series_id}/round/1/delete"
    assert "data-one-tap" in form.group(2) and "hx-confirm" not in form.group(2)  # one tap, for a few seconds
    assert "Раунд 1 записан." in html
    later = page(client, f"/series/{series_id}")
    assert "just-saved" not in later and 'hx-confirm="Отменить раунд 1?' in later  # otherwise it asks first
    fragment = client.get(f"/series/{series_id}?saved=2", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "just-saved" not in fragment  # a poll does not bring the one-tap undo back
    r = client.post(form.group(1), data={"version": "2"})
    assert r.status_code == 303 and "<tbody>" not in page(client, f"/series/{series_id}")


def test_share_page_shows_the_state_of_the_series(client: FlaskClient) -> None:
    series_id = create_by_form(client, ["Аня", "Борис"])
    assert "Партия создана" in page(client, f"/series/{series_id}/share")
    client.post(
        f"/series/{series_id}/round", data={"version": "1", "winner": "0", "finishing_card": "8C", "hand-1": BIG}
    )
    html = page(client, f"/series/{series_id}/share")
    assert "Партия окончена" in html and "Партия создана" not in html and "Записать раунд" not in html


def test_a_house_rule_out_of_range_is_refused_without_its_internal_name(client: FlaskClient) -> None:
    html = client.post("/new", data={"name": ["A", "B"], "opt-loss_above": "5000"}).get_data(as_text=True)
    field = html[html.index('name="opt-loss_above"') :]
    message = re.search(r'class="error"[^>]*>([^<]*)', field)
    assert message and message.group(1) == "Напишите целое число от 1 до 1000."
    assert "loss_above»" not in html and "«pharaoh»" not in html
