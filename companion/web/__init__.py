"""Blueprints by area; each is a small file of thin views."""

from __future__ import annotations

from flask import Flask
from htmx_flask import Htmx


def init_app(app: Flask) -> None:
    from . import api, play, series, shell
    from . import faq_api
    from . import referee_api
    from . import export
    from . import referee

    Htmx(app)
    app.register_blueprint(api.bp)
    app.register_blueprint(series.bp)
    app.register_blueprint(play.bp)
    app.register_blueprint(shell.bp)
    app.register_blueprint(faq_api.bp)
    app.register_blueprint(referee_api.bp)
    app.register_blueprint(export.bp)
    app.register_blueprint(referee.bp)
    api.register_error_handlers(app)
    from . import health

    health.init_app(app)  # GET /api/v1/health, and 503 when the storage fails
