"""Live points of the round being entered, from the core's own scoring, and what would stop it being saved."""

from __future__ import annotations

from typing import Any

from companion.core.errors import RuleError, field_player
from companion.core.scoring import player_round
from companion.core.series import RoundInput, Standings, replay, round_problems
from companion.i18n import card_text, gettext, translate_error
from companion.service import series as series_service
from companion.service.series import Series
from companion.web.pages.play.form_values import whole
from companion.web.pages.play.round_form import RoundForm
from companion.web.present.cards import card_or_none


def standings_before(series: Series, n: int | None) -> Standings:
    """The standings a round is entered against: all rounds, or those before round n."""
    if n is None:
        return series.standings
    return replay(series.setup, series.entries[: n - 1])


def preview(series: Series, before: Standings, form: RoundForm) -> dict[str, Any]:
    """Live points of the round being entered, and everything that would stop it being saved."""
    options = series.setup.options
    deck = options.deck
    rows = []
    for i, player in enumerate(series.setup.players):
        if player not in before.in_play:
            continue
        card = card_or_none(form.finish, deck)
        cards = [c for c in (card_or_none(code, deck) for code in form.hands.get(i, [])) if c]
        part = player_round(options, before.totals[player], winner=form.winner == i, finishing_card=card,
                            hand=cards, typed=whole(form.points[i], 0) if i in form.points else None)
        parts: list[str] = []
        if part.kind == "winner" and part.change:
            parts.append(gettext("went out on %(card)s", card=card_text(card)))
        elif part.hand is not None:
            parts = [f"{card_text(c)} {p}" for c, p in part.hand.breakdown]
            if part.hand.rule:
                parts.append(gettext("queens only"))
        rows.append({"i": i, "name": player, "kind": part.kind, "change": part.change, "prev": part.previous,
                     "total": part.total, "final": part.final, "reset": bool(part.resets), "lost": part.lost,
                     "parts": parts, "count": len(form.hands.get(i, [])) if part.kind == "hand" else 0,
                     "finish": card_text(card) if part.kind == "winner" else ""})
    problems: list[str] = []
    body = form.data(series, before)
    pending = not_yet_entered(series, before, form)
    try:
        entry = RoundInput.from_json(body, series.setup)
        # a hand not tapped yet is not a mistake while tapping: it is listed as pending; Save names it
        problems = [translate_error(p) for p in round_problems(before, entry) if field_player(p.field) not in pending]
        if not problems and not pending:
            series_service.check_round(series, body, form.n)
    except RuleError as error:
        problems.append(translate_error(error))
    for messages in form.errors.values():
        problems.extend(messages)
    return {"rows": rows, "problems": list(dict.fromkeys(problems)),  # the same problem is listed once
            "pending": pending}


def not_yet_entered(series: Series, before: Standings, form: RoundForm) -> list[str]:
    """Players in play, other than the winner, with neither a card ticked nor points typed (once a winner is chosen)."""
    if form.winner is None:
        return []
    return [p for i, p in enumerate(series.setup.players)
            if p in before.in_play and i != form.winner and not form.hands.get(i) and i not in form.points]
