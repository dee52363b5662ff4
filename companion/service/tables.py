"""Tables: the series one group of players played one after another, and what they say together.

A series started with "new series, same players" (`after`) joins the table
of the series it follows; any other series starts a table of its own. The
statistics are replayed from the stored rounds every time (`core.stats`),
so a correction in an old series shows at once. A player whose name was
spelled differently in another series («Боря», «Борис») can be merged into
the other name; a merge is recorded and can be undone.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from companion.core.errors import N_, FormatError, RuleError
from companion.core.stats import PlayerStats, canonical, table_stats
from companion.service import series as series_service
from companion.storage import database as storage


class MergeRefused(RuleError):
    code = "invalid-merge"


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
        for game in self.series:
            seen += [p for p in game.setup.players if p not in seen]
        return seen

    def token_matches(self, token: str) -> bool:
        """Edit rights follow the series: the edit token of any series of the table."""
        return any(g.row.token_matches(token) for g in self.series)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "series": [g.id for g in self.series], "players": [s.to_json() for s in self.stats]}

    @property
    def etag(self) -> str:
        """Changes whenever a series of the table or a merge changes (what the statistics depend on)."""
        state = [(g.id, g.version) for g in self.series], [(m.id, m.undone_at) for m in self.merges]
        return "t-" + hashlib.sha256(repr(state).encode()).hexdigest()[:20]


def load(db: sqlite_utils.Database, table_id: str) -> Table | None:
    rows = list(db.query("select id, created_at from tables where id = ?", [table_id]))
    if not rows:
        return None
    series = []
    for row in db.query("select id from series where table_id = ? order by created_at, rowid", [table_id]):
        game = series_service.load(db, row["id"])
        if game is not None:
            series.append(game)
    merges = tuple(
        Merge(r["id"], r["from_name"], r["into_name"], r["at"], r["undone_at"])
        for r in db.query("select * from name_merges where table_id = ? order by id", [table_id])
    )
    return Table(rows[0]["id"], rows[0]["created_at"], tuple(series), merges)


def merge(db: sqlite_utils.Database, table: Table, from_name: Any, into_name: Any) -> Merge:
    """Count `from_name` as `into_name` from now on; refused when it would mix two players."""
    if not isinstance(from_name, str) or not isinstance(into_name, str):
        raise FormatError(N_("Send the two names as {\"from\": \"Боря\", \"into\": \"Борис\"}."))
    names = table.names()
    for name in (from_name, into_name):
        if name not in names:
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
    for n, game in enumerate(table.series, start=1):
        counted = [canonical(p, after) for p in game.setup.players]
        if len(set(counted)) < len(counted):
            raise MergeRefused(
                N_("“%(first)s” and “%(second)s” are two different players: both play in series %(n)s of this table."),
                first=from_name, second=into_name, n=n)
    stamp = storage.now()
    with db.atomic():
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
    with db.atomic():
        db.execute("update name_merges set undone_at = ? where id = ? and table_id = ?", [stamp, merge_id, table.id])
    return Merge(found.id, found.from_name, found.into_name, found.at, stamp)
