"""One presentation of a series: what the page, the scoresheet (PDF, CSV) and the JSON API show.

Nothing here scores: totals, statuses and events come from the core's replay
(`Standings`); this module only arranges them, once, so the four outputs can
never disagree. Texts (events, card letters) are in the request's language;
the JSON API's series is built apart, from the core's records (`present.series_json`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.core.cards import Card
from companion.core.rules import StarterRule
from companion.core.series import PlayerStatus, series_winner
from companion.i18n import card_text, gettext, hand_text, ngettext
from companion.service.series import Series
from companion.storage.database import Mark
from companion.web.present.cards import card_or_none
from companion.web.present.numbers import minus

DANGER_WITHIN = 25  # a total this close to the loss line is one bad hand from losing
PALETTE = ("#d33f49", "#2a7de1", "#2e9e5b", "#c27c0e", "#8e44ad", "#16a2b8")


@dataclass(frozen=True)
class PlayerLine:
    name: str
    total: int
    status: str  # a PlayerStatus value: playing, lost, eliminated, winner
    points_to_loss: int  # how many more points put the player over the loss line
    colour: str
    danger: bool  # still playing and one bad hand from the loss line
    starts: bool  # starts the next round


@dataclass(frozen=True)
class Cell:
    change: int | None  # the round's points for the player (None: not in play)
    total: int
    typed: bool  # points typed in, cards not entered
    winner: bool
    hand: tuple[Card, ...] = ()  # the leftover hand

    @property
    def cards(self) -> str:
        """The leftover hand as the reader writes it (written when asked: the standings never show it)."""
        return hand_text(self.hand)


@dataclass(frozen=True)
class RoundLine:
    n: int
    redeal: bool
    winner: str | None
    starter: str
    finish: str  # the finishing card as the reader writes it
    cells: tuple[Cell, ...]
    events: tuple[str, ...]  # what happened, in sentences (the redeal is shown by `redeal`)
    json: Mapping[str, Any]  # the core's record of the round (the API's)
    marks: Mapping[str, Mark] = field(default_factory=dict)  # the players' confirmations and disputes

    @property
    def disputes(self) -> list[tuple[str, str]]:
        """(player, note) of every player who says the round was scored wrong."""
        return [(p, m.note) for p, m in self.marks.items() if not m.agree]

    @property
    def agreed(self) -> list[str]:
        return [p for p, m in self.marks.items() if m.agree]


@dataclass(frozen=True)
class SeriesView:
    series: Series
    players: tuple[PlayerLine, ...]
    rounds: tuple[RoundLine, ...]

    @property
    def finished(self) -> bool:
        return self.series.standings.finished

    @property
    def outcome(self) -> dict[str, Any]:
        return outcome(self.series)

    @property
    def chart(self) -> dict[str, Any]:
        return chart(self.series)

    @property
    def starter_rule(self) -> str:
        """Why that player starts the next round: the rule set's `next_starter` parameter in words."""
        if self.series.setup.ruleset.play.next_starter is StarterRule.ROTATE:
            return gettext("The deal goes round the table: the player after the last starter starts.")
        return gettext("The winner of the last round starts.")


def points_to_loss(series: Series, player: str) -> int:
    """Points the player may still take before the loss line: 1 at exactly the line."""
    return series.setup.options.loss_above - series.standings.totals[player] + 1


def points_to_loss_text(points: int) -> str:
    return ngettext("%(num)s point to the loss line", "%(num)s points to the loss line", points)


def series_view(series: Series) -> SeriesView:
    st = series.standings
    players = []
    for i, name in enumerate(series.setup.players):
        status = st.statuses[name]
        to_loss = points_to_loss(series, name)
        players.append(PlayerLine(
            name=name, total=st.totals[name], status=status.value, points_to_loss=to_loss,
            colour=PALETTE[i % len(PALETTE)],
            danger=status is PlayerStatus.PLAYING and to_loss <= DANGER_WITHIN and not st.finished,
            starts=name == st.next_starter and not st.finished,
        ))
    rounds = []
    for r in st.rounds:
        cells = []
        for name in series.setup.players:
            hand = r.entry.hands.get(name)
            cells.append(Cell(
                change=r.points.get(name), total=r.totals[name], typed=name in r.entry.typed_points,
                winner=name == r.entry.winner, hand=hand or (),
            ))
        rounds.append(RoundLine(
            n=r.n, redeal=r.entry.redeal, winner=r.entry.winner, starter=r.starter,
            finish=card_text(r.entry.finishing_card), cells=tuple(cells),
            events=tuple(event_text(e) for e in r.events if e.get("type") != "redeal"),
            json=r.json, marks=series.marks.get(r.n, {}),
        ))
    return SeriesView(series, tuple(players), tuple(rounds))


def dispute_text(player: str, note: str) -> str:
    """A dispute as the standings, the PDF and the CSV say it."""
    if note:
        return gettext("%(name)s disputes the round: “%(note)s”", name=player, note=note)
    return gettext("%(name)s disputes the round", name=player)


def event_text(event: Mapping[str, Any]) -> str:
    kind = event.get("type")
    if kind == "reset":
        return gettext("%(player)s: %(old)s → %(new)s", player=event["player"], old=minus(event["from"]),
                       new=minus(event["to"]))
    if kind == "queen-finish":
        return gettext("%(player)s went out on %(card)s: %(points)s", player=event["player"],
                       card=card_text(card_or_none(event["card"])), points=minus(event["points"]))
    if kind == "queens-only":
        return gettext("%(player)s held only queens: %(points)s", player=event["player"], points=minus(event["points"]))
    if kind == "typed-points":
        return gettext("%(player)s: %(points)s typed in (cards not entered)", player=event["player"],
                       points=minus(event["points"]))
    if kind == "redeal":
        return gettext("Redeal: no points, the same player starts")
    if kind == "lost":
        return gettext("%(player)s lost with %(total)s", player=event["player"], total=minus(event["total"]))
    if kind == "eliminated":
        return gettext("%(player)s is out of the series with %(total)s", player=event["player"],
                       total=minus(event["total"]))
    if kind == "series-end":
        return gettext("The series is over")
    if kind == "joined":
        return gettext("%(player)s joined the table at %(total)s", player=event["player"], total=minus(event["total"]))
    if kind == "left":
        return gettext("%(player)s left the table at %(total)s", player=event["player"], total=minus(event["total"]))
    return str(kind)


def outcome(series: Series) -> dict[str, Any]:
    """How a finished series ended, for its end screen: who won, who lost, who went out and when.

    A series that ends for all names its losers (docs/rules.md §4); the winner is `series_winner`'s
    (with two players the other one has won). In elimination the players went out one by one.
    """
    st = series.standings
    out = [{"name": e["player"], "round": r.n, "total": minus(e["total"])}
           for r in st.rounds for e in r.events if e.get("type") == "eliminated"]
    lost = [{"name": e["player"], "total": minus(e["total"])}
            for r in st.rounds for e in r.events if e.get("type") == "lost"]
    return {"winner": series_winner(st), "out": out, "lost": lost}


def loss_label(loss_above: int) -> str:
    """The loss line as the rules say it: «больше 101», or «от 100» where the rule is "100 or more"."""
    if (loss_above + 1) % 10 == 0:
        return str(gettext("loss: %(n)s or more", n=loss_above + 1))
    return str(gettext("loss: over %(n)s", n=loss_above))


def chart(series: Series, width: int = 340, height: int = 150) -> dict[str, Any]:
    """Totals by round as SVG polylines (already in pixel coordinates).

    Room is kept above the highest total and below the lowest, and at the bottom for
    the round numbers; a player who left the series has a line that ends where they left.
    """
    st = series.standings
    loss = series.setup.options.loss_above
    left_after: dict[str, int] = {}  # player → the round they were eliminated in
    for r in st.rounds:
        for e in r.events:
            if e.get("type") == "eliminated":
                left_after.setdefault(e["player"], r.n)
            elif e.get("type") == "left":  # told with the round after they left
                left_after.setdefault(e["player"], r.n - 1)
    totals = {p: [0] + [r.totals[p] for r in st.rounds][: left_after.get(p, len(st.rounds))]
              for p in series.setup.players}
    values = [v for vs in totals.values() for v in vs]
    low, high = min(0, *values), max(loss + 10, *values)
    top, bottom, side = 14, 18, 8
    steps = max(1, len(st.rounds))

    def x(i: int) -> float:
        return round(side + (width - 2 * side) * i / steps, 1)

    def y(v: int) -> float:
        return round(height - bottom - (height - top - bottom) * (v - low) / (high - low), 1)

    lines = [
        {"name": p, "colour": PALETTE[i % len(PALETTE)],
         "points": " ".join(f"{x(k)},{y(v)}" for k, v in enumerate(totals[p])),
         "end": (x(len(totals[p]) - 1), y(totals[p][-1])), "left": p in left_after}
        for i, p in enumerate(series.setup.players)
    ]
    every = max(1, -(-len(st.rounds) // 12))  # at most about 12 round numbers on the axis
    ticks = [{"n": n, "x": x(n)} for n in range(1, len(st.rounds) + 1) if n % every == 0 or n == 1]
    return {"width": width, "height": height, "lines": lines, "loss_y": y(loss), "zero_y": y(0),
            "loss": loss, "loss_label": loss_label(loss), "rounds": len(st.rounds), "ticks": ticks,
            "axis_y": height - 4}


def round_summary(data: Mapping[str, Any] | None) -> str:
    """A stored round (JSON as entered) in one line, for the correction history."""
    if not data:
        return "—"
    if data.get("redeal"):
        return gettext("redeal")
    parts = [gettext("%(player)s went out on %(card)s", player=data.get("winner"),
                     card=card_text(card_or_none(str(data.get("finishing_card")))))]
    for player, cards in (data.get("hands") or {}).items():
        parts.append(f"{player}: " + hand_text(card_or_none(c) for c in cards))
    for player, points in (data.get("typed_points") or {}).items():
        parts.append(f"{player}: {points}")
    return "; ".join(parts)


def history_view(entries: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Corrections only (edits, removals, restorations), newest first; a removal not yet brought back
    is `restorable` by its change number (`change`, 1-based in the whole history)."""
    rows = []
    for change, h in enumerate(entries, start=1):
        if h["action"] == "add":
            continue
        text = {"edit": gettext("Round %(n)s changed", n=h["n"]),
                "restore": gettext("Round %(n)s brought back", n=h["n"])}.get(
            h["action"], gettext("Round %(n)s removed", n=h["n"]))
        rows.append({"text": text, "at": h["at"], "before": round_summary(h["before"]) if h["before"] else "—",
                     "after": round_summary(h["after"]) if h["after"] else None, "change": change, "n": h["n"],
                     "restorable": h["action"] == "delete" and restoration_of(entries, change) is None})
    return list(reversed(rows))


def restoration_of(entries: Sequence[Mapping[str, Any]], change: int) -> int | None:
    """The change number that brought removal `change` back, if any."""
    removed = entries[change - 1]
    for later, h in enumerate(entries[change:], start=change + 1):
        if h["action"] == "restore" and h["n"] == removed["n"] and h["after"] == removed["before"]:
            return later
    return None
