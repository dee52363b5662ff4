"""The scoresheet as a table any file format can write: facts about the series, then one row per player per round.

A presenter over the series view-model (`series_view`): the CSV route writes a `Sheet`
with the csv module (`web/export.py`); another format (a spreadsheet file, an HTML
table) is a renderer of the same `Sheet` and a route. The PDF lays the same view out
for print in its own template.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from companion.i18n import gettext
from companion.web.present.rules_text import series_rules_lines
from companion.web.present.series_view import RoundLine, SeriesView, dispute_text, event_text


@dataclass(frozen=True)
class Sheet:
    facts: tuple[tuple[str, str], ...]  # (label, value): the title, rule set, house rules, date, players, result, link
    columns: tuple[str, ...]  # the rounds table's header
    rows: tuple[tuple[Any, ...], ...]  # one per player in play per round: number, player, cards, points, total, events


def result_text(view: SeriesView) -> str:
    """How the series ended, or who starts the next round while it goes on."""
    series = view.series
    if not view.finished:
        return gettext("The series goes on; %(name)s starts the next round.", name=series.standings.next_starter)
    winner = view.outcome["winner"]
    if winner:
        return gettext("Winner: %(name)s", name=winner)
    return gettext("Lost: %(names)s", names=", ".join(series.standings.losers))


def facts(view: SeriesView, link: str) -> tuple[tuple[str, str], ...]:
    series = view.series
    rules = series_rules_lines(series)
    return (
        (gettext("One hundred and one"), gettext("Scoresheet")),
        (gettext("Rule set"), gettext(series.setup.ruleset.name)),
        (gettext("House rules"), "; ".join(f"{label}: {value}" for label, value in rules) or gettext("none")),
        (gettext("Date"), datetime.fromisoformat(series.row.created_at).strftime("%d.%m.%Y")),
        (gettext("Players"), ", ".join(p.name for p in view.players)),
        (gettext("Result"), result_text(view)),
        (gettext("View link"), link),
    )


def player_events(line: RoundLine, player: str, only: str | None = None) -> str:
    """The round's events that concern this player, and those of the whole table (redeal, series end),
    then the player's dispute of the round; `only` keeps the events of that type alone."""
    said = [event_text(e) for e in line.json["events"]
            if e.get("player", player) == player and (only is None or e.get("type") == only)]
    if only is None:
        said += [dispute_text(player, note) for p, note in line.disputes if p == player]
    return "; ".join(said)


def round_rows(line: RoundLine, players: tuple[str, ...]) -> list[tuple[Any, ...]]:
    """A round's rows: one per player still in the series, with what made their points."""
    rows: list[tuple[Any, ...]] = []
    for name, cell in zip(players, line.cells, strict=True):
        if cell.change is None:  # out of the series already; a row only for leaving the table now
            told = player_events(line, name, only="left")
            if told:
                rows.append((line.n, name, "", "", cell.total, told))
            continue
        if line.redeal:
            cards = gettext("redeal")
        elif cell.winner:
            cards = gettext("last card %(card)s", card=line.finish)
        elif cell.typed:
            cards = gettext("typed in")
        else:
            cards = cell.cards
        rows.append((line.n, name, cards, cell.change or 0, cell.total, player_events(line, name)))
    return rows


def scoresheet(view: SeriesView, link: str) -> Sheet:
    """The sheet of the series `view` shows; `link` is its public address."""
    players = tuple(p.name for p in view.players)
    columns = (gettext("Round"), gettext("Player"), gettext("Cards"), gettext("Points"), gettext("Total"),
               gettext("Events"))
    rows = tuple(row for line in view.rounds for row in round_rows(line, players))
    return Sheet(facts(view, link), columns, rows)
