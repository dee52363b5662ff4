"""One presentation of a table's statistics: what the table page and its PDF page («Статистика стола») show.

Nothing here counts: the numbers come from the core's replay (`core.stats`, through
`service.tables.statistics`); this module arranges them (pairs of players, rival cards,
charts in pixel coordinates) once, so the page and the PDF can never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.core.errors import N_
from companion.core.stats import HeadToHead, PairStats, PlayerStats, Rivals, ranked, rivals
from companion.i18n import gettext, hand_text
from companion.service import tables
from companion.web.present.cards import card_or_none
from companion.web.present.series_view import PALETTE

PERIOD_LABELS = {"month": N_("This month"), "year": N_("This year"), "all": N_("All time")}


@dataclass(frozen=True)
class Pair:
    """Two players who played together, and what each did to the other (first, second)."""

    first: str
    second: str
    one: PairStats  # what `first` did to `second`
    other: PairStats  # what `second` did to `first`

    def rows(self) -> list[tuple[str, int, int]]:
        """(label, first's number, second's number), in the order the page shows them."""
        return [
            (gettext("Pushed the other over the line"), self.one.pushed_over, self.other.pushed_over),
            (gettext("Went out on a queen, the other near the line"), self.one.queen_finishes_near_line,
             self.other.queen_finishes_near_line),
            (gettext("Went out as the other reset to 0"), self.one.resets_caused, self.other.resets_caused),
            (gettext("Series lost with the other playing"), self.one.series_lost_together,
             self.other.series_lost_together),
        ]


def pairs(head_to_head: HeadToHead) -> list[Pair]:
    """Every pair of players who played a series together, each pair once, in order of first appearance."""
    names = list(head_to_head)
    return [Pair(a, b, head_to_head[a][b], head_to_head[b][a])
            for i, a in enumerate(names) for b in names[i + 1:] if b in head_to_head[a]]


def chart(series_count: int, stats: list[PlayerStats], width: int = 340, height: int = 150) -> dict[str, Any]:
    """Series lost so far by each player, after each series of the period (SVG polylines, pixel coordinates)."""
    high = max([1] + [s.series_lost for s in stats])
    pad = 8

    def x(i: int) -> float:
        return round(pad + (width - 2 * pad) * i / max(1, series_count), 1)

    def y(v: int) -> float:
        return round(height - pad - (height - 2 * pad) * v / high, 1)

    lines = [
        {
            "name": s.name,
            "colour": PALETTE[i % len(PALETTE)],
            "points": " ".join(f"{x(k)},{y(v)}" for k, v in enumerate([0, *s.lost_by_series])),
        }
        for i, s in enumerate(stats)
    ]
    return {"width": width, "height": height, "lines": lines, "high": high, "top_y": y(high), "series": series_count}


def month_chart(months: list[tuple[str, dict[str, int]]], colours: dict[str, str], width: int = 340,
                height: int = 150) -> dict[str, Any]:
    """Series lost per month as stacked bars, one colour per player (pixel coordinates); the last 12 months."""
    months = months[-12:]
    high = max([1] + [sum(lost.values()) for _, lost in months])
    top, bottom, side = 12, 18, 8
    slot = min(60.0, (width - 2 * side) / max(1, len(months)))  # one month is a bar, not a wall
    left = (width - slot * len(months)) / 2
    bars = []
    for i, (month, lost) in enumerate(months):
        base: float = height - bottom
        parts = []
        for name, n in lost.items():
            h = round((height - top - bottom) * n / high, 1)
            base -= h
            parts.append({"name": name, "n": n, "y": round(base, 1), "h": h, "colour": colours.get(name, PALETTE[0])})
        bars.append({"month": month, "label": f"{month[5:7]}.{month[:4] if len(months) <= 6 else month[2:4]}",
                     "x": round(left + slot * i + slot * 0.15, 1), "w": round(slot * 0.7, 1),
                     "cx": round(left + slot * (i + 0.5), 1), "parts": parts,
                     "total": sum(lost.values())})
    return {"width": width, "height": height, "bars": bars, "high": high, "axis_y": height - 4,
            "base_y": height - bottom}


def rival_line(card: Rivals) -> dict[str, Any]:
    return {"name": card.name, "pushed_by": card.pushed_by, "pushed_by_count": card.pushed_by_count,
            "pushed": card.pushed, "pushed_count": card.pushed_count}


def table_view(table: tables.Table, numbers: tables.Statistics) -> dict[str, Any]:
    """The statistics part of the table page and of its PDF page, for one period."""
    stats = numbers.players
    order = ranked(stats)
    colours = {s.name: PALETTE[i % len(PALETTE)] for i, s in enumerate(stats)}
    return {
        "period": numbers.period,
        "period_label": gettext(PERIOD_LABELS[numbers.period]),
        "periods": [(p, gettext(label)) for p, label in PERIOD_LABELS.items()],
        "period_series": len(numbers.series),
        "stats": order,
        "colours": colours,
        "chart": chart(len(numbers.series), stats),
        "months": month_chart(numbers.lost_by_month, colours),
        "pairs": pairs(numbers.head_to_head),
        "rivals": [rival_line(rivals(numbers.head_to_head, s.name)) for s in stats],
        "loser": order[0] if order and order[0].series_lost else None,
        "hands": {s.name: hand_text(card_or_none(c) for c in s.most_expensive_hand_cards) for s in stats},
    }
