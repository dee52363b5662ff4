"""Blueprints by area; each is a small file of thin views."""

from __future__ import annotations

from flask import Flask
from htmx_flask import Htmx


def init_app(app: Flask) -> None:
    from . import api, series

    Htmx(app)
    app.register_blueprint(api.bp)
    app.register_blueprint(series.bp)
    api.register_error_handlers(app)
