"""Shared fixtures: every test starts from a fresh database in a temp folder."""

from __future__ import annotations

import os
import tempfile
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis.configuration import set_hypothesis_home_dir

from companion import create_app

# Hypothesis keeps its example database and caches outside the checkout (tests never write there).
set_hypothesis_home_dir(os.path.join(tempfile.gettempdir(), "companion101-hypothesis"))


@pytest.fixture(autouse=True)
def instance_in_tmp(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Any:
    """No test writes into the checkout: every app built in a test keeps its instance folder in a temp dir."""
    folder = tmp_path_factory.mktemp("instance")
    monkeypatch.setenv("COMPANION_INSTANCE", str(folder))
    return folder


@pytest.fixture
def app(tmp_path: Any) -> Flask:
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "test.sqlite3"), "SECRET_KEY": "test"})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def series(client: FlaskClient) -> dict[str, Any]:
    """A fresh igrafan series of three players; the response JSON (with edit_token)."""
    response = client.post("/api/v1/series", json={"players": ["Аня", "Борис", "Вера"], "starter": "Аня"})
    assert response.status_code == 201
    return response.get_json()
