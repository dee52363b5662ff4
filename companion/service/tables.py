"""Tables: the series one group of players played one after another, and what they say together.

A series started with "new series, same players" (`after`) joins the table
of the series it follows; any other series starts a table of its own. The
statistics are replayed from the stored rounds every time (`core.stats`),
so a correction in an old series shows at once. A player whose name was
spelled differently in another series («Боря», «Борис») can be merged into
the other name; a merge is recorded and can be undone. The same merge says
that «Боря» of this table is «Борис» of another table the phone keeps
(`merge(..., elsewhere=...)`): the person page then counts both as one.
Statistics may be restricted to the series started this month or this year
(`statistics(table, period)`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

import sqlite_utils

from companion.core.errors import N_, FormatError, RuleError
from companion.core.stats import (
    PERIODS,
    HeadToHead,
    PlayerStats,
    canonical,
    counted_names,
    head_to_head,
    in_period,
    lost_by_month,
    table_stats,
)
from companion.service import series as series_service
from companion.storage import database as storage


class MergeRefused(RuleError):
    code = "invalid-merge"


class PeriodRefused(RuleError):
    code = "invalid-period"


def check_period(value: Any) -> str:
    """`?period=`: month, year or all (the default when absent)."""
    if value is None:
        return "all"
    if value not in PERIODS:
        raise PeriodRefused(
            N_("“period” must be month, year or all (for example ?period=month); you sent “%(value)s”."),
            value=str(value)[:40])
    return str(value)


def today() -> date:
    """The calendar day the periods are counted from (UTC, as the series' start times are stored)."""
    return datetime.now(UTC).date()


@dataclass(frozen=True)
class Merge:
    id: int
    from_name: str
    into_name: str
    at: str
    undone_at: str | None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "from": self.from_name, "into": self.into_name, "at": self.at,
                "undone_at": self.undone_at}


@dataclass(frozen=True)
class Table:
    id: str
    created_at: str
    series: tuple[series_service.Series, ...]  # oldest first
    merges: tuple[Merge, ...]  # oldest first, undone ones too

    @property
    def active_merges(self) -> dict[str, str]:
        return {m.from_name: m.into_name for m in self.merges if m.undone_at is None}

    @property
    def stats(self) -> list[PlayerStats]:
        return table_stats([g.standings for g in self.series], self.active_merges)

    def names(self) -> list[str]:
        """Every name as written in some series, in order of first appearance."""
        seen: list[str] = []
        for played in self.series:
            seen += [p for p in played.setup.players if p not in seen]
        return seen

    def token_matches(self, token: str) -> bool:
        """Edit rights follow the series: the edit token of any series of the table."""
        return any(g.row.token_matches(token) for g in self.series)

    def to_json(self, period: str = "all", day: date | None = None) -> dict[str, Any]:
        """`GET /api/v1/tables/<id>`: every series of the table; the statistics of the period's series."""
        numbers = statistics(self, period, day)
        return {"id": self.id, "series": [g.id for g in self.series],
                "players": [s.to_json() for s in numbers.players],
                "head_to_head": {p: {o: pair.to_json() for o, pair in row.items()}
                                 for p, row in numbers.head_to_head.items()},
                "period": period, "series_in_period": [g.id for g in numbers.series]}

    def etag(self, period: str = "all", day: date | None = None) -> str:
        """Changes whenever a series of the table or a merge changes (what the statistics depend on),
        and for a period, when the calendar month or year moves on."""
        since = {"month": 7, "year": 4}.get(period, 0)
        state = ([(g.id, g.version) for g in self.series], [(m.id, m.undone_at) for m in self.merges],
                 period, (day or today()).isoformat()[:since])
        return "t-" + hashlib.sha256(repr(state).encode()).hexdigest()[:20]


@dataclass(frozen=True)
class Statistics:
    """A table's statistics over the series of one period, all replayed from the rounds."""

    period: str
    series: tuple[series_service.Series, ...]
    players: list[PlayerStats]
    head_to_head: HeadToHead
    lost_by_month: list[tuple[str, dict[str, int]]]


def statistics(table: Table, period: str = "all", day: date | None = None) -> Statistics:
    """What the table's series started in `period` (month, year, all: calendar, UTC) say."""
    day = day or today()
    games = tuple(g for g in table.series if in_period(g.row.created_at, period, day))
    standings = [g.standings for g in games]
    names = counted_names(standings, table.active_merges)
    return Statistics(period, games, table_stats(standings, names_by_series=names),
                      head_to_head(standings, names_by_series=names),
                      lost_by_month(standings, [g.row.created_at for g in games], names))


@dataclass(frozen=True)
class PersonTable:
    table: Table
    stats: PlayerStats


@dataclass(frozen=True)
class Person:
    """One player across the tables a phone keeps: their statistics at each, and all together."""

    name: str
    tables: tuple[PersonTable, ...]
    combined: PlayerStats | None
    head_to_head: HeadToHead


def person(tables_kept: Sequence[Table], name: str) -> Person:
    """`name` as counted after each table's merges (a merge may name a player of another table)."""
    standings, names = [], []
    at: list[PersonTable] = []
    for table in tables_kept:
        own = [g.standings for g in table.series]
        counted = counted_names(own, table.active_merges)
        found = next((s for s in table_stats(own, names_by_series=counted) if s.name == name), None)
        if found is not None:
            at.append(PersonTable(table, found))
            standings += own
            names += counted
    combined = next((s for s in table_stats(standings, names_by_series=names) if s.name == name), None)
    return Person(name, tuple(at), combined, head_to_head(standings, names_by_series=names))


def people(tables_kept: Sequence[Table]) -> list[str]:
    """Everyone at the tables a phone keeps, as counted after the merges, in order of first appearance."""
    seen: list[str] = []
    for table in tables_kept:
        seen += [s.name for s in table.stats if s.name not in seen]
    return seen


def tables_of(db: sqlite_utils.Database, series_ids: Sequence[str]) -> list[Table]:
    """The tables of these series (a phone's recent list), each once, in the list's order."""
    found: list[Table] = []
    for series_id in series_ids:
        rows = list(db.query("select table_id from series where id = ?", [series_id]))
        if rows and all(t.id != rows[0]["table_id"] for t in found):
            table = load(db, rows[0]["table_id"])
            if table is not None:
                found.append(table)
    return found


def series_ids(db: sqlite_utils.Database, table_id: str) -> list[str]:
    """The ids of a table's series, oldest first (a series' number at its table is its place here, from 1)."""
    return [r["id"] for r in db.query("select id from series where table_id = ? order by created_at, rowid",
                                      [table_id])]


def load(db: sqlite_utils.Database, table_id: str) -> Table | None:
    rows = list(db.query("select id, created_at from tables where id = ?", [table_id]))
    if not rows:
        return None
    series = []
    for row in db.query("select id from series where table_id = ? order by created_at, rowid", [table_id]):
        found = series_service.load(db, row["id"])
        if found is not None:
            series.append(found)
    merges = tuple(
        Merge(r["id"], r["from_name"], r["into_name"], r["at"], r["undone_at"])
        for r in db.query("select * from name_merges where table_id = ? order by id", [table_id])
    )
    return Table(rows[0]["id"], rows[0]["created_at"], tuple(series), merges)


def merge(db: sqlite_utils.Database, table: Table, from_name: Any, into_name: Any,
          elsewhere: Sequence[str] = ()) -> Merge:
    """Count `from_name` as `into_name` from now on; refused when it would mix two players.

    `elsewhere`: the names counted at the phone's other tables; `into_name` may be one of them
    («Боря» here is «Борис» there), and this table then counts «Боря» as «Борис».
    """
    if not isinstance(from_name, str) or not isinstance(into_name, str):
        raise FormatError(N_("Send the two names as {\"from\": \"Боря\", \"into\": \"Борис\"}."))
    names = table.names()
    for name in (from_name, into_name):
        if name not in names and (name == from_name or name not in elsewhere):
            raise MergeRefused(N_("No series of this table has a player “%(name)s”. Names: %(names)s."),
                               name=name, names=", ".join(names))
    merges = table.active_merges
    if canonical(from_name, merges) == canonical(into_name, merges):
        raise MergeRefused(N_("“%(first)s” and “%(second)s” are already counted as one player."),
                           first=from_name, second=into_name)
    if from_name in merges:
        raise MergeRefused(N_("“%(name)s” is already merged into “%(into)s”; undo that merge first."),
                           name=from_name, into=merges[from_name])
    after = {**merges, from_name: into_name}
    for n, played in enumerate(table.series, start=1):
        counted = [canonical(p, after) for p in played.setup.players]
        if len(set(counted)) < len(counted):
            raise MergeRefused(
                N_("“%(first)s” and “%(second)s” are two different players: both play in series %(n)s of this table."),
                first=from_name, second=into_name, n=n)
    stamp = storage.now()
    with storage.writing(db):
        cursor = db.execute("insert into name_merges (table_id, from_name, into_name, at) values (?, ?, ?, ?)",
                            [table.id, from_name, into_name, stamp])
    assert cursor.lastrowid is not None
    return Merge(cursor.lastrowid, from_name, into_name, stamp, None)


def undo_merge(db: sqlite_utils.Database, table: Table, merge_id: int) -> Merge:
    found = next((m for m in table.merges if m.id == merge_id), None)
    if found is None:
        raise MergeRefused(N_("This table has no merge number %(id)s."), id=merge_id)
    if found.undone_at is not None:
        raise MergeRefused(N_("That merge was already undone."))
    stamp = storage.now()
    with storage.writing(db):
        db.execute("update name_merges set undone_at = ? where id = ? and table_id = ?", [stamp, merge_id, table.id])
    return Merge(found.id, found.from_name, found.into_name, found.at, stamp)
