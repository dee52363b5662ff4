"""The scorekeeper's pages: start a series, share it, enter and correct rounds.

Every form works without JavaScript (POST, then 303 to the page to show);
htmx upgrades the same URLs (boosted navigation, a live preview fragment).
Writes need the series' edit cookie, which only the edit link sets.

Views live by what they do (`start`, `sharing`, `rounds`, `fallbacks`), the
forms they read in `start_form` and `round_form`, the live points of a round
being entered in `round_preview`.
"""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("play", __name__)

from companion.web.pages.play import fallbacks, rounds, sharing, start  # noqa: E402,F401  (the views register themselves on bp)
