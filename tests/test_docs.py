"""The docs match the code: the README's API list and its test command."""

from __future__ import annotations

import re
from pathlib import Path

from flask import Flask

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def documented_routes() -> set[tuple[str, str]]:
    rows = re.findall(r"^\| `(GET|POST|PUT|DELETE) (/api/v1/[^`?]*)[^`]*` \|", README, flags=re.M)
    return {(method, re.sub(r"<[^>]+>", "<>", path)) for method, path in rows}


def app_routes(app: Flask) -> set[tuple[str, str]]:
    found = set()
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/v1/"):
            for method in rule.methods - {"HEAD", "OPTIONS"}:
                found.add((method, re.sub(r"<[^>]+>", "<>", rule.rule)))
    return found


def test_every_api_route_is_documented_and_every_documented_route_exists(app: Flask) -> None:
    assert documented_routes() == app_routes(app)


def test_the_readme_test_command_is_what_ci_runs() -> None:
    block = re.search(r"<!-- test-command -->\n```sh\n(.+)\n```\n<!-- /test-command -->", README)
    assert block and "pytest" in block.group(1)
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "test-command" in ci and "README.md" in ci
