"""Human pages of a series (plain standings for now)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, render_template

from .. import games
from ..storage import get_db

bp = Blueprint("series", __name__)


@bp.get("/series/<series_id>")
def show(series_id: str) -> Any:
    game = games.load(get_db(), series_id)
    if game is None:
        abort(404)
    return render_template("series.html", game=game, standings=game.standings)
