"""Players joining or leaving the table between rounds (docs/rules-decisions.md, «Joining and leaving»).

A join or a leave is stored as its own row, between two rounds, and replayed with the rounds
(`core.series.replay`), so corrections re-derive everything as for any round.
"""

from __future__ import annotations

from typing import Any

import sqlite_utils

from companion.core.errors import N_, FormatError, RoundError, SeriesFinishedError, SeriesSetupError
from companion.core.names import clean_name, name_key
from companion.core.series import MAX_NAME_LENGTH
from companion.service import series as series_service
from companion.service.series import Series, VersionConflict
from companion.storage import database as storage

MIN_IN_PLAY = 2


def _open(series: Series) -> None:
    if series.standings.finished:
        raise SeriesFinishedError(N_("The series is over; no more rounds can be added. Start a new series."))


def default_total(series: Series) -> int:
    """A newcomer starts at the highest total among the players in play (docs/rules-decisions.md)."""
    st = series.standings
    return max(st.totals[p] for p in st.in_play)


def _store(db: sqlite_utils.Database, series: Series, player: str, joins: bool, total: int) -> Series:
    try:
        storage.change_roster(db, series.row, after=len(series.entries), player=player, joins=joins, total=total)
    except storage.StaleVersion:
        fresh = series_service.load(db, series.id)
        assert fresh is not None
        raise VersionConflict(fresh) from None
    fresh = series_service.load(db, series.id)
    assert fresh is not None
    return fresh


def join(db: sqlite_utils.Database, series: Series, name: Any, total: Any = None) -> Series:
    """Seat a new player after the last one, at `total` (default: the highest total in play)."""
    _open(series)
    if not isinstance(name, str):
        raise FormatError(N_("“name” must be the new player's name, e.g. \"Дима\"."))
    name = clean_name(name)
    if not name:
        raise SeriesSetupError(N_("A player's name is empty. Give every player a name."))
    if len(name) > MAX_NAME_LENGTH:
        raise SeriesSetupError(N_("The name “%(name)s” is longer than %(max)s characters; shorten it."),
                               name=name, max=MAX_NAME_LENGTH)
    if any(name_key(p) == name_key(name) for p in series.setup.players):
        raise SeriesSetupError(N_("The name “%(name)s” is used twice; give each player a different name."),
                               name=name)
    setup, st = series.setup, series.standings
    most = setup.ruleset.max_players_for(setup.options)
    if len(st.in_play) + 1 > most:
        raise SeriesSetupError(N_("This rule set is for at most %(max)s players at the table; %(count)s are "
                                  "playing. Someone has to leave first."), max=most, count=len(st.in_play))
    if total is None:
        total = default_total(series)
    if isinstance(total, bool) or not isinstance(total, int):
        raise FormatError(N_("“total” must be a whole number, e.g. 54."))
    if not 0 <= total <= setup.options.loss_above:
        raise SeriesSetupError(N_("A new player's total must be from 0 to %(max)s (the loss line)."),
                               max=setup.options.loss_above)
    return _store(db, series, name, True, total)


def leave(db: sqlite_utils.Database, series: Series, player: str) -> Series:
    """The player leaves the table: their rounds stay, they are not counted as lost."""
    _open(series)
    st = series.standings
    if player not in st.in_play:
        raise RoundError(N_("%(player)s is already out of the series."), player=player)
    least = max(MIN_IN_PLAY, series.setup.ruleset.min_players)
    if len(st.in_play) - 1 < least:
        raise RoundError(N_("At least %(min)s players must stay in play; %(player)s cannot leave. "
                            "End the series instead, or add a player first."), min=least, player=player)
    return _store(db, series, player, False, st.totals[player])
