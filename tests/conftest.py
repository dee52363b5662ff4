"""Shared fixtures: every test starts from a fresh database in a temp folder."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis.configuration import set_hypothesis_home_dir
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket
from werkzeug.routing import Rule

from companion import create_app
from companion.storage.database import init_db

# Hypothesis keeps its example database and caches outside the checkout (tests never write there).
set_hypothesis_home_dir(os.path.join(tempfile.gettempdir(), "companion101-hypothesis"))


class TemplatesCompiledOnce(BytecodeCache):
    """Every app built in this run shares its templates' compiled code, kept in memory: a fresh app per test
    then renders without compiling every template again. Jinja keys it by template name and checks it
    against the template's source, so an edited template is compiled anew."""

    def __init__(self) -> None:
        self.compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        if bucket.key in self.compiled:
            bucket.bytecode_from_string(self.compiled[bucket.key])

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()


Flask.jinja_options = {**Flask.jinja_options, "bytecode_cache": TemplatesCompiledOnce()}


def url_builders_compiled_once() -> None:
    """Every app built in this run shares its URL rules' builders: Werkzeug writes each rule's builder as Python
    source and compiles it when the rule is added (about 55 ms of the 70 a fresh app per test costs). A builder
    is a function of the rule alone (its text, parts, defaults and converters' kinds; the rule it serves comes
    in as its first argument), so one compiled per distinct rule serves every app. Without the private method
    (another Werkzeug), nothing is shared and the tests run as they are, only slower."""
    compile_builder = getattr(Rule, "_compile_builder", None)
    if compile_builder is None:
        return
    compiled: dict[tuple[Any, ...], Any] = {}

    def shared(rule: Rule, append_unknown: bool = True) -> Any:
        key = (rule.rule, tuple(rule._trace), repr(sorted((rule.defaults or {}).items())), append_unknown,
               tuple((name, type(c)) for name, c in rule._converters.items()))
        if key not in compiled:
            compiled[key] = compile_builder(rule, append_unknown)
        return compiled[key]

    Rule._compile_builder = shared  # type: ignore[method-assign]


url_builders_compiled_once()

ROOT = Path(__file__).resolve().parent.parent
# Where a test that wrote into the checkout would leave something (dev tools' own caches aside).
WATCHED = (ROOT, ROOT / "instance", ROOT / "companion" / "translations" / "ru" / "LC_MESSAGES", ROOT / "static")
NOT_OURS = {".venv", ".git", "__pycache__", ".ruff_cache", ".mypy_cache", "companion101.egg-info"}


def checkout_files() -> set[str]:
    return {str(p.relative_to(ROOT)) for folder in WATCHED if folder.is_dir() for p in folder.iterdir()
            if p.name not in NOT_OURS}


@pytest.fixture(scope="session", autouse=True)
def nothing_written_into_the_checkout() -> Any:
    """The whole run leaves the checkout as it found it (instance folder, catalogs, caches)."""
    before = checkout_files()
    yield
    added = sorted(checkout_files() - before)
    assert not added, f"tests wrote into the checkout: {added}"


@pytest.fixture(autouse=True)
def instance_in_tmp(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Any:
    """No test writes into the checkout: every app built in a test keeps its instance folder in a temp dir."""
    folder = tmp_path_factory.mktemp("instance")
    monkeypatch.setenv("COMPANION_INSTANCE", str(folder))
    return folder


@pytest.fixture(scope="session")
def migrated_database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database as the app creates it (every migration applied), made once per worker; closed, so the file alone
    holds it (WAL checkpointed)."""
    path = tmp_path_factory.mktemp("migrated") / "migrated.sqlite3"
    init_db(str(path))
    return path


@pytest.fixture
def app(tmp_path: Any, migrated_database: Path) -> Flask:
    """The app on a fresh database of its own: a copy of the migrated one, as the app would have made it (the app
    then finds every migration applied; storage's own tests create and upgrade databases from nothing)."""
    database = tmp_path / "test.sqlite3"
    shutil.copyfile(migrated_database, database)
    database.chmod(0o600)
    return create_app({"TESTING": True, "DATABASE": str(database), "SECRET_KEY": "test"})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def series(client: FlaskClient) -> dict[str, Any]:
    """A fresh igrafan series of three players; the response JSON (with edit_token)."""
    response = client.post("/api/v1/series", json={"players": ["Аня", "Борис", "Вера"], "starter": "Аня"})
    assert response.status_code == 201
    return response.get_json()
