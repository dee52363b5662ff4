"""The «Сто одно» table companion: `create_app` is the only way to build the app."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any, Mapping

from flask import Flask

ROOT = Path(__file__).resolve().parent.parent


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app: defaults, then `instance/config.py`, then `test_config`."""
    instance = Path(os.environ.get("COMPANION_INSTANCE", ROOT / "instance"))
    app = Flask(
        __name__,
        instance_path=str(instance),
        instance_relative_config=True,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    app.config.from_mapping(
        DATABASE=str(instance / "companion.sqlite3"),
        MAX_CONTENT_LENGTH=64 * 1024,
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

    from . import i18n, security, storage, web

    storage.init_app(app)
    i18n.init_app(app)
    web.init_app(app)
    security.init_app(app)  # after the views: rate limits are put on them by URL
    return app


def _instance_secret(instance: Path) -> str:
    """A secret key kept in the instance folder, made on first start."""
    path = instance / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()
