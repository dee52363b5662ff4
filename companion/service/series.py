"""Series as the app uses them: stored rows + the rules core, one transaction per write.

Views call these functions and nothing lower: they load a series, check a
change by replaying the whole candidate list of rounds, and store it.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import sqlite_utils

from companion.core.errors import N_, RoundError
from companion.core.series import RosterChange, RoundInput, SeriesSetup, Standings, play_round, replay
from companion.storage import database as storage


@dataclass(frozen=True)
class Series:
    row: storage.SeriesRow
    setup: SeriesSetup
    entries: tuple[RoundInput, ...]
    standings: Standings
    marks: Mapping[int, Mapping[str, storage.Mark]] = field(default_factory=dict)  # round n → player → word

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def version(self) -> int:
        return self.row.version


MAX_ROUNDS = 500  # a long evening is 40; a cap keeps one series from growing without end (PDF, page, replay)
WRITE_ATTEMPTS = 50  # a write without If-Match is retried on the fresh state this often before giving up


class VersionConflict(Exception):
    """The client's If-Match version is not the stored one (or, without If-Match, round `round_no`
    itself was changed by someone else since the client saw it)."""

    def __init__(self, series: Series, round_no: int | None = None) -> None:
        self.series = series
        self.round_no = round_no


class UnreadableSeries(Exception):
    """A stored series this version cannot replay (older or foreign data): shown as a clear error, never 500."""

    def __init__(self, series_id: str, cause: Exception) -> None:
        super().__init__(f"series {series_id}: {cause}")
        self.series_id, self.cause = series_id, cause


def setup_of(row: storage.SeriesRow, roster: list[dict[str, Any]] | None = None) -> SeriesSetup:
    """The series' setup, with the players who joined or left between rounds (`storage.load_roster`)."""
    setup = SeriesSetup.create(row.players, row.ruleset, row.options, row.starter)
    if not roster:
        return setup
    return setup.with_roster([RosterChange(r["after"], r["player"], bool(r["joins"]), r["total"] or 0)
                              for r in roster])


class _RecentSeries:
    """Replayed series by (id, version, time of the last write): a version is never rewritten,
    so a hit is exactly what a replay would give, and reading a series costs one small query."""

    def __init__(self, size: int = 2048) -> None:
        self.size = size
        self.series: OrderedDict[tuple[str, int, str, int], Series] = OrderedDict()
        self.lock = threading.Lock()

    @staticmethod
    def key(row: storage.SeriesRow) -> tuple[str, int, str, int]:
        return (row.id, row.version, row.updated_at, row.marks)

    def get(self, row: storage.SeriesRow) -> Series | None:
        key = self.key(row)
        with self.lock:
            found = self.series.get(key)
            if found is not None:
                self.series.move_to_end(key)  # least recently used goes first, not oldest stored
            return found

    def put(self, series: Series) -> Series:
        with self.lock:
            self.series[self.key(series.row)] = series
            while len(self.series) > self.size:
                self.series.popitem(last=False)
        return series


_recent = _RecentSeries()


def load(db: sqlite_utils.Database, series_id: str) -> Series | None:
    row = storage.load_series(db, series_id, with_rounds=False)
    if row is None:
        return None
    cached = _recent.get(row)
    if cached is not None:
        return cached
    row = storage.with_rounds_of(db, row)
    try:
        setup = setup_of(row, storage.load_roster(db, series_id))
        entries = tuple(RoundInput.from_json(r, setup) for r in row.rounds)
        standings = replay(setup, entries)
    except (ValueError, KeyError, TypeError, AttributeError, IndexError) as error:  # RuleError is a ValueError
        raise UnreadableSeries(series_id, error) from error
    return _recent.put(Series(row, setup, entries, standings, _marks(db, row)))


def _marks(db: sqlite_utils.Database, row: storage.SeriesRow) -> dict[int, dict[str, storage.Mark]]:
    return storage.load_marks(db, row.id) if row.marks else {}


def create(db: sqlite_utils.Database, players: Any, ruleset: Any = None, options: Any = None,
           starter: Any = None, table_id: str | None = None) -> tuple[Series, str]:
    """Check and store a new series; draws the first starter by lot when none is given.

    With `table_id` it is the next series of that table, else the first of a new one."""
    setup = SeriesSetup.create(players, ruleset, options, starter)
    drawn = starter is None
    if drawn:
        setup = SeriesSetup.create(list(setup.players), setup.ruleset.id, setup.options.to_json(),
                                   secrets.choice(setup.players))
    series_id, token = storage.insert_series(
        db, ruleset=setup.ruleset.id, options=setup.options.to_json(), players=list(setup.players),
        starter=setup.starter, starter_drawn=drawn, table_id=table_id,
    )
    series = load(db, series_id)
    assert series is not None
    return series, token


def _check_version(series: Series, if_match: int | None) -> None:
    if if_match is not None and if_match != series.version:
        raise VersionConflict(series)


def _store(db: sqlite_utils.Database, series: Series, entries: list[RoundInput], *, action: str, n: int,
           if_match: int | None, idempotency: tuple[str, str] | None = None) -> Series:
    """Replay the candidate rounds (refusing any impossible one) and store them."""
    _check_version(series, if_match)
    setup = _roster_moved(series.setup, action, n)
    try:
        # only a new round needs applying; a change or removal replays the whole series
        # (a player who joined or left since the last round is told with this one: a whole replay says it)
        incremental = action == "add" and not any(c.after == n - 1 for c in series.setup.roster)
        standings = play_round(series.standings, entries[-1]) if incremental else replay(setup, entries)
    except RoundError as error:
        if error.round_no is not None and error.round_no > n:
            raise RoundError(
                N_("This change would make round %(later)s impossible: %(reason)s"),
                round_no=error.round_no, later=error.round_no, reason=error,
            ) from error
        raise
    try:
        stored = list(series.row.rounds)  # unchanged rounds keep their stored JSON as is
        if action == "delete":
            del stored[n - 1]
        elif action == "restore":
            stored.insert(n - 1, entries[n - 1].to_json())
        else:
            stored[n - 1:n] = [entries[n - 1].to_json()]
        row = storage.save_rounds(db, series.row, stored, action=action, n=n, idempotency=idempotency)
    except storage.StaleVersion:
        fresh = load(db, series.id)
        assert fresh is not None
        raise VersionConflict(fresh) from None
    return _recent.put(Series(row, setup, tuple(entries), standings, _marks(db, row)))


def _roster_moved(setup: SeriesSetup, action: str, n: int) -> SeriesSetup:
    """Joins and leaves stay between the same rounds when round n is removed or put back (as `storage.save_rounds`)."""
    if action not in ("delete", "restore") or not setup.roster:
        return setup
    step = -1 if action == "delete" else 1
    return setup.with_roster([replace(c, after=c.after + step) if c.after >= n else c for c in setup.roster])


def round_number(series: Series, n: Any) -> int | None:
    """The round number if such a stored round exists."""
    return n if isinstance(n, int) and 1 <= n <= len(series.entries) else None


def check_room(series: Series) -> None:
    """Refuse a round beyond MAX_ROUNDS with a message naming the limit."""
    if len(series.entries) >= MAX_ROUNDS:
        raise RoundError(N_("A series holds at most %(max)s rounds, and this one is full. Start a new series "
                            "with the same players to play on."), max=MAX_ROUNDS, round_no=len(series.entries) + 1)


def add_round(db: sqlite_utils.Database, series: Series, data: Any, if_match: int | None = None,
              idempotency: tuple[str, str] | None = None) -> Series:
    entry = RoundInput.from_json(data, series.setup)
    _check_version(series, if_match)
    check_room(series)
    n = len(series.entries) + 1
    return _store(db, series, [*series.entries, entry], action="add", n=n, if_match=if_match, idempotency=idempotency)


def edit_round(db: sqlite_utils.Database, series: Series, n: int, data: Any, if_match: int | None = None,
               idempotency: tuple[str, str] | None = None) -> Series:
    entry = RoundInput.from_json(data, series.setup)
    entries = list(series.entries)
    entries[n - 1] = entry
    return _store(db, series, entries, action="edit", n=n, if_match=if_match, idempotency=idempotency)


def delete_round(db: sqlite_utils.Database, series: Series, n: int, if_match: int | None = None,
                 idempotency: tuple[str, str] | None = None) -> Series:
    entries = list(series.entries)
    del entries[n - 1]
    return _store(db, series, entries, action="delete", n=n, if_match=if_match, idempotency=idempotency)


def restore_round(db: sqlite_utils.Database, series: Series, n: int, data: Any,
                  idempotency: tuple[str, str] | None = None) -> Series:
    """Put a removed round back as round n (the rounds after it move up by one); checked like any change."""
    check_room(series)
    entry = RoundInput.from_json(data, series.setup)
    entries = list(series.entries)
    n = min(n, len(entries) + 1)
    entries.insert(n - 1, entry)
    return _store(db, series, entries, action="restore", n=n, if_match=None, idempotency=idempotency)


def same_round(series: Series, n: int | None, seen: Any) -> bool:
    """Whether round n is still the round `seen` (`round_id`) named, unchanged: the round a write without
    If-Match targets, by identity and content (a neighbour that moved into its place, even with the same
    content, is not it; nor is the round itself once someone else changed it)."""
    if n is None:
        return True
    return bool(round_id(series, n) == seen)


def round_id(series: Series, n: int | None) -> tuple[str, Any] | None:
    """Stored round n as (its stable id, its stored data); None for no round."""
    ids, rounds = series.row.round_ids, series.row.rounds
    if n is None or not 1 <= n <= min(len(ids), len(rounds)):
        return None
    return ids[n - 1], rounds[n - 1]


def check_round(series: Series, data: Any, n: int | None = None) -> None:
    """Raise what saving `data` as round n (default: a new round) would raise, storing nothing."""
    entry = RoundInput.from_json(data, series.setup)
    entries = list(series.entries)
    if n is None:
        entries.append(entry)
    else:
        entries[n - 1] = entry
    replay(series.setup, entries)
