"""The «Сто одно» table companion: `create_app` is the only way to build the app.

Where its files are: in a checkout, `templates/`, `static/` and `instance/` sit
at the top of the repository; an installed wheel carries the templates and
static files inside the package (`companion/templates`, `companion/static`)
and keeps its data in Flask's instance folder for an installed package
(`<prefix>/var/companion-instance`). `COMPANION_INSTANCE` overrides the
instance folder in both cases.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask

PACKAGE = Path(__file__).resolve().parent
ROOT = PACKAGE.parent  # the checkout, when run from one
MAX_REQUEST_BYTES = 64 * 1024


def is_checkout() -> bool:
    """Run from a source checkout (editable install or plain path), not from an installed wheel."""
    return (
        (ROOT / "pyproject.toml").is_file() and (ROOT / "templates").is_dir() and not (PACKAGE / "templates").is_dir()
    )


def asset_folder(name: str) -> Path:
    """`templates` or `static`: inside the package when installed, at the top of a checkout."""
    inside = PACKAGE / name
    return inside if inside.is_dir() else ROOT / name


def instance_folder() -> str | None:
    """COMPANION_INSTANCE if set; `<checkout>/instance` in a checkout; else None (Flask's default)."""
    chosen = os.environ.get("COMPANION_INSTANCE")
    if chosen:
        return str(Path(chosen).resolve())
    if is_checkout():
        return str(ROOT / "instance")
    return None


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app: defaults, then `instance/config.py`, then `test_config`."""
    app = Flask(
        __name__,
        instance_path=instance_folder(),
        instance_relative_config=True,
        template_folder=str(asset_folder("templates")),
        static_folder=str(asset_folder("static")),
    )
    instance = Path(app.instance_path)
    app.config.from_mapping(
        DATABASE=str(instance / "companion.sqlite3"),
        MAX_CONTENT_LENGTH=MAX_REQUEST_BYTES,
        SESSION_COOKIE_SAMESITE="Lax",
        SEND_FILE_MAX_AGE_DEFAULT=3600,
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    app.json.ensure_ascii = False  # type: ignore[attr-defined]  # Cyrillic names as UTF-8, not \uXXXX
    app.json.sort_keys = False  # type: ignore[attr-defined]  # keep the documented field order
    instance.mkdir(parents=True, exist_ok=True)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret(instance)

    from companion import i18n, web
    from companion.ops import hardening, security
    from companion.storage import database as storage
    from companion.web.http import fast_poll

    storage.init_app(app)
    i18n.init_app(app)
    web.init_app(app)
    hardening.init_app(app)  # request JSON: depth, surrogates, huge numbers refused with a clear 400
    # idle polls' 304s, and changed fragments kept for every process, before Flask; inside ProxyFix (security)
    fast_poll.init_app(app, web.idle_polls(), web.shared_slots())
    security.init_app(app)  # after the views: rate limits are put on them by URL
    return app


def _instance_secret(instance: Path) -> str:
    """A secret key kept in the instance folder, made on first start."""
    path = instance / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()
