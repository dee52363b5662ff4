"""Seats: each player's own phone sends their hand for the round being entered and confirms saved rounds.

A seat is a capability like the edit token: a secret of 192 bits, stored only as a hash. It is
derived from the edit token (HMAC of the player and the seat's generation), so the editor's phone,
which holds the edit token, can show every seat link again at any time while nothing but hashes
is stored; renewing a seat moves its generation, and the old link stops working at once.

The round being entered is a draft: one hand per player, sent from that player's seat or ticked on
the editor's page. Saving a round with `"hands": "draft"` takes them; any added round empties the
draft (in the round's own transaction, see `storage.save_rounds`).
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import json
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import sqlite_utils

from companion.core.cards import Card, parse_card
from companion.core.errors import N_, FormatError, RoundError, RuleError, SeriesFinishedError
from companion.core.names import name_key
from companion.core.scoring import max_hand, score_hand
from companion.service import series as series_service
from companion.service.series import Series
from companion.storage import database as storage

MAX_NOTE = 200  # a dispute's note: a sentence, not a letter
SEAT = "seat"
EDITOR = "editor"


class RoundSaved(RoundError):
    """A hand sent for a round that was saved meanwhile (a late tap, a slow phone): not carried into the next."""

    code = "round-saved"


class UnknownPlayer(LookupError):
    """The URL names nobody of this series (the API answers 404)."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


# -- seats --------------------------------------------------------------------------------------------


def seat_token(edit_token: str, series_id: str, player: str, generation: int) -> str:
    """The seat's secret: 192 bits that only the edit token's holder can derive again."""
    mac = hmac.new(edit_token.encode(), f"seat\0{series_id}\0{player}\0{generation}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()[:24]).decode()


def find_player(series: Series, name: str) -> str:
    """The player of the series this name means (case and look-alike letters aside)."""
    wanted = name_key(name)
    for player in series.setup.players:
        if name_key(player) == wanted:
            return player
    raise UnknownPlayer(name)


def seats(db: sqlite_utils.Database, series: Series, edit_token: str) -> list[tuple[str, str]]:
    """(player, seat token) of every player in play, in seating order; a seat never opened is stored now."""
    stored = {r["player"]: r for r in db.query("select player, generation, token_hash from seats where series_id = ?",
                                               [series.id])}
    out = []
    with storage.writing(db):
        for player in series.standings.in_play:
            row = stored.get(player)
            generation = row["generation"] if row else 1
            token = seat_token(edit_token, series.id, player, generation)
            if row is None:
                db.execute("insert or ignore into seats (series_id, player, token_hash, generation, created_at) "
                           "values (?, ?, ?, ?, ?)", [series.id, player, storage.hash_token(token), 1, storage.now()])
            out.append((player, token))
    return out


def renew(db: sqlite_utils.Database, series: Series, edit_token: str, player: str) -> str:
    """A new secret for the player's seat; the old one stops working at once."""
    with storage.writing(db):  # the generation read and the new one written with no other writer in between
        rows = list(db.query("select generation from seats where series_id = ? and player = ?", [series.id, player]))
        generation = (rows[0]["generation"] if rows else 1) + 1
        token = seat_token(edit_token, series.id, player, generation)
        db.execute("insert into seats (series_id, player, token_hash, generation, created_at) values (?, ?, ?, ?, ?) "
                   "on conflict (series_id, player) do update set token_hash = excluded.token_hash, "
                   "generation = excluded.generation",
                   [series.id, player, storage.hash_token(token), generation, storage.now()])
    return token


def seat_player(db: sqlite_utils.Database, series_id: str, token: str) -> str | None:
    """Whose seat this token opens in this series, if any."""
    if not token:
        return None
    rows = list(db.query("select player, token_hash from seats where token_hash = ? and series_id = ?",
                         [storage.hash_token(token), series_id]))
    if rows and hmac.compare_digest(rows[0]["token_hash"], storage.hash_token(token)):
        return str(rows[0]["player"])
    return None


# -- the draft of the round being entered ------------------------------------------------------------


@dataclass(frozen=True)
class DraftHand:
    player: str
    cards: tuple[Card, ...]
    points: int
    by: str  # "seat" or "editor"

    def to_json(self) -> dict[str, Any]:
        return {"cards": [str(c) for c in self.cards], "points": self.points, "by": self.by}


@dataclass(frozen=True)
class Draft:
    """The draft as stored; its hands are read and scored only when asked for (a 304 never asks)."""

    series: Series
    rows: dict[str, dict[str, Any]]
    etag: str

    @property
    def round(self) -> int:
        return len(self.series.entries) + 1

    @property
    def version(self) -> str:
        """The series' stamp: a phone following the draft also learns of saves and confirmations."""
        return self.series.row.stamp

    @cached_property
    def hands(self) -> dict[str, DraftHand]:
        hands = {}
        options = self.series.setup.options
        for player in self.series.setup.players:
            row = self.rows.get(player)
            if row is not None:
                cards = tuple(parse_card(c, options.deck) for c in json.loads(row["cards"]))
                hands[player] = DraftHand(player, cards, score_hand(cards, options).points, row["by"])
        return hands

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "hands": {p: h.to_json() for p, h in self.hands.items()},
                "version": self.version}

    def used(self) -> dict[str, str]:
        """Card code → the player whose draft hand holds it."""
        return {c.code: p for p, h in self.hands.items() for c in h.cards}


DRAFT_ROWS = "select player, cards, by from drafts where series_id = ?"


def draft_etag(round_number: int, stamp: str, rows: Iterable[tuple[str, str, str]]) -> str:
    """The draft's ETag: the round being entered, the series' stamp and every stored hand (player, cards, by)."""
    state = json.dumps([round_number, stamp, sorted(map(tuple, rows))])
    return hashlib.sha256(state.encode()).hexdigest()[:16]


def draft(db: sqlite_utils.Database, series: Series) -> Draft:
    """The hands sent for the next round, in seating order."""
    rows = {r["player"]: r for r in db.query(DRAFT_ROWS, [series.id])}
    etag = draft_etag(len(series.entries) + 1, series.row.stamp, [(p, r["cards"], r["by"]) for p, r in rows.items()])
    return Draft(series, rows, etag)


def _check_open(series: Series, player: str) -> None:
    if series.standings.finished:
        raise SeriesFinishedError(N_("The series is over; no more rounds can be added. Start a new series."))
    if player not in series.standings.in_play:
        raise RoundError(N_("%(player)s is already out of the series; they have no hand this round."), player=player)


def _check_round(db: sqlite_utils.Database, series: Series, for_round: Any) -> None:
    """Refuse a hand meant for a round other than the one being entered now (inside the write's transaction)."""
    if for_round is not None and (isinstance(for_round, bool) or not isinstance(for_round, int)):
        raise FormatError(N_("“round” must be the number of the round being entered, e.g. 5."))
    stored = db.execute("select count(*) from rounds where series_id = ?", [series.id]).fetchone()[0]
    expected = len(series.entries) + 1 if for_round is None else for_round
    if stored + 1 != expected or stored != len(series.entries):
        raise RoundSaved(N_("Round %(n)s was saved meanwhile, so this hand was not kept. Send it again for "
                            "round %(next)s if it belongs there."), n=expected, next=stored + 1)


def put_hand(db: sqlite_utils.Database, series: Series, player: str, cards: Any, by: str,
             for_round: Any = None) -> DraftHand:
    """Store the player's hand for the round being entered (`for_round`, when the sender says which);
    a card in another player's hand is refused."""
    _check_open(series, player)
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise FormatError(N_('“cards” must be a list of cards, e.g. ["10♣", "J♦"].'))
    options = series.setup.options
    parsed: list[Card] = []
    for text in cards:
        card = parse_card(text, options.deck)
        if card in parsed:
            raise RuleError(N_("%(card)s is twice in the hand; a deck has one of each card."), card=str(card))
        parsed.append(card)
    if len(parsed) > max_hand(options):
        raise RuleError(N_("A hand holds at most %(most)s cards with a %(deck)s-card deck."),
                        most=max_hand(options), deck=options.deck)
    with storage.writing(db):  # read the other hands and write this one with no other writer in between
        _check_round(db, series, for_round)
        used = draft(db, series).used()
        for card in parsed:
            holder = used.get(card.code)
            if holder is not None and holder != player:
                raise RoundError(N_("%(card)s is already in the hand of %(holder)s. Untick it there first, "
                                    "or check which of you holds it."), card=str(card), holder=holder,
                                 field=f"player:{player}")
        db.execute("insert into drafts (series_id, player, cards, by, at) values (?, ?, ?, ?, ?) "
                   "on conflict (series_id, player) do update set cards = excluded.cards, by = excluded.by, "
                   "at = excluded.at",
                   [series.id, player, json.dumps([str(c) for c in parsed], ensure_ascii=False), by, storage.now()])
    return DraftHand(player, tuple(parsed), score_hand(parsed, options).points, by)


def drop_hand(db: sqlite_utils.Database, series: Series, player: str, for_round: Any = None) -> None:
    _check_open(series, player)
    with storage.writing(db):
        _check_round(db, series, for_round)
        db.execute("delete from drafts where series_id = ? and player = ?", [series.id, player])


def round_from_draft(db: sqlite_utils.Database, series: Series, data: dict[str, Any]) -> dict[str, Any]:
    """The round body with `"hands": "draft"` replaced by the draft's hands (the winner's left out).

    A player in play without a hand is then refused by the rules core, naming them; nothing is stored."""
    winner = data.get("winner")
    with contextlib.suppress(UnknownPlayer):  # the core names an unknown winner
        winner = find_player(series, winner) if isinstance(winner, str) and winner else winner
    hands = {p: [str(c) for c in h.cards] for p, h in draft(db, series).hands.items()
             if p != winner and p not in (data.get("typed_points") or {})}
    return {**data, "hands": hands}


# -- confirmations -------------------------------------------------------------------------------------


def confirm(db: sqlite_utils.Database, series: Series, player: str, n: int, agree: Any, note: Any) -> Series:
    """The player agrees with round n as scored, or disputes it (with a note); the last word counts."""
    if not isinstance(agree, bool):
        raise FormatError(N_('Send {"agree": true}, or {"agree": false, "note": "…"} to dispute the round.'))
    if note is None:
        note = ""
    if not isinstance(note, str):
        raise FormatError(N_("“note” must be text."))
    note = " ".join(note.split())[:MAX_NOTE]
    if player not in series.standings.rounds[n - 1].points:
        raise RoundError(N_("%(player)s did not play round %(n)s, so there is nothing to confirm."),
                         player=player, n=n)
    with storage.writing(db):
        db.execute("insert into confirmations (series_id, n, player, agree, note, round_data, at) "
                   "values (?, ?, ?, ?, ?, ?, ?) on conflict (series_id, n, player) do update set "
                   "agree = excluded.agree, note = excluded.note, round_data = excluded.round_data, at = excluded.at",
                   [series.id, n, player, int(agree), "" if agree else note,
                    storage.dumps(series.row.rounds[n - 1]), storage.now()])
        db.execute("update series set marks = marks + 1 where id = ?", [series.id])
    fresh = series_service.load(db, series.id)
    assert fresh is not None
    return fresh
