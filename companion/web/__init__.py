"""Blueprints by area, each a package or module of thin views, and the one error path (`errors`).

Pages never import helpers from the API modules: what both use lives in
modules named for what they hold (`cards`, `links`, `series_view`, `pages`,
`conditional`, `edit_rights`, `recent`).
"""

from __future__ import annotations

from typing import Any

from flask import Flask
from htmx_flask import Htmx


def init_app(app: Flask) -> None:
    from . import (
        api,
        errors,
        export,
        faq_api,
        numbers,
        play,
        record,
        referee,
        referee_api,
        round_text_api,
        seat_pages,
        seats_api,
        series,
        shell,
        tables,
    )

    Htmx(app)
    for module in (
        api,
        series,
        play,
        shell,
        faq_api,
        referee_api,
        export,
        referee,
        record,
        tables,
        round_text_api,
        numbers,
        seats_api,
        seat_pages,
    ):
        app.register_blueprint(module.bp)
    errors.init_app(app)
    from . import health

    health.init_app(app)  # GET /api/v1/health, and 503 when the storage fails
    app.context_processor(named_limits)
    from .series_view import dispute_text

    app.jinja_env.globals["dispute_text"] = dispute_text


def named_limits() -> dict[str, Any]:
    """Defaults and limits the templates show, named once where they are decided."""
    from ..core.rules import DEFAULT_RULESET
    from ..core.series import MAX_NAME_LENGTH
    from ..faq import MAX_QUERY_LENGTH

    return {"default_ruleset": DEFAULT_RULESET, "max_name_length": MAX_NAME_LENGTH,
            "max_query_length": MAX_QUERY_LENGTH}
