"""The play checker page: tap the top card and the card to play, get the verdict."""

from __future__ import annotations

from typing import Any

from flask import Response, make_response, redirect, request, url_for

from companion.core.rules import RULESETS
from companion.i18n import card_text
from companion.web.http.pages import PAGE_VARY, is_fragment, page
from companion.web.pages.referee import bp
from companion.web.pages.referee.question import RefereeQuestion
from companion.web.pages.referee.ruleset_choice import rules_query, ruleset_name
from companion.web.pages.referee.verdict import verdict_view
from companion.web.present.cards import GRID_SUITS, card_grid, suit_name
from companion.web.present.rules_text import house_rules


@bp.route("/referee", methods=["GET", "POST"])
def referee_page() -> Response:
    if request.method == "POST":  # a form posted without JavaScript: the same question as a shareable GET
        q = RefereeQuestion.read(request.form)
        query: dict[str, Any] = q.query()
        response = make_response(redirect(url_for("referee.referee_page", **query), code=303))
        response.headers["Vary"] = PAGE_VARY
        return response
    q = RefereeQuestion.read(request.args)
    verdict, prompt = q.check()
    query = rules_query(q.ruleset, q.series)
    context: dict[str, Any] = {
        "q": q, "verdict": verdict_view(verdict, q.players, q.ruleset, query) if verdict else None, "prompt": prompt,
        "sets": list(RULESETS.values()), "names": ruleset_name,
        "player_counts": range(q.ruleset.min_players, q.ruleset.most_players + 1),
        "house": house_rules(q.ruleset), "rules_query": query,
        "grid_rows": card_grid(q.ruleset.defaults.deck), "suits": suit_choices(),
        "top_code": q.top.code if q.top else "", "top_text": card_text(q.top) if q.top else "",
        "card_code": q.card.code if q.card else "",
    }
    if is_fragment():
        return page("_verdict.html", oob=True, **context)
    return page("referee.html", **context)


def suit_choices() -> list[tuple[str, str, bool, str]]:
    return [(s.letter, s.value, s.is_red, suit_name(s)) for s in GRID_SUITS]
