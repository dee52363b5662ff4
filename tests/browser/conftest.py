"""Playwright against the real app: waitress-free werkzeug server in a thread, Debian Chromium, a phone viewport.

Skipped only when /usr/bin/chromium is missing and CI is not set; in CI they must run.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from werkzeug.serving import make_server

from companion import create_app
from companion.faq.search import search_engine

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
PHONE = {"width": 390, "height": 844}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)
            if not os.path.exists(CHROMIUM) and not os.environ.get("CI"):
                item.add_marker(pytest.mark.skip(reason=f"{CHROMIUM} is missing (set CI=1 to make this an error)"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    tmp = tmp_path_factory.mktemp("browser")
    app = create_app({"TESTING": True, "DATABASE": str(tmp / "browser.sqlite3"), "SECRET_KEY": "browser"})
    search_engine()  # the FAQ search learns before serving, as `companion serve` does
    port = free_port()
    server = make_server("127.0.0.1", port, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{port}"
    server.shutdown()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def new_page(browser: Any) -> Iterator[Any]:
    """Open pages in fresh phone contexts (separate cookies), closed after the test."""
    contexts = []

    def make(locale: str = "ru-RU") -> Any:
        context = browser.new_context(viewport=PHONE, locale=locale, service_workers="block")
        context.set_default_timeout(8000)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()
