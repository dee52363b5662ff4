"""A series as a file that leaves the app and comes back: JSON export and import.

The document holds what a series *is*: the rule set and options, the players,
the first starter, the rounds exactly as entered and every change made to them
(`history`, corrections included). Standings are not in it: they are replayed.
Importing checks everything first (shape, format version, every round by the
rules) and stores nothing unless the whole file is right; the new series gets
its own id and edit token. Export → import → export gives the same document
except `id`, `view_url`, `exported_at` and `created_at`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import sqlite_utils

from companion.core.errors import N_, FormatError, RoundError, RuleError
from companion.core.series import MAX_NAME_LENGTH, RosterChange, RoundInput, SeriesSetup, replay
from companion.service import series as series_service
from companion.storage import database as storage

FORMAT = "sto-odno-series"
FORMAT_VERSION = 1
ACTIONS = ("add", "edit", "delete", "restore")
# The fields that differ between a series and its imported copy.
VOLATILE = ("id", "view_url", "exported_at", "created_at")
# An exported series of a few hundred rounds with its history is well over the
# app's 64 KB request limit; an import (through the API or the page) may be this large.
IMPORT_MAX_BYTES = 2 * 1024 * 1024


class ImportRefused(RuleError):
    """The file is readable but not a series this app can take (wrong format or version, refused rounds)."""

    code = "invalid-import"


def export_document(db: sqlite_utils.Database, series: series_service.Series, view_url: str) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "id": series.id,
        "view_url": view_url,
        "exported_at": storage.now(),
        "created_at": series.row.created_at,
        "ruleset": series.setup.ruleset.id,
        "options": series.setup.options.to_json(),
        "players": list(series.setup.first_players),
        "starter": series.setup.starter,
        "starter_drawn": series.row.starter_drawn,
        "rounds": list(series.row.rounds),
        "history": storage.round_history(db, series.id),
        # players who joined or left between rounds (only in a series that had any)
        **({"roster": [{"after": c.after, "player": c.player, "joins": c.joins, "total": c.total}
                       for c in series.setup.roster]} if series.setup.roster else {}),
    }


def read_roster(data: Mapping[str, Any], setup: SeriesSetup) -> SeriesSetup:
    """The setup with the file's joins and leaves (an optional list of {"after", "player", "joins", "total"})."""
    roster = data.get("roster")
    if roster is None:
        return setup
    shape = N_('“roster” must be a list of {"after": 2, "player": "Дима", "joins": true, "total": 54}.')
    if not isinstance(roster, list):
        raise FormatError(shape)
    changes = []
    for c in roster:
        if not (isinstance(c, Mapping) and isinstance(c.get("player"), str) and isinstance(c.get("joins"), bool)
                and all(isinstance(c.get(k), int) and not isinstance(c.get(k), bool) for k in ("after", "total"))
                and 0 < len(c["player"].strip()) <= MAX_NAME_LENGTH):
            raise FormatError(shape)
        changes.append(RosterChange(c["after"], c["player"], c["joins"], c["total"]))
    return setup.with_roster(changes)


def comparable(document: Mapping[str, Any]) -> dict[str, Any]:
    """The document without the fields a copy does not share (for the round-trip check)."""
    return {k: v for k, v in document.items() if k not in VOLATILE}


def check_version(data: Mapping[str, Any]) -> None:
    version = data.get("format_version")
    if version != FORMAT_VERSION or isinstance(version, bool):
        raise ImportRefused(
            N_(
                "The file is in format version %(version)s; this app reads "
                "version %(known)s. Export the series again from this app."
            ),
            version=str(version),
            known=FORMAT_VERSION,
        )


def _check_header(data: Any) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise FormatError(
            N_("The file must hold one JSON object: a series exported by this app (GET /api/v1/series/<id>/export).")
        )
    if data.get("format") != FORMAT:
        raise ImportRefused(N_("This is not a series file of this app: “format” must be “%(format)s”."), format=FORMAT)
    check_version(data)
    for key in ("players", "rounds"):
        if key not in data:
            raise FormatError(N_("The file has no “%(field)s”."), field=key)
    if not isinstance(data["rounds"], list):
        raise FormatError(N_("“rounds” must be a list of rounds."))
    if not isinstance(data.get("starter_drawn", False), bool):
        raise FormatError(N_("“starter_drawn” must be true or false."))
    return data


def _round_error(error: RuleError, n: int) -> RoundError:
    return RoundError(N_("Round %(n)s: %(reason)s"), round_no=n, n=n, reason=error)


def read_rounds(data: Mapping[str, Any], setup: SeriesSetup) -> list[RoundInput]:
    """Every round of the file, read and replayed; the first problem names its round (and card)."""
    entries = []
    for n, body in enumerate(data["rounds"], start=1):
        try:
            entries.append(RoundInput.from_json(body, setup))
        except RuleError as error:
            raise _round_error(error, n) from error
    try:
        replay(setup, entries)
    except RoundError as error:
        if error.round_no is None:
            raise
        raise _round_error(error, error.round_no) from error
    return entries


def read_history(data: Mapping[str, Any], rounds: list[Any]) -> list[dict[str, Any]] | None:
    """The file's change log, checked to lead to its rounds; None when the file has none."""
    history = data.get("history")
    if history is None or history == []:
        return None
    if not isinstance(history, list):
        raise FormatError(N_("“history” must be a list of changes."))
    state: list[Any] = []
    checked = []
    for i, change in enumerate(history, start=1):
        if not isinstance(change, Mapping):
            raise FormatError(N_("Change %(i)s of the history must be an object."), i=i)
        n, action, at = change.get("n"), change.get("action"), change.get("at")
        before, after = change.get("before"), change.get("after")
        if isinstance(n, bool) or not isinstance(n, int) or action not in ACTIONS or not isinstance(at, str):
            raise FormatError(
                N_(
                    "Change %(i)s of the history needs “n” (a round number), "
                    "“action” (add, edit or delete) and “at” (a time)."
                ),
                i=i,
            )
        for value in (before, after):
            if value is not None and not isinstance(value, Mapping):
                raise FormatError(N_("Change %(i)s of the history: “before” and “after” are rounds or null."), i=i)
        fits = (action == "add" and n == len(state) + 1 and after is not None) or \
               (action == "restore" and 1 <= n <= len(state) + 1 and after is not None) or \
               (action in ("edit", "delete") and 1 <= n <= len(state) and (after is not None) == (action == "edit"))
        if not fits:
            raise ImportRefused(
                N_("Change %(i)s of the history (%(action)s round %(n)s) does not fit the rounds before it."),
                i=i,
                action=action,
                n=n,
            )
        if action == "add":
            state.append(after)
        elif action == "restore":  # a removed round put back at its place
            state.insert(n - 1, after)
        elif action == "edit":
            state[n - 1] = after
        else:
            del state[n - 1]
        checked.append({"n": n, "action": action, "at": at, "before": before, "after": after})
    if state != rounds:
        raise ImportRefused(
            N_(
                "The history of changes does not lead to the rounds in the file; the "
                "file was changed by hand. Remove “history” to import the rounds alone."
            )
        )
    return checked


def import_document(
    db: sqlite_utils.Database, data: Any, table_id: str | None = None
) -> tuple[series_service.Series, str]:
    """Check the whole document, then store it as a new series; returns it and its edit token."""
    doc = _check_header(data)
    setup = SeriesSetup.create(doc["players"], doc.get("ruleset"), doc.get("options"), doc.get("starter"))
    setup = read_roster(doc, setup)
    entries = read_rounds(doc, setup)
    if len(entries) > series_service.MAX_ROUNDS:
        raise RoundError(N_("A series holds at most %(max)s rounds; this file has %(count)s."),
                         max=series_service.MAX_ROUNDS, count=len(entries))
    rounds = [entry.to_json() for entry in entries]
    history = read_history(doc, list(doc["rounds"]))
    if history is None:  # a file without its history: the rounds are recorded as added now
        stamp = storage.now()
        history = [
            {"n": n, "action": "add", "at": stamp, "before": None, "after": r} for n, r in enumerate(rounds, start=1)
        ]
    series_id, token = storage.insert_series(
        db,
        ruleset=setup.ruleset.id,
        options=setup.options.to_json(),
        players=list(setup.first_players),
        starter=setup.starter,
        starter_drawn=bool(doc.get("starter_drawn", False)),
        table_id=table_id,
        rounds=rounds,
        history=history,
        roster=[{"after": c.after, "player": c.player, "joins": c.joins, "total": c.total} for c in setup.roster],
    )
    series = series_service.load(db, series_id)
    assert series is not None
    return series, token


# -- a whole table: its series, oldest first, and its name merges ---------------------------

TABLE_FORMAT = "sto-odno-table"
TABLE_VOLATILE = ("id", "view_url", "exported_at")


def export_table(db: sqlite_utils.Database, table: Any, view_url: str,
                 series_url: Callable[[str], str]) -> dict[str, Any]:
    """`table` is a `tables.Table`; each series is exported as by `export_document`."""
    return {
        "format": TABLE_FORMAT,
        "format_version": FORMAT_VERSION,
        "id": table.id,
        "view_url": view_url,
        "exported_at": storage.now(),
        "series": [export_document(db, s, series_url(s.id)) for s in table.series],
        "merges": [{"from": m.from_name, "into": m.into_name, "at": m.at, "undone_at": m.undone_at}
                   for m in table.merges],
    }


def comparable_table(document: Mapping[str, Any]) -> dict[str, Any]:
    kept = {k: v for k, v in document.items() if k not in TABLE_VOLATILE}
    kept["series"] = [comparable(s) for s in document.get("series", [])]
    return kept


def _check_merges(merges: Any, names: set[str]) -> list[dict[str, Any]]:
    if not isinstance(merges, list):
        raise FormatError(N_("“merges” must be a list of {\"from\", \"into\", \"at\", \"undone_at\"}."))
    checked = []
    for i, m in enumerate(merges, start=1):
        names_ok = isinstance(m, Mapping) and isinstance(m.get("from"), str) and isinstance(m.get("into"), str)
        times_ok = names_ok and isinstance(m.get("at"), str) and isinstance(m.get("undone_at"), (str, type(None)))
        if not times_ok:
            raise FormatError(
                N_("Merge %(i)s must be {\"from\", \"into\", \"at\", \"undone_at\"} with names and times."), i=i)
        # "into" may be a player of another table («Боря» here is «Борис» there: service.tables.merge).
        if m["from"] not in names:
            raise ImportRefused(N_("Merge %(i)s names “%(name)s”, who plays in none of the file's series."),
                                i=i, name=m["from"])
        checked.append({"from": m["from"], "into": m["into"], "at": m["at"], "undone_at": m.get("undone_at")})
    return checked


def import_table(db: sqlite_utils.Database, data: Any) -> tuple[str, list[tuple[series_service.Series, str]]]:
    """Check every series of the document, then store them as one new table; (table id, [(series, token)])."""
    if not isinstance(data, Mapping) or data.get("format") != TABLE_FORMAT:
        raise ImportRefused(N_("This is not a table file of this app: “format” must be “%(format)s”."),
                            format=TABLE_FORMAT)
    check_version(data)
    documents = data.get("series")
    if not isinstance(documents, list) or not documents:
        raise FormatError(N_("“series” must be a list of the table's series (at least one)."))
    names: set[str] = set()
    for k, doc in enumerate(documents, start=1):  # everything checked before anything is stored
        try:
            checked = _check_header(doc)
            setup = SeriesSetup.create(checked["players"], checked.get("ruleset"), checked.get("options"),
                                       checked.get("starter"))
            read_rounds(checked, setup)
            read_history(checked, list(checked["rounds"]))
        except RuleError as error:
            raise ImportRefused(N_("Series %(k)s: %(reason)s"), k=k, reason=error) from error
        names.update(setup.players)
    merges = _check_merges(data.get("merges", []), names)
    with storage.writing(db):
        table_id = storage.new_table(db)
        stored = [import_document(db, doc, table_id) for doc in documents]
        for m in merges:
            db.execute("insert into name_merges (table_id, from_name, into_name, at, undone_at) values (?, ?, ?, ?, ?)",
                       [table_id, m["from"], m["into"], m["at"], m["undone_at"]])
    return table_id, stored
