"""The wheel is a real package: built, installed into a fresh virtual environment and served from another folder.

This is what a new user does (`pip install companion101-….whl`, then `companion serve`):
no checkout on the path, templates, static files and compiled translations
taken from inside the installed package, data in Flask's instance folder for
an installed package, and nothing written inside the package itself.

The fresh environment installs the wheel with its dependencies resolved as
usual (pip's cache makes a repeated run quick); it takes ~20-40 s.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import zipfile
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow  # over 5 s: outside the fast lane (-m 'not slow'), always in CI

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
    result = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, f"{args}\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return result.stdout


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def fetch(url: str, data: Any = None) -> tuple[int, bytes, dict[str, str]]:
    """Status, body and headers (names in Title-Case: granian sends them in lower case, as HTTP allows)."""
    body = None if data is None else json.dumps(data).encode()
    request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json",
                                                              "Accept-Language": "ru"})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.read(), {k.title(): v for k, v in response.headers.items()}
    except urllib.error.HTTPError as error:
        return error.code, error.read(), {k.title(): v for k, v in error.headers.items()}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    # Building our own wheel only; its dependencies are installed below, resolved as usual.
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir", out, ROOT)
    (found,) = out.glob("companion101-*.whl")
    return found


def test_the_wheel_holds_templates_static_files_and_compiled_translations(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "companion/templates/base.html" in names and "companion/templates/error.html" in names
    assert "companion/static/app.css" in names and "companion/static/sw.js" in names
    assert any(n.startswith("companion/static/vendor/htmx-2.0.") for n in names)
    assert "companion/translations/ru/LC_MESSAGES/messages.mo" in names
    assert not [n for n in names if n.endswith(".po")], "the wheel carries the compiled catalogs only"
    learned_from = {"companion/data/faq_questions/v01-v08.toml", "companion/data/faq_questions/v09-v15.toml"}
    assert learned_from <= names  # what the FAQ search learns from
    assert not [n for n in names if "__pycache__" in n or n.startswith(("tests/", "instance/"))]


def test_an_installed_wheel_serves_the_whole_app_from_any_folder(wheel: Path, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    # A bare venv, filled by this pip (`--python`): the same install, without copying pip into it; no .pyc
    # compiled ahead for the dependencies (Python compiles what the server imports).
    run(sys.executable, "-m", "venv", "--without-pip", venv)
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    env = {k: v for k, v in os.environ.items() if k not in ("COMPANION_INSTANCE", "PYTHONPATH", "VIRTUAL_ENV")}
    run(sys.executable, "-m", "pip", "--python", bin_dir / "python", "install", "--quiet", "--no-compile",
        "--disable-pip-version-check", wheel, env=env)
    package = Path(
        run(
            bin_dir / "python",
            "-c",
            "import companion, pathlib; print(pathlib.Path(companion.__file__).parent)",
            cwd=tmp_path,
            env=env,
        ).strip()
    )
    assert venv.resolve() in package.resolve().parents  # the installed copy, not the checkout
    before = sorted(p.relative_to(package) for p in package.rglob("*") if "__pycache__" not in p.parts)
    assert "Usage:" in run(bin_dir / "companion", "serve", "--help", cwd=tmp_path, env=env)

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    port = free_port()
    server = subprocess.Popen(
        [str(bin_dir / "companion"), "serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=elsewhere,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                status, _, _ = fetch(base + "/api/v1/health")
                break
            except (urllib.error.URLError, ConnectionError):
                assert server.poll() is None and time.monotonic() < deadline, "the server did not start"
                time.sleep(0.3)
        assert status == 200

        status, page, _ = fetch(base + "/")
        assert status == 200 and "Новая партия" in page.decode()  # the Russian of the compiled catalog
        status, css, headers = fetch(base + "/static/app.css")
        assert status == 200 and headers["Content-Type"].startswith("text/css") and css
        status, sw, _ = fetch(base + "/sw.js")
        assert status == 200 and b"caches" in sw

        status, body, _ = fetch(base + "/api/v1/series", {"players": ["Аня", "Борис"], "starter": "Аня"})
        assert status == 201
        series_id = json.loads(body)["id"]
        status, series_page, _ = fetch(f"{base}/series/{series_id}")
        assert status == 200 and "Аня" in series_page.decode()
        status, pdf, headers = fetch(f"{base}/series/{series_id}/scoresheet.pdf")
        assert status == 200 and headers["Content-Type"] == "application/pdf" and pdf.startswith(b"%PDF-")
        status, _, _ = fetch(base + "/no/such/page")
        assert status == 404
    finally:
        server.terminate()
        output, _ = server.communicate(timeout=30)

    assert f"http://127.0.0.1:{port}/" in output  # the printed (and QR-encoded) address is the one that served
    database = venv / "var" / "companion-instance" / "companion.sqlite3"
    assert f"Database: {database}" in output and database.exists()  # Flask's instance folder of an installed app
    assert list(elsewhere.iterdir()) == []  # nothing written into the folder it was started from
    after = sorted(p.relative_to(package) for p in package.rglob("*") if "__pycache__" not in p.parts)
    assert after == before  # nothing written inside the installed package
