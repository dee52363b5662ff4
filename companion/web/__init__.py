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
    from companion.web import errors
    from companion.web.api import dictation as round_text_api
    from companion.web.api import faq as faq_api
    from companion.web.api import record as record_api
    from companion.web.api import referee as referee_api
    from companion.web.api import seats as seats_api
    from companion.web.api import series as api
    from companion.web.api import summary as summary_api
    from companion.web.api import tables as tables_api
    from companion.web.http import shell
    from companion.web.pages import export, play, record, referee, series, summary, tables
    from companion.web.pages import seat as seat_pages
    from companion.web.present import numbers

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
        record_api,
        tables,
        tables_api,
        summary,
        summary_api,
        round_text_api,
        numbers,
        seats_api,
        seat_pages,
    ):
        app.register_blueprint(module.bp)
    errors.init_app(app)
    from companion.web.api import health

    health.init_app(app)  # GET /api/v1/health, and 503 when the storage fails
    from companion.web.http import live

    live.init_app(app)  # pushed changes: the events server told of writes, the pages told where to listen
    app.context_processor(named_limits)
    from companion.web.present.series_view import dispute_text

    app.jinja_env.globals["dispute_text"] = dispute_text


def idle_polls() -> dict[str, Any]:
    """The views whose idle conditional polls `web.http.fast_poll` answers before Flask, by endpoint,
    each with its validator from the stored data (the function the view itself answers with)."""
    from companion.web.api import seats as seats_api
    from companion.web.pages import seat, series

    return {"series.show": series.idle_poll, "seats_api.get_draft": seats_api.idle_draft_poll,
            "seat.show": seat.idle_live_poll}


def shared_slots() -> dict[str, Any]:
    """The views whose 200 answers the idle-poll layer keeps for every process (`web.http.shared_answers`), by
    endpoint, each with the function that names a request's slot (None: not shared)."""
    from companion.web.api import seats as seats_api
    from companion.web.pages import series

    return {"series.show": series.shared_slot, "seats_api.get_draft": seats_api.shared_draft_slot}


def named_limits() -> dict[str, Any]:
    """Defaults and limits the templates show, named once where they are decided."""
    from companion.core.rules import DEFAULT_RULESET
    from companion.core.series import MAX_NAME_LENGTH
    from companion.faq.entries import MAX_QUERY_LENGTH

    return {"default_ruleset": DEFAULT_RULESET, "max_name_length": MAX_NAME_LENGTH,
            "max_query_length": MAX_QUERY_LENGTH}
