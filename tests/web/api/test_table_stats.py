"""`GET /api/v1/tables/<id>`: head to head in 101 terms and `?period=`, against a hand count."""

from __future__ import annotations

from types import SimpleNamespace

from flask.testing import FlaskClient


def test_head_to_head_is_the_hand_count(client: FlaskClient, table_play: SimpleNamespace) -> None:
    first, second = table_play.two_series()
    table = client.get(f"/api/v1/tables/{first['table']}").get_json()
    assert list(table)[:4] == ["id", "series", "players", "head_to_head"]
    assert table["head_to_head"] == table_play.both
    assert table["period"] == "all" and table["series_in_period"] == [first["id"], second["id"]]
    anya = next(p for p in table["players"] if p["name"] == "Аня")
    assert anya["series_lost"] == 2 and anya["series_played"] == 2


def test_period_counts_only_the_series_started_in_it(client: FlaskClient, table_play: SimpleNamespace) -> None:
    first, second = table_play.two_series()
    table_play.started_last_year(first["id"])
    url = f"/api/v1/tables/{first['table']}"
    for period in ("month", "year"):
        table = client.get(f"{url}?period={period}").get_json()
        assert table["period"] == period and table["series_in_period"] == [second["id"]]
        assert table["head_to_head"] == table_play.second_only  # Вера played only last year
        assert [p["name"] for p in table["players"]] == ["Аня", "Борис"]
    assert client.get(f"{url}?period=all").get_json()["head_to_head"] == table_play.both
    assert client.get(url).get_json()["series"] == [first["id"], second["id"]]  # the table keeps every series


def test_period_has_its_own_etag(client: FlaskClient, table_play: SimpleNamespace) -> None:
    first, _ = table_play.two_series()
    url = f"/api/v1/tables/{first['table']}"
    etag = client.get(url).headers["ETag"]
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
    assert client.get(f"{url}?period=month", headers={"If-None-Match": etag}).status_code == 200


def test_a_bad_period_is_refused_in_the_users_language(client: FlaskClient, table_play: SimpleNamespace) -> None:
    first, _ = table_play.two_series()
    url = f"/api/v1/tables/{first['table']}?period=week"
    ru = client.get(url, headers={"Accept-Language": "ru"})
    assert ru.status_code in (400, 422)
    error = ru.get_json()["error"]
    assert error["code"] == "invalid-period"
    assert error["message"] == "«period» — это month, year или all (например, ?period=month); прислано «week»."
    en = client.get(url, headers={"Accept-Language": "en"}).get_json()["error"]["message"]
    assert en.startswith("“period” must be month, year or all")


def test_a_merge_joins_a_spelling_in_head_to_head(client: FlaskClient, table_play: SimpleNamespace) -> None:
    first, second = table_play.two_series()
    third = client.post("/api/v1/series", json={"after": second["id"], "players": ["Аня", "Боря"]},
                        headers={"Authorization": f"Bearer {second['edit_token']}"}).get_json()
    # Боря out on 7♠ twice: Аня 60 + 50 = 110, over; counted as Борис: one more push, one more loss together.
    table_play.play(third, [{"winner": "Боря", "finishing_card": "7♠", "typed_points": {"Аня": 60}},
                         {"winner": "Боря", "finishing_card": "7♠", "typed_points": {"Аня": 50}}])
    auth = {"Authorization": f"Bearer {third['edit_token']}"}
    merged = client.post(f"/api/v1/tables/{first['table']}/merges", json={"from": "Боря", "into": "Борис"},
                         headers=auth)
    assert merged.status_code == 201
    h2h = merged.get_json()["table"]["head_to_head"]
    assert "Боря" not in h2h and h2h["Борис"]["Аня"]["pushed_over"] == 2
    assert h2h["Аня"]["Борис"]["series_lost_together"] == 3
    undone = client.delete(f"/api/v1/tables/{first['table']}/merges/{merged.get_json()['merge']['id']}", headers=auth)
    assert undone.get_json()["table"]["head_to_head"]["Боря"]["Аня"]["pushed_over"] == 1
