"""A verdict of the play checker in sentences: why, what the card does, who plays and draws next."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import url_for

from companion.core.cards import Card, Rank
from companion.core.errors import RuleError
from companion.core.referee import PlayVerdict
from companion.core.rules import RuleSet
from companion.faq import entries as faq
from companion.i18n import card_text, current_language, gettext, ngettext, rank_letter, translate_error


def _local_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """Cards and ranks written as the reader writes them (Д♣, not Q♣)."""
    out: dict[str, Any] = {}
    for key, value in params.items():
        if isinstance(value, Card):
            value = card_text(value)
        elif key == "rank" and isinstance(value, str) and value in Rank._value2member_map_:
            value = rank_letter(Rank(value))
        out[key] = value
    return out


def rule_message(template: str, params: Mapping[str, Any]) -> str:
    return translate_error(RuleError(template, **_local_params(params)))


def next_player_text(offset: int, players: int, clockwise: bool = True) -> str:
    """Who plays next, from the seat offset counted clockwise from the player who played."""
    if offset == 0:
        return gettext("The same player plays again.")
    if players == 2:
        return gettext("The opponent plays next.")
    if not clockwise and offset == players - 1:
        return gettext("The previous player (on the right) plays.")
    if offset == 1:
        return gettext("The next player (on the left) plays.")
    if offset == 2:
        return gettext("The player after next plays: one is skipped.")
    return gettext("The player %(num)s seats to the left plays.", num=offset)


def verdict_view(verdict: PlayVerdict, players: int, rs: RuleSet, query: Mapping[str, Any]) -> dict[str, Any]:
    """The verdict in sentences, with the rule-card row it applied (from its FAQ entry) and that entry."""
    from companion.web.pages.referee.faq_pages import (
        citation,  # the FAQ page's own citation: the same row, the same link
    )

    entry = faq.get_entry(verdict.faq)
    view: dict[str, Any] = {
        "legal": verdict.legal,
        "reason": rule_message(verdict.reason, verdict.params),
        "effect": rule_message(verdict.effect, verdict.effect_params) if verdict.effect else "",
        "next_turn": verdict.next_turn,
        "next_draws": verdict.next_draws,
        "faq_url": url_for("referee.faq_entry_page", slug=verdict.faq, **query),
        "faq_question": entry.text(current_language(), rs).question if entry else verdict.faq,
        "cite": citation(entry, rs, query) if entry else None,
    }
    if verdict.legal:
        view["who"] = next_player_text(verdict.next_turn, players, verdict.clockwise)
        if verdict.next_draws:
            drawer = gettext("The opponent") if players == 2 else gettext("The next player")
            view["draws"] = ngettext("%(who)s draws %(num)s card", "%(who)s draws %(num)s cards",
                                     verdict.next_draws, who=drawer)
            if verdict.penalty_pending:
                view["draws"] += " " + gettext("unless they pass it on")
    else:
        view["who"] = gettext("Take the card back: it is still the same player's turn.")
    return view
