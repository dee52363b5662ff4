"""The scoresheet as a format-free table (`present.scoresheet.Sheet`): the CSV is one renderer of it."""

from __future__ import annotations

import csv
import io
from typing import Any

from flask.testing import FlaskClient

from companion.service import series as series_service
from companion.storage.database import get_db
from companion.web.present.scoresheet import scoresheet
from companion.web.present.series_view import series_view


def test_the_csv_file_is_the_sheet_cell_for_cell(client: FlaskClient, series: dict[str, Any]) -> None:
    auth = {"Authorization": f"Bearer {series['edit_token']}"}
    url = f"/api/v1/series/{series['id']}/rounds"
    for body in ({"winner": "Аня", "finishing_card": "Q♥", "hands": {"Борис": ["10c", "jd"], "Вера": ["qs"]}},
                 {"redeal": True},
                 {"winner": "Борис", "finishing_card": "8♦", "typed_points": {"Аня": 30, "Вера": 90}}):
        assert client.post(url, json=body, headers=auth).status_code == 201
    response = client.get(f"/series/{series['id']}/scoresheet.csv", headers={"Accept-Language": "en"})
    written = list(csv.reader(io.StringIO(response.data.decode("utf-8-sig")), delimiter=","))
    with client.application.test_request_context("/", headers={"Accept-Language": "en"}):
        loaded = series_service.load(get_db(), series["id"])
        assert loaded is not None
        sheet = scoresheet(series_view(loaded), f"http://localhost/series/{series['id']}")
    expected = [[*fact] for fact in sheet.facts] + [[]] + [list(sheet.columns)]
    expected += [[str(cell) for cell in row] for row in sheet.rows]
    assert written == expected
    assert [row[:2] for row in sheet.rows] == [(1, "Аня"), (1, "Борис"), (1, "Вера"), (2, "Аня"), (2, "Борис"),
                                               (2, "Вера"), (3, "Аня"), (3, "Борис"), (3, "Вера")]
    assert sheet.rows[0][2] == "last card Q♥" and sheet.rows[3][2] == "redeal" and sheet.rows[6][2] == "typed in"
    assert dict(sheet.facts)["Result"] == "Lost: Вера"  # 101 and more: over the line
