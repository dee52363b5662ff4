"""The table page: head to head, rival cards and the period switch; the person page across tables; the PDF page."""

from __future__ import annotations

import re
import subprocess
from types import SimpleNamespace
from typing import Any

from flask.testing import FlaskClient

RU = {"Accept-Language": "ru"}


def pair_numbers(page: str, first: str, second: str) -> list[tuple[str, str, str]]:
    """The rows of one pair's table on the page: (label, first's number, second's number)."""
    table = re.search(rf'<table class="rounds pair" data-pair="{first}\|{second}">(.*?)</table>', page, re.S)
    assert table, f"no pair {first}|{second}"
    return re.findall(r'<th scope="row">([^<]+)</th><td>(\d+)</td><td>(\d+)</td>', table.group(1))


def test_the_page_shows_each_pair_as_counted_by_hand(client: FlaskClient, table_play: SimpleNamespace) -> None:
    first, _ = table_play.two_series()
    page = client.get(f"/tables/{first['table']}", headers=RU).get_data(as_text=True)
    # Аня | Борис: Борис pushed Аня over once and went out on a queen near her line once; Аня lost both series.
    assert pair_numbers(page, "Аня", "Борис") == [
        ("Вывел другого за черту", "0", "1"), ("Вышел на даме, другой у черты", "0", "1"),
        ("Вышел, а другой обнулился", "0", "0"), ("Проиграл серию при другом", "2", "0")]
    assert pair_numbers(page, "Борис", "Вера") == [
        ("Вывел другого за черту", "0", "0"), ("Вышел на даме, другой у черты", "1", "0"),
        ("Вышел, а другой обнулился", "1", "0"), ("Проиграл серию при другом", "0", "0")]
    rival = re.search(r'<div class="rival" data-player="Аня">(.*?)</div>', page, re.S)
    assert rival and "Главный обидчик: Борис (1 раз)" in rival.group(1) and "Жертвы пока нет" in rival.group(1)
    assert "0.5" not in page  # small numbers as numbers


def test_the_period_switch_restricts_the_page(client: FlaskClient, table_play: SimpleNamespace) -> None:
    first, _ = table_play.two_series()
    table_play.started_last_year(first["id"])
    url = f"/tables/{first['table']}"
    page = client.get(f"{url}?period=month", headers=RU).get_data(as_text=True)
    assert 'aria-current="page">Этот месяц</a>' in page and "Этот месяц: начата 1 серия." in page
    assert pair_numbers(page, "Аня", "Борис")[3] == ("Проиграл серию при другом", "1", "0")
    assert 'data-pair="Аня|Вера"' not in page  # Вера played only last year
    everything = client.get(f"{url}?period=all", headers=RU).get_data(as_text=True)
    assert pair_numbers(everything, "Аня", "Борис")[3] == ("Проиграл серию при другом", "2", "0")
    assert "Проигранные серии по месяцам" in everything and "<rect" in everything


def test_a_bad_period_on_the_page_says_how_to_write_it(client: FlaskClient, table_play: SimpleNamespace) -> None:
    first, _ = table_play.two_series()
    response = client.get(f"/tables/{first['table']}?period=week", headers=RU)
    assert response.status_code == 400
    assert "month, year или all" in response.get_data(as_text=True)
    assert client.get(f"/tables/{first['table']}/stats.pdf?period=week", headers=RU).status_code == 400


def claim(client: FlaskClient, series: dict[str, Any]) -> None:
    """Open the edit link on this phone: edit rights and the recent list."""
    assert client.get(f"/series/{series['id']}/edit?token={series['edit_token']}").status_code == 303


def test_one_person_across_the_phones_tables(client: FlaskClient, table_play: SimpleNamespace) -> None:
    first, second = table_play.two_series()
    other = client.post("/api/v1/series", json={"players": ["Аня", "Боря"], "starter": "Аня"}).get_json()
    # At the other table Боря goes out on 7♠ twice; Аня 60 + 50 = 110, over: Боря pushed her over once.
    table_play.play(other, [{"winner": "Боря", "finishing_card": "7♠", "typed_points": {"Аня": 60}},
                            {"winner": "Боря", "finishing_card": "7♠", "typed_points": {"Аня": 50}}])
    for s in (second, other):
        claim(client, s)
    anya = client.get("/players/Аня", headers=RU).get_data(as_text=True)
    assert "Столов на этом телефоне: 2" in anya
    # Newest table first (the recent list's order): the other table (1 lost), then the first (2 lost), together 3.
    assert re.search(r'<tr class="key"><th scope="row">Проиграно</th><td>1</td><td>2</td><td><strong>3</strong>',
                     anya)
    assert client.get("/players/Борис", headers=RU).get_data(as_text=True).count("Стол 1") >= 1
    assert client.get("/players/Nobody").status_code == 404

    # «Боря» at the other table is «Борис» of the first: merged from the other table's editor page.
    editor = client.get(f"/series/{other['id']}/table", headers=RU).get_data(as_text=True)
    assert '<optgroup label="За другими вашими столами"><option>Борис</option><option>Вера</option>' in editor
    assert client.post(f"/series/{other['id']}/table/merge", data={"from": "Боря", "into": "Борис"}).status_code == 303
    boris = client.get("/players/Борис", headers=RU).get_data(as_text=True)
    assert "Столов на этом телефоне: 2" in boris
    assert re.search(r'<th scope="row">Сыграно серий</th><td>1</td><td>2</td><td><strong>3</strong>', boris)
    pushed = re.search(r'data-pair="Аня\|Борис">(.*?)</table>', boris, re.S)
    assert pushed and "<td>0</td><td>2</td>" in pushed.group(1)  # once at each table

    # Reversible: the merge is undone on the same page.
    merges = client.get(f"/api/v1/tables/{other['table']}/merges").get_json()["merges"]
    undo = client.post(f"/series/{other['id']}/table/merges/{merges[0]['id']}/undo")
    assert undo.status_code == 303
    assert "Столов на этом телефоне: 1" in client.get("/players/Борис", headers=RU).get_data(as_text=True)


def test_a_merge_into_a_name_of_no_table_of_the_phone_is_refused(client: FlaskClient,
                                                                   table_play: SimpleNamespace) -> None:
    first, _ = table_play.two_series()
    claim(client, first)
    response = client.post(f"/series/{first['id']}/table/merge", data={"from": "Вера", "into": "Глеб"}, headers=RU)
    assert response.status_code == 422 and "Глеб" in response.get_data(as_text=True)


def test_the_pdf_page_carries_the_table_statistics(client: FlaskClient, table_play: SimpleNamespace,
                                                   tmp_path: Any) -> None:
    first, _ = table_play.two_series()
    response = client.get(f"/tables/{first['table']}/stats.pdf", headers=RU)
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    pdf = tmp_path / "table.pdf"
    pdf.write_bytes(response.data)
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert "Статистика стола" in text and "Один на один" in text
    assert re.search(r"Проиграл серию при другом\s+2\s+0", text)  # Аня | Борис
    assert re.search(r"Вышел, а другой обнулился\s+1\s+0", text)  # Борис | Вера
    assert "Главный обидчик: Борис (1 раз)" in text


def test_a_merge_into_another_tables_player_survives_export_and_import(client: FlaskClient,
                                                                       table_play: SimpleNamespace) -> None:
    first, _ = table_play.two_series()
    other = client.post("/api/v1/series", json={"players": ["Аня", "Боря"], "starter": "Аня"}).get_json()
    table_play.play(other, [{"winner": "Боря", "finishing_card": "7♠", "typed_points": {"Аня": 60}}])
    claim(client, first)
    claim(client, other)
    assert client.post(f"/series/{other['id']}/table/merge", data={"from": "Боря", "into": "Борис"}).status_code == 303
    document = client.get(f"/api/v1/tables/{other['table']}/export").get_json()
    assert [(m["from"], m["into"]) for m in document["merges"]] == [("Боря", "Борис")]
    imported = client.post("/api/v1/tables/import", json=document)
    assert imported.status_code == 201, imported.get_json()
    assert [p["name"] for p in imported.get_json()["table"]["players"]] == ["Аня", "Борис"]


def test_a_name_on_a_table_page_opens_that_person_on_a_fresh_phone(client: FlaskClient,
                                                                  table_play: SimpleNamespace) -> None:
    first, _ = table_play.two_series()
    fresh = client.application.test_client()  # a phone that only scanned the table's QR code
    page = fresh.get(f"/tables/{first['table']}", headers=RU).get_data(as_text=True)
    link = re.search(r'href="(/players/[^"]*table=[^"]+)">Вера</a>', page)
    assert link, "the name links to the person page"
    vera = fresh.get(link.group(1).replace("&amp;", "&"), headers=RU).get_data(as_text=True)
    assert "Столов на этом телефоне: 1" in vera and "Главная жертва: Аня (1 раз)" in vera
    assert fresh.get("/players/Вера").status_code == 404  # without the table and without a recent list
