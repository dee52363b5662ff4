"""Tables: series of the same players, statistics by replay, name merges, house rules by short link."""

from __future__ import annotations

import re
from typing import Any

from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.series import RoundInput, SeriesSetup, replay
from companion.core.stats import canonical, table_stats

PLAYER_KEYS = ["name", "series_played", "series_lost", "series_won", "rounds_won", "average_points", "resets_101",
               "queen_finishes", "highest_total_survived"]


def auth(series: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {series['edit_token']}"}


def add(client: FlaskClient, series: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
    response = client.post(f"/api/v1/series/{series['id']}/rounds", json=body, headers=auth(series))
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def lose(client: FlaskClient, series: dict[str, Any], loser: str, winner: str) -> None:
    """Finish the series: `loser` takes 60 points twice (over 101)."""
    others = {p["name"]: 0 for p in series["players"] if p["name"] not in (winner, loser)}
    for _ in range(2):
        add(client, series, {"winner": winner, "finishing_card": "A♠", "typed_points": {loser: 60, **others}})


def next_series(client: FlaskClient, after: dict[str, Any], **body: Any) -> dict[str, Any]:
    response = client.post("/api/v1/series", json={"after": after["id"], **body}, headers=auth(after))
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def test_after_links_series_into_one_table(client: FlaskClient, series: dict[str, Any]) -> None:
    assert series["table"]
    lose(client, series, "Вера", "Аня")
    second = next_series(client, series)
    assert second["table"] == series["table"] and second["id"] != series["id"]
    assert [p["name"] for p in second["players"]] == ["Аня", "Борис", "Вера"]
    third = next_series(client, second, players=["Аня", "Борис"], starter="Борис")
    assert third["table"] == series["table"] and third["starter"] == "Борис"
    alone = client.post("/api/v1/series", json={"players": ["Аня", "Борис"]}).get_json()
    assert alone["table"] != series["table"]

    table = client.get(f"/api/v1/tables/{series['table']}").get_json()
    assert list(table) == ["id", "series", "players", "head_to_head", "period", "series_in_period"]
    assert table["id"] == series["table"] and table["series"] == [series["id"], second["id"], third["id"]]
    assert [list(p) for p in table["players"]] == [PLAYER_KEYS] * 3
    vera = next(p for p in table["players"] if p["name"] == "Вера")
    assert vera["series_played"] == 2 and vera["series_lost"] == 1 and vera["series_won"] == 0
    anya = next(p for p in table["players"] if p["name"] == "Аня")
    assert anya["rounds_won"] == 2 and anya["average_points"] == 0 and anya["series_played"] == 3
    assert vera["average_points"] == 60 and vera["highest_total_survived"] == 60


def test_the_table_answers_304_until_a_series_of_it_changes(client: FlaskClient, series: dict[str, Any]) -> None:
    url = f"/api/v1/tables/{series['table']}"
    first = client.get(url)
    assert first.headers["ETag"]
    assert client.get(url, headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    add(client, series, {"redeal": True})
    assert client.get(url, headers={"If-None-Match": first.headers["ETag"]}).status_code == 200


def test_after_needs_that_series_token(client: FlaskClient, series: dict[str, Any]) -> None:
    other = client.post("/api/v1/series", json={"players": ["Глеб", "Дина"]}).get_json()
    assert client.post("/api/v1/series", json={"after": series["id"]}).status_code == 401
    assert client.post("/api/v1/series", json={"after": series["id"]}, headers=auth(other)).status_code == 403
    assert client.post("/api/v1/series", json={"after": "nope"}, headers=auth(series)).status_code == 404
    assert client.post("/api/v1/series", json={"after": 5}, headers=auth(series)).status_code == 400
    assert client.get("/api/v1/tables/nope").status_code == 404


def test_a_correction_in_an_old_series_changes_the_statistics(client: FlaskClient, series: dict[str, Any]) -> None:
    lose(client, series, "Вера", "Аня")
    next_series(client, series)
    url = f"/api/v1/tables/{series['table']}"
    assert next(p for p in client.get(url).get_json()["players"] if p["name"] == "Вера")["series_lost"] == 1
    fixed = {"winner": "Аня", "finishing_card": "A♠", "typed_points": {"Вера": 10, "Борис": 0}}
    assert client.put(f"/api/v1/series/{series['id']}/rounds/2", json=fixed, headers=auth(series)).status_code == 200
    vera = next(p for p in client.get(url).get_json()["players"] if p["name"] == "Вера")
    assert vera["series_lost"] == 0 and vera["highest_total_survived"] == 70


def test_in_a_two_player_series_the_other_player_won(client: FlaskClient) -> None:
    created = client.post("/api/v1/series", json={"players": ["Аня", "Борис"], "starter": "Аня"}).get_json()
    for _ in range(2):
        add(client, created, {"winner": "Аня", "finishing_card": "A♠", "typed_points": {"Борис": 60}})
    players = client.get(f"/api/v1/tables/{created['table']}").get_json()["players"]
    assert [(p["name"], p["series_won"], p["series_lost"]) for p in players] == [("Аня", 1, 0), ("Борис", 0, 1)]


def test_resets_and_queen_finishes_are_counted(client: FlaskClient, series: dict[str, Any]) -> None:
    add(client, series, {"winner": "Аня", "finishing_card": "Q♠", "typed_points": {"Борис": 101, "Вера": 5}})
    table = client.get(f"/api/v1/tables/{series['table']}").get_json()
    boris = next(p for p in table["players"] if p["name"] == "Борис")
    anya = next(p for p in table["players"] if p["name"] == "Аня")
    assert boris["resets_101"] == 1 and boris["highest_total_survived"] == 0
    assert anya["queen_finishes"] == 1 and anya["average_points"] == -20


def test_merging_two_spellings_is_recorded_and_reversible(client: FlaskClient, series: dict[str, Any]) -> None:
    lose(client, series, "Борис", "Аня")
    second = next_series(client, series, players=["Аня", "Боря", "Вера"], starter="Аня")
    lose(client, second, "Боря", "Вера")
    url = f"/api/v1/tables/{series['table']}"
    assert len(client.get(url).get_json()["players"]) == 4

    assert client.post(f"{url}/merges", json={"from": "Боря", "into": "Борис"}).status_code == 401
    response = client.post(f"{url}/merges", json={"from": "Боря", "into": "Борис"}, headers=auth(second))
    assert response.status_code == 201
    merge = response.get_json()["merge"]
    players = response.get_json()["table"]["players"]
    assert [p["name"] for p in players] == ["Аня", "Борис", "Вера"]
    assert next(p for p in players if p["name"] == "Борис")["series_lost"] == 2

    refused = client.post(f"{url}/merges", json={"from": "Аня", "into": "Вера"},
                          headers={**auth(series), "Accept-Language": "en"})
    assert refused.status_code == 422 and "series 1" in refused.get_json()["error"]["message"]
    unknown = client.post(f"{url}/merges", json={"from": "Глеб", "into": "Вера"}, headers=auth(series))
    assert unknown.status_code == 422

    assert client.delete(f"{url}/merges/{merge['id']}", headers=auth(series)).status_code == 200
    assert len(client.get(url).get_json()["players"]) == 4
    assert client.delete(f"{url}/merges/{merge['id']}", headers=auth(series)).status_code == 422
    log = client.get(f"{url}/merges").get_json()["merges"]
    assert len(log) == 1 and log[0]["from"] == "Боря" and log[0]["undone_at"]


def test_the_table_page(client: FlaskClient, series: dict[str, Any]) -> None:
    lose(client, series, "Вера", "Аня")
    second = next_series(client, series)
    lose(client, second, "Вера", "Борис")
    page = client.get(f"/tables/{series['table']}", headers={"Accept-Language": "ru"}).get_data(as_text=True)
    assert "Чаще всех проигрывает Вера: 2 серии из 2." in page
    assert "<svg" in page and "<polyline" in page and f"/tables/{series['table']}" in page
    assert "/r/" in page  # the house rules' short link
    assert "Объединить" not in page  # a viewer cannot merge
    # the series page links its table; a viewer goes to the public page
    assert f"/tables/{series['table']}" in client.get(f"/series/{series['id']}").get_data(as_text=True)
    assert client.get("/tables/nope").status_code == 404


def claim(client: FlaskClient, series: dict[str, Any]) -> None:
    assert client.get(f"/series/{series['id']}/edit?token={series['edit_token']}").status_code == 303


def test_the_editor_merges_names_on_the_table_page(client: FlaskClient, series: dict[str, Any]) -> None:
    second = next_series(client, series, players=["Аня", "Боря", "Вера"], starter="Аня")
    assert client.get(f"/series/{series['id']}/table").status_code == 303  # no edit cookie: the public page
    claim(client, series)
    page = client.get(f"/series/{series['id']}/table", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Merge the names" in page
    response = client.post(f"/series/{series['id']}/table/merge", data={"from": "Аня", "into": "Вера"},
                           headers={"Accept-Language": "en"})
    assert response.status_code == 422 and "two different players" in response.get_data(as_text=True)
    response = client.post(f"/series/{series['id']}/table/merge", data={"from": "Боря", "into": "Борис"})
    assert response.status_code == 303
    table = client.get(f"/api/v1/tables/{series['table']}").get_json()
    assert [p["name"] for p in table["players"]] == ["Аня", "Борис", "Вера"]
    merge_id = client.get(f"/api/v1/tables/{series['table']}/merges").get_json()["merges"][0]["id"]
    assert client.post(f"/series/{series['id']}/table/merges/{merge_id}/undo").status_code == 303
    assert len(client.get(f"/api/v1/tables/{series['table']}").get_json()["players"]) == 4
    # no cookie for that series: no merging
    other = client.application.test_client()
    assert other.post(f"/series/{second['id']}/table/merge", data={"from": "Боря", "into": "Борис"}).status_code == 403


def test_new_series_same_players_from_the_page_joins_the_table(client: FlaskClient, series: dict[str, Any]) -> None:
    claim(client, series)
    lose(client, series, "Вера", "Аня")
    response = client.post(f"/series/{series['id']}/again")
    assert response.status_code == 303
    assert len(client.get(f"/api/v1/tables/{series['table']}").get_json()["series"]) == 2


# -- house rules ------------------------------------------------------------------------


def test_house_rules_link_preselects_the_rules_and_shows_their_card(client: FlaskClient) -> None:
    created = client.post("/api/v1/series", json={"players": ["Аня", "Борис"], "ruleset": "igrafan",
                                                  "options": {"deck": 52, "resets": {"101": 0, "100": 50},
                                                              "on_loss": "eliminate"}}).get_json()
    claim(client, created)
    share = client.get(f"/series/{created['id']}/share", headers={"Accept-Language": "ru"}).get_data(as_text=True)
    assert "Наши правила" in share
    code = re.search(r"/r/([a-z0-9]+)", share)
    assert code
    page = client.get(f"/r/{code.group(1)}", headers={"Accept-Language": "ru"}).get_data(as_text=True)
    assert "Наши правила" in page and "/rules/igrafan" in page
    # the card lists what the table changed, by the options' own labels (issue 8: a series' rule set
    # carries its options; the changes are taken against the preset)
    assert "<dt>Колода</dt><dd>52 карты</dd>" in page and "он выбывает, остальные играют дальше" in page
    assert re.search(r'<option value="52"\s+selected', page)
    assert 'value="101 → 0, 100 → 50"' in page
    assert re.search(r'<option value="eliminate"\s+selected', page)
    # the same rules, the same short code
    again = client.post(
        "/api/v1/series",
        json={
            "players": ["Глеб", "Дина"],
            "options": {"deck": 52, "on_loss": "eliminate", "resets": {"100": 50, "101": 0}},
        },
    ).get_json()
    claim(client, again)
    assert f"/r/{code.group(1)}" in client.get(f"/series/{again['id']}/share").get_data(as_text=True)
    assert client.get("/r/zzzzzzzz").status_code == 404


def test_a_series_started_from_the_link_keeps_the_options(client: FlaskClient) -> None:
    created = client.post(
        "/api/v1/series", json={"players": ["Аня", "Борис"], "options": {"deck": 52, "negative_to_zero": True}}
    ).get_json()
    page = client.get(f"/?from={created['id']}").get_data(as_text=True)
    assert re.search(r'<option value="52"\s+selected', page)
    assert re.search(r'<option value="yes"\s+selected', page)
    form = {
        "name": ["Аня", "Борис"],
        "ruleset": "igrafan",
        "opt-deck": "52",
        "opt-negative_to_zero": "yes",
        "starter": "0",
    }
    response = client.post("/new", data=form)
    assert response.status_code == 303
    new_id = response.headers["Location"].split("/series/")[1].split("/")[0]
    options = client.get(f"/api/v1/series/{new_id}").get_json()["options"]
    assert options["deck"] == 52 and options["negative_to_zero"] is True


# -- the statistics core ----------------------------------------------------------------

NAMES = ["Аня", "Борис", "Вера"]


@st.composite
def series_of_rounds(draw: Any) -> Any:
    setup = SeriesSetup.create(NAMES, "igrafan", None, "Аня")
    entries: list[RoundInput] = []
    standings = replay(setup, [])
    for _ in range(draw(st.integers(0, 8))):
        if standings.finished:
            break
        winner = draw(st.sampled_from(standings.in_play))
        typed = {p: draw(st.integers(0, 70)) for p in standings.in_play if p != winner}
        entry = RoundInput.from_json(
            {"winner": winner, "finishing_card": draw(st.sampled_from(["A♠", "Q♣", "10♦"])), "typed_points": typed},
            setup,
        )
        entries.append(entry)
        standings = replay(setup, entries)
    return standings


@settings(max_examples=40, deadline=None)
@given(st.lists(series_of_rounds(), min_size=1, max_size=4))
def test_statistics_add_up(all_standings: Any) -> None:
    stats = {s.name: s for s in table_stats(all_standings)}
    rounds = [r for s in all_standings for r in s.rounds if not r.entry.redeal]
    assert sum(s.rounds_won for s in stats.values()) == len(rounds)
    assert sum(s.series_lost for s in stats.values()) == sum(len(s.losers) for s in all_standings)
    for s in stats.values():
        assert s.series_played == len(all_standings)
        assert len(s.lost_by_series) == len(all_standings) and s.lost_by_series[-1] == s.series_lost
        assert s.highest_total_survived is None or s.highest_total_survived <= 101
    # merging a name that never plays together with the other changes nothing but the name
    merged = table_stats(all_standings, {"Вера": "Вера"})
    assert [m.to_json() for m in merged] == [s.to_json() for s in stats.values()]


def test_canonical_follows_merges_and_ignores_loops() -> None:
    assert canonical("Боря", {"Боря": "Борис", "Борис": "Боб"}) == "Боб"
    assert canonical("а", {"а": "б", "б": "а"}) == "б"


def test_table_writes_and_imports_share_the_rate_limits(tmp_path: Any) -> None:
    from companion import create_app

    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "limits.sqlite3"), "SECRET_KEY": "t",
                      "RATELIMIT_ENABLED": True, "RATELIMIT_CREATE": "2 per minute",
                      "RATELIMIT_WRITES": "1 per minute"})
    client = app.test_client()
    created = client.post("/api/v1/series", json={"players": ["Аня", "Борис"]}).get_json()
    url = f"/api/v1/tables/{created['table']}/merges"
    assert client.post(url, json={"from": "Аня", "into": "Борис"}, headers=auth(created)).status_code == 422
    assert client.post(url, json={"from": "Аня", "into": "Борис"}, headers=auth(created)).status_code == 429
    document = client.get(f"/api/v1/tables/{created['table']}/export").get_json()
    assert client.post("/api/v1/tables/import", json=document).status_code == 201  # the second creation
    assert client.post("/api/v1/tables/import", json=document).status_code == 429


def test_the_migration_gives_every_older_series_a_table_of_its_own(tmp_path: Any) -> None:
    import json

    from companion import create_app
    from companion.storage import database as storage

    path = str(tmp_path / "old.sqlite3")
    db = storage.connect(path)
    storage.migrations.apply(db, stop_before="m002_tables_and_shared_rules")
    for series_id in ("old-one", "old-two"):
        db.table("series").insert({
            "id": series_id, "ruleset": "igrafan", "options": "{}", "players": json.dumps(["Аня", "Борис"]),
            "starter": "Аня", "starter_drawn": 0, "edit_token_hash": storage.hash_token("t"), "version": 1,
            "created_at": "2026-11-28T20:00:00+00:00", "updated_at": "2026-11-28T20:00:00+00:00"})
    db.close()
    client = create_app({"TESTING": True, "DATABASE": path, "SECRET_KEY": "t"}).test_client()
    tables = [client.get(f"/api/v1/series/{s}").get_json()["table"] for s in ("old-one", "old-two")]
    assert all(tables) and tables[0] != tables[1]
    assert client.get(f"/api/v1/tables/{tables[0]}").get_json()["series"] == ["old-one"]
