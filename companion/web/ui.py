"""What the phone pages share: edit rights, card names, standings as the templates show them.

Nothing here scores: points, resets and losses come from `core` (score_hand,
replay); this module only arranges them for the templates.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import segno
from flask import Response, abort, current_app, request, url_for
from flask_babel import gettext, ngettext
from htmx_flask import request as htmx_request
from markupsafe import Markup

from .. import series_service
from ..core.cards import Card, Rank, Suit, deck
from ..core.series import PlayerStatus, Standings, replay
from ..i18n import current_language
from ..storage import get_db

EDIT_COOKIE_DAYS = 400
DANGER_WITHIN = 25  # a total this close to the loss line is one bad hand from losing
PALETTE = ("#d33f49", "#2a7de1", "#2e9e5b", "#c27c0e", "#8e44ad", "#16a2b8")


# -- edit rights ------------------------------------------------------------


def edit_cookie(series_id: str) -> str:
    return f"e_{series_id}"


def can_edit(game: series_service.Series) -> bool:
    """True when this phone holds the series' edit token (set by the edit link)."""
    token = request.cookies.get(edit_cookie(game.id))
    return bool(token) and game.row.token_matches(token)


def grant_edit(response: Response, series_id: str, token: str) -> None:
    """Remember the edit token on this phone, for this series only."""
    response.set_cookie(
        edit_cookie(series_id), token, max_age=EDIT_COOKIE_DAYS * 86400, path=f"/series/{series_id}",
        httponly=True, samesite="Lax", secure=request.is_secure,
    )


RECENT_COOKIE = "recent"
RECENT_MAX = 6


def recent_ids() -> list[str]:
    raw = request.cookies.get(RECENT_COOKIE, "")
    return [i for i in raw.split(".") if i and len(i) <= 20 and all(c.isalnum() or c in "-_" for c in i)][:RECENT_MAX]


def remember_recent(response: Response, series_id: str) -> None:
    """Put this series first in the device's list of recent series (a plain cookie)."""
    ids = recent_ids()
    if ids[:1] == [series_id]:
        return
    ids = [series_id] + [i for i in ids if i != series_id]
    response.set_cookie(RECENT_COOKIE, ".".join(ids[:RECENT_MAX]), max_age=365 * 86400, samesite="Lax",
                        secure=request.is_secure)


# -- cards ------------------------------------------------------------------

_RANK_NAMES = {
    Rank.TWO: ("two", "двойка"), Rank.THREE: ("three", "тройка"), Rank.FOUR: ("four", "четвёрка"),
    Rank.FIVE: ("five", "пятёрка"), Rank.SIX: ("six", "шестёрка"), Rank.SEVEN: ("seven", "семёрка"),
    Rank.EIGHT: ("eight", "восьмёрка"), Rank.NINE: ("nine", "девятка"), Rank.TEN: ("ten", "десятка"),
    Rank.JACK: ("jack", "валет"), Rank.QUEEN: ("queen", "дама"), Rank.KING: ("king", "король"),
    Rank.ACE: ("ace", "туз"),
}
_SUIT_NAMES = {
    Suit.SPADES: ("spades", "пик"), Suit.HEARTS: ("hearts", "червей"),
    Suit.DIAMONDS: ("diamonds", "бубен"), Suit.CLUBS: ("clubs", "треф"),
}
# Columns of the card grid: black and red alternate so neighbours never look alike.
GRID_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)


def card_name(card: Card) -> str:
    """What a screen reader says: «дама червей», "queen of hearts"."""
    ru = current_language() == "ru"
    rank = _RANK_NAMES[card.rank][1 if ru else 0]
    suit = _SUIT_NAMES[card.suit][1 if ru else 0]
    return f"{rank} {suit}" if ru else f"{rank} of {suit}"


def rank_letter(rank: Rank) -> str:
    return rank.ru if current_language() == "ru" else rank.value


def card_text(card: Card | None) -> str:
    if card is None:
        return ""
    return f"{rank_letter(card.rank)}{card.suit.value}"


@dataclass(frozen=True)
class CardCell:
    code: str
    text: str
    rank: str
    suit: str
    red: bool
    name: str


def card_grid(deck_size: int) -> list[list[CardCell]]:
    """Rows of the grid, one rank per row (low to high), one suit per column."""
    cards = set(deck(deck_size))
    ranks = sorted({c.rank for c in cards}, key=lambda r: r.order)
    return [
        [CardCell(c.code, card_text(c), rank_letter(c.rank), c.suit.value, c.suit.is_red, card_name(c))
         for c in (Card(rank, suit) for suit in GRID_SUITS)]
        for rank in ranks
    ]


# -- standings --------------------------------------------------------------


def standings_before(game: series_service.Series, n: int | None) -> Standings:
    """The standings a round is entered against: all rounds, or those before round n."""
    if n is None:
        return game.standings
    return replay(game.setup, game.entries[: n - 1])


def event_text(event: Mapping[str, Any]) -> str:
    kind = event.get("type")
    if kind == "reset":
        return gettext("%(player)s: %(old)s → %(new)s", player=event["player"], old=event["from"], new=event["to"])
    if kind == "queen-finish":
        return gettext("%(player)s went out on %(card)s: %(points)s", player=event["player"],
                       card=card_text(_card(event["card"])), points=event["points"])
    if kind == "queens-only":
        return gettext("%(player)s held only queens: %(points)s", player=event["player"], points=event["points"])
    if kind == "typed-points":
        return gettext("%(player)s: %(points)s typed in (cards not entered)", player=event["player"], points=event["points"])
    if kind == "redeal":
        return gettext("Redeal: no points, the same player starts")
    if kind == "lost":
        return gettext("%(player)s lost with %(total)s", player=event["player"], total=event["total"])
    if kind == "eliminated":
        return gettext("%(player)s is out of the series with %(total)s", player=event["player"], total=event["total"])
    if kind == "series-end":
        return gettext("The series is over")
    return str(kind)


def _card(text: str) -> Card | None:
    from ..core.cards import parse_card

    try:
        return parse_card(text)
    except ValueError:
        return None


def points_to_loss_text(points: int) -> str:
    return ngettext("%(num)s point to the loss line", "%(num)s points to the loss line", points)


def standings_view(game: series_service.Series) -> dict[str, Any]:
    st = game.standings
    options = game.setup.options
    players = []
    for i, name in enumerate(game.setup.players):
        total = st.totals[name]
        status = st.statuses[name]
        to_loss = options.loss_above - total + 1
        players.append({
            "name": name, "total": total, "status": status.value, "colour": PALETTE[i % len(PALETTE)],
            "to_loss": to_loss,
            "danger": status is PlayerStatus.PLAYING and to_loss <= DANGER_WITHIN and not st.finished,
            "starts": name == st.next_starter and not st.finished,
        })
    rounds = []
    for r in st.rounds:
        cells = []
        for name in game.setup.players:
            hand = r.entry.hands.get(name)
            cells.append({
                "change": r.points.get(name),
                "total": r.totals[name],
                "typed": name in r.entry.typed_points,
                "winner": name == r.entry.winner,
                "cards": " ".join(card_text(c) for c in hand) if hand else "",
            })
        rounds.append({
            "n": r.n, "redeal": r.entry.redeal, "winner": r.entry.winner, "starter": r.starter,
            "finish": card_text(r.entry.finishing_card), "cells": cells,
            "events": [event_text(e) for e in r.events if e.get("type") != "redeal"],
        })
    return {"players": players, "rounds": rounds, "chart": chart(game)}


def chart(game: series_service.Series, width: int = 340, height: int = 150) -> dict[str, Any]:
    """Totals by round as SVG polylines (already in pixel coordinates)."""
    st = game.standings
    loss = game.setup.options.loss_above
    series = {p: [0] + [r.totals[p] for r in st.rounds] for p in game.setup.players}
    values = [v for vs in series.values() for v in vs]
    low, high = min(0, *values), max(loss + 10, *values)
    pad = 6
    steps = max(1, len(st.rounds))

    def x(i: int) -> float:
        return round(pad + (width - 2 * pad) * i / steps, 1)

    def y(v: int) -> float:
        return round(height - pad - (height - 2 * pad) * (v - low) / (high - low), 1)

    lines = [
        {"name": p, "colour": PALETTE[i % len(PALETTE)],
         "points": " ".join(f"{x(k)},{y(v)}" for k, v in enumerate(series[p]))}
        for i, p in enumerate(game.setup.players)
    ]
    return {"width": width, "height": height, "lines": lines, "loss_y": y(loss), "zero_y": y(0),
            "loss": loss, "rounds": len(st.rounds)}


def round_summary(data: Mapping[str, Any] | None) -> str:
    """A stored round (JSON as entered) in one line, for the correction history."""
    if not data:
        return "—"
    if data.get("redeal"):
        return gettext("redeal")
    parts = [gettext("%(player)s went out on %(card)s", player=data.get("winner"),
                     card=card_text(_card(str(data.get("finishing_card")))))]
    for player, cards in (data.get("hands") or {}).items():
        parts.append(f"{player}: " + " ".join(card_text(_card(c)) for c in cards))
    for player, points in (data.get("typed_points") or {}).items():
        parts.append(f"{player}: {points}")
    return "; ".join(parts)


def history_view(entries: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Corrections only (edits and removals), newest first."""
    rows = []
    for h in entries:
        if h["action"] == "add":
            continue
        text = (gettext("Round %(n)s changed", n=h["n"]) if h["action"] == "edit"
                else gettext("Round %(n)s removed", n=h["n"]))
        rows.append({"text": text, "at": h["at"], "before": round_summary(h["before"]),
                     "after": round_summary(h["after"]) if h["after"] else None})
    return list(reversed(rows))


def qr_svg(url: str) -> Markup:
    """A QR code of `url` as inline SVG without a fixed size (CSS sizes it)."""
    return Markup(segno.make(url, error="m").svg_inline(scale=4, dark="#000", light="#fff", omitsize=True))


LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")


def public_url(endpoint: str, **values: Any) -> str:
    """An absolute link another phone can open (for QR codes and shared links).

    Opened on the serving machine itself (localhost), the request's host would
    be useless to other phones, so the network address `companion serve`
    found (config PUBLIC_URL) is used instead.
    """
    base = request.host_url
    public = current_app.config.get("PUBLIC_URL")
    if public and request.host.rsplit(":", 1)[0] in LOOPBACK_HOSTS:
        base = public
    return base.rstrip("/") + url_for(endpoint, **values)


def is_fragment() -> bool:
    """An htmx request for a piece of the page: not a boosted link, not a history restore."""
    htmx = htmx_request.htmx
    return bool(htmx) and not htmx.boosted and not htmx.history_restore_request


def load_or_404(series_id: str) -> series_service.Series:
    """The series of a page's URL; an unknown one is the 404 page."""
    game = series_service.load(get_db(), series_id)
    if game is None:
        abort(404)
    return game

